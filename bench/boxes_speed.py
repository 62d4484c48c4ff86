"""Speed figures for Dots and Boxes: ``python -m bench.boxes_speed [--games 4] [--quick]``.

1. ``play()`` (and ``legal_moves()``, ``copy()``) in microseconds over random 5×5 games.
2. The exact solver from the empty board without the shipped table: 2×4 and 3×3 (target:
   3×3 within a minute), with node counts.
3. ``choose_move(hard)`` on 5×5 over whole games against the safe-move greedy baseline:
   p50 / p95 / max seconds per move (target: p95 ≤ 2 s), plus the ply from which the exact
   search finished (the engine's value, not a time).
4. Positions with 30 lines left on 5×5 (``--left 30 28 26`` for more): how often the exact
   search fits hard's budget, and the worst case over the sample in cost, nodes and CPU
   seconds (``--positions 1000 --only-endgames`` for the wide sample, ``--first 1000`` for
   the next thousand seeds); the CPU rate of its larger searches in cost units per second
   (the figure ``COST_PER_SECOND`` in engine/boxes/ai.py is calibrated against; nodes/s
   beside it), and the CPU seconds of the searches the budget stopped.

``--tables`` instead surveys every board that fits in 3×3 (one per class: up to the square's
symmetries and empty edge rows/columns): hard's search from the empty board without tables,
in cost against the budget (which boards need a shipped table), then for each shipped table
the worst position at its ``max_lines`` depth, where the search takes over (``--sample N``
positions per table, 0 = all), and the table's size.
One process; timings on a shared 2-core machine are noisy (costs and node counts are not).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from engine.boxes import Game
from engine.boxes.ai import (
    COST_PER_SECOND,
    DEFAULT_TIME_LIMIT,
    Position,
    choose_move,
    hard_budget,
)
from engine.boxes.board import board_for
from engine.boxes.solver import OutOfBudget, Searcher
from engine.boxes.tablegen import levels
from engine.boxes.tables import DATA, SHIPPED, classes_within, mask_class

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


def exact30_position(seed: int, left: int = 30) -> Game:
    """A 5×5 position with ``left`` lines left: safe-move greedy play with 30% random lines
    mixed in (odder than real play, so harder)."""
    rng = random.Random(seed)
    g = Game(5, 5)
    while len(g.legal_moves()) > left:
        if rng.random() < 0.3:
            g.play(rng.choice(g.legal_moves()))
        else:
            g.play(g.line_move(baseline_move(g, "greedy", rng)))
    return g


def bench_exact30(positions: int, left: int = 30, first: int = 0) -> dict[str, float]:
    """Hard's exact search on 5×5 positions with ``left`` lines left (seeds ``first`` on):
    how many finish within hard's budget (value and a best line, as hard runs it), the CPU
    seconds of those the budget stopped, and the worst case over the sample of what a
    finished search needs: cost, nodes and CPU seconds of the value search alone, run
    without a budget where hard's ran out."""
    budget = hard_budget(DEFAULT_TIME_LIMIT["hard"])
    within, times, stopped = 0, [], []
    worst_cost, worst_s, worst_seed = 0, 0.0, -1
    rates: list[tuple[int, int, float]] = []  # (cost, nodes, CPU s) of the searches big enough
    for i in range(first, first + positions):
        g = exact30_position(i, left)
        pos = Position(g)
        ok, dt = _search(pos, budget)
        if not ok:  # what it would have needed
            stopped.append(dt)
            pos = Position(g)
            t = time.process_time()
            pos.value()
            dt = time.process_time() - t
            print(
                f"  seed {i}: OUT of budget after {stopped[-1]:.2f} s CPU; needs cost "
                f"{pos.cost():,} ({pos.nodes} nodes), {dt:.2f} s CPU"
            )
        cost = pos.cost()
        times.append(dt)
        if pos.nodes >= RATE_MIN_NODES:
            rates.append((cost, pos.nodes, dt))
        within += ok
        if cost > worst_cost:
            worst_cost, worst_seed = cost, i
        worst_s = max(worst_s, dt)
    times.sort()
    print(
        f"5×5 with {left} lines left, {positions} mixed-play positions (seeds {first}…"
        f"{first + positions - 1}): exact within hard's budget ({budget:,} cost) "
        f"{within}/{positions}; CPU p50 {statistics.median(times):.3f} s, max {times[-1]:.3f} s; "
        f"worst cost {worst_cost:,} (seed {worst_seed}), {worst_s:.2f} s CPU"
    )
    if stopped:
        print(f"  searches stopped by the budget: {len(stopped)}, at most {max(stopped):.2f} s CPU")
    print("  cost/s " + cpu_rate([(c, dt) for c, _, dt in rates], COST_PER_SECOND))
    print("  nodes/s " + cpu_rate([(n, dt) for _, n, dt in rates], None))
    return {
        "positions": positions,
        "within budget": within,
        "p50 s": statistics.median(times),
        "max s": times[-1],
        "worst cost": worst_cost,
    }


RATE_MIN_NODES = 10_000  # smaller searches are too short to time


