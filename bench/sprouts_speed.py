"""Sprouts ``Game.play`` CPU per move, this tree against a base tree, in one run:
``python -m bench.sprouts_speed --base /work/wt/base``.

Plays the same seeded random games (seeds 0..games-1, a random legal move each ply) for each
n in both trees, each in a fresh process (``--worker``), the two trees alternating game by
game so that the load of a shared machine falls on both alike, and prints the CPU time per
``play()`` (``time.process_time``: the bot's cost, not the wall clock) as p50/p90/p99/max,
and the ratio of this tree's figures to the base tree's. The targets of issue #13 for a tap
(p50 <= 15 ms, p99 <= 40 ms) are printed for reference. A move the tree could not draw
(RoutingError) is counted and ends that game. The CPU time of the tidy step alone
(``engine.sprouts.paper.tidy``, timed inside those moves) is printed per call below each tree's
line, and so is the router's (``engine.sprouts.paper.route_mesh``: one call per attempt, a
move whose curve does not fit tries again on enlarged paper), and the router's again less the
CPU of Python's garbage collector inside each call ("r-gc": a full collection takes 35-170 ms
on a 12-spot game, a few times a game, and lands in whatever runs then: inside a route it
alone decides the router's p99 over a few hundred calls). Each process first plays one
move of a 2-spot game, untimed per move: a process's first move also loads (or the first
time compiles) the compiled kernels of the tidy step, which is printed apart as "first".

The games need not be move-for-move the same in both trees once their drawings differ (a
move's region numbers follow the drawing), but they come from the same seeds and sizes.

``--pictures`` times the Sprouts picture instead: ``python -m bench.sprouts_speed --base
/work/wt/base --pictures [--out DIR]``. Each tree plays the same seeded random games and
draws, after every move, the board "cold" (the smoothed curves and the inked paper not yet
cached: what the first picture after a move costs) and a preview of a candidate move (cold
too), timing the CPU of ``render.board_png`` alone (the previewed move is played on a copy
before the clock starts: that part is the engine's); with ``--repeat k`` each picture is drawn
k times, cold each time, and the least is kept (steadier on a shared machine). The same
positions come to both trees when their engines are the same (the picture does not feed
back into the game), so the pictures are compared too: the largest and the mean per-pixel
difference (RGB, 0..255), how many pictures and pixels differ, and the same over the
frames of each game's replay; and whether the smoothed curves
(``render.sprouts.smooth_curves``) are bit-identical. With ``--out`` the PNGs of both trees
are written there (``this/`` and ``base/``) to look at.

``--first-move`` times what a new game's first move costs against the moves after it, in
fresh processes of both trees, alternating: ``python -m bench.sprouts_speed --base
/work/wt/base --first-move``. Each process starts one of the bot's parts as the bot does
(``route``: a route pool of one worker; ``ai``: an AI pool of one; ``bot``: the bot
process's ``warm_engines``), then plays a seeded random 3-spot game and times the CPU of
each route (the route worker's ``route`` job), each AI move (the AI worker's ``think`` job
at hard) or each board picture with a preview (the bot process draws them; the moves are
routed beforehand, untimed). A worker's CPU per job is read from ``/proc``. Printed: the
first against the median of the rest, per role and tree.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # only then: the workers run this file on an older tree too (--base)
    from render.view import View

HERE = Path(__file__).resolve().parent.parent


def worker(n: int, seed: int) -> dict[str, object]:
    """One random game in this process (the tree is whatever ``engine`` imports)."""
    import gc
    import random
    import time

    from engine.sprouts import Game, paper
    from engine.sprouts.routing import RoutingError

    tidy_times: list[float] = []
    route_times: list[float] = []
    route_gc: list[float] = []  # the CPU of Python's garbage collector inside each route
    collecting = [0.0, 0.0]  # (when the running collection started, all collections so far)

    def on_gc(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            collecting[0] = time.process_time()
        else:
            collecting[1] += time.process_time() - collecting[0]

    gc.callbacks.append(on_gc)

    def timed(
        f: Callable[..., Any], into: list[float], gc_into: list[float] | None = None
    ) -> Callable[..., Any]:
        def run(*args: object, **kwargs: object) -> object:
            t, spent = time.process_time(), collecting[1]
            try:
                return f(*args, **kwargs)
            finally:
                into.append(time.process_time() - t)
                if gc_into is not None:
                    gc_into.append(collecting[1] - spent)

        return run

    # timing wrappers put in place of the module's functions for this run
    paper.tidy = timed(paper.tidy, tidy_times)  # type: ignore[assignment]
    paper.route_mesh = timed(paper.route_mesh, route_times, route_gc)  # type: ignore[assignment]
    t = time.process_time()
    first = Game(2)
    first.play(first.legal_moves()[0])
    warm = time.process_time() - t
    tidy_times.clear()
    route_times.clear()
    route_gc.clear()
    rng = random.Random(seed)
    g = Game(n)
    times: list[float] = []
    failed = 0
    while not g.over:
        m = rng.choice(g.legal_moves())
        t = time.process_time()
        try:
            g.play(m)
        except RoutingError:
            failed = 1
            times.append(time.process_time() - t)
            break
        times.append(time.process_time() - t)
    return {
        "times": times,
        "tidy": tidy_times,
        "route": route_times,
        "route_gc": route_gc,
        "first": [warm],
        "failed": failed,
    }


VIEW: View = {"lang": "ru", "players": ["Алиса", "Борис"]}


def picture_worker(n: int, seed: int, out: str, repeat: int = 1) -> dict[str, object]:
    """One random game in this process, its pictures timed cold after every move."""
    import base64
    import hashlib
    import io
    import random
    import time

    from PIL import GifImagePlugin, Image

    import engine
    import render
    from render import sprouts as rs

    warm = engine.new("sprouts", spots=2)
    t = time.process_time()
    render.board_png(warm, VIEW)  # loads the picture's kernels and fonts, fills the sprites
    warm.play(warm.legal_moves()[0])
    render.board_png(warm, {**VIEW, "preview": warm.legal_moves()[0]})
    first = time.process_time() - t
    rng = random.Random(seed)
    g = engine.new("sprouts", spots=n)
    board: list[float] = []
    preview: list[float] = []
    pngs: dict[str, bytes] = {}

    def cold(view: View) -> float:
        rs._smoothed.cache_clear()
        rs._inked.clear()
        # The previewed move is played on a copy beforehand: that is the engine's time.
        trial = rs._preview(g, view.get("preview"))
        shown = rs._preview
        rs._preview = lambda game, move: trial  # type: ignore[assignment]  # preplayed, untimed
        try:
            spent = float("inf")
            for _ in range(repeat):  # the least of a few: less of the machine's noise
                rs._smoothed.cache_clear()
                rs._inked.clear()
                t = time.process_time()
                data = render.board_png(g, view)
                spent = min(spent, time.process_time() - t)
        finally:
            rs._preview = shown  # type: ignore[assignment]
        pngs[f"n{n:02d}-s{seed}-p{g.ply:03d}-{'preview' if 'preview' in view else 'board'}"] = data
        return spent

    smooth: dict[str, str] = {}
    while not g.over:
        g.play(rng.choice(g.legal_moves()))
        board.append(cold(VIEW))
        lay, fit = rs.layout(g, VIEW)
        curves = rs.smooth_curves(g.drawing, rs.Room.of(lay, fit.k))
        smooth[f"n{n:02d}-s{seed}-p{g.ply:03d}"] = hashlib.sha1(
            b"".join(c.tobytes() for c in curves)
        ).hexdigest()
        if not g.over:
            legal = g.legal_moves()
            preview.append(cold({**VIEW, "preview": legal[rng.randrange(len(legal))]}))
    gif = Image.open(io.BytesIO(render.replay(g, view=VIEW)))
    assert isinstance(gif, GifImagePlugin.GifImageFile)
    for k in range(gif.n_frames):
        gif.seek(k)
        buf = io.BytesIO()
        gif.convert("RGB").save(buf, "PNG", compress_level=1)
        pngs[f"n{n:02d}-s{seed}-replay{k:03d}"] = buf.getvalue()
    if out:
        for name, data in pngs.items():
            (Path(out) / f"{name}.png").write_bytes(data)
    return {
        "board": board,
        "preview": preview,
        "first": [first],
        "smooth": smooth,
        "pngs": {k: base64.b64encode(v).decode() for k, v in pngs.items()},
    }


FIRST_ROLES = ("route", "ai", "bot")


def _cpu_of(pid: int) -> float:
    """The CPU seconds process ``pid``'s main thread has run (``/proc``: nanoseconds)."""
    return int(Path(f"/proc/{pid}/schedstat").read_text().split()[0]) / 1e9


