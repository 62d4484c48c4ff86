"""Sprouts on paper: ``python -m bench.sprouts_paper``.

Prints, per number of spots, the time ``Game.play`` takes per move (routing, the exact
check, the next move table) along random games (p50/p99/max against the targets: p99 at
most 0.3 s, max at most 1 s, and no RoutingError: every legal move must be drawable), how
often the paper had to be enlarged;
the AI's time per move for each level; and the time ``render.board_png`` needs for a
12-spot game late in play (target: at most 30 ms). Each part has a time budget; a part that
runs out says so. Timings on a shared 2-core machine are noisy: run it twice.

``--layout`` instead plays the same random games with the tidy step off (the drawing as
routed: the baseline) and on, and prints play() p50/p99/max per n with what the picture shows
after every move at the default size (1280 px): the distance between a curve and a spot it
does not end at minus the disc's radius (the clearance: below 0 the curve runs under the
disc), between curves, between spot centres, and how far the paper grew. ``--layout-ab``
compares the tidy step's soft targets before the disc push (:data:`BEFORE`) and now, the two
runs of each n back to back (timings on a shared machine are noisy: compare within a run).
``--paper-ab`` compares how a 400 px picture uses the paper with the tidy's fit unstretched
(:data:`UNSTRETCHED`) and now: the narrowest gaps and the bounding box's share of the paper.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
from scipy.spatial import cKDTree

from engine.sprouts import Game, paper, tidy
from engine.sprouts import game as game_mod
from engine.sprouts.ai import LEVELS, choose_move
from engine.sprouts.drawing import WIDTH
from engine.sprouts.routing import RoutingError

TARGET_P99 = 0.3  # seconds: play() along random games, every n in 2..12, on a 2-core machine
TARGET_MAX = 1.0
Q_TIMES: dict[int, dict[str, float]] = {}  # per n: p50, p99, max, failures (for bench/__main__)


def _q(xs: list[float], q: float) -> float:
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def _fmt(xs: list[float]) -> str:
    if not xs:
        return "no data"
    xs = sorted(xs)
    return (
        f"mean {1000 * statistics.fmean(xs):7.1f} ms  median {1000 * statistics.median(xs):7.1f}"
        f"  p90 {1000 * _q(xs, 0.9):7.1f}  p99 {1000 * _q(xs, 0.99):7.1f}"
        f"  max {1000 * xs[-1]:7.1f}  (n={len(xs)})"
    )


def play_speed(spots: list[int], games: int, budget: float) -> dict[int, Game]:
    """Random games per n (seeds 0, 1, ...): play() time per move and every RoutingError
    (a legal move the engine could not draw; that game stops there). Returns one game per n
    for later parts."""
    kept: dict[int, Game] = {}
    print(
        f"play() per move along random games (targets: p99 <= {1000 * TARGET_P99:.0f} ms,"
        f" max <= {1000 * TARGET_MAX:.0f} ms, no RoutingError):"
    )
    for n in spots:
        times: list[float] = []
        enlarged = finished = played = 0
        failures: list[str] = []
        start = time.monotonic()
        for seed in range(games):
            if time.monotonic() - start >= budget:
                break
            rng = random.Random(seed)
            g = Game(n)
            while not g.over and time.monotonic() - start < budget:
                m = rng.choice(g.legal_moves())
                t = time.perf_counter()
                try:
                    g.play(m)
                except RoutingError:
                    times.append(time.perf_counter() - t)
                    failures.append(f"seed {seed} ply {g.ply} {g.format_move(m)}")
                    break
                times.append(time.perf_counter() - t)
            played += 1
            finished += g.over
            enlarged += g.drawing.width > WIDTH
            kept.setdefault(n, g)
        note = "" if time.monotonic() - start < budget else "  [budget ran out]"
        xs = sorted(times)
        ok = bool(xs) and _q(xs, 0.99) <= TARGET_P99 and xs[-1] <= TARGET_MAX and not failures
        print(
            f"  n={n:2d}: {_fmt(times)}  games {played} (finished {finished}, enlarged"
            f" {enlarged}), RoutingError {len(failures)}  {'ok' if ok else 'MISSED'}{note}"
        )
        for f in failures[:5]:
            print(f"        could not draw: {f}")
        if xs:
            Q_TIMES[n] = {
                "p50": _q(xs, 0.5),
                "p99": _q(xs, 0.99),
                "max": xs[-1],
                "failures": float(len(failures)),
            }
    return kept


def readability(g: Game, size: int | None = None) -> dict[str, float]:
    """What the picture at ``size`` px wide (None: the default) shows (pixels; a spot disc
    has radius ``r``): the least distance between two spot centres, between two curves (away
    from the spots they share: within 1.6 r of a common end spot curves must meet), between
    a curve and a spot it does not end at, the paper's width against its first width, and
    the share of the paper's area the drawing's bounding box covers."""
    from render.sprouts import layout

    lay, fit = layout(g, {} if size is None else {"size": size})
    k, r = fit.k, lay.spot_radius
    d = g.drawing
    spots = np.asarray([(s.x, s.y) for s in d.spots])
    every = np.concatenate([spots, *d.arrays]) if d.curves else spots
    box = np.ptp(every, axis=0)
    out = {"extent": d.width / WIDTH, "spot": np.inf, "curve": np.inf, "clear": np.inf}
    out["box"] = float(box[0] * box[1]) / (d.width * d.height)
    if len(spots) > 1:
        dd = np.hypot(*(spots[:, None] - spots[None]).transpose(2, 0, 1))
        np.fill_diagonal(dd, np.inf)
        out["spot"] = float(dd.min()) * k
    if not d.curves:
        return out
    step = 1.0 / k  # one pixel
    pts, owner = [], []
    for e, a in enumerate(d.arrays):
        seg = np.hypot(*np.diff(a, axis=0).T)
        arc = np.concatenate([[0.0], np.cumsum(seg)])
        at = np.arange(0.0, arc[-1], step)
        pts.append(np.stack([np.interp(at, arc, a[:, 0]), np.interp(at, arc, a[:, 1])], 1))
        owner.append(np.full(len(at), e))
    P, own = np.concatenate(pts), np.concatenate(owner)
    ends = np.asarray([(c.a - 1, c.b - 1) for c in d.curves])
    near_spot = cKDTree(spots).query(P)[0]
    tree = cKDTree(P)
    free = near_spot * k > 1.6 * r
    i, j = tree.query_pairs(60.0 / k, output_type="ndarray").T
    ok = (own[i] != own[j]) & free[i] & free[j]
    if ok.any():
        out["curve"] = float(np.hypot(*(P[i[ok]] - P[j[ok]]).T).min()) * k
    for s, near in enumerate(tree.query_ball_point(spots, 3 * r / k)):
        near = np.asarray(near, dtype=np.int64)
        near = near[~(ends[own[near]] == s).any(axis=1)]
        if len(near):
            gap = float(np.hypot(*(P[near] - spots[s]).T).min()) * k - r
            out["clear"] = min(out["clear"], gap)
    return out


# The tidy step's soft targets before curves were pushed out of foreign spots' discs (and
# spots kept off the paper's edge, curves kept further apart): ``--layout-ab`` compares them
# with the current ones in one run.
BEFORE = {"SPOT_WALL": 0.0, "DISC_ROOM": 0.0, "DISCS_ROOM": 0.0, "CURVE_ROOM": 14.0, "PULL": 0.3}


@contextmanager
def tidy_settings(values: dict[str, Any]) -> Iterator[None]:
    """The tidy step (``TIDY``) or its targets set to ``values`` for a while; the routing
    cache is emptied so that no drawing routed under other settings is reused."""
    where = {k: paper if k == "TIDY" else tidy for k in values}
    old = {k: getattr(where[k], k) for k in values}
    for k, v in values.items():
        setattr(where[k], k, v)
    game_mod._routed.clear()
    try:
        yield
    finally:
        for k, v in old.items():
            setattr(where[k], k, v)
        game_mod._routed.clear()


def _spread(xs: list[float], f: str = "5.1f") -> str:
    a = np.asarray([x for x in xs if np.isfinite(x)])
    if not len(a):
        return "no data"
    return f"min {a.min():{f}} p10 {np.percentile(a, 10):{f}} median {np.median(a):{f}}"


def layout_quality(n: int, games: int, label: str, values: dict[str, Any]) -> None:
    """play() time and readability after every move of random games (seeds 0, 1, ...)
    under ``values`` (see :func:`tidy_settings`): the curve-to-foreign-disc clearance and the
    curve-to-curve gap over all moves (least, 10th percentile, median; the share of moves
    whose clearance is at least 0 and 3 px) and the median of each game's last picture."""
    times: list[float] = []
    after: list[dict[str, float]] = []
    last: list[dict[str, float]] = []
    fails = 0
    tidy_failed = len(paper.TIDY_FAILURES)
    with tidy_settings(values):
        for seed in range(games):
            rng = random.Random(seed)
            g = Game(n)
            while not g.over:
                m = rng.choice(g.legal_moves())
                t = time.perf_counter()
                try:
                    g.play(m)
                except RoutingError:
                    fails += 1
                    break
                times.append(time.perf_counter() - t)
                after.append(readability(g))
            last.append(readability(g))
    xs = sorted(times)
    clear = [q["clear"] for q in after]
    ok0 = statistics.fmean(c >= 0 for c in clear)
    ok3 = statistics.fmean(c >= 3 for c in clear)
    med = {k: statistics.median(q[k] for q in last) for k in ("spot", "curve", "clear", "extent")}
    print(
        f"  n={n:2d} {label:6s} play p50 {1000 * _q(xs, 0.5):4.0f} ms"
        f" p99 {1000 * _q(xs, 0.99):4.0f} max {1000 * xs[-1]:5.0f}"
        f" | curve-disc clear {_spread(clear)}, >=0 {ok0:4.0%}"
        f" >=3 {ok3:4.0%} | curves apart {_spread([q['curve'] for q in after])}"
        f" | spots apart min {min(q['spot'] for q in after):5.1f}"
        f" | paper max x{max(q['extent'] for q in after):.1f}"
        f" | last picture median: clear {med['clear']:5.1f}, curves {med['curve']:4.1f},"
        f" spots {med['spot']:5.1f}, paper x{med['extent']:.1f}"
        f" | RoutingError {fails}, tidy failed {len(paper.TIDY_FAILURES) - tidy_failed}"
    )


