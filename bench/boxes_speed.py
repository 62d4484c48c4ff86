"""Speed figures for Dots and Boxes: ``python -m bench.boxes_speed [--games 4] [--quick]``.

1. ``play()`` (and ``legal_moves()``, ``copy()``) in microseconds over random 5×5 games.
2. The exact solver from the empty board without the shipped table: 2×4 and 3×3 (target:
   3×3 within a minute), with node counts.
3. ``choose_move(hard)`` on 5×5 over whole games against the safe-move greedy baseline:
   p50 / p95 / max seconds per move (target: p95 ≤ 2 s), plus the ply from which the exact
   search finished (the engine's value, not a time).
4. Positions with 30 lines left on 5×5: how often the exact search fits hard's budget.
One process; timings on a shared 2-core machine are noisy.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from engine.boxes import Game
from engine.boxes.ai import DEFAULT_TIME_LIMIT, Position, choose_move
from engine.boxes.solver import Searcher

from .boxes_arena import baseline_move


def bench_play(games: int) -> None:
    rng = random.Random(1)
    plays = legal = copies = 0.0
    n_play = n_legal = n_copy = 0
    for _ in range(games):
        g = Game(5, 5)
        while not g.over:
            t = time.perf_counter()
            moves = g.legal_moves()
            legal += time.perf_counter() - t
            n_legal += 1
            m = moves[rng.randrange(len(moves))]
            t = time.perf_counter()
            g.copy()
            copies += time.perf_counter() - t
            n_copy += 1
            t = time.perf_counter()
            g.play(m)
            plays += time.perf_counter() - t
            n_play += 1
    print(f"play():        {1e6 * plays / n_play:7.2f} µs  ({n_play} moves, 5×5 random games)")
    print(f"legal_moves(): {1e6 * legal / n_legal:7.2f} µs")
    print(f"copy():        {1e6 * copies / n_copy:7.2f} µs")


def bench_solve(sizes: list[tuple[int, int]]) -> list[dict[str, float]]:
    """Prints, and returns per size: value, seconds, nodes."""
    out = []
    for rows, cols in sizes:
        g = Game(rows, cols)
        s = Searcher(g.board)
        s.set_position(0)
        t = time.perf_counter()
        v = s.value()
        dt = time.perf_counter() - t
        print(
            f"solve {rows}×{cols} from empty (no table): value {v:+d} in {dt:6.2f} s, "
            f"{s.nodes} nodes, {len(s.tt)} table entries, {s.nodes / dt:,.0f} nodes/s"
        )
        out.append({"rows": rows, "cols": cols, "value": v, "seconds": dt, "nodes": s.nodes})
    return out


def bench_hard(games: int) -> None:
    times: list[float] = []
    exact_from: list[int] = []
    for i in range(games):
        rng = random.Random(100 + i)
        g = Game(5, 5)
        seat = i % 2
        first_exact = None
        while not g.over:
            if g.turn == seat:
                t = time.perf_counter()
                m = choose_move(g, "hard", seed=i * 1000 + g.ply)
                times.append(time.perf_counter() - t)
                if first_exact is None and len(g.legal_moves()) <= 40 and _solved(g):
                    first_exact = len(g.legal_moves())
                g.play(m)
            else:
                g.play(g.line_move(baseline_move(g, "greedy", rng)))
        exact_from.append(first_exact or 0)
    times.sort()
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
    print(
        f"choose_move(hard) 5×5, {games} games, {len(times)} moves: "
        f"p50 {statistics.median(times):.3f} s, p95 {p95:.3f} s, max {times[-1]:.3f} s"
    )
    print(f"  exact search first finished with {sorted(exact_from)} lines left (per game)")


def bench_exact30(positions: int) -> dict[str, float]:
    """How often hard's exact search finishes within its budget with 30 lines left, on
    positions from safe-move greedy play with 30% random lines mixed in (odder than real
    play, so harder)."""
    within, times = 0, []
    for i in range(positions):
        rng = random.Random(i)
        g = Game(5, 5)
        while len(g.legal_moves()) > 30:
            if rng.random() < 0.3:
                g.play(rng.choice(g.legal_moves()))
            else:
                g.play(g.line_move(baseline_move(g, "greedy", rng)))
        pos = Position(g)
        t = time.perf_counter()
        within += pos.exact_lines(DEFAULT_TIME_LIMIT["hard"]) is not None
        times.append(time.perf_counter() - t)
        full = Position(g)
        t = time.perf_counter()
        full.best_lines()
        times[-1] = time.perf_counter() - t
    times.sort()
    print(
        f"5×5 with 30 lines left, {positions} mixed-play positions: exact within hard's budget "
        f"{within}/{positions}; unbounded solve p50 {statistics.median(times):.3f} s, "
        f"max {times[-1]:.3f} s"
    )
    return {
        "positions": positions,
        "within budget": within,
        "p50 s": statistics.median(times),
        "max s": times[-1],
    }


def _solved(g: Game) -> bool:
    pos = Position(g)
    return pos.exact_lines(DEFAULT_TIME_LIMIT["hard"]) is not None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="5×5 games for the hard AI")
    parser.add_argument("--quick", action="store_true", help="skip the 3×3 solve")
    args = parser.parse_args(argv)
    bench_play(20)
    bench_solve([(2, 4)] if args.quick else [(2, 4), (3, 3)])
    bench_hard(args.games)
    bench_exact30(30)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
