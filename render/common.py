"""What every picture shares: colours, fonts, the header strip, sprites and PNG encoding.

Pictures are drawn as 8-bit palette images: every drawing call writes palette *indices*
into an ``L`` image, and :func:`png` attaches the one shared palette at the end. Palette
images encode several times faster and smaller than RGB (the PNG encoder dominates the
time budget). Anti-aliasing still works: shapes and text are rendered as coverage masks
and mapped through short colour ramps between the background and the ink, so an edge
pixel gets the palette entry of the blend (exact on a plain background, which is where
we draw text and dots).

Translucent fills (captured areas, highlighted zones) are palette remaps: each colour of
a static layer gets a tinted twin, and a fill maps indices through that lookup table.
"""

from __future__ import annotations

import io
import struct
import threading
import unicodedata
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from types import ModuleType

import numpy as np
from PIL import Image, ImageChops, ImageDraw, ImageFont

from engine.core import GameResult
from render.palette import (
    GRID,
    INK,
    MARGIN,
    MARKERS,
    MUTED,
    PAPER,
    PLAYER,
    PLAYER_DARK,
    RGB,
    WHITE,
    mix,
)
from render.strings import say
from render.view import Shown, View

# The colours defined in render.palette, re-exported (the module's own names need no list).
__all__ = [
    "GRID",
    "INK",
    "MARGIN",
    "MARKERS",
    "MUTED",
    "PAPER",
    "PLAYER",
    "PLAYER_DARK",
    "RGB",
    "WHITE",
    "mix",
]

_fast_zlib: ModuleType | None
try:  # ISA-L deflate: several times faster than zlib (see png())
    from isal import isal_zlib as _fast_zlib
except ImportError:  # pragma: no cover - the dependency is declared; this keeps pictures working
    _fast_zlib = None

REFERENCE = 1280  # the long side every size in this package is designed for
DEFAULT_SIZE = 1280
MIN_SIZE, MAX_SIZE = 320, 2560

# The colours live in render.palette (shared with the SVG renderer) and are imported from here.


class PaletteFull(RuntimeError):
    """More than 256 distinct colours were asked for: a design error, caught by the tests."""


class Palette:
    """The one shared 256-colour palette; entries are added once and never move."""

    def __init__(self) -> None:
        self._colors: list[RGB] = []
        self._index: dict[RGB, int] = {}
        self._lock = threading.Lock()
        self._data: bytes | None = None

    def add(self, rgb: RGB) -> int:
        with self._lock:
            i = self._index.get(rgb)
            if i is None:
                if len(self._colors) >= 256:
                    raise PaletteFull(f"no room for {rgb} in the palette")
                i = len(self._colors)
                self._colors.append(rgb)
                self._index[rgb] = i
                self._data = None
            return i

    def rgb(self, index: int) -> RGB:
        return self._colors[index]

    def __len__(self) -> int:
        return len(self._colors)

    @property
    def data(self) -> bytes:
        """The palette as Pillow wants it: 768 bytes of RGB."""
        data = self._data
        if data is None:
            flat = bytearray(768)
            for i, (r, g, b) in enumerate(self._colors):
                flat[3 * i : 3 * i + 3] = bytes((r, g, b))
            data = self._data = bytes(flat)
        return data


PALETTE = Palette()
PAPER_I = PALETTE.add(PAPER)  # index 0: a fresh image is blank paper


def color(rgb: RGB) -> int:
    return PALETTE.add(rgb)


@dataclass(frozen=True)
class Ink:
    """A colour ramp from a background to an ink colour, as lookup tables that turn an 8-bit
    coverage mask into palette indices (``lut``) and into a paste mask (``mask``)."""

    ramp: tuple[int, ...]
    lut: tuple[int, ...]
    mask: tuple[int, ...]

    @property
    def solid(self) -> int:
        return self.ramp[-1]


@lru_cache(maxsize=256)
def ink(fg: RGB, bg: RGB = PAPER, levels: int = 6) -> Ink:
    """Anti-aliasing ramp for ``fg`` drawn over ``bg`` (``levels`` steps, background first)."""
    ramp = tuple(color(mix(bg, fg, k / (levels - 1))) for k in range(levels))
    lut = tuple(ramp[round(v * (levels - 1) / 255)] for v in range(256))
    mask = tuple(255 if round(v * (levels - 1) / 255) else 0 for v in range(256))
    return Ink(ramp, lut, mask)


