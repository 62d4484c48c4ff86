"""Where things go on each game's picture, and how big they are: one source for the PNG
renderers (:mod:`render.dots`, :mod:`render.boxes`, :mod:`render.sprouts`) and the SVG one
(:mod:`render.svg`), so the two cannot disagree.

Every length is in the PNG's pixels at the picture's size; the SVG uses the pixels of the
default size (1280) as its user units and crops the header strip away with its viewBox.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from render.common import header_height

# -- Точки ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class DotsLayout:
    """Where things go: point (x, y) of the board sits at :meth:`xy`."""

    width: int  # canvas
    height: int
    u: float
    cols: int  # board points
    rows: int
    step: int  # pixels between points (even)
    bx: int  # top-left corner of the board area (one step-sized block per point)
    by: int
    band: int  # width of the label bands round the board
    pad: int  # paper beyond the label bands

    def xy(self, x: int, y: int) -> tuple[int, int]:
        h = self.step // 2
        return (self.bx + x * self.step + h, self.by + y * self.step + h)

    @property
    def board_box(self) -> tuple[int, int, int, int]:
        return (self.bx, self.by, self.bx + self.cols * self.step, self.by + self.rows * self.step)

    @property
    def label_px(self) -> int:
        return _label_px(self.step, self.u)

    @property
    def dot_radius(self) -> float:
        """A dot's outer radius (its outline is :attr:`dot_rim` wide, inside it)."""
        return 0.34 * self.step

    @property
    def dot_rim(self) -> float:
        return max(1.0, 0.075 * self.step)

    @property
    def frame_width(self) -> int:
        """The keyboard window's frame (the map's lines are half as wide)."""
        return max(2, round(min(0.25 * self.step, 10 * self.u)))

    @property
    def last_ring(self) -> tuple[float, float]:
        """The last move's ring: radius (to the middle of the stroke) and stroke width."""
        return 0.5 * self.step, max(2.0, 0.1 * self.step)

    @property
    def ring_width(self) -> int:
        """A capture's ring; a faded one (its dots captured since) is half as wide."""
        return max(2, round(0.17 * self.step))

    @property
    def base_width(self) -> int:
        return max(1, round(0.07 * self.step))

    @property
    def base_dash(self) -> tuple[float, float]:
        return self.step * 0.3, self.step * 0.18

    @property
    def zone_grow(self) -> float:
        """How far the first-move zone's box reaches beyond its outer points."""
        return self.step * 0.5

    @property
    def zone_width(self) -> int:
        return max(2, round(0.08 * self.step))

    @property
    def zone_dash(self) -> tuple[float, float]:
        return self.step * 0.55, self.step * 0.45


@lru_cache(maxsize=64)
def dots_layout(cols: int, rows: int, size: int) -> DotsLayout:
    u = size / 1280
    pad, top = round(14 * u), header_height(u) + round(10 * u)
    step = 2 * round(150 * u / 2)
    while step > 4:
        band = _band(step, u)
        w = 2 * pad + 2 * band + cols * step
        h = top + pad + 2 * band + rows * step
        if max(w, h) <= size:
            break
        step -= 2
    band = _band(step, u)
    width = max(2 * pad + 2 * band + cols * step, round(960 * u))
    height = top + pad + 2 * band + rows * step
    bx = (width - cols * step) // 2
    return DotsLayout(width, height, u, cols, rows, step, bx, top + band, band, pad)


def _band(step: int, u: float) -> int:
    return round(max(_label_px(step, u) * 1.7, 12 * u))


def _label_px(step: int, u: float) -> int:
    return max(9, min(round(0.52 * step), round(26 * u)))


# -- Точки и квадраты -------------------------------------------------------------------------


@dataclass(frozen=True)
class BoxesLayout:
    """Dot (r, c) of the board sits at :meth:`xy` (r from the top, c from the left)."""

    width: int
    height: int
    u: float
    rows: int  # boxes
    cols: int
    cell: int  # pixels per box side
    ox: int  # centre of dot (0, 0)
    oy: int

    def xy(self, r: int, c: int) -> tuple[int, int]:
        return (self.ox + c * self.cell, self.oy + r * self.cell)

    @property
    def line_width(self) -> int:
        return max(3, round(0.07 * self.cell))

    @property
    def halo_width(self) -> int:
        """The pencil shadow under the last turn's lines."""
        return round(self.line_width * 3.2)

    @property
    def dot_radius(self) -> float:
        return max(3.0, 0.085 * self.cell)

    @property
    def overhang(self) -> int:
        """How far the squared paper reaches beyond the outer dots."""
        return _overhang(self.cell, self.u)

    @property
    def label_px(self) -> int:
        return max(10, min(round(0.3 * self.cell), round(30 * self.u)))

    @property
    def label_gap(self) -> int:
        """From the outer dots to the middle of the coordinate labels."""
        return self.overhang + round(24 * self.u)

    @property
    def letter_px(self) -> int:
        """A taken box's owner initial."""
        return max(10, round(0.42 * self.cell))

    @property
    def marker(self) -> tuple[float, float]:
        """A taken box's owner marker: radius, and its inset from the box's top-left corner."""
        return 0.085 * self.cell, 0.2 * self.cell