def first_move_worker(role: str, seed: int) -> dict[str, object]:
    """A fresh start of the bot's ``role`` part, then the CPU of its first job and of the
    later ones along one seeded random 3-spot game (see ``--first-move``)."""
    import random
    import time

    from bot.warmup import settle
    from engine.sprouts import Game

    pool: Any = None
    if role == "route":
        from bot.telegram.route_pool import RoutePool, route

        pool = RoutePool(1)
    elif role == "ai":
        from bot.telegram.ai_pool import AIPool, think

        pool = AIPool(1)
    else:
        import render
        from bot.warmup import warm_engines

        warm_engines()
        settle()  # as the bot process ends its start-up
    if pool is not None:
        assert pool.wait_warm(300), "the worker did not start"
        (pid,) = pool.processes()
    rng = random.Random(seed)
    g = Game(3)
    times: list[float] = []
    try:
        while not g.over:
            m = rng.choice(g.legal_moves())
            if role == "bot":
                g.copy().play(m)  # routed (a worker's part), untimed: the preview finds it
                t = time.process_time()
                render.board_png(g, {**VIEW, "preview": m})
                times.append(time.process_time() - t)
            else:
                # the worker's CPU for the job, as the bot process asks for it
                t = _cpu_of(pid)
                if role == "route":
                    pool.call(route, g.drawing.to_json(), m.to_json())
                else:
                    pool.call(think, g.to_json(), "hard", g.ply)
                times.append(_cpu_of(pid) - t)
            g.play(m)
    finally:
        if pool is not None:
            pool.close()
    return {"times": times}