def tint_lut(indices: Sequence[int], tint: RGB, alpha: float) -> tuple[int, ...]:
    """A lookup table that lays a translucent ``tint`` over the given palette entries (and
    leaves every other entry alone)."""
    lut = list(range(256))
    for i in indices:
        lut[i] = color(mix(PALETTE.rgb(i), tint, alpha))
    return tuple(lut)


# -- fonts ----------------------------------------------------------------------------------

# DejaVu covers Latin and Cyrillic; Debian's fonts-dejavu-core (installed by the Dockerfile)
# puts it in the first place, other systems in the others.
FONT_DIRS = (
    Path("/usr/share/fonts/truetype/dejavu"),
    Path("/usr/share/fonts/dejavu"),
    Path("/usr/share/fonts/TTF"),
    Path("/usr/local/share/fonts"),
    Path("/Library/Fonts"),
)
FONT_FILES = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


@lru_cache(maxsize=64)
def font(px: int, bold: bool = False) -> Font:
    """DejaVu Sans at ``px`` pixels; Pillow's own font when DejaVu is nowhere to be found
    (Latin only: Cyrillic labels then show as boxes, so install fonts-dejavu-core)."""
    name = FONT_FILES[bold]
    for folder in FONT_DIRS:
        path = folder / name
        if path.is_file():
            return ImageFont.truetype(str(path), px)
    try:
        return ImageFont.truetype(name, px)  # Pillow searches the system font folders
    except OSError:
        return ImageFont.load_default(px)


@lru_cache(maxsize=2048)
def text_width(text: str, f: Font) -> float:
    """Cached: the header measures the same names and counters on every picture."""
    return float(f.getlength(text))


def fit(text: str, f: Font, width: float) -> str:
    """``text``, shortened with an ellipsis when it is wider than ``width`` pixels."""
    if text_width(text, f) <= width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if text_width(text[:mid].rstrip() + "…", f) <= width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + "…"


def draw_text(
    img: Image.Image, xy: tuple[float, float], text: str, f: Font, style: Ink, anchor: str = "la"
) -> tuple[int, int, int, int]:
    """Anti-aliased text at ``xy`` (Pillow anchor semantics); returns the box it covers."""
    x, y = round(xy[0]), round(xy[1])
    sprite = _text_sprite(text, f, style, anchor)
    if sprite is None:
        return (x, y, x, y)
    (dx, dy), pic, mask = sprite
    at = (x + dx, y + dy)
    img.paste(pic, at, mask)
    return (at[0], at[1], at[0] + pic.width, at[1] + pic.height)


@lru_cache(maxsize=512)
def _text_sprite(
    text: str, f: Font, style: Ink, anchor: str
) -> tuple[tuple[int, int], Image.Image, Image.Image] | None:
    """Rendered text, cached: names, titles and labels repeat from one picture to the next."""
    left, top, right, bottom = f.getbbox(text, anchor=anchor)
    w, h = int(right - left), int(bottom - top)
    if w <= 0 or h <= 0:
        return None
    cover = Image.new("L", (w, h), 0)
    ImageDraw.Draw(cover).text((-left, -top), text, font=f, fill=255, anchor=anchor)
    return (int(left), int(top)), cover.point(style.lut), cover.point(style.mask)


# -- shapes and sprites ----------------------------------------------------------------------

SUPERSAMPLE = 4
SQUARE_HALF = 0.88  # a square marker's half side, in radii (about a circle's area)


def marker_outline(shape: str, cx: float, cy: float, r: float) -> list[tuple[float, float]] | None:
    """The polygon of a marker shape of "radius" ``r`` (None for the circle); the shapes have
    about the same area so no player's marker looks bigger."""
    if shape == "square":
        h = r * SQUARE_HALF
        return [(cx - h, cy - h), (cx + h, cy - h), (cx + h, cy + h), (cx - h, cy + h)]
    if shape == "triangle":
        h = r * 1.18
        return [(cx, cy - h), (cx + h, cy + h * 0.74), (cx - h, cy + h * 0.74)]
    if shape == "diamond":
        h = r * 1.22
        return [(cx, cy - h), (cx + h, cy), (cx, cy + h), (cx - h, cy)]
    if shape == "circle":
        return None
    raise ValueError(f"unknown marker shape {shape!r}")


