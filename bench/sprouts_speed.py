"""Sprouts ``Game.play`` CPU per move, this tree against a base tree, in one run:
``python -m bench.sprouts_speed --base /work/wt/base``.

Plays the same seeded random games (seeds 0..games-1, a random legal move each ply) for each
n in both trees, each in a fresh process (``--worker``), the two trees alternating game by
game so that the load of a shared machine falls on both alike, and prints the CPU time per
``play()`` (``time.process_time``: the bot's cost, not the wall clock) as p50/p90/p99/max,
and the ratio of this tree's figures to the base tree's. The targets of issue #13 for a tap
(p50 <= 15 ms, p99 <= 40 ms) are printed for reference. A move the tree could not draw
(RoutingError) is counted and ends that game.

The games need not be move-for-move the same in both trees once their drawings differ (a
move's region numbers follow the drawing), but they come from the same seeds and sizes.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent


def worker(n: int, seed: int) -> dict[str, object]:
    """One random game in this process (the tree is whatever ``engine`` imports)."""
    import random
    import time

    from engine.sprouts import Game
    from engine.sprouts.routing import RoutingError

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
    return {"times": times, "failed": failed}


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


def _line(label: str, times: list[float], failed: int) -> str:
    parts = "  ".join(f"{k} {1000 * _q(times, q):6.1f}" for k, q in QS)
    return f"    {label:5s} {parts} ms  (moves {len(times)}, RoutingError {failed})"


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
        fails = dict.fromkeys(times, 0)
        for seed in range(args.games):
            order = trees if seed % 2 == 0 else trees[::-1]
            for label, tree in order:
                got = _run(tree, n, seed)
                times[label] += got["times"]  # type: ignore[arg-type]
                fails[label] += got["failed"]  # type: ignore[operator]
        print(f"  n={n}:")
        for label, _ in trees:
            print(_line(label, times[label], fails[label]))
        if args.base:
            ratio = "  ".join(
                f"{k} {_q(times['this'], q) / max(_q(times['base'], q), 1e-9):5.2f}" for k, q in QS
            )
            print(f"    this/base  {ratio}")


if __name__ == "__main__":
    main()
