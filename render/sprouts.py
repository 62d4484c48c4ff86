"""Рассада (Sprouts): the engine's drawing on squared paper, curves anti-aliased.

What the renderer reads from the engine (``engine.sprouts.Game``):

- ``game.drawing.spots``: objects with ``number`` (int, shown on the spot), ``x``, ``y``
  (floats, any scale, y down) and ``lives`` (0–3); the spot a move creates has the highest
  number so far.
- ``game.drawing.curves``: objects with ``points``, a list of (x, y) in the same units, each
  curve a polyline whose ends are spots; a move adds one curve through its new spot or two
  curves ending at it.
- ``game.players``, ``turn``, ``ply``, ``moves``, ``over``, ``result``, ``format_move``,
  ``options`` (``spots``, ``misere``) and, for ``view["preview"]``, ``copy()`` and
  ``play(move)``: the candidate is played on a copy and the curves it adds are drawn as a
  dashed ghost; ``view["marks"]`` (a lesson page's move, read by ``parse_move``) is drawn
  the same way.

The engine's polylines are drawn smoothed (:func:`smooth_curves`, cached per drawing): zigzags
relaxed and corners rounded, each only as far as the room round it allows, so no two curves
come closer than the picture shows apart (never touching), nor into a spot they do not end
at; the ends and the stubs' directions stay. The newest curve, the dashed preview and the
final picture all draw these. Curves are stroked by a compiled kernel
(:mod:`render.sprouts_core`) that counts each pixel's four samples within half a stroke of a
curve and maps the count through a colour ramp (as a 2×-size layer halved would, without the
layer); spots are cached sprites (number, lives as three arcs).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np
from PIL import Image, ImageChops, ImageDraw

from engine.core import EngineError
from engine.recent import Recent
from render import sprouts_core as core
from render.common import (
    Header,
    Sprite,
    body_sprite,
    color,
    draw_header,
    draw_text,
    font,
    grid_paper,
    header_height,
    ink,
    make_header,
    mix,
    png_array,
    ring_sprite,
    scale_of,
)
from render.geometry import Fit, sprouts_layout
from render.geometry import SproutsLayout as Layout
from render.palette import INK, MUTED, PAPER, PLAYER, PLAYER_DARK, RGB, WHITE
from render.strings import lang_of, say
from render.view import DrawingLike, SpotLike, SproutsShown, View

SUPERSAMPLE = 2
PILLOW_THINNER = 0.3  # see _stroke_kernel
Point = tuple[float, float]
Line = np.ndarray | Sequence[Point]  # a polyline: an (n, 2) array or its points


def layout(game: SproutsShown, view: View | None = None) -> tuple[Layout, Fit]:
    """The canvas and the drawing-to-pixel map of ``game``'s picture (tests use it)."""
    return layout_of(game.drawing, view or {}, curve_points(game.drawing)[0])


def layout_of(drawing: DrawingLike, view: View, curve_points: np.ndarray) -> tuple[Layout, Fit]:
    """:func:`layout`, given the drawing's curve points (:func:`curve_points`)."""
    size, _ = scale_of(view)
    pts = np.concatenate([spot_points(drawing), curve_points])
    extent = view.get("extent")
    if isinstance(extent, (list, tuple)) and len(extent) == 4:
        corners = [(float(extent[0]), float(extent[1])), (float(extent[2]), float(extent[3]))]
        pts = np.concatenate([pts, np.asarray(corners)])
    w, h = (pts.max(axis=0) - pts.min(axis=0)).tolist() if len(pts) else (0.0, 0.0)
    # Aspect ratios in steps of 0.1, so a drawing that grows a little keeps its cached paper.
    lay = sprouts_layout(size, round(w / h, 1) if h > 0 and w > 0 else 1.0)
    return lay, Fit(lay, pts)


def replay_view(game: SproutsShown, view: View) -> View:
    """The view for every frame of ``game``'s replay: the final drawing's extent, so that
    frames share one size and scale (its snapshots share the final geometry) and nothing
    moves or zooms from frame to frame."""
    drawing = game.drawing
    pts = np.concatenate([spot_points(drawing), curve_points(drawing)[0]])
    (x0, y0), (x1, y1) = pts.min(axis=0).tolist(), pts.max(axis=0).tolist()
    return {**view, "extent": [x0, y0, x1, y1]}


def spot_points(drawing: DrawingLike) -> np.ndarray:
    """The spots' places, (n, 2)."""
    xy = itertools.chain.from_iterable((s.x, s.y) for s in drawing.spots)
    return np.fromiter(xy, dtype=float).reshape(-1, 2)


def curve_points(drawing: DrawingLike) -> tuple[np.ndarray, np.ndarray]:
    """Every curve's points concatenated, (n, 2), and how many each curve has."""
    chain = itertools.chain.from_iterable
    curves = drawing.curves
    pts = np.fromiter(chain(chain(c.points for c in curves)), dtype=float).reshape(-1, 2)
    return pts, np.fromiter((len(c.points) for c in curves), dtype=np.int64, count=len(curves))


