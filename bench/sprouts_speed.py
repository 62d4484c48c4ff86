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
move whose curve does not fit tries again on enlarged paper). Each process first plays one
move of a 2-spot game, untimed per move: a process's first move also loads (or the first
time compiles) the compiled kernels of the tidy step, which is printed apart as "first".

The games need not be move-for-move the same in both trees once their drawings differ (a
move's region numbers follow the drawing), but they come from the same seeds and sizes.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent


def worker(n: int, seed: int) -> dict[str, object]:
    """One random game in this process (the tree is whatever ``engine`` imports)."""
    import random
    import time

    from engine.sprouts import Game, paper
    from engine.sprouts.routing import RoutingError

    tidy_times: list[float] = []
    route_times: list[float] = []

    def timed(f: Callable[..., Any], into: list[float]) -> Callable[..., Any]:
        def run(*args: object, **kwargs: object) -> object:
            t = time.process_time()
            try:
                return f(*args, **kwargs)
            finally:
                into.append(time.process_time() - t)

        return run

    paper.tidy = timed(paper.tidy, tidy_times)  # type: ignore[assignment]
    paper.route_mesh = timed(paper.route_mesh, route_times)  # type: ignore[assignment]
    t = time.process_time()
    first = Game(2)
    first.play(first.legal_moves()[0])
    warm = time.process_time() - t
    tidy_times.clear()
    route_times.clear()
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
        "first": [warm],
        "failed": failed,
    }


def _run(tree: Path, n: int, seed: int) -> dict[str, object]:
    env = dict(os.environ, PYTHONPATH=str(tree), PYTHONDONTWRITEBYTECODE="1")
    out = subprocess.run(
        [sys.executable, __file__, "--worker", str(n), str(seed)],
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
    ap.add_argument("--worker", nargs=2, type=int, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        print(json.dumps(worker(*args.worker)))
        return
    trees = [("this", HERE)] + ([("base", args.base.resolve())] if args.base else [])
    print("Sprouts play() CPU per move (targets per tap: p50 <= 15 ms, p99 <= 40 ms):")
    for n in [int(s) for s in args.spots.split(",")]:
        times: dict[str, list[float]] = {k: [] for k, _ in trees}
        tidy: dict[str, list[float]] = {k: [] for k, _ in trees}
        route: dict[str, list[float]] = {k: [] for k, _ in trees}
        first: dict[str, list[float]] = {k: [] for k, _ in trees}
        fails = dict.fromkeys(times, 0)
        for seed in range(args.games):
            order = trees if seed % 2 == 0 else trees[::-1]
            for label, tree in order:
                got = _run(tree, n, seed)
                times[label] += got["times"]  # type: ignore[arg-type]
                tidy[label] += got["tidy"]  # type: ignore[arg-type]
                route[label] += got["route"]  # type: ignore[arg-type]
                first[label] += got["first"]  # type: ignore[arg-type]
                fails[label] += got["failed"]  # type: ignore[operator]
        print(f"  n={n}:")
        for label, _ in trees:
            note = f"moves {len(times[label])}, RoutingError {fails[label]}"
            print(_line(label, times[label], note))
            print(_line("tidy", tidy[label], f"calls {len(tidy[label])}"))
            print(_line("route", route[label], f"calls {len(route[label])}"))
            print(_line("first", first[label], "a process's first move, of 2 spots"))
        if args.base:
            for what, got in (("play", times), ("tidy", tidy), ("route", route)):
                ratio = "  ".join(
                    f"{k} {_q(got['this'], q) / max(_q(got['base'], q), 1e-9):5.2f}" for k, q in QS
                )
                print(f"    this/base {what}  {ratio}")


if __name__ == "__main__":
    main()