def first_move(args: argparse.Namespace) -> None:
    """``--first-move``: the first job of a fresh process against the later ones."""
    import statistics

    trees = [("this", HERE)] + ([("base", args.base.resolve())] if args.base else [])
    print("A new 3-spot game's first move against its later ones, fresh processes (CPU, ms):")
    for role in FIRST_ROLES:
        first: dict[str, list[float]] = {k: [] for k, _ in trees}
        later: dict[str, list[float]] = {k: [] for k, _ in trees}
        for seed in range(args.games):
            for label, tree in trees if seed % 2 == 0 else trees[::-1]:
                got = _run(tree, 0, seed, "--first-move-worker", role)["times"]
                first[label].append(got[0])
                later[label] += got[1:]
        for label, _ in trees:
            f, rest = statistics.median(first[label]), statistics.median(later[label])
            print(
                f"  {role:5s} {label:4s} first {1000 * f:6.1f} (median of {len(first[label])}"
                f" processes, max {1000 * max(first[label]):6.1f})  later median"
                f" {1000 * rest:6.1f}  first/later {f / max(rest, 1e-9):5.2f}"
            )


def _compare(a: dict[str, str], b: dict[str, str]) -> dict[str, float]:
    """Per-pixel differences of the same pictures from two trees (RGB channels, 0..255)."""
    import base64
    import io

    import numpy as np
    from PIL import Image

    def rgb(data: str) -> np.ndarray:
        img = Image.open(io.BytesIO(base64.b64decode(data))).convert("RGB")
        return np.asarray(img, dtype=np.int16)

    got = {"pictures": 0, "differ": 0, "pixels": 0, "changed": 0, "max": 0.0, "sum": 0.0}
    for name in sorted(set(a) & set(b)):
        x, y = rgb(a[name]), rgb(b[name])
        got["pictures"] += 1
        if x.shape != y.shape:
            got["differ"] += 1
            got["max"] = 255.0
            continue
        d = np.abs(x - y)
        got["pixels"] += d.shape[0] * d.shape[1]
        got["changed"] += int(np.count_nonzero(d.max(axis=2)))
        got["sum"] += float(d.sum()) / 3
        got["max"] = max(got["max"], float(d.max()))
        got["differ"] += bool(d.any())
    return got