# The tidy before a drawing was stretched towards the paper's aspect and before a drawing of few
# spots kept its curves further apart (:func:`engine.sprouts.tidy.roomy`): ``--paper-ab``.
UNSTRETCHED: dict[str, Any] = {"STRETCH": 1.0, "ROOMY_MAX": 1.0}


def paper_use(n: int, games: int, label: str, values: dict[str, Any], size: int) -> None:
    """How a picture ``size`` px wide uses the paper after every move of random games
    (seeds 0, 1, ...) under ``values`` (:func:`tidy_settings`): the narrowest gap between curves
    and between spot centres (least, 10th percentile, median over the moves, px) and the
    share of the paper the drawing's bounding box covers."""
    after: list[dict[str, float]] = []
    tidy_failed = len(paper.TIDY_FAILURES)
    with tidy_settings(values):
        for seed in range(games):
            rng = random.Random(seed)
            g = Game(n)
            while not g.over:
                g.play(rng.choice(g.legal_moves()))
                after.append(readability(g, size))
    print(
        f"  n={n:2d} {label:6s} curves apart {_spread([q['curve'] for q in after])}"
        f" | spots apart {_spread([q['spot'] for q in after])}"
        f" | box/paper {_spread([q['box'] for q in after], '4.2f')}"
        f" | tidy failed {len(paper.TIDY_FAILURES) - tidy_failed}"
    )


