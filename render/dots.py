"""Точки: the board on squared paper, dots at the crossings.

Speed comes from two things. The paper, grid and coordinate labels are one cached layer
(with tinted twins for the captured areas). And the dots are not drawn one by one: a tiny
image holds one byte per point saying what stands there, it is scaled up to the board
(one block per point) and added to a cached tile image of the dot shapes; one lookup
table then turns "what stands here" + "which part of the shape" into palette indices.
That is five whole-image operations whatever the number of dots.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw

from engine.core import EngineError
from engine.dots import Cell
from engine.dots import Game as DotsGame
from engine.recent import Recent
from render.common import (
    GRID,
    INK,
    MUTED,
    PAPER,
    PAPER_I,
    PLAYER,
    PLAYER_DARK,
    Header,
    body_levels,
    body_ramp,
    color,
    dashed,
    draw_header,
    draw_text,
    font,
    grid_paper,
    ink,
    make_header,
    mix,
    png,
    ring_sprite,
    scale_of,
    tint_lut,
)
from render.geometry import DotsLayout as Layout
from render.geometry import dots_layout
from render.palette import DOTS_FILL_ALPHA, DOTS_FRAME, DOTS_ZONE_ALPHA
from render.strings import lang_of, say
from render.view import View

SHAPES = ("circle", "square")  # player 0, player 1
FILL_ALPHA = DOTS_FILL_ALPHA
ZONE_TINT, ZONE_ALPHA = INK, DOTS_ZONE_ALPHA
FRAME = DOTS_FRAME  # the keyboard's window and the map's parts
LETTERS = "abcdefghijklmnopqrstuvwxyz"


def column_name(x: int) -> str:
    """The engine's column notation: a–z, then aa, ab…"""
    return LETTERS[x] if x < 26 else "a" + LETTERS[x - 26]


def layout(game: DotsGame, view: View | None = None) -> Layout:
    """The geometry of ``game``'s picture for ``view`` (tests use it to find pixels)."""
    size, _ = scale_of(view or {})
    return dots_layout(game.width, game.height, size)


# -- cached layers ------------------------------------------------------------------------


@lru_cache(maxsize=8)
def _paper(lay: Layout) -> Image.Image:
    """Paper, grid and the coordinate labels on all four sides."""
    s, h = lay.step, lay.step // 2
    x0, y0, x1, y1 = lay.board_box
    img = grid_paper(
        (lay.width, lay.height),
        (x0, y0, x1 - 1, y1 - 1),
        s,
        (x0 + h, y0 + h),
        max(1, round(2 * lay.u)),
    )
    f = font(lay.label_px)
    style = ink(MUTED)
    mid = lay.band // 2
    for x in range(lay.cols):
        cx = lay.xy(x, 0)[0]
        draw_text(img, (cx, y0 - mid), column_name(x), f, style, "mm")
        draw_text(img, (cx, y1 + mid), column_name(x), f, style, "mm")
    for y in range(lay.rows):
        cy = lay.xy(0, y)[1]
        label = str(lay.rows - y)
        draw_text(img, (x0 - mid, cy), label, f, style, "mm")
        draw_text(img, (x1 + mid, cy), label, f, style, "mm")
    return img


def _paper_colors() -> list[int]:
    return sorted({PAPER_I, color(GRID), *ink(MUTED).ramp})


def _tint(owner: int) -> tuple[tuple[int, int, int], tuple[int, ...]]:
    """The captured-area colour of ``owner`` over paper, and the lookup table that lays it
    over every colour of the paper layer."""
    lut = tint_lut(_paper_colors(), PLAYER[owner], FILL_ALPHA[owner])
    return mix(PAPER, PLAYER[owner], FILL_ALPHA[owner]), lut


@lru_cache(maxsize=8)
def _tinted_board(lay: Layout, owner: int) -> Image.Image:
    """The board area of the paper layer under ``owner``'s captured-area tint."""
    return _paper(lay).crop(lay.board_box).point(_tint(owner)[1])


