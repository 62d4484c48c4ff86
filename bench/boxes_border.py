"""Палочки (the outline drawn) solved: ``python -m bench.boxes_border [--up-to 4x4]``.

For each rectangle, the exact solver's value of the empty Палочки board (first player's boxes
minus second's, perfect play) and its time, next to a brute force: a minimax over every set of
inner lines (2^lines values, filled from the full board down, compiled with numba), which
knows nothing of the solver's pruning rules, tables or keys. The two must agree; the solver's
time is the figure. Boards past ``--brute-upto`` inner lines get the solver only.
"""

from __future__ import annotations

import argparse
import time

import numba
import numpy as np

from engine.boxes import Game
from engine.boxes.solver import value

from .run import Table

SIZES = [
    (1, 2),
    (1, 3),
    (2, 2),
    (2, 3),
    (1, 4),
    (2, 4),
    (3, 3),
    (3, 4),
    (2, 5),
    (3, 5),
    (4, 4),
    (4, 5),
]


def geometry(rows: int, cols: int) -> tuple[np.ndarray, np.ndarray]:
    """From first principles: per inner line, the inner-line masks of its (up to two) boxes
    (0: none), each mask over the inner lines only (outline lines are always drawn)."""
    inner: list[tuple[str, int, int]] = [("h", r, c) for r in range(1, rows) for c in range(cols)]
    inner += [("v", r, c) for r in range(rows) for c in range(1, cols)]
    index = {line: i for i, line in enumerate(inner)}

    def box_mask(r: int, c: int) -> int:
        sides = [("h", r, c), ("h", r + 1, c), ("v", r, c), ("v", r, c + 1)]
        return sum(1 << index[s] for s in sides if s in index)

    boxes = np.zeros((len(inner), 2), dtype=np.int64)
    for i, (o, r, c) in enumerate(inner):
        near = [(r - 1, c), (r, c)] if o == "h" else [(r, c - 1), (r, c)]
        boxes[i] = [box_mask(*b) for b in near]
    return boxes, np.array([len(inner)])


@numba.njit(cache=True)
def _brute(boxes: np.ndarray, n: int) -> int:
    full = (1 << n) - 1
    v = np.zeros(1 << n, dtype=np.int8)
    for drawn in range(full - 1, -1, -1):
        best = -127
        for i in range(n):
            bit = 1 << i
            if drawn & bit:
                continue
            after = drawn | bit
            k = 0
            for j in range(2):
                m = boxes[i, j]
                if m and (m & ~after) == 0:
                    k += 1
            x = k + v[after] if k else -v[after]
            if x > best:
                best = x
        v[drawn] = best
    return int(v[0])


def brute_force(rows: int, cols: int) -> int:
    boxes, n = geometry(rows, cols)
    return _brute(boxes, int(n[0]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--brute-upto", type=int, default=24, help="most inner lines to brute")
    args = parser.parse_args(argv)
    _brute(np.zeros((1, 2), dtype=np.int64), 1)  # compile before timing
    table = Table(
        "Палочки: the empty board solved",
        ["board", "inner lines", "value", "solver s", "brute force", "brute s"],
    )
    for rows, cols in SIZES:
        g = Game(rows, cols, border=True)
        t = time.process_time()
        v = value(g, time_limit=None)
        solver_s = time.process_time() - t
        lines = len(g.legal_moves())
        brute: object = "—"
        brute_s: object = "—"
        if lines <= args.brute_upto:
            t = time.process_time()
            brute = brute_force(rows, cols)
            brute_s = time.process_time() - t
            assert brute == v, (rows, cols, v, brute)
        table.add(f"{rows}×{cols}", lines, v, solver_s, brute, brute_s)
        print(table.rows[-1], flush=True)
    table.notes.append("CPU seconds (time.process_time), one process, a shared machine")
    print(table.text())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
