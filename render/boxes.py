"""Точки и квадраты: dots on squared paper (two paper squares to a box), lines in the colour
of the player who drew them, taken boxes tinted with the owner's colour, marker and initial.
Палочки's outline, drawn before the game by nobody, is in the dots' ink, as a pencil drew it.

The paper, grid, coordinate labels and the dots are one cached layer per board; a picture
copies it and draws only the lines and boxes.
"""

from __future__ import annotations

import contextlib
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.boxes import Game as BoxesGame
from engine.boxes import Move
from engine.core import EngineError
from render.common import (
    GRID,
    INK,
    MARKERS,
    MUTED,
    PAPER,
    PAPER_I,
    PLAYER,
    PLAYER_DARK,
    Header,
    Sprite,
    body_ramp,
    body_sprite,
    color,
    dashed,
    draw_header,
    draw_text,
    font,
    grid_paper,
    ink,
    make_header,
    mix,
    player_names,
    png,
    scale_of,
    tint_lut,
)
from render.geometry import BoxesLayout as Layout
from render.geometry import boxes_layout
from render.palette import BOX_ALPHA, HALO_MIX
from render.strings import lang_of, say
from render.view import View

HALO = mix(PAPER, INK, HALO_MIX)  # a pencil shadow under the last turn's lines


def layout(game: BoxesGame, view: View | None = None) -> Layout:
    """The geometry of ``game``'s picture for ``view`` (tests use it to find pixels)."""
    size, _ = scale_of(view or {})
    return boxes_layout(game.rows, game.cols, size)


def board_dots(mask: tuple[str, ...]) -> list[tuple[int, int]]:
    """The dots of a (possibly shaped) board: the corners of its boxes."""
    found: set[tuple[int, int]] = set()
    for r, row in enumerate(mask):
        for c, ch in enumerate(row):
            if ch == "#":
                found.update(((r, c), (r + 1, c), (r, c + 1), (r + 1, c + 1)))
    return sorted(found)


def _dot_sprite(lay: Layout) -> Sprite:
    r = lay.dot_radius
    return body_sprite("circle", r, r, PAPER, INK, INK)


@lru_cache(maxsize=8)
def _paper(lay: Layout, mask: tuple[str, ...]) -> Image.Image:
    """Paper with a grid of half-box squares, the coordinate labels and the dots."""
    c = lay.cell
    x0, y0 = lay.xy(0, 0)
    x1, y1 = lay.xy(lay.rows, lay.cols)
    m = lay.overhang
    img = grid_paper(
        (lay.width, lay.height),
        (x0 - m, y0 - m, x1 + m, y1 + m),
        c / 2,
        (x0, y0),
        max(1, round(2 * lay.u)),
    )
    f = font(lay.label_px)
    style = ink(MUTED)
    gap = lay.label_gap
    for col in range(lay.cols + 1):
        draw_text(img, (lay.xy(0, col)[0], y1 + gap), chr(ord("a") + col), f, style, "mm")
    for row in range(lay.rows + 1):
        draw_text(img, (x0 - gap, lay.xy(row, 0)[1]), str(lay.rows - row + 1), f, style, "mm")
    dot = _dot_sprite(lay)
    for r, col in board_dots(mask):
        dot.put(img, *lay.xy(r, col))
    return img


@lru_cache(maxsize=4)
def _box_lut(player: int) -> tuple[int, ...]:
    statics = {PAPER_I, color(GRID), *ink(MUTED).ramp, *_dot_ramp()}
    return tint_lut(sorted(statics), PLAYER[player], BOX_ALPHA)


def _dot_ramp() -> tuple[int, ...]:
    return body_ramp(PAPER, INK, INK)


# Cyrillic capitals that look like Latin ones: "В" for Вера and "B" for Bob would clash.
_LOOKALIKE = str.maketrans("АВЕКМНОРСТХУ", "ABEKMHOPCTXY")


def initials(names: list[str]) -> list[str]:
    """One letter per player for the taken boxes; seat numbers when two letters clash (or
    merely look alike)."""
    letters = [next((ch.upper() for ch in n if ch.isalnum()), "?") for n in names]
    if len({x.translate(_LOOKALIKE) for x in letters}) < len(letters):
        return [str(i + 1) for i in range(len(names))]
    return letters


# -- drawing --------------------------------------------------------------------------------


def board_png(game: BoxesGame, view: View) -> bytes:
    """The Dots and Boxes board as PNG bytes."""
    return png(board_image(game, view))