@lru_cache(maxsize=8)
def _zone_lut() -> tuple[int, ...]:
    return tint_lut(_paper_colors(), ZONE_TINT, ZONE_ALPHA)


@lru_cache(maxsize=8)
def _shape_tiles(lay: Layout) -> Image.Image:
    """Over the whole board area, each point's block holds both shapes' level maps packed
    as ``circle * 6 + square`` (0–35)."""
    s = lay.step
    r, rim = lay.dot_radius, lay.dot_rim
    circle = body_levels("circle", s, r, rim).tobytes()
    square = body_levels("square", s, r, rim).tobytes()
    tile = Image.frombytes(
        "L", (s, s), bytes(c * 6 + q for c, q in zip(circle, square, strict=True))
    )
    row = Image.new("L", (lay.cols * s, s))
    for x in range(lay.cols):
        row.paste(tile, (x * s, 0))
    tiles = Image.new("L", (lay.cols * s, lay.rows * s))
    for y in range(lay.rows):
        tiles.paste(row, (0, y * s))
    return tiles


# What stands on a point: 0 nothing, then (player, state); a dot's look also depends on the
# tint under it. Codes are multiplied by 36 and added to the shape tiles.
LIVE, CAPTURED, HOME = 1, 3, 5  # + player: live on paper, captured, live in own area