def pictures(args: argparse.Namespace) -> None:
    trees = [("this", HERE)] + ([("base", args.base.resolve())] if args.base else [])
    out = args.out.resolve() if args.out else None
    times: dict[str, dict[str, list[float]]] = {
        k: {"board": [], "preview": [], "first": []} for k, _ in trees
    }
    pngs: dict[str, dict[str, str]] = {k: {} for k, _ in trees}
    smooth: dict[str, dict[str, str]] = {k: {} for k, _ in trees}
    for n in [int(s) for s in args.spots.split(",")]:
        for seed in range(args.games):
            order = trees if (n + seed) % 2 == 0 else trees[::-1]
            for label, tree in order:
                where = ""
                if out:
                    (out / label).mkdir(parents=True, exist_ok=True)
                    where = str(out / label)
                got = _run(tree, n, seed, "--picture-worker", where, str(args.repeat))
                for what in ("board", "preview", "first"):
                    times[label][what] += got[what]
                pngs[label].update(got["pngs"])
                smooth[label].update(got["smooth"])
    print(
        f"Sprouts picture CPU, cold (n = {args.spots}, {args.games} games each; "
        "targets per tap incl. the picture: p50 <= 15 ms, p99 <= 40 ms):"
    )
    for what, note in (
        ("board", "the board after a move"),
        ("preview", "a candidate move previewed"),
        ("first", "a process's first two pictures"),
    ):
        for label, _ in trees:
            print(_line(label, times[label][what], f"{note}, {len(times[label][what])} pictures"))
        if args.base and what != "first":
            ratio = "  ".join(
                f"{k} {_q(times['this'][what], q) / max(_q(times['base'][what], q), 1e-9):5.2f}"
                for k, q in QS
            )
            print(f"    this/base {what}  {ratio}")
    if args.base:
        both = set(smooth["this"]) & set(smooth["base"])
        same = sum(smooth["this"][k] == smooth["base"][k] for k in both)
        print(f"  smoothed curves, this vs base: bit-identical in {same} of {len(both)} positions")
        for kind, pick in (
            ("boards and previews", lambda k: "replay" not in k),
            ("replay frames", lambda k: "replay" in k),
        ):
            a = {k: v for k, v in pngs["this"].items() if pick(k)}
            b = {k: v for k, v in pngs["base"].items() if pick(k)}
            d = _compare(a, b)
            print(
                f"  pixels, this vs base, {kind}: {d['pictures']} pictures, {d['differ']} differ;"
                f" {d['changed']} of {d['pixels']} pixels changed"
                f" ({100 * d['changed'] / max(d['pixels'], 1):.4f}%); max diff {d['max']:.0f},"
                f" mean diff {d['sum'] / max(d['pixels'], 1):.5f} (per channel, 0..255)"
            )


