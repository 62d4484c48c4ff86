"""Board shapes: which boxes exist, as a mask; named shapes for the menu.

A mask is a tuple of equal-length strings, one per box row from the top, ``#`` for a box and
``.`` for a hole. Lines exist exactly where they border at least one existing box, so a hole
in the middle of the board is framed by lines that belong to the boxes around it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.core import BadOptions

MIN_SIDE = 1
MAX_SIDE = 12

SHAPES: dict[str, tuple[str, ...]] = {
    # A plus sign with arms two boxes wide.
    "cross": (
        "..##..",
        "..##..",
        "######",
        "######",
        "..##..",
        "..##..",
    ),
    # A thick square ring around a 2×2 hole.
    "ring": (
        "######",
        "######",
        "##..##",
        "##..##",
        "######",
        "######",
    ),
    # The smallest ring: 3×3 without its centre (small enough to solve exactly).
    "frame": (
        "###",
        "#.#",
        "###",
    ),
    "diamond": (
        "..#..",
        ".###.",
        "#####",
        ".###.",
        "..#..",
    ),
    "heart": (
        ".##.##.",
        "#######",
        "#######",
        ".#####.",
        "..###..",
        "...#...",
    ),
}

_BOX = frozenset("#xX1*")
_HOLE = frozenset(".-_ 0o")


def rectangle(rows: int, cols: int) -> tuple[str, ...]:
    return tuple("#" * cols for _ in range(rows))


def parse_mask(mask: Any) -> tuple[str, ...]:
    """Normalise a mask given as strings (``#``/``x``/``1`` box, ``.``/``0``/space hole) or as
    rows of booleans/0-1 numbers; raise :class:`BadOptions` for anything else."""
    if isinstance(mask, str):
        mask = mask.split("/") if "/" in mask else mask.splitlines()
    if not isinstance(mask, Sequence) or not mask:
        raise BadOptions("a mask is a non-empty list of rows")
    rows: list[str] = []
    for row in mask:
        if isinstance(row, str):
            cells = []
            for ch in row:
                if ch in _BOX:
                    cells.append("#")
                elif ch in _HOLE:
                    cells.append(".")
                else:
                    raise BadOptions(f"bad mask character {ch!r} (use # for a box, . for a hole)")
            rows.append("".join(cells))
        elif isinstance(row, Sequence):
            if not all(isinstance(v, bool | int) and v in (0, 1) for v in row):
                raise BadOptions("mask rows of numbers hold only 0/1 or booleans")
            rows.append("".join("#" if v else "." for v in row))
        else:
            raise BadOptions("a mask row is a string or a list of 0/1")
    width = len(rows[0])
    if any(len(r) != width for r in rows):
        raise BadOptions("all mask rows must have the same length")
    if not (MIN_SIDE <= len(rows) <= MAX_SIDE and MIN_SIDE <= width <= MAX_SIDE):
        raise BadOptions(f"a board is {MIN_SIDE}..{MAX_SIDE} boxes on each side")
    if not any("#" in r for r in rows):
        raise BadOptions("a mask needs at least one box")
    return tuple(rows)


def shape_mask(name: str) -> tuple[str, ...]:
    try:
        return SHAPES[name]
    except (KeyError, TypeError):
        known = ", ".join(sorted(SHAPES))
        raise BadOptions(f"unknown shape {name!r}; known: {known}") from None
