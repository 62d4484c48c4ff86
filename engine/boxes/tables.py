"""Shipped exact values for the opening of small boards, where a search would take too long
for a move (3×3 from the empty board takes seconds; a move must come within 2 s).

A table holds the value of every position with at most ``max_lines`` lines drawn, keyed by
:meth:`Board.key <engine.boxes.board.Board.key>`. One table serves a whole class of boards:
masks equal after dropping empty rows and columns at the edges and turning or mirroring the
square (the game does not change, only the numbering of its lines). A lookup maps the drawn
lines through that change onto the class's representative, the smallest of the eight images
of the trimmed mask. ``python -m engine.boxes.tablegen`` rebuilds the files: it solves the
deepest level by search and fills the shallower levels by one-ply minimax over the table.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from engine.boxes.board import Board, board_for

DATA = Path(__file__).resolve().parent / "data"
# Version of the position key the files are written with (Board.key); a table with another
# version would silently miss, so loading refuses it.
KEY_VERSION = 2
# Representative mask -> (file name, max_lines). From max_lines lines drawn on, hard's search
# finds a best line within its budget on every position (``python -m bench.boxes_speed
# --tables`` checks each position at that depth); the table covers every position before.
# 3×3 needs its table; the others open within the budget too (the 8-box boards at 80-95% of
# it), and their tables (a few KB) make the first moves instant and leave a margin.
SHIPPED: dict[tuple[str, ...], tuple[str, int]] = {
    ("###", "###", "###"): ("3x3.json.gz", 5),
    ("###", "#.#", "###"): ("frame.json.gz", 4),  # the named shape "frame"
    ("###", "###", "##."): ("3x3-corner.json.gz", 4),  # 3×3 less a corner box
    ("###", "###", "#.#"): ("3x3-side.json.gz", 4),  # 3×3 less a side's middle box
}

Dot = tuple[int, int]
DotMap = Callable[[int, int], Dot]


class StaleTable(Exception):
    """A table file written with another position key (rebuild it with tablegen)."""


class Table:
    def __init__(self, mask: tuple[str, ...], max_lines: int, values: dict[int, int]) -> None:
        self.mask = mask
        self.max_lines = max_lines
        self.values = values

    def to_json(self) -> dict[str, Any]:
        return {
            "mask": list(self.mask),
            "key": KEY_VERSION,
            "max_lines": self.max_lines,
            "values": sorted([k, v] for k, v in self.values.items()),
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Table:
        if d.get("key") != KEY_VERSION:
            raise StaleTable(f"table for {d.get('mask')} has key version {d.get('key')}")
        return cls(tuple(d["mask"]), int(d["max_lines"]), {int(k): int(v) for k, v in d["values"]})

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        data = json.dumps(self.to_json(), separators=(",", ":")).encode()
        path.write_bytes(gzip.compress(data, mtime=0))

    @classmethod
    def load(cls, path: Path) -> Table:
        return cls.from_json(json.loads(gzip.decompress(path.read_bytes())))


# -- classes of masks ------------------------------------------------------------------------


def trim(mask: tuple[str, ...]) -> tuple[tuple[str, ...], Dot]:
    """The mask without empty rows and columns at its edges, and the dot (row, column) of
    the original that becomes the trimmed mask's top-left dot."""
    rows = [r for r, row in enumerate(mask) if "#" in row]
    cols = [c for c in range(len(mask[0])) if any(row[c] == "#" for row in mask)]
    r0, c0 = rows[0], cols[0]
    return tuple(row[c0 : cols[-1] + 1] for row in mask[r0 : rows[-1] + 1]), (r0, c0)


def images(mask: tuple[str, ...]) -> list[tuple[tuple[str, ...], DotMap]]:
    """The mask's eight images under the square's symmetries, each with the map that takes
    a dot of the mask to the image's dot."""
    R, C = len(mask), len(mask[0])
    maps: list[tuple[int, int, DotMap]] = [
        (R, C, lambda r, c: (r, c)),
        (R, C, lambda r, c: (r, C - c)),
        (R, C, lambda r, c: (R - r, c)),
        (R, C, lambda r, c: (R - r, C - c)),
        (C, R, lambda r, c: (c, r)),
        (C, R, lambda r, c: (C - c, r)),
        (C, R, lambda r, c: (c, R - r)),
        (C, R, lambda r, c: (C - c, R - r)),
    ]
    out = []
    for rows, cols, f in maps:
        grid = [["."] * cols for _ in range(rows)]
        for r in range(R):
            for c in range(C):
                if mask[r][c] == "#":
                    (r1, c1), (r2, c2) = f(r, c), f(r + 1, c + 1)
                    grid[min(r1, r2)][min(c1, c2)] = "#"
        out.append((tuple("".join(row) for row in grid), f))
    return out


def mask_class(mask: tuple[str, ...]) -> tuple[str, ...]:
    """The representative of the mask's class: the smallest image of the trimmed mask."""
    return min(image for image, _ in images(trim(mask)[0]))


def classes_within(rows: int, cols: int) -> list[tuple[str, ...]]:
    """The representative of every class of masks that fit in rows × cols, fewest boxes
    first (a mask may leave rows, columns and any boxes out, and need not be connected)."""
    reps = set()
    for bits in range(1, 1 << (rows * cols)):
        cells = ["#" if bits >> i & 1 else "." for i in range(rows * cols)]
        reps.add(mask_class(tuple("".join(cells[r * cols : (r + 1) * cols]) for r in range(rows))))
    return sorted(reps, key=lambda m: ("".join(m).count("#"), m))


@cache
def _load(rep: tuple[str, ...]) -> Table | None:
    entry = SHIPPED.get(rep)
    if entry is None or not (DATA / entry[0]).exists():
        return None
    return Table.load(DATA / entry[0])


@cache
def _mapping(mask: tuple[str, ...]) -> tuple[Table, Board, tuple[int, ...]] | None:
    """The class's table, its board, and where each line of ``mask``'s board goes on it."""
    trimmed, (r0, c0) = trim(mask)
    rep = mask_class(mask)
    table = _load(rep)
    if table is None:
        return None
    f = next(f for image, f in images(trimmed) if image == rep)
    board, target = board_for(mask), board_for(rep)
    perm = [-1] * board.nlines
    for n in board.lines:
        (a, b) = (f(r - r0, c - c0) for r, c in board.dots(n))
        m = target.line_between(a, b)
        assert m is not None and target.line_boxes[m], "a symmetry maps lines onto lines"
        perm[n] = m
    return table, target, tuple(perm)


def table_for(mask: tuple[str, ...]) -> Table | None:
    """The shipped table of the mask's class, if there is one."""
    found = _mapping(mask)
    return None if found is None else found[0]


def lookup(board: Board, drawn: int) -> int | None:
    """The shipped exact value of a position for the player to move, if the table has it."""
    found = _mapping(board.mask)
    if found is None:
        return None
    table, target, perm = found
    if drawn.bit_count() > table.max_lines:
        return None
    mapped = 0
    while drawn:
        low = drawn & -drawn
        drawn ^= low
        mapped |= 1 << perm[low.bit_length() - 1]
    return table.values.get(target.key(mapped))