def coverage(shape: str, box: int, r: float) -> Image.Image:
    """An anti-aliased mask (``box``×``box``, 0–255) of ``shape`` with radius ``r`` centred in
    the box, drawn supersampled."""
    ss = SUPERSAMPLE
    big = Image.new("L", (box * ss, box * ss), 0)
    d = ImageDraw.Draw(big)
    c = box * ss / 2
    poly = marker_outline(shape, c, c, r * ss)
    if poly is None:
        d.ellipse((c - r * ss, c - r * ss, c + r * ss, c + r * ss), fill=255)
    else:
        d.polygon(poly, fill=255)
    return big.reduce(ss)


# A solid body with an outline, in 6 levels: 0 nothing, 1–2 the anti-aliased outer edge,
# 3 the outline, 4 between outline and fill, 5 the fill.
BODY_LEVELS = 6


def body_levels(shape: str, box: int, r: float, rim: float) -> Image.Image:
    """Level map (0–5, see BODY_LEVELS) of ``shape`` with an outline ``rim`` px wide."""
    outer = coverage(shape, box, r).tobytes()
    inner = coverage(shape, box, max(r - rim, 0.0)).tobytes() if rim > 0 else outer
    levels = bytearray(len(outer))
    for i, (a, b) in enumerate(zip(outer, inner, strict=True)):
        if a < 43:
            continue
        if a < 128:
            levels[i] = 1
        elif a < 213:
            levels[i] = 2
        else:
            levels[i] = 3 if b < 85 else 4 if b < 170 else 5
    return Image.frombytes("L", (box, box), bytes(levels))


def body_ramp(bg: RGB, outline: RGB, fill: RGB) -> tuple[int, ...]:
    """Palette indices for body levels 0–5 (level 0 is the background)."""
    return (
        color(bg),
        color(mix(bg, outline, 1 / 3)),
        color(mix(bg, outline, 2 / 3)),
        color(outline),
        color(mix(outline, fill, 0.5)),
        color(fill),
    )


@dataclass(frozen=True)
class Sprite:
    """A small picture in palette indices with its paste mask (0 or 255)."""

    img: Image.Image
    mask: Image.Image

    def put(self, canvas: Image.Image, cx: float, cy: float) -> None:
        w, h = self.img.size
        canvas.paste(self.img, (round(cx - w / 2), round(cy - h / 2)), self.mask)

    def put_into(self, canvas: np.ndarray, cx: float, cy: float) -> None:
        """:meth:`put` on a picture still an index array: the same pixels (the mask is 0 or
        255, so a paste only copies) for half of what Pillow's paste costs a sprite: a board
        puts dozens of them."""
        pic, mask = self._arrays
        h, w = pic.shape
        x0, y0 = round(cx - w / 2), round(cy - h / 2)
        left, top = max(0, -x0), max(0, -y0)
        right, bottom = min(w, canvas.shape[1] - x0), min(h, canvas.shape[0] - y0)
        if right <= left or bottom <= top:
            return
        np.copyto(
            canvas[y0 + top : y0 + bottom, x0 + left : x0 + right],
            pic[top:bottom, left:right],
            where=mask[top:bottom, left:right],
        )

    @cached_property
    def _arrays(self) -> tuple[np.ndarray, np.ndarray]:
        return np.asarray(self.img), np.asarray(self.mask) != 0


@lru_cache(maxsize=512)
def body_sprite(shape: str, r: float, rim: float, bg: RGB, outline: RGB, fill: RGB) -> Sprite:
    """A marker shape with an outline, anti-aliased against ``bg``."""
    box = int(2 * r * 1.3) + 3
    levels = body_levels(shape, box, r, rim)
    ramp = body_ramp(bg, outline, fill)
    lut = [ramp[v] if v < BODY_LEVELS else ramp[0] for v in range(256)]
    return Sprite(levels.point(lut), levels.point([255 if v else 0 for v in range(256)]))


@lru_cache(maxsize=128)
def ring_sprite(r: float, width: float, fg: RGB, bg: RGB) -> Sprite:
    """An anti-aliased circle outline (radius ``r`` to the middle of the stroke)."""
    box = int(2 * (r + width)) + 3
    outer = coverage("circle", box, r + width / 2)
    inner = coverage("circle", box, max(r - width / 2, 0.0))
    cover = ImageChops.subtract(outer, inner)
    style = ink(fg, bg)
    return Sprite(cover.point(style.lut), cover.point(style.mask))