def cpu_rate(rates: list[tuple[int, float]], assumed: int | None) -> str:
    """Search speed (work per CPU second: cost units or nodes) over the searches of at least
    ``RATE_MIN_NODES`` nodes, against the rate hard's budget assumes: all their work over all
    their CPU seconds, and the slowest, 10th percentile and median of the per-search rates
    (the slow ones are what the budget must hold for; the spread is how well the measure
    tracks CPU)."""
    if not rates:
        return f"no search of {RATE_MIN_NODES}+ nodes in the sample"
    per = sorted(n / max(dt, 1e-9) for n, dt in rates)
    total = sum(n for n, _ in rates) / max(sum(dt for _, dt in rates), 1e-9)
    return (
        f"over {len(per)} searches of {RATE_MIN_NODES}+ nodes: {total:,.0f} in all; "
        f"slowest {per[0]:,.0f}, p10 {per[len(per) // 10]:,.0f}, "
        f"median {statistics.median(per):,.0f}, fastest/slowest {per[-1] / per[0]:.2f}"
        + ("" if assumed is None else f" (budget assumes {assumed:,})")
    )


def hard_search(board_mask: tuple[str, ...], drawn: int, budget: int) -> tuple[int, bool, float]:
    """Cost, whether it finished, and CPU seconds of hard's search (no table) from a
    position."""
    s = Searcher(board_for(board_mask))
    s.set_position(drawn)
    ok, dt = _search(s, budget)
    return s.cost(), ok, dt


def _search(s: Any, budget: int) -> tuple[bool, float]:
    """Whether hard's search for every best line of ``s`` ends within ``budget`` (cost), and
    the CPU seconds it took."""
    s.cost_limit = budget
    t = time.process_time()
    try:
        s.best_lines(some=True)
    except OutOfBudget:
        return False, time.process_time() - t
    return True, time.process_time() - t


def bench_tables(sample: int) -> None:
    budget = hard_budget(DEFAULT_TIME_LIMIT["hard"])
    print(f"every board within 3×3, hard's search from the empty board (budget {budget} cost):")
    need = []
    for mask in classes_within(3, 3):
        cost, ok, dt = hard_search(mask, 0, 3 * budget)
        # The first line drawn breaks most symmetry: the worst of those positions too.
        board = board_for(mask)
        worst1 = max(hard_search(mask, d, 3 * budget)[0] for d in levels(board, 1)[1])
        fits = ok and cost <= budget and worst1 <= budget
        shipped = mask in SHIPPED
        if not fits:
            need.append(mask)
        print(
            f"  {'/'.join(mask):12} {len(board.boxes)} boxes: cost {cost:8} {dt:5.2f} s, "
            f"after one line ≤ {worst1:8}  "
            f"{'within budget' if fits else 'NEEDS A TABLE'}{' (shipped)' if shipped else ''}"
        )
    print(f"boards that need a table: {', '.join('/'.join(m) for m in need) or 'none'}")
    missing = [m for m in need if m not in SHIPPED]
    print(f"  of them without a shipped table: {', '.join('/'.join(m) for m in missing) or 'none'}")
    total = 0
    rng = random.Random(3)
    for mask, (name, max_lines) in SHIPPED.items():
        assert mask_class(mask) == mask, f"{name}: {mask} is not its class's representative"
        size = (DATA / name).stat().st_size
        total += size
        board = board_for(mask)
        deepest = levels(board, max_lines)[-1]
        todo = deepest if not sample or sample >= len(deepest) else rng.sample(deepest, sample)
        worst, worst_t, out = 0, 0.0, 0
        for drawn in todo:
            cost, ok, dt = hard_search(mask, drawn, budget)
            worst, worst_t, out = max(worst, cost), max(worst_t, dt), out + (not ok)
        print(
            f"table {name} ({'/'.join(mask)}): {size / 1024:.1f} KB, max_lines {max_lines}; "
            f"search from {len(todo)}/{len(deepest)} positions at that depth: worst cost {worst} "
            f"{worst_t:.2f} s CPU, {out} out of budget"
        )
    print(f"shipped tables: {total / 1024:.1f} KB in all")


def _solved(g: Game) -> bool:
    pos = Position(g)
    return pos.exact_lines(DEFAULT_TIME_LIMIT["hard"]) is not None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="5×5 games for the hard AI")
    parser.add_argument("--quick", action="store_true", help="skip the 3×3 solve")
    parser.add_argument("--positions", type=int, default=30, help="5×5 endgame positions")
    parser.add_argument("--left", type=int, nargs="+", default=[30], help="lines left in them")
    parser.add_argument("--first", type=int, default=0, help="seed of the first endgame")
    parser.add_argument("--only-endgames", action="store_true", help="only the 5×5 endgames")
    parser.add_argument("--tables", action="store_true", help="survey boards within 3×3")
    parser.add_argument("--sample", type=int, default=200, help="--tables: positions, 0 all")
    args = parser.parse_args(argv)
    if args.tables:
        bench_tables(args.sample)
        return 0
    if not args.only_endgames:
        bench_play(20)
        bench_solve([(2, 4)] if args.quick else [(2, 4), (3, 3)])
        bench_hard(args.games)
    for left in args.left if args.positions > 0 else []:
        bench_exact30(args.positions, left, args.first)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