def board_image(game: BoxesGame, view: View) -> Image.Image:
    view = view or {}
    lang = lang_of(view)
    lay = layout(game, view)
    img = _paper(lay, tuple(game.mask)).copy()
    draw = ImageDraw.Draw(img)
    names = player_names(view, lang, game.players)
    taken = game.taken_boxes()
    letters = initials(names)
    for (r, c), owner in taken.items():
        _draw_box(img, lay, r, c, owner, letters[owner])
    lines = game.drawn_lines()
    w = lay.line_width
    if view.get("labels"):
        _draw_guides(img, lay, game, lines, taken)
    outline = game.outline_lines()
    for m in outline:
        draw.line(line_ends(lay, m), fill=color(INK), width=w)
    marked = _marked(game, view)
    if marked is not None or view.get("last", True):
        halo = color(HALO)
        for m in game.last_turn if marked is None else marked:
            draw.line(line_ends(lay, m), fill=halo, width=lay.halo_width)
    for m, owner in lines.items():
        draw.line(line_ends(lay, m), fill=color(PLAYER[owner]), width=w)
    if lines or outline or view.get("labels"):  # the dots go back over the lines and guides
        dot = _dot_sprite(lay)
        for r, c in board_dots(tuple(game.mask)):
            dot.put(img, *lay.xy(r, c))
    draw_header(img, header(game, view, lay), lay.u)
    return img


def _marked(game: BoxesGame, view: View) -> list[Move] | None:
    """The lines ``view["marks"]`` names (None without marks; a name that is no line of this
    board is left out, as a view may come from a stored record)."""
    marks = view.get("marks")
    if marks is None:
        return None
    found = []
    for name in marks:
        with contextlib.suppress(EngineError):
            found.append(game.parse_move(name))
    return found


def line_ends(lay: Layout, m: Move) -> list[tuple[int, int]]:
    if m.orient == "h":
        return [lay.xy(m.r, m.c), lay.xy(m.r, m.c + 1)]
    return [lay.xy(m.r, m.c), lay.xy(m.r + 1, m.c)]


def _draw_box(img: Image.Image, lay: Layout, r: int, c: int, owner: int, letter: str) -> None:
    """A taken box: tinted in the owner's colour, with the owner's marker and initial."""
    (x0, y0), (x1, y1) = lay.xy(r, c), lay.xy(r + 1, c + 1)
    box = (x0, y0, x1, y1)
    img.paste(img.crop(box).point(_box_lut(owner)), box[:2])
    bg = mix(PAPER, PLAYER[owner], BOX_ALPHA)
    f = font(lay.letter_px, bold=True)
    draw_text(img, ((x0 + x1) / 2, (y0 + y1) / 2), letter, f, ink(PLAYER_DARK[owner], bg), "mm")
    mr, inset = lay.marker
    sprite = body_sprite(
        MARKERS[owner], mr, max(1.0, mr / 4), bg, PLAYER_DARK[owner], PLAYER[owner]
    )
    sprite.put(img, x0 + inset, y0 + inset)


def _draw_guides(
    img: Image.Image,
    lay: Layout,
    game: BoxesGame,
    lines: dict[Move, int],
    taken: dict[tuple[int, int], int],
) -> None:
    """What the keyboard offers: the free lines dashed, the open boxes named."""
    for m in game.all_lines():
        if m not in lines and not game.is_outline(m):
            (x, y), _ = line_ends(lay, m)
            (dx, dy), ink_, mask = _guide(lay, m.orient)
            img.paste(ink_, (x + dx, y + dy), mask)
    f = font(max(9, round(0.2 * lay.cell)))
    style = ink(MUTED)
    for r, c in game.all_boxes():
        if (r, c) not in taken:
            (x0, y0), (x1, y1) = lay.xy(r, c), lay.xy(r + 1, c + 1)
            draw_text(img, ((x0 + x1) / 2, (y0 + y1) / 2), game.dot_name(r + 1, c), f, style, "mm")


@lru_cache(maxsize=16)
def _guide(lay: Layout, orient: str) -> tuple[tuple[int, int], Image.Image, Image.Image]:
    """One free line, dashed, as a sprite (offset from its first dot, colour, mask): a 12×12
    board has 312 of them, and pasting a sprite is far cheaper than drawing every dash."""
    w = max(2, lay.line_width // 3)
    dash = lay.cell * 0.12
    pad = w
    size = (lay.cell + 2 * pad, 2 * pad) if orient == "h" else (2 * pad, lay.cell + 2 * pad)
    mask = Image.new("L", size, 0)
    end = (pad + lay.cell, pad) if orient == "h" else (pad, pad + lay.cell)
    dashed(ImageDraw.Draw(mask), (pad, pad), end, 255, w, dash, dash)
    return (-pad, -pad), Image.new("L", size, color(mix(PAPER, MUTED, 0.55))), mask


def header(game: BoxesGame, view: View, lay: Layout | None = None) -> Header:
    """The header strip's words (``lay``: the picture's layout, worked out if not given)."""
    lang = lang_of(view)
    lay = lay or layout(game, view)
    turn = game.last_turn
    last = None
    if turn:
        last = game.format_move(turn[-1]) + (f" (+{len(turn) - 1})" if len(turn) > 1 else "")
    size = game.shape or f"{game.rows}×{game.cols}"
    name = say(lang, "game.palochki" if game.border else "game.boxes")
    return make_header(
        game,
        view,
        lang,
        title=f"{name} · {size}",
        scores=True,
        last=last,
        width=lay.width,
        u=lay.u,
    )
