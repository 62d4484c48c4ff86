"""The ring machinery's own guard: a flood that is not held by its cycle makes no ring."""

from __future__ import annotations

from engine.dots.rings import Board


def _diamond(b: Board, x: int, y: int) -> list[int]:
    """The four dots round (x, y), as a cycle of board indices."""
    return [b.index(x, y - 1), b.index(x + 1, y), b.index(x, y + 1), b.index(x - 1, y)]


def test_fill_inside_a_cycle() -> None:
    b = Board(7, 7)
    cycle = _diamond(b, 3, 3)
    assert b._fill(b.index(3, 3), cycle) == [b.index(3, 3)]


def test_fill_from_outside_its_cycle_gives_no_ring() -> None:
    b = Board(7, 7)
    cycle = _diamond(b, 3, 3)
    assert b._fill(b.index(0, 0), cycle) is None
    assert b._fill(b.index(6, 6), cycle) is None
    # the scratch marks are fine afterwards
    assert b._fill(b.index(3, 3), cycle) == [b.index(3, 3)]
