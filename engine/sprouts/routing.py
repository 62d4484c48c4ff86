"""What a router is asked and what it gives back: a move in the router's terms
(:class:`Request`), the curve it drew (:class:`Route`), and the errors.

The router itself is :mod:`engine.sprouts.mesh` (a triangulation of the drawing). An earlier
raster router (a grid of cells, cost growing with the paper's area) was unused once the
tidy step kept the paper at its usual size, and is gone.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core import IllegalMove
from engine.sprouts.drawing import Point


class RoutingError(IllegalMove):
    """A legal move the engine could not draw (no room at any resolution, or every attempt
    failed the exact check); the game is left unchanged."""

    def __init__(self, reason: str, **params: object) -> None:
        super().__init__(reason, code="no_room", **params)


@dataclass(frozen=True, slots=True)
class Request:
    """A move in the router's terms.

    ``wedge_a``/``wedge_b``: (start angle, width) of the corner used at each end (counter-
    clockwise, math orientation). For a split, ``arc1``/``arc2`` are the half-edges of the
    walk on the first/second side (the first part lies left of ``arc1``), ``side1``/``side2``
    the other pieces of the face going to each side, ``frame_side`` the side of the paper's
    edge (0: not in this face). For a loop ``arc1`` is empty and the first part is the loop's
    inside.
    """

    kind: str  # "merge", "split" or "loop"
    a: int
    b: int
    wedge_a: tuple[float, float]
    wedge_b: tuple[float, float]
    piece: int = -1  # the piece of the split walk
    arc1: frozenset[int] = frozenset()
    arc2: frozenset[int] = frozenset()
    side1: tuple[int, ...] = ()
    side2: tuple[int, ...] = ()
    frame_side: int = 0
    box: tuple[float, float, float, float] | None = None  # a bounded face's extent


@dataclass(frozen=True, slots=True)
class Route:
    spot: Point
    first: tuple[Point, ...]  # from a to the new spot
    second: tuple[Point, ...]  # from the new spot to b


class _Fail(Exception):
    """This attempt found no way; the next resolution may."""
