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
  dashed ghost.

Curves are stroked into a coverage mask at twice the size and halved (supersampling), then
mapped through a colour ramp; spots are cached sprites (number, lives as three arcs).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageChops, ImageDraw

from engine.core import EngineError
from render.common import (
    INK,
    MUTED,
    PAPER,
    PLAYER,
    PLAYER_DARK,
    WHITE,
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
    png,
    ring_sprite,
    scale_of,
)
from render.strings import lang_of, say

SUPERSAMPLE = 2
Point = tuple[float, float]


@dataclass(frozen=True)
class Layout:
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


@lru_cache(maxsize=16)
def _layout(size: int, aspect: float) -> Layout:
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
    return Layout(width, top + bh + pad, u, (x0, top, x0 + bw, top + bh))


class Fit:
    """Maps drawing units to pixels, keeping the aspect ratio and a margin for the spots."""

    def __init__(self, lay: Layout, pts: list[Point]) -> None:
        xs = [p[0] for p in pts] or [0.0]
        ys = [p[1] for p in pts] or [0.0]
        self.x0, self.y0 = min(xs), min(ys)
        dw, dh = max(xs) - self.x0, max(ys) - self.y0
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


def layout(game: Any, view: dict[str, Any] | None = None) -> tuple[Layout, Fit]:
    """The canvas and the drawing-to-pixel map of ``game``'s picture (tests use it)."""
    size, _ = scale_of(view or {})
    pts = _all_points(game.drawing)
    extent = (view or {}).get("extent")
    if isinstance(extent, (list, tuple)) and len(extent) == 4:
        pts += [(float(extent[0]), float(extent[1])), (float(extent[2]), float(extent[3]))]
    xs = [p[0] for p in pts] or [0.0]
    ys = [p[1] for p in pts] or [0.0]
    w, h = max(xs) - min(xs), max(ys) - min(ys)
    # Aspect ratios in steps of 0.1, so a drawing that grows a little keeps its cached paper.
    lay = _layout(size, round(w / h, 1) if h > 0 and w > 0 else 1.0)
    return lay, Fit(lay, pts)


def replay_view(game: Any, view: dict[str, Any]) -> dict[str, Any]:
    """The view for every frame of ``game``'s replay: the final drawing's extent, so that
    frames share one size and scale (its snapshots share the final geometry) and nothing
    moves or zooms from frame to frame."""
    pts = _all_points(game.drawing)
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return {**view, "extent": [min(xs), min(ys), max(xs), max(ys)]}


def _all_points(drawing: Any) -> list[Point]:
    pts = [(float(s.x), float(s.y)) for s in drawing.spots]
    for c in drawing.curves:
        pts.extend((float(x), float(y)) for x, y in c.points)
    return pts