def _run(tree: Path, n: int, seed: int, mode: str = "--worker", *more: str) -> dict[str, Any]:
    """A worker's JSON answer (its shape is the worker's return value)."""
    env = dict(os.environ, PYTHONPATH=str(tree), PYTHONDONTWRITEBYTECODE="1")
    out = subprocess.run(
        [sys.executable, __file__, mode, str(n), str(seed), *more],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def _q(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


QS = (("p50", 0.5), ("p90", 0.9), ("p99", 0.99), ("max", 1.0))


def _line(label: str, times: list[float], note: str) -> str:
    parts = "  ".join(f"{k} {1000 * _q(times, q):6.1f}" for k, q in QS)
    return f"    {label:5s} {parts} ms  ({note})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--base", type=Path, help="a checkout to compare against (e.g. main)")
    ap.add_argument("--spots", default="8,10,11,12")
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--pictures", action="store_true", help="time and compare the pictures")
    ap.add_argument("--out", type=Path, help="with --pictures: write the PNGs here")
    ap.add_argument("--worker", nargs=2, type=int, help=argparse.SUPPRESS)
    ap.add_argument("--repeat", type=int, default=1, help="with --pictures: draw each k times")
    ap.add_argument("--picture-worker", nargs=4, help=argparse.SUPPRESS)
    ap.add_argument("--first-move", action="store_true", help="a fresh process's first move")
    ap.add_argument("--first-move-worker", nargs=3, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.first_move_worker:
        _, seed, role = args.first_move_worker
        print(json.dumps(first_move_worker(role, int(seed))))
        return
    if args.first_move:
        first_move(args)
        return
    if args.worker:
        print(json.dumps(worker(*args.worker)))
        return
    if args.picture_worker:
        n, seed, out, repeat = args.picture_worker
        print(json.dumps(picture_worker(int(n), int(seed), out, int(repeat))))
        return
    if args.pictures:
        pictures(args)
        return
    trees = [("this", HERE)] + ([("base", args.base.resolve())] if args.base else [])
    print("Sprouts play() CPU per move (targets per tap: p50 <= 15 ms, p99 <= 40 ms):")
    for n in [int(s) for s in args.spots.split(",")]:
        times: dict[str, list[float]] = {k: [] for k, _ in trees}
        tidy: dict[str, list[float]] = {k: [] for k, _ in trees}
        route: dict[str, list[float]] = {k: [] for k, _ in trees}
        bare: dict[str, list[float]] = {k: [] for k, _ in trees}  # route less its GC
        first: dict[str, list[float]] = {k: [] for k, _ in trees}
        fails = dict.fromkeys(times, 0)
        for seed in range(args.games):
            order = trees if seed % 2 == 0 else trees[::-1]
            for label, tree in order:
                got = _run(tree, n, seed)
                times[label] += got["times"]
                tidy[label] += got["tidy"]
                route[label] += got["route"]
                spent = zip(got["route"], got["route_gc"], strict=True)
                bare[label] += [r - c for r, c in spent]
                first[label] += got["first"]
                fails[label] += got["failed"]
        print(f"  n={n}:")
        for label, _ in trees:
            note = f"moves {len(times[label])}, RoutingError {fails[label]}"
            print(_line(label, times[label], note))
            print(_line("tidy", tidy[label], f"calls {len(tidy[label])}"))
            print(_line("route", route[label], f"calls {len(route[label])}"))
            print(_line("r-gc", bare[label], "the same less the garbage collector's CPU in them"))
            print(_line("first", first[label], "a process's first move, of 2 spots"))
        if args.base:
            for what, got in (("play", times), ("tidy", tidy), ("route", route), ("r-gc", bare)):
                ratio = "  ".join(
                    f"{k} {_q(got['this'], q) / max(_q(got['base'], q), 1e-9):5.2f}" for k, q in QS
                )
                print(f"    this/base {what}  {ratio}")


if __name__ == "__main__":
    main()