def seat_marker(seat: int, r: float, bg: RGB = PAPER) -> Sprite:
    """Seat ``seat``'s marker (its shape, filled in its colour) as used in legends."""
    return body_sprite(
        MARKERS[seat % 4], r, max(1.0, r / 5), bg, PLAYER_DARK[seat % 4], PLAYER[seat % 4]
    )


# -- lines ------------------------------------------------------------------------------------


def dashed(
    draw: ImageDraw.ImageDraw,
    a: tuple[float, float],
    b: tuple[float, float],
    fill: int,
    width: int,
    dash: float,
    gap: float,
) -> None:
    """A dashed straight line from ``a`` to ``b``."""
    (x0, y0), (x1, y1) = a, b
    length = ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5
    if length == 0:
        return
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    t = 0.0
    while t < length:
        e = min(t + dash, length)
        draw.line([(x0 + ux * t, y0 + uy * t), (x0 + ux * e, y0 + uy * e)], fill=fill, width=width)
        t = e + gap


# -- the header strip ------------------------------------------------------------------------


@dataclass(frozen=True)
class Seat:
    name: str
    score: str | None  # None: the game keeps no score worth showing


@dataclass(frozen=True)
class Header:
    """Everything the strip above the board says."""

    title: str
    seats: tuple[Seat, ...]
    turn: int | None  # the seat to move, underlined; None when nobody is to move
    counter: str  # right of the title: move number and the last move
    status: str  # the bottom line: whose turn, STOP, the result, or the bot's own status
    final: bool
    move_only: str = ""  # the counter without the last move, when the title needs the room


@dataclass(frozen=True)
class HeaderText:
    """The header's words as they are drawn, each fitted to its room (and the room): what
    a phone shows, for the tests that measure it."""

    title: str
    title_room: float
    counter: str
    names: tuple[str, ...]
    name_rooms: tuple[float, ...]
    status: str
    status_room: float


HEADER_HEIGHT = 178  # at the reference size
# Fonts of the header at the reference size (scaled by ``u``).
TITLE_PX, COUNTER_PX, NAME_PX, STATUS_PX = 40, 32, 33, 33
PAD_PX = 36


def scale_of(view: View) -> tuple[int, float]:
    """The picture's long side from the view (clamped) and its scale against 1280 px."""
    size = view.get("size", DEFAULT_SIZE)
    if not isinstance(size, int) or isinstance(size, bool):
        size = DEFAULT_SIZE
    size = max(MIN_SIZE, min(MAX_SIZE, size))
    return size, size / REFERENCE


def header_height(u: float) -> int:
    return round(HEADER_HEIGHT * u)


# Emoji and other pictographs are not in DejaVu and would show as empty boxes: names lose
# them (symbols, private-use and unassigned characters, joiners and variation selectors).
_DROPPED_CATEGORIES = {"So", "Sk", "Cs", "Co", "Cn", "Cf"}
_DROPPED_MARKS = {0xFE0E, 0xFE0F, 0x20E3}


def printable(text: str) -> str:
    """``text`` without the characters the picture's font cannot show, spaces tidied."""
    kept = (
        ch
        for ch in text
        if unicodedata.category(ch) not in _DROPPED_CATEGORIES and ord(ch) not in _DROPPED_MARKS
    )
    return " ".join("".join(kept).split())


def player_names(view: View, lang: str, n: int) -> list[str]:
    """The seats' display names from the view, "Player k" for any that are missing (or
    would be empty once emoji are dropped)."""
    given = view.get("players")
    names = (
        [printable(str(x)) if x else "" for x in given] if isinstance(given, list | tuple) else []
    )
    return [
        names[i] if i < len(names) and names[i] else say(lang, "player", n=i + 1) for i in range(n)
    ]


def result_text(r: GameResult, names: Sequence[str], lang: str, with_score: bool) -> str:
    """ "Alice wins · 12 : 7 · Bob resigned" (or "Alice and Bob win · 3 : 3 : 0 : 0") from
    a game's result."""
    if len(r.winners) > 1:
        won = [names[i] for i in r.winners]
        both = say(lang, "and", a=", ".join(won[:-1]), b=won[-1])
        parts = [say(lang, "win_joint", names=both)]
    elif r.winner is None:
        parts = [say(lang, "draw")]
    else:
        parts = [say(lang, "wins", name=names[r.winner])]
    if with_score:
        parts.append(" : ".join(str(s) for s in r.scores))
    loser = names[r.loser] if r.loser is not None and r.loser < len(names) else "?"
    parts.append(say(lang, f"how.{r.reason}", loser=loser))
    return " · ".join(parts)