@lru_cache(maxsize=8)
def _paper_array(lay: Layout) -> np.ndarray:
    """The squared paper as a read-only index array (the curves are stroked into a copy)."""
    out = np.asarray(_paper(lay))
    out.flags.writeable = False
    return out


@lru_cache(maxsize=8)
def _paper(lay: Layout) -> Image.Image:
    x0, y0, x1, y1 = lay.box
    return grid_paper(
        (lay.width, lay.height),
        (x0, y0, x1, y1),
        lay.grid_step,
        (x0, y0),
        max(1, round(2 * lay.u)),
    )


# -- spots ------------------------------------------------------------------------------------

LIFE_ARC = 100  # degrees per life; three of them with gaps go round a spot


@lru_cache(maxsize=512)
def _spot(number: int, lives: int, r: float) -> Sprite:
    """A numbered spot with its lives as arcs round it (dark: left, pale: used up)."""
    gap, arc_w = 0.28 * r, max(2.0, 0.26 * r)
    box = int(2 * (r + gap + arc_w)) + 4
    img = Image.new("L", (box, box), color(PAPER))
    mask = Image.new("L", (box, box), 0)
    c = box / 2
    alive = lives > 0
    fill = WHITE if alive else mix(PAPER, MUTED, 0.3)
    edge = INK if alive else MUTED
    body = body_sprite("circle", r, max(1.5, 0.12 * r), PAPER, edge, fill)
    body.put(img, c, c)
    mask.paste(255, (0, 0, box, box), body_mask(body, box))
    f = font(max(9, round(r * (1.0 if number < 10 else 0.86 if number < 100 else 0.7))), True)
    draw_text(img, (c, c), str(number), f, ink(edge, fill), "mm")
    if alive:
        for k in range(3):
            start = -90 - LIFE_ARC / 2 + k * 120
            cover = _arc(box, r + gap + arc_w / 2, arc_w, start, start + LIFE_ARC)
            style = ink(INK if k < lives else mix(PAPER, MUTED, 0.35))
            img.paste(cover.point(style.lut), (0, 0), cover.point(style.mask))
            mask = ImageChops.lighter(mask, cover.point(style.mask))
    return Sprite(img, mask)


def body_mask(body: Sprite, box: int) -> Image.Image:
    """A body sprite's mask centred in a ``box``-sized square."""
    out = Image.new("L", (box, box), 0)
    w, h = body.mask.size
    out.paste(body.mask, (round(box / 2 - w / 2), round(box / 2 - h / 2)))
    return out


def _arc(box: int, radius: float, width: float, start: float, end: float) -> Image.Image:
    ss = 4
    big = Image.new("L", (box * ss, box * ss), 0)
    c = box * ss / 2
    r = (radius + width / 2) * ss
    ImageDraw.Draw(big).arc(
        (c - r, c - r, c + r, c + r), start, end, fill=255, width=round(width * ss)
    )
    return big.reduce(ss)


# -- curves ------------------------------------------------------------------------------------


def _stroke_into(canvas: np.ndarray, lines: Sequence[Line], width: float, fg: RGB) -> None:
    """Anti-aliased polylines in one colour, round-capped and round-joined, straight into a
    picture's index array: each pixel's coverage is counted on four samples, then mapped
    through a colour ramp (:func:`render.sprouts_core.stroke`); ``lines`` are (n, 2) arrays
    or point lists, in pixels."""
    got = _polylines(lines)
    if got is not None:
        _stroke_kernel(canvas, NO_MASK, *got, width, fg)


NO_MASK = np.zeros((0, 0), dtype=np.uint8)


def _polylines(lines: Sequence[Line]) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """The lines of two points or more, concatenated, with where each starts and ends."""
    arrays = [
        a for a in (np.asarray(ln, dtype=float).reshape(-1, 2) for ln in lines) if len(a) >= 2
    ]
    if not arrays:
        return None
    sizes = np.asarray([len(a) for a in arrays], dtype=np.int64)
    ends = np.cumsum(sizes)
    return np.concatenate(arrays), ends - sizes, ends


def _stroke_kernel(
    region: np.ndarray,
    mask: np.ndarray,
    pts: np.ndarray,
    starts: np.ndarray,
    ends: np.ndarray,
    width: float,
    fg: RGB,
) -> None:
    ss = SUPERSAMPLE
    # As the 2×-size Pillow layer these pictures were first drawn on: a sample sits in the
    # middle of its half-pixel, and a Pillow line of width w is about 0.3 samples narrower.
    radius = (max(1, round(width * ss)) - PILLOW_THINNER) / 2
    core.stroke(region, mask, pts * ss - 0.5, starts, ends, radius, _ramp(fg))


