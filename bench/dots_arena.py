"""Dots arena: AI levels against each other and against baselines, with win rates and each
level's think time per move (p50/p95/max).

Baselines: ``random`` (a uniformly random legal move), ``greedy`` (the biggest immediate
capture, else a random free point next to the last few dots) and ``classic-hard`` (the bot's
hard level before the tree search took it over). Each pairing plays the
same number of games with colours alternating; a game is played to the end (full board) and
the scores decide. ``--start zone``
is the tournament start (each first move in the central 8×15 zone). Run
``python -m bench.dots_arena --help`` for the options; at most ``--workers`` processes
(default 2) play at once. ``--keep DIR`` writes each game there as SGF
(:mod:`engine.dots.sgf`, players and settings in ``PB``/``PW``/``GC``), so a lost game can be
replayed and looked at.

The default is a short look (2 games per pairing, about 2 minutes); the issue's runs:
``--games 40 --size 20x20 --time 1 --pairs hard:classic-hard,expert:hard`` and
``--games 40 --size 38x31 --start zone --time 0.3 --pairs hard:classic-hard``. Expert
gets twice ``--time`` (at most 5 s), as it has twice hard's time by design.
"""

from __future__ import annotations

import argparse
import random
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench import quantiles
from engine.dots import Game, Move
from engine.dots.ai import (
    BENCH_LEVELS,
    EXPERT_FACTOR,
    EXPERT_MAX,
    LEVELS,
    SEARCH_LEVELS,
    choose_move,
)
from engine.dots.game import Start
from engine.dots.rings import EMPTY
from engine.dots.sgf import write_sgf

BASELINES = ("random", "greedy")


def random_move(game: Game, rng: random.Random) -> Move:
    moves = game.legal_moves()
    return moves[rng.randrange(len(moves))]


def greedy_move(game: Game, rng: random.Random) -> Move:
    """The biggest immediate capture, else a random free point next to the last dots."""
    b = game.board
    me = game.turn
    legal = game.legal_indices()
    best, at = 0, -1
    for i in legal:
        g = b.gain(i, me)
        if g > best:
            best, at = g, i
    if at < 0:
        near = set()
        for j in game.recent_indices(4):
            for d in b.dirs:
                q = j + d
                if b.dot[q] == EMPTY and b.area[q] == EMPTY and 0 <= b.xs[q] < game.width:
                    near.add(q)
        pool = sorted(near & set(legal)) or legal
        at = pool[rng.randrange(len(pool))]
    return Move(b.xs[at], b.ys[at])


@dataclass(frozen=True)
class Match:
    first: str
    second: str
    width: int
    height: int
    seed: int
    time_limit: float | None
    start: Start = "free"
    iterations: int | None = None  # the search levels' fixed playouts a move, instead of time
    reuse: bool = False  # the search levels keep their tree between moves (mcts-fresh never)
    # players that are hard with other search parameters: name -> {parameter: value}
    variants: dict[str, dict[str, Any]] = field(default_factory=dict)


Played = tuple[Match, tuple[int, int], float, int, list[list[float]], str]


def play(match: Match) -> Played:
    """One game to the end; (match, final scores, seconds, plies, each side's think times,
    the game as SGF)."""
    rng = random.Random(match.seed)
    g = Game(match.width, match.height, start=match.start)
    players = (match.first, match.second)
    thinks: list[list[float]] = [[], []]
    t0 = time.perf_counter()
    while not g.over:
        who = players[g.turn]
        side = g.turn
        t = time.perf_counter()
        if who == "random":
            m = random_move(g, rng)
        elif who == "greedy":
            m = greedy_move(g, rng)
        elif who in match.variants:
            m = _variant_move(g, match, who, rng)
        else:
            limit = match.time_limit
            if who == "expert" and limit is not None:
                limit = min(limit * EXPERT_FACTOR, EXPERT_MAX)  # expert thinks longer by design
            its = match.iterations if who in SEARCH_LEVELS else None
            if its is not None and who == "expert":
                its = int(its * EXPERT_FACTOR)
            m = choose_move(g, who, seed=rng.randrange(1 << 30), time_limit=limit,
                            iterations=its, reuse=match.reuse)  # fmt: skip
        thinks[side].append(time.perf_counter() - t)
        g.play(m)
    return match, g.scores, time.perf_counter() - t0, g.ply, thinks, _sgf(g, match)


def _sgf(g: Game, match: Match) -> str:
    how = f"{match.iterations} playouts" if match.iterations else f"{match.time_limit} s"
    comment = (f"bench.dots_arena seed {match.seed}, {how} a move, start {match.start}"
               + (", tree reuse" if match.reuse else ""))  # fmt: skip
    return write_sgf(g, players=(match.first, match.second), comment=comment)


def _keep(folder: Path, k: int, match: Match, scores: tuple[int, int], sgf: str) -> None:
    """The game's SGF as ``NNN-first-second-seedS-B-W.sgf`` (``NNN``: its place in this run,
    ``B-W`` the final scores)."""
    name = f"{k:03d}-{match.first}-{match.second}-seed{match.seed}-{scores[0]}-{scores[1]}.sgf"
    (folder / name).write_text(sgf, encoding="utf-8")