@lru_cache(maxsize=8)
def _paper(lay: Layout) -> Image.Image:
    x0, y0, x1, y1 = lay.box
    step = 40 * lay.u
    return grid_paper(
        (lay.width, lay.height),
        (x0, y0, x1, y1),
        step,
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


def _stroke(img: Image.Image, lines: list[list[Point]], width: float, fg: Any) -> None:
    """Anti-aliased polylines in one colour (supersampled coverage, then a colour ramp)."""
    lines = [ln for ln in lines if len(ln) >= 2]
    if not lines:
        return
    pad = width + 2
    x0 = int(min(x for ln in lines for x, _ in ln) - pad)
    y0 = int(min(y for ln in lines for _, y in ln) - pad)
    x1 = int(max(x for ln in lines for x, _ in ln) + pad) + 1
    y1 = int(max(y for ln in lines for _, y in ln) + pad) + 1
    x0, y0 = max(0, x0), max(0, y0)
    x1, y1 = min(img.width, x1), min(img.height, y1)
    if x1 <= x0 or y1 <= y0:
        return
    ss = SUPERSAMPLE
    big = Image.new("L", ((x1 - x0) * ss, (y1 - y0) * ss), 0)
    d = ImageDraw.Draw(big)
    w = max(1, round(width * ss))
    for ln in lines:
        pts = [((x - x0) * ss, (y - y0) * ss) for x, y in ln]
        d.line(pts, fill=255, width=w)
        # Round caps, and round joints where the line bends enough for a notch to show
        # (Pillow's own joint="curve" is Python-heavy and the curves have many vertices).
        for px, py in [pts[0], pts[-1], *_bends(pts)]:
            d.ellipse((px - w / 2, py - w / 2, px + w / 2, py + w / 2), fill=255)
    cover = big.reduce(ss)
    style = ink(fg)
    img.paste(cover.point(style.lut), (x0, y0), cover.point(style.mask))


BEND_COS = math.cos(math.radians(20))  # sharper turns than this get a round joint


def _bends(pts: list[Point]) -> list[Point]:
    """The inner vertices of a polyline where it turns by more than 20 degrees."""
    out = []
    for (ax, ay), (bx, by), (cx, cy) in zip(pts, pts[1:], pts[2:], strict=False):
        ux, uy, vx, vy = bx - ax, by - ay, cx - bx, cy - by
        norm = math.hypot(ux, uy) * math.hypot(vx, vy)
        if norm and (ux * vx + uy * vy) / norm < BEND_COS:
            out.append((bx, by))
    return out


def _dashes(line: list[Point], dash: float, gap: float) -> list[list[Point]]:
    """``line`` cut into dashes of length ``dash`` with ``gap`` between them."""
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


def _newest(drawing: Any) -> tuple[Any | None, list[int]]:
    """The spot the latest move created (the highest number) and the indices of the curves
    through it or ending at it."""
    spots = list(drawing.spots)
    if not spots:
        return None, []
    spot = max(spots, key=lambda s: s.number)
    at = (float(spot.x), float(spot.y))
    found = [
        i
        for i, c in enumerate(drawing.curves)
        if any(abs(float(x) - at[0]) < 1e-9 and abs(float(y) - at[1]) < 1e-9 for x, y in c.points)
    ]
    return spot, found


# -- the picture -------------------------------------------------------------------------------


def board_png(game: Any, view: dict[str, Any]) -> bytes:
    """The Sprouts drawing as PNG bytes."""
    return png(board_image(game, view))


def board_image(game: Any, view: dict[str, Any]) -> Image.Image:
    view = view or {}
    lang = lang_of(view)
    trial = _preview(game, view.get("preview"))
    shown = game if trial is None else trial
    lay, fit = layout(shown, view)
    img = _paper(lay).copy()
    drawing = shown.drawing
    curves = [[fit((float(x), float(y))) for x, y in c.points] for c in drawing.curves]
    mark = trial is not None or (view.get("last", True) and game.ply > 0)
    spot, newest = _newest(drawing) if mark else (None, [])
    _stroke(img, [c for i, c in enumerate(curves) if i not in newest], lay.curve_width, INK)
    mover = (game.ply - 1) % game.players
    r, thick = lay.spot_radius, max(2.0, 5 * lay.u)
    if trial is not None:
        # The move being chosen: the drawing as it would be, the new curve dashed.
        dash = 18 * lay.u
        lines = [d for i in newest for d in _dashes(curves[i], dash, dash * 0.7)]
        _stroke(img, lines, lay.curve_width * 1.6, PLAYER[game.turn % 4])
    elif newest:
        _stroke(img, [curves[i] for i in newest], lay.curve_width * 1.9, PLAYER[mover % 4])
    for s in drawing.spots:
        _spot(s.number, max(0, min(3, int(s.lives))), r).put(img, *fit((float(s.x), float(s.y))))
    if spot is not None:
        at = fit((float(spot.x), float(spot.y)))
        who = game.turn if trial is not None else mover
        if trial is not None:
            _dashed_ring(img, at, r * 1.75, thick, PLAYER_DARK[who % 4])
        else:
            ring_sprite(r * 1.75, thick, PLAYER_DARK[who % 4], PAPER).put(img, *at)
    draw_header(img, _header(game, view, lang), lay.u)
    return img


def _dashed_ring(img: Image.Image, at: Point, radius: float, width: float, fg: Any) -> None:
    """A dashed circle: the spot a previewed move would create."""
    cx, cy = at
    n = 12
    lines = []
    for k in range(n):
        a0 = 2 * math.pi * k / n
        arc = [a0 + t * math.pi / n / 4 for t in range(5)]  # half of each 1/n turn is ink
        lines.append([(cx + radius * math.cos(a), cy + radius * math.sin(a)) for a in arc])
    _stroke(img, lines, width, fg)


def _preview(game: Any, move: Any) -> Any | None:
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


def _header(game: Any, view: dict[str, Any], lang: str) -> Header:
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
        last=game.format_move(moves[-1]) if moves else None,
    )