@lru_cache(maxsize=32)
def _ramp(fg: RGB) -> np.ndarray:
    """The palette index of a pixel with 0..4 samples covered: the colour ramp at the
    coverage a 2×2 box filter gives (0, 64, 128, 191, 255; any of them shows)."""
    style = ink(fg)
    return np.asarray([style.lut[(255 * c + 2) // 4] for c in range(5)], dtype=np.uint8)


# -- smooth curves ----------------------------------------------------------------------------
#
# The engine keeps each curve as a polyline with small zigzags. The picture smooths it in two
# passes; neither ever narrows a gap below what the rules below allow:
#
# 1. relaxing: every inner point moves towards where a few rounds of neighbour averaging
#    ([1, 2, 1] / 4) would put it, which takes out the zigzags; the points at and next to the
#    ends stay, so each curve leaves its spots along its own stub (the stubs' angles are what
#    separates curves at a spot). The moved segments are measured exactly against every
#    segment and spot near enough to matter; the points of a pair that breaks a rule step
#    back and are measured again, until none does (a pair where nothing moved is the
#    engine's own, which holds).
# 2. rounding: every corner ``v`` becomes a quadratic Bézier from ``a = v - L·u`` (on the
#    segment coming in, direction ``u``) to ``b = v + L·w`` (going out), control point ``v``;
#    it leaves ``a`` along ``u`` and reaches ``b`` along ``w``, so where two cuts meet the curve
#    is smooth. A cut takes at most half a segment, so the ends and the stubs' directions stay.
#    B(t) - v = L·(t²·w - (1-t)²·u) is t²·L·sin θ (θ: the turn) from the line of [a, v] with
#    its foot on it, so the piece stays within δ = L·sin θ / 4 of the polyline (the worst is
#    t = 1/2). Each corner's δ is bounded by its clearance ``c`` (from the longest cut to every
#    other segment, its own curve's included, and to every spot): two pieces each within
#    δ ≤ (c - least) / 2 of their polylines stay at least ``least`` apart, and a spot keeps
#    ``c - δ``.
#
# The rules, for every two segments and every segment and spot: nothing that was further
# apart than ``least`` comes closer than ``least``, and nothing closer comes closer at all, so
# curves never touch or cross; curves at least ``apart`` apart (a stroke and a half) stay so
# and a narrower gap loses at most ``shrink``; no curve runs into the ring of lives of a spot
# it does not end at (the body of a dead spot). Round a spot, the curves that meet there run
# together by nature, and so do the parts of one curve close along it (a tight bend): between
# them only ``least`` holds.


@dataclass(frozen=True)
class Room:
    """How far smoothing may move a curve, in drawing units (see the comment above); each
    of the two passes gets half of ``shrink`` and ``most``."""

    least: float  # no gap narrows below this (nor is narrowed further when it already is)
    shrink: float  # what a gap narrower than ``apart`` may lose
    apart: float  # curves at least this far apart stay so
    spot_apart: float  # a spot's ring of lives and half a stroke: a curve keeps out of it
    body_apart: float  # the same for a dead spot (no ring): its body and a stroke
    most: float  # no point of the picture strays further than this from the engine's curve

    @classmethod
    def of(cls, lay: Layout, k: float) -> Room:
        """The room in a picture drawn at ``k`` pixels per drawing unit."""
        w = lay.curve_width / k
        ring = (lay.spot_radius * RING_REACH + lay.curve_width / 2) / k
        body = (lay.spot_radius + lay.curve_width) / k
        return cls(0.1 * w, 0.2 * w, 1.5 * w, ring, body, most=2 * w)

    def halved(self) -> Room:
        return replace(self, shrink=self.shrink / 2, most=self.most / 2)


RING_REACH = 1.54  # the outer edge of a spot's lives' arcs, in spot radii (see _spot)
CROWDED = 2 * RING_REACH  # spots nearer than this, in spot radii, hide each other's lives
MAX_TURN = math.radians(179)  # a curve folding back on itself has no corner to cut
KINK = math.radians(4)  # flatter corners are left as they are (a kink this small does not show)
SAMPLE_TURN = math.radians(8)  # a rounded corner turns at most this much per sample (a chord
# then strays under 0.25 px from the arc for radii up to 100 px)


def smooth_curves(drawing: DrawingLike, room: Room) -> tuple[np.ndarray, ...]:
    """Each curve of ``drawing`` smoothed, as a read-only (n, 2) array in drawing units;
    same ends, same first and last segment directions (cached per drawing)."""
    if not drawing.curves:
        return ()
    return _smoothed(*(a.tobytes() for a in _sheet_arrays(drawing)), room)


def _sheet_arrays(drawing: DrawingLike) -> tuple[np.ndarray, ...]:
    """What smoothing needs of a drawing: its curves' points and their counts, the spots,
    which spots are dead, and the spot at each end of each curve (-1: none)."""
    pts, sizes = curve_points(drawing)
    where = {(float(s.x), float(s.y)): i for i, s in enumerate(drawing.spots)}
    spots = np.asarray(list(where), dtype=float).reshape(-1, 2)
    dead = np.asarray([s.lives <= 0 for s in drawing.spots], dtype=bool)[list(where.values())]
    ends = np.asarray(
        [
            [where.get((float(x), float(y)), -1) for x, y in (c.points[0], c.points[-1])]
            for c in drawing.curves
        ],
        dtype=np.int64,
    )
    return pts, sizes, spots, dead, ends


@lru_cache(maxsize=8)
def _smoothed(
    pts: bytes, sizes: bytes, spots: bytes, dead: bytes, ends: bytes, room: Room
) -> tuple[np.ndarray, ...]:
    """:func:`smooth_curves` on the drawing's arrays as bytes (hashable, so cached)."""
    step = room.halved()
    out = _rounded(_relaxed(_sheet(pts, sizes, spots, dead, ends, room), step), step)
    for a in out:
        a.flags.writeable = False
    return out


def _sheet(pts: bytes, sizes: bytes, spots: bytes, dead: bytes, ends: bytes, room: Room) -> _Sheet:
    return _Sheet.of(
        np.frombuffer(pts).reshape(-1, 2).copy(),  # writable like later sheets: one kernel type
        np.frombuffer(sizes, dtype=np.int64),
        np.frombuffer(spots).reshape(-1, 2),
        np.where(np.frombuffer(dead, dtype=bool), room.body_apart, room.spot_apart),
        np.frombuffer(ends, dtype=np.int64).reshape(-1, 2),
    )


@dataclass(frozen=True)
class _Sheet:
    """A drawing as arrays: every curve's points concatenated, and its segments."""

    p: np.ndarray  # the points
    sizes: np.ndarray  # how many points each curve has
    spots: np.ndarray  # the spots' places
    keep_out: np.ndarray  # how far from each spot a curve not ending there keeps
    ends: np.ndarray  # (curves, 2): the spot at each end of each curve (-1: none)
    curve: np.ndarray  # the curve of each point
    from_start: np.ndarray  # length along its curve from its first point, per point
    to_end: np.ndarray  # the same to its curve's last point
    seg: np.ndarray  # the segments: segment k runs from point seg[k] to seg[k] + 1
    mid: np.ndarray  # the middle of each segment
    half: np.ndarray  # half the length of each segment

    @classmethod
    def of(
        cls,
        p: np.ndarray,
        sizes: np.ndarray,
        spots: np.ndarray,
        keep_out: np.ndarray,
        ends: np.ndarray,
    ) -> _Sheet:
        curve = np.repeat(np.arange(len(sizes)), sizes)
        step = _length(*np.diff(p, axis=0).T)
        step[np.diff(curve) != 0] = 0.0
        along = np.concatenate([[0.0], np.cumsum(step)])
        starts = np.cumsum(sizes) - sizes
        from_start = along - np.repeat(along[starts], sizes)
        to_end = np.repeat(along[starts + sizes - 1], sizes) - along
        seg = np.nonzero(np.diff(curve) == 0)[0]
        mid, half = (p[seg] + p[seg + 1]) / 2, step[seg] / 2
        return cls(p, sizes, spots, keep_out, ends, curve, from_start, to_end, seg, mid, half)

    def moved(self, p: np.ndarray) -> _Sheet:
        return _Sheet.of(p, self.sizes, self.spots, self.keep_out, self.ends)

    def pairs(self, extra: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Segment pairs (i, j) that may come within ``max(extra[i], extra[j])`` of each
        other, judged by their middles, leaving out pairs where neither has ``extra``. Long
        segments are searched in pieces (they would widen every search), in a grid of cells
        (:func:`render.sprouts_core.near_pairs`)."""
        none = np.zeros(0, dtype=np.int64)
        if len(self.seg) < 2 or not np.any(extra > 0):
            return none, none
        cap = 1.5 * _median(self.half) + 1e-9
        owner, mid, half, reach = core.pieces(
            self.p, self.seg, self.half, np.ascontiguousarray(extra, dtype=float), cap
        )
        usual = _quantile(reach[reach > 0], 0.9)
        pi, pj = core.near_pairs(mid, half, reach, usual)
        i, j = owner[pi], owner[pj]
        keep = i != j
        return i[keep], j[keep]  # a pair of long segments may come more than once


def _relaxed(sheet: _Sheet, room: Room) -> _Sheet:
    """Pass 1: inner points moved towards :data:`AVERAGING` rounds of neighbour averaging
    (at most ``room.most``); the points at and next to the ends stay. The moved drawing is measured
    against the old: where two segments, or a segment and a spot, would break a gap rule,
    the moving points of the pair step back (to 40%, then not at all) and it is measured
    again, so every pair that moved is checked as it is drawn, and a pair that did not move
    is the engine's own."""
    aim = _relax_aim(sheet, room)
    if aim is None:
        return sheet
    move, shift = aim
    # Segment pairs a move could bring under a rule's gap, found here; which of them (and
    # of the segment–spot pairs) it does bring under, and the stepping back, in the kernel.
    pairs = sheet.pairs(np.where(shift > 0, room.apart + 2 * shift, 0.0))
    arrays = (
        sheet.seg,
        sheet.curve,
        sheet.from_start,
        sheet.to_end,
        sheet.ends,
        sheet.mid,
        sheet.half,
    )
    rules = (room.least, room.apart, room.shrink, room.spot_apart, BEND_LENGTH * room.apart)
    relaxed, new = core.relax(
        sheet.p,
        move,
        shift,
        arrays,
        sheet.spots,
        sheet.keep_out,
        pairs,
        rules,
        BACK_OFF,
        RELAX_ROUNDS,
    )
    return sheet.moved(new) if relaxed else sheet


def _relax_aim(sheet: _Sheet, room: Room) -> tuple[np.ndarray, np.ndarray] | None:
    """Where relaxing would move each point (``move``, capped) and how far each segment may
    move (``shift``); None when no point may move."""
    p, seg = sheet.p, sheet.seg
    along = np.arange(len(p)) - np.repeat(np.cumsum(sheet.sizes) - sheet.sizes, sheet.sizes)
    free = np.nonzero((along >= 2) & (along <= np.repeat(sheet.sizes, sheet.sizes) - 3))[0]
    if not len(free):
        return None
    target = p.copy()
    for _ in range(AVERAGING):
        t = target.copy()
        t[free] = (target[free - 1] + 2 * target[free] + target[free + 1]) / 4
        target = t
    move = target - p
    size = _length(*move.T)
    with np.errstate(divide="ignore", invalid="ignore"):
        move *= np.where(size > room.most, room.most / size, 1.0)[:, None]
    move[size < room.least] = 0.0  # too little to see
    size = _length(*move.T)
    return move, np.maximum(size[seg], size[seg + 1])


BEND_LENGTH = 4  # parts of one curve closer along it than this many `apart` make a bend
AVERAGING = 4  # rounds of neighbour averaging the relaxing aims at
BACK_OFF = np.array([1.0, 0.4, 0.0])  # how far a point moves after each step back
RELAX_ROUNDS = 40  # rounds of measuring before giving up relaxing altogether (never seen)


def _rounded(sheet: _Sheet, room: Room) -> tuple[np.ndarray, ...]:
    """Pass 2: every corner cut as deep as its room allows, sampled so a rounded corner turns
    at most :data:`SAMPLE_TURN` per sample; one (n, 2) array per curve."""
    c = _Corners.of(sheet)
    need = np.minimum(c.need, room.most)
    delta = np.clip(np.minimum(need, _corner_limit(sheet, room, c, need)), 0.0, None)
    with np.errstate(divide="ignore", invalid="ignore"):
        cut = np.minimum(c.reach, 4 * delta / np.sin(c.turn))
    keep = cut > 0
    at, v, u, w, turn, cut = c.at[keep], c.v[keep], c.u[keep], c.w[keep], c.turn[keep], cut[keep]
    steps = np.ceil(turn / SAMPLE_TURN).astype(np.int64)
    rows = np.ones(len(sheet.p), dtype=np.int64)
    rows[at] = steps + 1
    out = np.repeat(sheet.p, rows, axis=0)
    # Sampled by direction: the tangent (1-t)·u + t·w points at angle f·θ from u where
    # t = sin fθ / (sin fθ + sin (1-f)θ).
    k = np.repeat(np.arange(len(at)), steps + 1)
    j = np.arange(len(k)) - np.repeat(np.cumsum(steps + 1) - steps - 1, steps + 1)
    f, th = j / steps[k], turn[k]
    sa, sb = np.sin(f * th), np.sin((1 - f) * th)
    t = (sa / (sa + sb))[:, None]
    first_row = np.cumsum(rows) - rows
    out[first_row[at][k] + j] = v[k] + cut[k, None] * (t * t * w[k] - (1 - t) ** 2 * u[k])
    # Where two cuts meet, the point comes twice: keep one.
    curve = np.repeat(sheet.curve, rows)
    fresh = np.ones(len(out), dtype=bool)
    fresh[1:] = (np.abs(np.diff(out, axis=0)).max(axis=1) > 1e-9) | (np.diff(curve) != 0)
    out, curve = out[fresh], curve[fresh]
    counts = np.bincount(curve, minlength=len(sheet.sizes))
    return tuple(np.split(out, np.cumsum(counts)[:-1]))


@dataclass(frozen=True)
class _Corners:
    """The inner points worth rounding, over all curves."""

    at: np.ndarray  # index of the point
    v: np.ndarray  # the point
    u: np.ndarray  # unit direction coming in
    w: np.ndarray  # unit direction going out
    turn: np.ndarray  # the turn θ, radians in (0, π)
    reach: np.ndarray  # the longest cut: half the shorter segment
    need: np.ndarray  # how far the longest cut strays from the polyline

    @classmethod
    def of(cls, sheet: _Sheet) -> _Corners:
        p, sizes = sheet.p, sheet.sizes
        inner = np.ones(len(p), dtype=bool)
        starts = np.cumsum(sizes) - sizes
        inner[starts] = False
        inner[starts + sizes - 1] = False
        at = np.nonzero(inner)[0]
        v = p[at]
        din, dout = v - p[at - 1], p[at + 1] - v
        lin, lout = _length(*din.T), _length(*dout.T)
        with np.errstate(divide="ignore", invalid="ignore"):
            u, w = din / lin[:, None], dout / lout[:, None]
        turn = np.arctan2(np.abs(_cross(u, w)), np.einsum("ij,ij->i", u, w))
        keep = (np.minimum(lin, lout) > 0) & (turn > KINK) & (turn < MAX_TURN)
        reach = np.minimum(lin, lout)[keep] / 2
        turn = turn[keep]
        need = reach * np.sin(turn) / 4
        return cls(at[keep], v[keep], u[keep], w[keep], turn, reach, need)


def _corner_limit(sheet: _Sheet, room: Room, c: _Corners, need: np.ndarray) -> np.ndarray:
    """How far each corner's piece may stray: for the curves near it (whose pieces stray as
    much), measured from the longest cut [a, v] ∪ [v, b] to every segment but the two it
    joins, and for the spots near it (the measuring in :func:`core.corner_limit`)."""
    seg = sheet.seg
    # Room beyond which more does not matter; found through the segments the corner joins.
    enough = np.where(need <= room.shrink / 2, room.least, room.apart) + 2 * need
    reach = np.zeros(len(seg))
    seg_in, seg_out = np.searchsorted(seg, c.at - 1), np.searchsorted(seg, c.at)
    np.maximum.at(reach, seg_in, enough)
    np.maximum.at(reach, seg_out, enough)
    pairs = sheet.pairs(reach)
    spot_enough = np.where(need <= room.shrink, room.least, room.spot_apart) + need
    return core.corner_limit(
        sheet.p,
        (c.at, c.v, c.u, c.w, c.reach),
        (seg, sheet.curve, sheet.from_start, sheet.to_end, sheet.ends, sheet.mid, sheet.half),
        sheet.spots,
        sheet.keep_out,
        pairs,
        (enough, spot_enough),
        (room.least, room.apart, room.shrink, room.spot_apart, BEND_LENGTH * room.apart),
    )


def _quantile(x: np.ndarray, q: float) -> float:
    """``np.quantile(x, q)`` to the last bit (its linear method, as numpy computes it), for
    the cost of one partition: numpy's own spends ~60 µs on the way there, twice a search."""
    n = len(x)
    at = (n - 1) * q  # numpy's "virtual index" for the linear method
    lo = math.floor(at)
    if at >= n - 1:
        lo = hi = n - 1
    elif at < 0:
        lo = hi = 0
    else:
        hi = lo + 1
    part = np.partition(x, [lo, hi] if hi != lo else [lo])
    a, b = float(part[lo]), float(part[hi])
    t = at - lo
    return b - (b - a) * (1 - t) if t >= 0.5 else a + (b - a) * t


def _median(x: np.ndarray) -> float:
    """``np.median(x)`` to the last bit, for the cost of one partition (see :func:`_quantile`)."""
    half = len(x) // 2
    if len(x) % 2:
        return float(np.partition(x, half)[half])
    part = np.partition(x, [half - 1, half])
    return float((part[half - 1] + part[half]) / 2)


def _length(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The length of vectors (x, y): np.hypot is several times slower."""
    arr: np.ndarray = np.sqrt(x * x + y * y)
    return arr


def _cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    arr: np.ndarray = a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0]
    return arr


def _dashes(line: Sequence[Point] | np.ndarray, dash: float, gap: float) -> list[list[Point]]:
    """``line`` (points, or an (n, 2) array of them) cut into dashes of length ``dash`` with
    ``gap`` between them."""
    out: list[list[Point]] = []
    cur: list[Point] = [line[0]]
    on, left = True, dash
    for (ax, ay), (bx, by) in itertools.pairwise(line):
        seg = math.hypot(bx - ax, by - ay)
        t = 0.0
        while seg - t > left:
            t += left
            p = (ax + (bx - ax) * t / seg, ay + (by - ay) * t / seg)
            if on:
                cur.append(p)
                out.append(cur)
            else:
                cur = [p]
            on = not on
            left = dash if on else gap
        left -= seg - t
        if on:
            cur.append((bx, by))
    if on and len(cur) >= 2:
        out.append(cur)
    return out


def newest_curves(
    drawing: DrawingLike, pts: np.ndarray, sizes: np.ndarray
) -> tuple[SpotLike | None, list[int]]:
    """The spot the latest move created (the highest number) and the indices of the curves
    through it or ending at it (``pts``, ``sizes``: :func:`curve_points`)."""
    spots = list(drawing.spots)
    if not spots:
        return None, []
    spot = max(spots, key=lambda s: s.number)
    near = np.abs(pts - (float(spot.x), float(spot.y))) < 1e-9
    curve = np.repeat(np.arange(len(sizes)), sizes)
    return spot, np.unique(curve[near[:, 0] & near[:, 1]]).tolist()


# -- the picture -------------------------------------------------------------------------------


# The paper with the curves in ink (all but the newest), by their pixels: the previewed
# move's picture and the board after it is played share it, and so do the places of one match
# (their views differ only in the header). Pictures are drawn in worker threads.
_inked: Recent[tuple[Layout, tuple[int, ...], bytes], np.ndarray] = Recent(4)


def board_png(game: SproutsShown, view: View) -> bytes:
    """The Sprouts drawing as PNG bytes."""
    return png_array(_board_array(game, view))


def board_image(game: SproutsShown, view: View) -> Image.Image:
    return Image.fromarray(_board_array(game, view))


Scene = tuple[DrawingLike, Layout, Fit, list[np.ndarray], SpotLike | None, list[int]]


def scene(game: SproutsShown, trial: SproutsShown | None, view: View) -> Scene:
    """What the picture shows: the drawing, its layout and fit, the curves in pixels, the
    spot to ring and the newest curves (the candidate's, for a ``trial``: the game after a
    previewed move)."""
    sketch = None if trial is None else sketch_of(trial.drawing)
    spot: SpotLike | None
    framed = None if sketch is None else preview_frame(game.drawing, sketch, view)
    if framed is not None and sketch is not None and _crowds(sketch, *framed[:2]):
        # The route as drawn (a loop round an empty inside is a thin one) would hide the new
        # spot under another: show the drawing the move makes once tidied, as it will be.
        framed = None
    if framed is not None and sketch is not None:
        # A preview over the position's own drawing: what is there stays where it is.
        drawing = sketch
        lay, fit, smoothed = framed
        curves = [fit.array(c) for c in smoothed]
        spot, newest = drawing.spots[-1], [len(curves) - 2, len(curves) - 1]
    else:
        drawing = (game if trial is None else trial).drawing
        pts, sizes = curve_points(drawing)
        lay, fit = layout_of(drawing, view, pts)
        curves = [fit.array(c) for c in smooth_curves(drawing, Room.of(lay, fit.k))]
        mark = trial is not None or (view.get("last", True) and game.ply > 0)
        spot, newest = newest_curves(drawing, pts, sizes) if mark else (None, [])
    return drawing, lay, fit, curves, spot, newest


def _board_array(game: SproutsShown, view: View) -> np.ndarray:
    """The picture as an index array, composed in numpy all through (Pillow draws only the
    header's strip): a Pillow image of the whole would be copied once more to be drawn on,
    and again to be encoded."""
    view = view or {}
    trial = _preview(game, view.get("preview", _marked(game, view)))
    drawing, lay, fit, curves, spot, newest = scene(game, trial, view)
    ink = [c for i, c in enumerate(curves) if i not in newest]
    key = (lay, tuple(len(c) for c in ink), b"".join(c.tobytes() for c in ink))
    base = _inked.get(key)
    if base is None:
        base = _paper_array(lay).copy()
        _stroke_into(base, ink, lay.curve_width, INK)
        base.flags.writeable = False
        _inked.put(key, base)
    canvas = base.copy()
    mover = (game.ply - 1) % game.players
    r = lay.spot_radius
    ring_r, thick = lay.new_spot_ring
    if trial is not None:
        # The move being chosen: the drawing as it would be, the new curve dashed.
        lines = [d for i in newest for d in _dashes(curves[i], *lay.preview_dash)]
        _stroke_into(canvas, lines, lay.preview_width, PLAYER[game.turn % 4])
    elif newest:
        _stroke_into(canvas, [curves[i] for i in newest], lay.newest_width, PLAYER[mover % 4])
    for s in drawing.spots:
        _spot(s.number, max(0, min(3, int(s.lives))), r).put_into(
            canvas, *fit((float(s.x), float(s.y)))
        )
    at = None if spot is None else fit((float(spot.x), float(spot.y)))
    if at is not None and trial is None:
        ring_sprite(ring_r, thick, PLAYER_DARK[mover % 4], PAPER).put_into(canvas, *at)
    if at is not None and trial is not None:
        _dashed_ring(canvas, at, ring_r, thick, PLAYER_DARK[game.turn % 4])
    strip = Image.frombytes("L", (lay.width, header_height(lay.u)), canvas[: header_height(lay.u)])
    draw_header(strip, header(game, view, lay), lay.u)
    canvas[: strip.height] = np.asarray(strip)
    return canvas


def _crowds(sketch: DrawingLike, lay: Layout, fit: Fit) -> bool:
    """Whether the sketch's new spot (its last) would be drawn over another spot's disc."""
    *old, new = (fit((float(s.x), float(s.y))) for s in sketch.spots)
    return any(math.dist(new, p) < CROWDED * lay.spot_radius for p in old)


def _dashed_ring(canvas: np.ndarray, at: Point, radius: float, width: float, fg: RGB) -> None:
    """A dashed circle: the spot a previewed move would create."""
    cx, cy = at
    n = 12
    lines = []
    for k in range(n):
        a0 = 2 * math.pi * k / n
        arc = [a0 + t * math.pi / n / 4 for t in range(5)]  # half of each 1/n turn is ink
        lines.append([(cx + radius * math.cos(a), cy + radius * math.sin(a)) for a in arc])
    _stroke_into(canvas, lines, width, fg)


def sketch_of(drawing: DrawingLike) -> DrawingLike | None:
    """The drawing a move made as it was routed, over its parent's spots and curves, before
    the tidy moved them (``Drawing.sketch``; None when not known, e.g. rebuilt from JSON)."""
    sketch = getattr(drawing, "sketch", None)
    return sketch if sketch is not None and sketch.curves else None


def preview_frame(
    parent: DrawingLike, sketch: DrawingLike, view: View
) -> tuple[Layout, Fit, tuple[np.ndarray, ...]]:
    """The layout, fit and smoothed curves (drawing units) of a preview whose candidate is
    ``sketch`` (:func:`sketch_of`) over the position's drawing ``parent``. Every preview of
    one position has the same frame, ``parent`` with its sheet (a routed curve stays on the
    sheet) in the board's layout, and the same old curves, smoothed as in ``parent``
    alone: only the candidate's two curves and its spot differ from one preview to the
    next."""
    pts = curve_points(parent)[0]
    lay = layout_of(parent, view, pts)[0]  # the board's own: the picture keeps its size
    w, h = getattr(parent, "width", 0.0), getattr(parent, "height", 0.0)
    sheet = np.asarray([(0.0, 0.0), (float(w), float(h))]) if w and h else np.empty((0, 2))
    fit = Fit(lay, np.concatenate([spot_points(parent), pts, sheet]))
    room = Room.of(lay, fit.k)
    old = smooth_curves(parent, room)
    return lay, fit, (*old, *smooth_curves(sketch, room)[len(old) :])


def _marked(game: SproutsShown, view: View) -> object:
    """The move a lesson page is about: the first of ``view["marks"]`` (notation), or None
    without marks or when it names no move here (a view may come from a stored record)."""
    marks = view.get("marks")
    if not marks:
        return None
    try:
        return game.parse_move(str(marks[0]))
    except EngineError:
        return None


def _preview(game: SproutsShown, move: object) -> SproutsShown | None:
    """The game after the candidate ``move``, played on a copy (None without a preview, or
    when the move cannot be played: the picture then shows the game as it is)."""
    if move is None or game.over:
        return None
    trial = game.copy()
    try:
        trial.play(move)
    except EngineError:
        return None
    return trial


def header(game: SproutsShown, view: View, lay: Layout | None = None) -> Header:
    """The header strip's words (``lay``: the picture's layout, worked out if not given)."""
    lang = lang_of(view)
    lay = lay or layout(game, view)[0]
    moves = game.moves
    opts = game.options
    title = f"{say(lang, 'game.sprouts')} · {say(lang, 'spots', n=opts.get('spots', '?'))}"
    if opts.get("misere"):
        title += f" · {say(lang, 'misere')}"
    return make_header(
        game,
        view,
        lang,
        title=title,
        scores=False,
        # The picture marks the newest curve itself: its two spots say enough.
        last=f"{moves[-1].a}–{moves[-1].b}" if moves else None,
        width=lay.width,
        u=lay.u,
    )


WARM_SPOTS = 16  # spot sprites drawn ahead at start-up: numbers 1..16, 0-3 lives each


def warm() -> None:
    """Load the picture's compiled kernels now (the first time on an install: compile them,
    several seconds of CPU), e.g. at start-up, by drawing a small game and a preview, rather
    than inside the first picture someone waits for."""
    from engine.sprouts import Game

    g = Game(3)
    for lang, names in (("en", ["Ann", "Bot"]), ("ru", ["Аня", "Бот"])):
        # a new game's first preview, with a header in each language (glyphs, text sprites)
        view: View = {"lang": lang, "players": names}
        board_png(g, {**view, "preview": g.legal_moves()[0]})
    for _ in range(2):
        g.play(g.legal_moves()[0])
    board_png(g, {})
    board_png(g, {"preview": g.legal_moves()[0]})
    r = sprouts_layout(scale_of({})[0], 1.0).spot_radius
    for number in range(1, WARM_SPOTS + 1):  # the spots of an early picture, every life count
        for lives in range(4):
            _spot(number, lives, r)
