"""Build the shipped opening tables: ``python -m engine.boxes.tablegen [--only FILE]
[--max-lines N]``.

Every position with at most N lines drawn is listed up to :meth:`Board.key`; the deepest level
is solved by search (one shared transposition table), every shallower level by one-ply
minimax over the level below. N defaults to each table's entry in ``tables.SHIPPED``. All four
tables take under a minute on one core.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable

from engine.boxes.board import Board, board_for
from engine.boxes.solver import Searcher
from engine.boxes.tables import DATA, SHIPPED, Table


def levels(board: Board, max_lines: int) -> list[list[int]]:
    """Positions (one per key) with 0..max_lines lines drawn, level by level."""
    out = [[board.key(0)]]
    for _ in range(max_lines):
        nxt: set[int] = set()
        for drawn in out[-1]:
            for n in board.lines:
                if not drawn >> n & 1:
                    nxt.add(board.key(drawn | 1 << n))
        out.append(sorted(nxt))
    return out


def completed(board: Board, drawn: int, n: int) -> int:
    """Boxes that drawing line ``n`` completes in position ``drawn``."""
    after = drawn | 1 << n
    return sum(all(after >> m & 1 for m in board.box_lines[b]) for b in board.line_boxes[n])


def back_up(board: Board, drawn: int, values: dict[int, int]) -> int:
    """One-ply minimax from the values of the children."""
    best = -999
    for n in board.lines:
        if drawn >> n & 1:
            continue
        child = drawn | 1 << n
        v = 0 if child == board.full else values[board.key(child)]
        k = completed(board, drawn, n)
        best = max(best, k + v if k else -v)
    return best


def build(
    mask: tuple[str, ...], max_lines: int, progress: Callable[[str], None] | None = None
) -> Table:
    board = board_for(mask)
    tiers = levels(board, max_lines)
    searcher = Searcher(board)
    values: dict[int, int] = {}
    t0 = time.monotonic()
    deepest = tiers[-1]
    for i, drawn in enumerate(deepest):
        searcher.set_position(drawn)
        values[drawn] = searcher.value()
        if progress and i % 500 == 0:
            progress(f"level {max_lines}: {i}/{len(deepest)} {time.monotonic() - t0:.0f}s")
        if len(searcher.tt) > 3_000_000:
            searcher.tt.clear()
    for tier in reversed(tiers[:-1]):
        for drawn in tier:
            values[drawn] = back_up(board, drawn, values)
    return Table(mask, max_lines, values)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--max-lines", type=int, help="override every table's depth")
    names = sorted(name for name, _ in SHIPPED.values())
    parser.add_argument("--only", choices=names, help="rebuild one file")
    args = parser.parse_args(argv)
    for mask, (name, max_lines) in SHIPPED.items():
        if args.only and name != args.only:
            continue
        depth = args.max_lines or max_lines
        t = time.monotonic()
        table = build(mask, depth, lambda s: print(s, file=sys.stderr, flush=True))
        table.save(DATA / name)
        size = (DATA / name).stat().st_size
        print(
            f"{name}: {len(table.values)} positions up to {depth} lines, "
            f"empty board {table.values[board_for(mask).key(0)]:+d}, {size / 1024:.1f} KB, "
            f"{time.monotonic() - t:.0f} s"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