@lru_cache(maxsize=64)
def boxes_layout(rows: int, cols: int, size: int) -> BoxesLayout:
    """Labels go left of and below the board; the right and top edges only need the paper's
    overhang, but the board stays centred across the canvas."""
    u = size / 1280
    pad, band = round(16 * u), round(44 * u)
    top = header_height(u) + round(10 * u)
    cell = round(240 * u)
    while cell > 8:
        side = pad + band + _overhang(cell, u)  # from the canvas edge to the outer dots
        w = 2 * side + cols * cell
        h = top + _overhang(cell, u) + pad + rows * cell + side
        if max(w, h) <= size:
            break
        cell -= 1
    side = pad + band + _overhang(cell, u)
    width = max(2 * side + cols * cell, round(960 * u))
    height = top + _overhang(cell, u) + pad + rows * cell + side
    ox = (width - cols * cell) // 2
    return BoxesLayout(width, height, u, rows, cols, cell, ox, top + _overhang(cell, u) + pad)


def _overhang(cell: int, u: float) -> int:
    return min(cell // 2, round(36 * u))


# -- Рассада --------------------------------------------------------------------------------

Point = tuple[float, float]


@dataclass(frozen=True)
class SproutsLayout:
    width: int
    height: int
    u: float
    box: tuple[int, int, int, int]  # the area the drawing is fitted into

    @property
    def spot_radius(self) -> float:
        return 27 * self.u

    @property
    def curve_width(self) -> float:
        return max(2.0, 6 * self.u)

    @property
    def newest_width(self) -> float:
        """The latest move's curve, in the mover's colour."""
        return self.curve_width * 1.9

    @property
    def preview_width(self) -> float:
        """A previewed move's dashed curve."""
        return self.curve_width * 1.6

    @property
    def preview_dash(self) -> tuple[float, float]:
        dash = 18 * self.u
        return dash, dash * 0.7

    @property
    def new_spot_ring(self) -> tuple[float, float]:
        """The ring round the spot the latest (or previewed) move made: radius and width."""
        return self.spot_radius * 1.75, max(2.0, 5 * self.u)

    @property
    def grid_step(self) -> float:
        return 40 * self.u


@lru_cache(maxsize=16)
def sprouts_layout(size: int, aspect: float) -> SproutsLayout:
    """A canvas for a drawing whose width/height is ``aspect`` (clamped to a sane range)."""
    u = size / 1280
    pad = round(26 * u)
    top = header_height(u) + pad
    aspect = min(1.6, max(0.7, aspect))
    bw = size - 2 * pad
    bh = round(bw / aspect)
    if top + bh + pad > size:
        bh = size - top - pad
        bw = round(bh * aspect)
    width = max(bw + 2 * pad, round(960 * u))
    x0 = (width - bw) // 2
    return SproutsLayout(width, top + bh + pad, u, (x0, top, x0 + bw, top + bh))


class Fit:
    """Maps drawing units to pixels, keeping the aspect ratio and a margin for the spots:
    pixel = (drawing - (x0, y0)) * k + (ox, oy)."""

    def __init__(self, lay: SproutsLayout, pts: np.ndarray) -> None:
        """``pts``: the (n, 2) points the picture must hold."""
        lo, hi = (pts.min(axis=0), pts.max(axis=0)) if len(pts) else (np.zeros(2), np.zeros(2))
        self.x0, self.y0 = float(lo[0]), float(lo[1])
        dw, dh = float(hi[0]) - self.x0, float(hi[1]) - self.y0
        margin = lay.spot_radius * 1.6
        bx0, by0, bx1, by1 = lay.box
        aw, ah = bx1 - bx0 - 2 * margin, by1 - by0 - 2 * margin
        self.k = min(aw / dw if dw > 0 else 1e9, ah / dh if dh > 0 else 1e9)
        if self.k == 1e9:
            self.k = 1.0
        self.ox = bx0 + margin + (aw - dw * self.k) / 2
        self.oy = by0 + margin + (ah - dh * self.k) / 2

    def __call__(self, p: Point) -> Point:
        return (self.ox + (p[0] - self.x0) * self.k, self.oy + (p[1] - self.y0) * self.k)

    def array(self, pts: np.ndarray) -> np.ndarray:
        """An (n, 2) array of drawing points in pixels."""
        return (pts - (self.x0, self.y0)) * self.k + (self.ox, self.oy)
