"""Fit of the solver's cost model to CPU time: ``python -m bench.boxes_cost [--positions 300]``.

Hard's exact search is budgeted in cost units (``Searcher.cost``: ``COST_NODE`` per node plus
``COST_ANALYSE`` per position analysed afresh) so that the budget stays a pure function of the
position yet follows CPU time. This script runs hard's search (every best line, no budget) on
5×5 mixed-play endgames (``bench.boxes_speed.exact30_position``, ``--left`` lines left),
``--passes`` times over the whole sample (so the repeats of one search fall at different times
and different loads), and keeps each search's least CPU time (``time.process_time``). Then:

1. the noise: how much the passes differ per search (slowest pass over fastest);
2. least squares of CPU µs against (nodes, analyses) over the searches of at least
   ``--min-nodes`` nodes, no intercept: weights, R², the worst residual; and nodes alone;
3. the rate, cost units per CPU second, of each search under the shipped weights: slowest,
   1st and 10th percentile, median. ``COST_PER_SECOND`` in engine/boxes/ai.py should not
   exceed the slowest, so that no search that fits the budget takes longer than the limit.

One process; a shared 2-core machine makes the timings noisy (counts are exact).
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import time

import numpy as np

from engine.boxes.ai import COST_PER_SECOND, Position
from engine.boxes.solver import COST_ANALYSE, COST_NODE, OutOfBudget

from .boxes_speed import exact30_position

NODE_CAP = 400_000  # searches bigger than this are cut (far beyond any budget)


def timed_search(game: object) -> tuple[int, int, float]:
    """Nodes, fresh analyses and CPU seconds of hard's search for every best line."""
    pos = Position(game)  # type: ignore[arg-type]
    pos.node_limit = NODE_CAP
    t = time.process_time()
    with contextlib.suppress(OutOfBudget):
        pos.best_lines()
    return pos.nodes, pos.analyses, time.process_time() - t


def collect(
    seeds: range, lefts: list[int], passes: int
) -> list[tuple[int, int, int, int, list[float]]]:
    """Per search: (left, seed, nodes, analyses, CPU seconds of each pass)."""
    games = [(left, seed, exact30_position(seed, left)) for left in lefts for seed in seeds]
    rows: dict[tuple[int, int], tuple[int, int, list[float]]] = {}
    for p in range(passes):
        for left, seed, g in games if p % 2 == 0 else reversed(games):
            nodes, analyses, dt = timed_search(g)
            if (left, seed) in rows:
                n0, a0, ts = rows[left, seed]
                assert (n0, a0) == (nodes, analyses), "the search is not deterministic"
                ts.append(dt)
            else:
                rows[left, seed] = (nodes, analyses, [dt])
    return [(left, seed, n, a, ts) for (left, seed), (n, a, ts) in rows.items()]


def least_squares(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, float, np.ndarray]:
    """Weights (no intercept), R² and the residuals of y ≈ x @ w."""
    w, *_ = np.linalg.lstsq(x, y, rcond=None)
    res = y - x @ w
    r2 = 1 - float((res**2).sum() / ((y - y.mean()) ** 2).sum())
    return w, r2, res


def report(rows: list[tuple[int, int, int, int, list[float]]], min_nodes: int) -> None:
    big = [r for r in rows if r[2] >= min_nodes]
    if len(big) < 3:
        print(f"only {len(big)} searches of {min_nodes}+ nodes: too few to fit")
        return
    spread = sorted(max(ts) / max(min(ts), 1e-9) for *_, ts in big)
    print(
        f"{len(rows)} searches, {len(big)} of {min_nodes}+ nodes; passes differ per search "
        f"(slowest/fastest pass): median {statistics.median(spread):.2f}, "
        f"p90 {spread[int(0.9 * len(spread))]:.2f}, max {spread[-1]:.2f}"
    )
    x = np.array([[r[2], r[3]] for r in big], float)
    y = np.array([min(r[4]) for r in big]) * 1e6  # µs, least-loaded pass
    w, r2, res = least_squares(x, y)
    worst = int(np.argmax(np.abs(res / y)))
    lw, lr = big[worst][:2]
    print(
        f"fit CPU µs = {w[0]:.2f}·nodes + {w[1]:.2f}·analyses: R² {r2:.4f}; worst residual "
        f"{res[worst] / 1e6:+.3f} s ({res[worst] / y[worst]:+.0%} of {y[worst] / 1e6:.3f} s, "
        f"{lr} at {lw} lines left); largest |residual| {np.abs(res).max() / 1e6:.3f} s"
    )
    w1, r2n, res1 = least_squares(x[:, :1], y)
    print(
        f"nodes alone: {w1[0]:.2f} µs/node, R² {r2n:.4f}, worst residual "
        f"{np.abs(res1 / y).max():.0%}"
    )
    cost = x @ np.array([COST_NODE, COST_ANALYSE], float)
    rate = np.sort(cost / (y / 1e6))
    slow = int(np.argmin(cost / (y / 1e6)))
    print(
        f"cost units per CPU second (COST_NODE {COST_NODE}, COST_ANALYSE {COST_ANALYSE}): "
        f"slowest {rate[0]:,.0f} ({big[slow][1]} at {big[slow][0]} left, "
        f"{y[slow] / 1e6:.3f} s), p1 {rate[len(rate) // 100]:,.0f}, "
        f"p10 {rate[len(rate) // 10]:,.0f}, median {np.median(rate):,.0f}; "
        f"COST_PER_SECOND is {COST_PER_SECOND:,}"
    )
    nrate = np.sort(x[:, 0] / (y / 1e6))
    print(
        f"nodes per CPU second: slowest {nrate[0]:,.0f}, p10 {nrate[len(nrate) // 10]:,.0f}, "
        f"median {np.median(nrate):,.0f}; fastest/slowest {nrate[-1] / nrate[0]:.2f} "
        f"(cost: {rate[-1] / rate[0]:.2f})"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=300, help="seeds per --left")
    parser.add_argument("--first", type=int, default=0, help="first seed")
    parser.add_argument("--left", type=int, nargs="+", default=[30, 28], help="lines left")
    parser.add_argument("--passes", type=int, default=2, help="timings per search")
    parser.add_argument("--min-nodes", type=int, default=3000, help="searches fitted")
    args = parser.parse_args(argv)
    seeds = range(args.first, args.first + args.positions)
    report(collect(seeds, args.left, args.passes), args.min_nodes)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