def ai_speed(spots: list[int], budget: float) -> None:
    print("choose_move per move (levels with their default time limits), random games:")
    for n, misere in [(n, False) for n in spots] + [(5, True)]:
        for level in LEVELS:
            times: list[float] = []
            start = time.monotonic()
            g = Game(n, misere=misere)
            rng = random.Random(n)
            while not g.over and time.monotonic() - start < budget:
                g.legal_moves()  # the table is shared with the keyboard; not the AI's cost
                t = time.perf_counter()
                m = choose_move(g, level, seed=g.ply)
                times.append(time.perf_counter() - t)
                g.play(m if rng.random() < 0.5 else rng.choice(g.legal_moves()))
            tag = " misère" if misere else ""
            print(f"  n={n:2d}{tag:7s} {level:6s}: {_fmt(times)}")


def render_speed(repeats: int) -> None:
    import render

    rng = random.Random(1)
    g = Game(12)
    while not g.over and g.ply < 22:
        g.play(rng.choice(g.legal_moves()))
    render.board_png(g, {})  # warm the caches (paper, sprites)
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        render.board_png(g, {})
        times.append(time.perf_counter() - t)
    print(f"render.board_png, 12 spots after {g.ply} moves: {_fmt(times)}  (target <= 30 ms)")
    preview = g.legal_moves()[0]
    times = []
    for _ in range(max(1, repeats // 4)):
        t = time.perf_counter()
        render.board_png(g, {"preview": preview})
        times.append(time.perf_counter() - t)
    print(f"  with a preview (plays the move on a copy): {_fmt(times)}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--spots", default="2,3,4,5,6,7,8,9,10,11,12")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--budget", type=float, default=60.0, help="seconds per part and n")
    ap.add_argument("--repeats", type=int, default=20)
    ap.add_argument("--skip-ai", action="store_true")
    ap.add_argument("--layout", action="store_true", help="readability, tidy step off and on")
    ap.add_argument(
        "--layout-ab", action="store_true", help="readability, tidy's targets before and now"
    )
    ap.add_argument(
        "--paper-ab", action="store_true", help="use of the paper at 400 px, unstretched and now"
    )
    args = ap.parse_args()
    spots = [int(s) for s in args.spots.split(",")]
    if args.paper_ab:
        print("Gaps in a 400 px picture (px) and its box's share of the paper, after every move:")
        for n in spots:
            for label, values in [("before", UNSTRETCHED), ("now", {})]:
                paper_use(n, args.games, label, values, 400)
        return
    if args.layout or args.layout_ab:
        runs = (
            [("before", BEFORE), ("now", {})]
            if args.layout_ab
            else [("off", {"TIDY": False}), ("on", {})]
        )
        print(
            "play() per move and the picture after it (px at 1280: a spot's disc has radius"
            " 27 px, a curve's stroke is 6 px wide):"
        )
        for n in spots:
            for label, values in runs:
                layout_quality(n, args.games, label, values)
        return
    play_speed(spots, args.games, args.budget)
    if not args.skip_ai:
        ai_speed([n for n in spots if n <= 7], args.budget / 4)
    render_speed(args.repeats)


if __name__ == "__main__":
    main()
