"""Shipped exact values for the opening of small boards, where a search would take too long
for a move (3×3 from the empty board takes seconds; a move must come within 2 s).

A table holds the value of every position with at most ``max_lines`` lines drawn, keyed on the
symmetry-canonical drawn-line set. ``python -m engine.boxes.tablegen`` rebuilds the files: it
solves the deepest level by search and fills the shallower levels by one-ply minimax over the
table itself.
"""

from __future__ import annotations

import gzip
import json
from functools import cache
from pathlib import Path
from typing import Any

from engine.boxes.board import Board

DATA = Path(__file__).resolve().parent / "data"
# Boards (masks) that have a shipped table, and its file name.
SHIPPED: dict[tuple[str, ...], str] = {
    ("###", "###", "###"): "3x3.json.gz",
    ("###", "#.#", "###"): "frame.json.gz",  # the named shape "frame"
}


class Table:
    def __init__(self, mask: tuple[str, ...], max_lines: int, values: dict[int, int]) -> None:
        self.mask = mask
        self.max_lines = max_lines
        self.values = values

    def to_json(self) -> dict[str, Any]:
        return {
            "mask": list(self.mask),
            "max_lines": self.max_lines,
            "values": sorted([k, v] for k, v in self.values.items()),
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Table:
        return cls(tuple(d["mask"]), int(d["max_lines"]), {int(k): int(v) for k, v in d["values"]})

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        data = json.dumps(self.to_json(), separators=(",", ":")).encode()
        path.write_bytes(gzip.compress(data, mtime=0))

    @classmethod
    def load(cls, path: Path) -> Table:
        return cls.from_json(json.loads(gzip.decompress(path.read_bytes())))


@cache
def table_for(mask: tuple[str, ...]) -> Table | None:
    name = SHIPPED.get(mask)
    if name is None or not (DATA / name).exists():
        return None
    return Table.load(DATA / name)


def lookup(board: Board, drawn: int) -> int | None:
    """The shipped exact value of a position for the player to move, if the table has it."""
    table = table_for(board.mask)
    if table is None or drawn.bit_count() > table.max_lines:
        return None
    return table.values.get(board.canonical(drawn))
