"""CPU time of reading a finger path as a Sprouts move: ``python -m bench.sprouts_path``.

For 12-spot games (seeded random play) at early and late plies, takes legal moves, routes
each one's curve on the drawing as it is (``engine.sprouts.mesh.route_mesh``, what drawing
that move costs before the tidy step), shakes it by a unit and times
``engine.sprouts.move_from_path`` on it (``time.process_time``, one call each, the game's
move table already built as a tap's preview builds it). Prints p50/p90/max per group of
plies and the ratio of the path's p50 to the router's p50 in the same run (the baseline: a
path is read once per drawn move, and the move is then routed anyway). Every reading is
checked to give back the routed move.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import numpy as np

from engine.sprouts import Game, move_from_path
from engine.sprouts.game import _table
from engine.sprouts.mesh import route_mesh
from engine.sprouts.paper import request_for
from engine.sprouts.routing import _Fail


def _position(n: int, seed: int, plies: int) -> Game | None:
    rng = random.Random(seed)
    g = Game(n)
    while not g.over and g.ply < plies:
        g.play(rng.choice(g.legal_moves()))
    return None if g.over else g


def measure(g: Game, per: int, rng: random.Random) -> tuple[list[float], list[float], int]:
    """(path CPU ms, route CPU ms, wrong readings) over up to ``per`` legal moves."""
    d = g.drawing
    table = _table(d)
    moves = g.legal_moves()
    rng.shuffle(moves)
    paths, routes, wrong = [], [], 0
    for m in moves[:per]:
        ch = table.choice(m)
        assert ch is not None
        t0 = time.process_time()
        try:
            r = route_mesh(d, request_for(d, ch))
        except _Fail:
            continue
        routes.append((time.process_time() - t0) * 1000)
        line = np.asarray([*r.first, *r.second[1:]])
        shaken = line + np.asarray([[rng.uniform(-1, 1), rng.uniform(-1, 1)] for _ in line])
        start = next(s.number for s in d.spots if (s.x, s.y) == r.first[0])
        path = [(float(x), float(y)) for x, y in shaken]
        t0 = time.process_time()
        got = move_from_path(g, start, path)
        paths.append((time.process_time() - t0) * 1000)
        wrong += got != m
    return paths, routes, wrong


def _q(xs: list[float], q: float) -> float:
    return sorted(xs)[min(len(xs) - 1, int(q * len(xs)))]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--spots", type=int, default=12)
    ap.add_argument("--seeds", type=int, default=6)
    ap.add_argument("--per", type=int, default=15, help="moves timed per position")
    args = ap.parse_args(argv)
    groups = {"early (ply 0-4)": (0, 4), "late (ply 20)": (20,), "late (ply 26)": (26,)}
    rng = random.Random(0)
    print(f"move_from_path on {args.spots}-spot games, CPU ms per call")
    head = f"{'plies':<18}{'calls':>6}{'p50':>8}{'p90':>8}{'max':>8}{'route p50':>11}{'ratio':>7}"
    print(head + f"{'wrong':>7}")
    for name, plies in groups.items():
        paths: list[float] = []
        routes: list[float] = []
        wrong = 0
        for seed in range(args.seeds):
            for ply in plies:
                g = _position(args.spots, seed, ply)
                if g is None:
                    continue
                p, r, w = measure(g, args.per, rng)
                paths += p
                routes += r
                wrong += w
        if not paths:
            print(f"{name:<18}{0:>6}")
            continue
        p50, r50 = statistics.median(paths), statistics.median(routes)
        print(
            f"{name:<18}{len(paths):>6}{p50:>8.1f}{_q(paths, 0.9):>8.1f}{max(paths):>8.1f}"
            f"{r50:>11.1f}{p50 / r50:>7.2f}{wrong:>7}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