def _variant_move(g: Game, match: Match, who: str, rng: random.Random) -> Move:
    """hard with the variant's search parameters over the level's (``engine.dots.ai.SEARCH``,
    put back after the move)."""
    from engine.dots import ai

    kept = ai.SEARCH
    ai.SEARCH = {**kept, **match.variants[who]}
    try:
        return choose_move(g, "hard", seed=rng.randrange(1 << 30), time_limit=match.time_limit,
                           iterations=match.iterations, reuse=match.reuse)  # fmt: skip
    finally:
        ai.SEARCH = kept


def _number(text: str) -> int | float:
    """A parameter's value as the search reads it: whole numbers stay whole (depth, look)."""
    v = float(text)
    return int(v) if v.is_integer() else v


def _warm() -> None:
    """Each worker loads the compiled kernels first, as the bot's workers do at start-up, so
    no think time counts numba loading them."""
    from engine.dots.search import warm

    warm()


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", default="20x20", help="board WxH (default 20x20)")
    ap.add_argument("--games", type=int, default=2, help="games per pairing (default 2)")
    ap.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    ap.add_argument("--time", type=float, default=0.15, help="the levels' seconds per move")
    ap.add_argument(
        "--iterations",
        type=int,
        default=None,
        help="the search levels' playouts a move (fixed: less noise than --time)",
    )
    ap.add_argument(
        "--reuse", action="store_true", help="the search levels keep their tree between moves"
    )
    ap.add_argument(
        "--variant",
        action="append",
        default=[],
        help="NAME=param:value,... a player that is hard with those search parameters "
        "(engine.dots.search.params), e.g. guard=guard:1",
    )
    ap.add_argument(
        "--skip", type=int, default=0, help="start at game K of the series (a run that goes on)"
    )
    ap.add_argument("--progress", action="store_true", help="print each game as it ends")
    ap.add_argument("--keep", type=Path, metavar="DIR", help="write each game to DIR as SGF")
    ap.add_argument("--start", default="free", choices=("free", "zone"), help="first moves")
    ap.add_argument(
        "--pairs",
        default="hard:classic-hard,hard:greedy,medium:greedy,easy:random",
        help="comma-separated A:B pairings (the default, 2 games each: about 2 minutes)",
    )
    args = ap.parse_args(argv)
    w, h = (int(v) for v in args.size.lower().split("x"))
    pairs = [tuple(p.split(":")) for p in args.pairs.split(",")]
    variants: dict[str, dict[str, Any]] = {}
    for spec in args.variant:
        name, _, rest = spec.partition("=")
        variants[name] = {k: _number(v) for k, v in (kv.split(":") for kv in rest.split(","))}
    for a, b in pairs:
        for who in (a, b):
            if who not in LEVELS + BENCH_LEVELS + BASELINES + tuple(variants):
                raise SystemExit(f"unknown player {who!r}")
    matches = []
    for a, b in pairs:
        for k in range(args.skip, args.skip + args.games):
            first, second = (a, b) if k % 2 == 0 else (b, a)
            matches.append(Match(first, second, w, h, 1000 * k + 7, args.time, args.start,
                                 args.iterations, args.reuse, variants))  # fmt: skip
    print(
        f"Dots arena: {w}x{h} start {args.start}, {args.games} games per pairing, colours "
        f"alternating, time limit {args.time}s/move"
        + (f" (search levels: {args.iterations} playouts)" if args.iterations else "")
        + f", {args.workers} worker process(es)"
    )
    thinks: dict[str, list[float]] = {}
    results: dict[tuple[str, str], list[int]] = {p: [0, 0, 0] for p in pairs}  # type: ignore[misc]
    seconds: dict[tuple[str, str], float] = dict.fromkeys(pairs, 0.0)  # type: ignore[arg-type]
    margin: dict[tuple[str, str], int] = dict.fromkeys(pairs, 0)  # type: ignore[arg-type]
    if args.keep is not None:
        args.keep.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.workers, initializer=_warm) as pool:
        for k, (match, scores, secs, _plies, times, sgf) in enumerate(pool.map(play, matches)):
            if args.keep is not None:
                _keep(args.keep, k, match, scores, sgf)
            for side, who in enumerate((match.first, match.second)):
                thinks.setdefault(who, []).extend(times[side])
            key = next(p for p in pairs if {match.first, match.second} == set(p))
            a = key[0]
            a_idx = 0 if match.first == a else 1
            diff = scores[a_idx] - scores[1 - a_idx]
            results[key][0 if diff > 0 else 1 if diff == 0 else 2] += 1
            seconds[key] += secs
            margin[key] += diff
            if args.progress:
                print(f"  {match.first} (first) vs {match.second}: {scores[0]}-{scores[1]} "
                      f"in {_plies} plies, {secs:.0f} s", flush=True)  # fmt: skip
    for (a, b), (won, drawn, lost) in results.items():
        n = won + drawn + lost
        print(
            f"{a:>7} vs {b:<7} {won:3d}W {drawn:3d}D {lost:3d}L of {n:3d}  "
            f"win rate {100.0 * won / n:5.1f}%  mean margin {margin[(a, b)] / n:+6.1f} dots  "
            f"({seconds[(a, b)] / n:6.1f} s/game)"
        )
    for who, xs in sorted(thinks.items()):
        print(f"think time {who:>8}: {quantiles.line(xs)} over {len(xs)} moves")
    print(f"total {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