def make_header(
    game: Shown,
    view: View,
    lang: str,
    *,
    title: str,
    scores: bool,
    last: str | None,
    width: int,
    u: float,
    playing: Callable[[Sequence[str]], str] | None = None,
) -> Header:
    """The header of a ``width``-pixel picture at scale ``u`` from the shared game API;
    ``last`` is the latest move in the game's notation, ``playing`` (of the seats' names)
    replaces "X to move" while the game goes on (Dots STOP)."""
    names = player_names(view, lang, game.players)
    score = game.scores
    seats = tuple(Seat(names[i], str(score[i]) if scores else None) for i in range(game.players))
    move_only = say(lang, "move", n=game.ply)
    final = game.over
    if isinstance(view.get("status"), str) and view["status"]:
        status = printable(view["status"]) or view["status"]
    else:

        def status_of(shown: Sequence[str]) -> str:
            if game.result is not None:
                return result_text(game.result, shown, lang, scores)
            return playing(shown) if playing else say(lang, "to_move", name=shown[game.turn])

        room = width - 2 * round(PAD_PX * u)
        status = with_names_fitted(status_of, names, font(round(STATUS_PX * u), final), room)
    t = view.get("title")
    return Header(
        title=printable(t) if isinstance(t, str) and printable(t) else title,
        seats=seats,
        turn=None if final else game.turn,
        counter=move_only + (f" · {last}" if last else ""),
        status=status,
        final=final,
        move_only=move_only,
    )


def with_names_fitted(
    text_of: Callable[[Sequence[str]], str], names: Sequence[str], f: Font, room: float
) -> str:
    """``text_of(names)``, with the long names shortened (each to the same width, the widest
    that lets the line fit ``room``) rather than the line's end cut: "Победа: Алексан… ·
    12 : 7 · сдача: Bob" keeps the score and the reason."""
    text = text_of(names)
    if text_width(text, f) <= room:
        return text
    lo, hi = 0, int(room)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if text_width(text_of([fit(n, f, mid) for n in names]), f) <= room:
            lo = mid
        else:
            hi = mid - 1
    return fit(text_of([fit(n, f, lo) for n in names]), f, room)


def header_text(h: Header, width: int, u: float) -> HeaderText:
    """Each line of the header fitted to the room it has in a ``width``-pixel picture: the
    title first (the counter drops the last move if that lets the title fit whole), then a
    slot per seat for its name beside the marker and score, then the status line."""
    pad = round(PAD_PX * u)
    tf, cf = font(round(TITLE_PX * u), bold=True), font(round(COUNTER_PX * u))
    counter = h.counter

    def title_room(c: str) -> float:
        return width - 2 * pad - text_width(c, cf) - 24 * u

    if text_width(h.title, tf) > title_room(counter) and h.move_only:
        counter = h.move_only
    names, rooms = [], []
    slot = (width - 2 * pad) / max(1, len(h.seats))
    r = 15 * u
    sf = font(round(NAME_PX * u), bold=True)
    for i, seat in enumerate(h.seats):
        nf = font(round(NAME_PX * u), bold=h.turn == i)
        score = f"  {seat.score}" if seat.score is not None else ""
        room = slot - 2 * r - 14 * u - text_width(score, sf) - 16 * u
        names.append(fit(seat.name, nf, room))
        rooms.append(room)
    status_room = width - 2 * pad
    status = fit(h.status, font(round(STATUS_PX * u), bold=h.final), status_room)
    return HeaderText(
        title=fit(h.title, tf, title_room(counter)),
        title_room=title_room(counter),
        counter=counter,
        names=tuple(names),
        name_rooms=tuple(rooms),
        status=status,
        status_room=status_room,
    )