@lru_cache(maxsize=4)
def _dot_luts() -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Lookup tables from ``code * 36 + circle * 6 + square`` to a palette index and a mask."""
    ramps: dict[int, tuple[str, tuple[int, ...]]] = {}
    for p in (0, 1):
        own_bg, _ = _tint(p)
        enemy_bg, _ = _tint(1 - p)
        ghost_fill = mix(PLAYER[p], enemy_bg, 0.72)
        ghost_line = mix(PLAYER_DARK[p], enemy_bg, 0.4)
        ramps[LIVE + p] = (SHAPES[p], body_ramp(PAPER, PLAYER_DARK[p], PLAYER[p]))
        ramps[CAPTURED + p] = (SHAPES[p], body_ramp(enemy_bg, ghost_line, ghost_fill))
        ramps[HOME + p] = (SHAPES[p], body_ramp(own_bg, PLAYER_DARK[p], PLAYER[p]))
    lut, mask = [0] * 256, [0] * 256
    for v in range(256):
        code, rest = divmod(v, 36)
        if code not in ramps:
            continue
        shape, ramp = ramps[code]
        level = rest // 6 if shape == "circle" else rest % 6
        if level:
            lut[v], mask[v] = ramp[level], 255
    return tuple(lut), tuple(mask)


# -- drawing --------------------------------------------------------------------------------


def board_png(game: DotsGame, view: View) -> bytes:
    """The Точки board as PNG bytes."""
    return png(board_image(game, view))


def board_image(game: DotsGame, view: View) -> Image.Image:
    """The picture as an index image (see :mod:`render.common`); replays reuse it."""
    view = view or {}
    lay = layout(game, view)
    img = _BODIES.body(lay, game).copy()
    parts = view.get("map")
    if parts is not None:
        _draw_map(img, lay, game, parts)
    for x, y in _ringed(game, view):
        ring_sprite(*lay.last_ring, INK, PAPER).put(img, *lay.xy(x, y))
    window = view.get("window")
    if window is not None:
        _draw_window(ImageDraw.Draw(img), lay, window)
    draw_header(img, header(game, view, lay), lay.u)
    return img


def _ringed(game: DotsGame, view: View) -> list[tuple[int, int]]:
    """The points ringed: those ``view["marks"]`` names (a lesson page's point: points in
    the game's notation, a name that is no point of this board left out, as a view may come
    from a stored record), else the last move unless ``last`` is off."""
    marks = view.get("marks")
    if marks is None:
        last = game.last_move
        return [] if last is None or not view.get("last", True) else [(last.x, last.y)]
    found = []
    for name in marks:
        with contextlib.suppress(EngineError):
            m = game.parse_move(name)
            found.append((m.x, m.y))
    return found


class Bodies:
    """Recent boards without their overlays (last-move ring, window, header), by position.

    A position is the territory plus the dots in the order placed (and the STOP ply, which
    decides who placed the later ones). Consecutive pictures of a game differ by a dot or
    two while the territory stays, so the board before is copied and the new dots stamped
    on it, exactly as the full drawing would have drawn them."""

    SIZE = 12  # boards kept (about 1.5 MB each at 1280 px)
    REACH = 4  # how many new dots may be stamped onto an earlier board

    def __init__(self) -> None:
        self._boards: Recent[tuple[Head, Points], Image.Image] = Recent(self.SIZE)

    def clear(self) -> None:
        self._boards.clear()

    def body(self, lay: Layout, game: DotsGame) -> Image.Image:
        t = territory(game)
        dots = dot_points(game)
        head = (lay, t, game.stop_ply if game.stopped_by is not None else None)
        found = self._boards.get((head, dots))
        if found is not None:
            return found
        img = None
        for k in range(1, min(self.REACH, len(dots)) + 1):
            before = self._boards.get((head, dots[:-k]))
            if before is not None:
                img = before.copy()
                for x, y in dots[-k:]:
                    _stamp(img, lay, x, y, _dot_code(game.cell(x, y)))
                break
        if img is None:
            img = _territory(lay, t).copy()
            _draw_dots(img, lay, game, dots)
        self._boards.put((head, dots), img)
        return img


_BODIES = Bodies()


Points = tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Territory:
    """What the rings make of the board: the first-move zone, the captures in the order made
    (owner, ring, and whether the ring's own dots were captured since), the empty bases. It
    changes only when a ring closes, so its drawing is cached across pictures."""

    zone: tuple[int, int, int, int] | None
    captures: tuple[tuple[int, Points, bool], ...]
    bases: tuple[tuple[int, Points], ...]


Head = tuple[Layout, Territory, int | None]  # the layout, territory and STOP ply of a board


def territory(game: DotsGame) -> Territory:
    z = game.zone
    return Territory(
        None if z is None else (z.x, z.y, z.width, z.height),
        tuple((c.owner, c.ring, game.cell(*c.ring[0]).captured) for c in game.captures),
        tuple((b.owner, b.ring) for b in game.bases),
    )


@lru_cache(maxsize=12)
def _territory(lay: Layout, t: Territory) -> Image.Image:
    """The paper with the zone, the captured areas, their rings and the bases drawn."""
    img = _paper(lay).copy()
    draw = ImageDraw.Draw(img)
    if t.zone is not None:
        _draw_zone(img, draw, lay, t.zone)
    for owner, ring, _ in t.captures:
        _fill_area(img, lay, owner, ring)
    for owner, ring, faded in t.captures:
        _draw_ring(draw, lay, owner, ring, faded)
    for owner, ring in t.bases:
        _draw_base(draw, lay, owner, ring)
    return img


def header(game: DotsGame, view: View, lay: Layout | None = None) -> Header:
    """The header strip's words (``lay``: the picture's layout, worked out if not given)."""
    lang = lang_of(view)
    lay = lay or layout(game, view)
    last = game.last_move
    playing: Callable[[Sequence[str]], str] | None = None
    if game.stopped_by is not None and not game.over:

        def playing(names: Sequence[str]) -> str:
            return say(lang, "stop", name=names[game.turn])

    elif game.zone is not None:

        def playing(names: Sequence[str]) -> str:
            return f"{say(lang, 'to_move', name=names[game.turn])} · {say(lang, 'zone')}"

    return make_header(
        game,
        view,
        lang,
        title=f"{say(lang, 'game.dots')} · {game.width}×{game.height}",
        scores=True,
        last=game.format_move(last) if last is not None else None,
        width=lay.width,
        u=lay.u,
        playing=playing,
    )


def _corners(
    lay: Layout, x0: int, y0: int, x1: int, y1: int, grow: float
) -> tuple[int, int, int, int]:
    (ax, ay), (bx, by) = lay.xy(x0, y0), lay.xy(x1, y1)
    g = round(grow)
    return (ax - g, ay - g, bx + g, by + g)


def _draw_zone(
    img: Image.Image, draw: ImageDraw.ImageDraw, lay: Layout, zone: tuple[int, int, int, int]
) -> None:
    x, y, w, h = zone
    box = _corners(lay, x, y, x + w - 1, y + h - 1, lay.zone_grow)
    img.paste(img.crop(box).point(_zone_lut()), box[:2])
    _dashed_box(draw, box, color(MUTED), lay.zone_width, lay.zone_dash)


def _dashed_box(
    draw: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    fill: int,
    width: int,
    pattern: tuple[float, float],
) -> None:
    x0, y0, x1, y1 = box
    dash, gap = pattern
    for a, b in (
        ((x0, y0), (x1, y0)),
        ((x1, y0), (x1, y1)),
        ((x1, y1), (x0, y1)),
        ((x0, y1), (x0, y0)),
    ):
        dashed(draw, a, b, fill, width, dash, gap)


def _fill_area(img: Image.Image, lay: Layout, owner: int, ring: Points) -> None:
    """Tint a captured area in its owner's colour, in the box round its ring (in the order
    made, a later capture paints over the earlier ones it holds)."""
    s, h = lay.step, lay.step // 2
    xs = [x for x, _ in ring]
    ys = [y for _, y in ring]
    left, top = min(xs) * s, min(ys) * s
    box = (left, top, (max(xs) + 1) * s, (max(ys) + 1) * s)  # in board-area pixels
    mask = Image.new("L", (box[2] - left, box[3] - top), 0)
    ImageDraw.Draw(mask).polygon([(x * s + h - left, y * s + h - top) for x, y in ring], fill=255)
    img.paste(_tinted_board(lay, owner).crop(box), (lay.bx + left, lay.by + top), mask)


def _draw_ring(
    draw: ImageDraw.ImageDraw, lay: Layout, owner: int, ring: Points, faded: bool
) -> None:
    """A capture's ring; faint when its dots were captured in turn (a liberation)."""
    width = lay.ring_width
    pts = [lay.xy(x, y) for x, y in ring]
    pts.append(pts[0])
    if faded:
        bg, _ = _tint(1 - owner)
        draw.line(pts, fill=color(mix(PLAYER_DARK[owner], bg, 0.55)), width=max(1, width // 2))
    else:
        draw.line(pts, fill=color(PLAYER_DARK[owner]), width=width)  # the dots cover the joints


def _draw_base(draw: ImageDraw.ImageDraw, lay: Layout, owner: int, ring: Points) -> None:
    """An empty ring: a thin dashed line in the owner's pale colour."""
    fill = color(mix(PLAYER[owner], PAPER, 0.35))
    width = lay.base_width
    pts = [lay.xy(x, y) for x, y in ring]
    for a, b in zip(pts, pts[1:] + pts[:1], strict=True):
        dashed(draw, a, b, fill, width, *lay.base_dash)


def dot_points(game: DotsGame) -> tuple[tuple[int, int], ...]:
    """Every dot in the order placed: the starting cross (not moves), then the moves."""
    cross = [(x, y) for x, y, _ in game.cross_points()]
    return tuple(cross + [(m.x, m.y) for m in game.moves])


def _dot_code(cell: Cell) -> int:
    """What a point shows (see LIVE, CAPTURED, HOME); 0 for no dot."""
    p = cell.dot
    if p is None:
        return 0
    if cell.area is None:
        return LIVE + p
    return HOME + p if cell.area == p else CAPTURED + p


def _draw_dots(img: Image.Image, lay: Layout, game: DotsGame, dots: Points) -> None:
    packed = _packed(lay, game, dots)
    lut, mask = _dot_luts()
    img.paste(packed.point(lut), lay.board_box[:2], packed.point(mask))


def _packed(lay: Layout, game: DotsGame, dots: Points) -> Image.Image:
    """Over the board area: what stands on each point (× 36) plus the shape tiles."""
    cols = lay.cols
    codes = bytearray(cols * lay.rows)
    for x, y in dots:
        codes[y * cols + x] = _dot_code(game.cell(x, y)) * 36
    tiny = Image.frombytes("L", (cols, lay.rows), bytes(codes))
    x0, y0, x1, y1 = lay.board_box
    blocks = tiny.resize((x1 - x0, y1 - y0), Image.Resampling.NEAREST)
    return ImageChops.add(blocks, _shape_tiles(lay))


def _dots_mask(lay: Layout, game: DotsGame) -> Image.Image:
    """Over the board area: 255 where a dot is drawn."""
    return _packed(lay, game, dot_points(game)).point(_dot_luts()[1])


@lru_cache(maxsize=64)
def _stamp_tile(lay: Layout, code: int) -> tuple[Image.Image, Image.Image]:
    """One point's block as :func:`_draw_dots` draws it for ``code``."""
    s = lay.step
    packed = _shape_tiles(lay).crop((0, 0, s, s)).point(lambda v: v + code * 36)
    lut, mask = _dot_luts()
    return packed.point(lut), packed.point(mask)


def _stamp(img: Image.Image, lay: Layout, x: int, y: int, code: int) -> None:
    if code:
        tile, mask = _stamp_tile(lay, code)
        img.paste(tile, (lay.bx + x * lay.step, lay.by + y * lay.step), mask)


def _draw_window(draw: ImageDraw.ImageDraw, lay: Layout, window: Sequence[int]) -> None:
    """The keyboard's viewport: ``[x0, y0, w, h]`` in points, y from the top; a light band
    half a step outside its points, so it crosses no dot inside or outside it."""
    box = _points_box(lay, window)
    if box is not None:
        draw.rounded_rectangle(
            box, radius=lay.step * 0.3, outline=color(FRAME), width=lay.frame_width
        )


def _points_box(lay: Layout, part: Sequence[int]) -> tuple[int, int, int, int] | None:
    """The pixel box round the points ``[x0, y0, w, h]`` (clipped to the board), its edges
    half a step outside them; None for a malformed or empty part."""
    try:
        x0, y0, w, h = (int(v) for v in part)
    except (TypeError, ValueError):
        return None
    x1 = min(lay.cols - 1, x0 + w - 1)
    y1 = min(lay.rows - 1, y0 + h - 1)
    x0, y0 = max(0, x0), max(0, y0)
    if x1 < x0 or y1 < y0:
        return None
    return _corners(lay, x0, y0, x1, y1, lay.step / 2)


def _draw_map(
    img: Image.Image, lay: Layout, game: DotsGame, parts: Sequence[Sequence[int]]
) -> None:
    """The keyboard's map: the board divided into its numbered parts (light lines, big light
    numbers under the dots), numbered from 1 as the map's buttons are."""
    boxes = [_points_box(lay, part) for part in parts] if isinstance(parts, Sequence) else []
    if not any(boxes):
        return
    board = img.crop(lay.board_box)
    draw = ImageDraw.Draw(img)
    style = ink(mix(FRAME, PAPER, 0.3))
    shown = [b for b in boxes if b is not None]
    px = min(min(round(0.6 * (b[3] - b[1])), round(0.45 * (b[2] - b[0]))) for b in shown)
    for k, box in enumerate(boxes):
        if box is None:
            continue
        x0, y0, x1, y1 = box
        draw_text(img, ((x0 + x1) / 2, (y0 + y1) / 2), str(k + 1), font(px, True), style, "mm")
        draw.rectangle(box, outline=color(FRAME), width=lay.frame_width // 2)
    img.paste(board, lay.board_box[:2], _dots_mask(lay, game))