def draw_header(img: Image.Image, h: Header, u: float) -> None:
    """The strip at the top: title and move counter, the seats with colour, marker and score
    (the seat to move underlined in its colour), and a status line."""
    width = img.width
    pad = round(PAD_PX * u)
    dark, grey = ink(INK), ink(MUTED)
    d = ImageDraw.Draw(img)
    words = header_text(h, width, u)

    # Row 1: title, and the move counter at the right.
    y1 = round(48 * u)
    draw_text(img, (width - pad, y1), words.counter, font(round(COUNTER_PX * u)), grey, "rs")
    tf = font(round(TITLE_PX * u), bold=True)
    draw_text(img, (pad, y1), words.title, tf, dark, "ls")

    # Row 2: the seats.
    y2 = round(100 * u)
    n = max(1, len(h.seats))
    slot = (width - 2 * pad) / n
    r = 15 * u
    for i, seat in enumerate(h.seats):
        x = pad + i * slot
        seat_marker(i, r).put(img, x + r, y2 - 12 * u)
        mine = h.turn == i
        nf = font(round(NAME_PX * u), bold=mine)
        sf = font(round(NAME_PX * u), bold=True)
        score = f"  {seat.score}" if seat.score is not None else ""
        name = words.names[i]
        x_name = x + 2 * r + 12 * u
        box = draw_text(img, (x_name, y2), name, nf, dark, "ls")
        if score:
            draw_text(img, (box[2], y2), score, sf, dark, "ls")
        if mine:
            bar_y = y2 + 10 * u
            d.rounded_rectangle(
                (x, bar_y, x_name + text_width(name, nf) + text_width(score, sf), bar_y + 6 * u),
                radius=3 * u,
                fill=color(PLAYER[i % 4]),
            )

    # Row 3: status.
    y3 = round(152 * u)
    draw_text(img, (pad, y3), words.status, font(round(STATUS_PX * u), bold=h.final), dark, "ls")

    # The notebook's red margin line under the strip.
    y = header_height(u) - max(2, round(3 * u))
    d.rectangle((0, y, width, y + max(2, round(3 * u)) - 1), fill=color(MARGIN))


# -- paper and encoding ------------------------------------------------------------------------


def grid_paper(
    size: tuple[int, int],
    area: tuple[int, int, int, int],
    step: float,
    origin: tuple[float, float],
    width: int,
) -> Image.Image:
    """Blank paper with squared-paper lines inside ``area`` (x0, y0, x1, y1), ``step`` apart
    and passing through ``origin``."""
    img = Image.new("L", size, PAPER_I)
    d = ImageDraw.Draw(img)
    x0, y0, x1, y1 = area
    g = color(GRID)
    k = -int((origin[0] - x0) // step)
    while (x := origin[0] + k * step) <= x1:
        if x >= x0:
            d.line([(x, y0), (x, y1)], fill=g, width=width)
        k += 1
    k = -int((origin[1] - y0) // step)
    while (y := origin[1] + k * step) <= y1:
        if y >= y0:
            d.line([(x0, y), (x1, y)], fill=g, width=width)
        k += 1
    return img


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def to_palette_image(img: Image.Image) -> Image.Image:
    """The index image as a real palette image (a copy; ``img`` stays an index image)."""
    out = img.copy()
    out.putpalette(PALETTE.data)
    return out


def _chunk(tag: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))


def png(img: Image.Image) -> bytes:
    """Encode an index image as a palette PNG (see :func:`png_array`)."""
    if _fast_zlib is None:
        buf = io.BytesIO()
        to_palette_image(img).save(buf, "PNG", compress_level=1)
        return buf.getvalue()
    return png_array(np.asarray(img))


def png_array(pixels: np.ndarray) -> bytes:
    """Encode an index array (rows of palette indices) as a palette PNG.

    Deflate is most of a picture's cost, so when ISA-L (the ``isal`` package) is there the
    PNG is written here: each row gets filter byte 0 (a column of zeros in front) and ISA-L
    compresses at its level 1, about seven times faster than zlib's fastest level for the
    same size. Without it Pillow's encoder does the work."""
    if _fast_zlib is None:
        return png(Image.fromarray(pixels))
    h, w = pixels.shape
    rows = np.zeros((h, w + 1), dtype=np.uint8)
    rows[:, 1:] = pixels
    header = struct.pack(">IIBBBBB", w, h, 8, 3, 0, 0, 0)  # 8-bit palette, no interlace
    return b"".join(
        (
            PNG_SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", PALETTE.data[: 3 * len(PALETTE)]),
            _chunk(b"IDAT", _fast_zlib.compress(rows, 1)),
            _chunk(b"IEND", b""),
        )
    )
