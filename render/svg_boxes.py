"""Точки и квадраты as SVG: the PNG's board (same layout, same palette) without the header.

User units are the PNG's pixels at its default size (1280). Every line that can still be
drawn is an element ``<line class="free" data-move="a1-b1" x1 y1 x2 y2/>`` (``data-move`` in
the engine's notation, what ``game.parse_move`` reads), drawn last so it lies on top; it has
no stroke of its own: a page that wants a wide invisible hit target styles ``.free`` itself.
The root also carries ``data-last`` (the latest turn's lines, space-separated notation).
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.boxes import Game as BoxesGame
from engine.boxes import Move
from render.boxes import board_dots, initials, line_ends
from render.common import MARKERS, REFERENCE, marker_outline, player_names
from render.geometry import BoxesLayout, boxes_layout
from render.palette import BOX_ALPHA
from render.strings import lang_of
from render.svg import FONT, escape, grid_path, num, root, steps
from render.view import View

SEATS = range(4)
RULES = (
    *((f".l{p}", f"stroke:var(--p{p})") for p in SEATS),  # a drawn line
    *((f".t{p}", f"fill:var(--p{p});fill-opacity:{BOX_ALPHA}") for p in SEATS),  # a taken box
    *((f".m{p}", f"fill:var(--p{p});stroke:var(--d{p})") for p in SEATS),  # its owner's marker
    *((f".n{p}", f"fill:var(--d{p})") for p in SEATS),  # and initial
    (".ol", "stroke:var(--ink)"),
    (".halo", "stroke:var(--halo)"),
    (".dt", "stroke:var(--ink)"),
    (".nm", f"font-family:{FONT};font-weight:bold;text-anchor:middle;dominant-baseline:central"),
    (".pv line", "stroke-opacity:.75"),
)


def layout(game: BoxesGame) -> BoxesLayout:
    return boxes_layout(game.rows, game.cols, REFERENCE)


def board_svg(game: BoxesGame, view: View) -> str:
    lay = layout(game)
    (x0, y0), (x1, y1) = lay.xy(0, 0), lay.xy(lay.rows, lay.cols)
    m, gap, px = lay.overhang, lay.label_gap, lay.label_px
    left, bottom = x0 - gap - px, y1 + gap + px  # room for the labels
    box = (left, y0 - m - px / 2, (x1 + m + px / 2) - left, bottom - (y0 - m - px / 2))
    turn = game.last_turn
    data = {"last": " ".join(game.format_move(t) for t in turn)}
    body = [_paper(lay)]
    names = player_names(view, lang_of(view), game.players)
    letters = initials(names)
    body += [_box(lay, r, c, o, letters[o]) for (r, c), o in game.taken_boxes().items()]
    w = lay.line_width
    outline = game.outline_lines()
    if outline:
        body.append(_lines(lay, outline, "ol", w))
    if turn and view.get("last", True):
        body.append(_lines(lay, turn, "halo", lay.halo_width))
    drawn = game.drawn_lines()
    for p in SEATS:
        mine = [mv for mv, o in drawn.items() if o == p]
        if mine:
            body.append(_lines(lay, mine, f"l{p}", w))
    body.append(_dot_path(lay, board_dots(tuple(game.mask))))
    free = [mv for mv in game.all_lines() if mv not in drawn and not game.is_outline(mv)]
    body.append("<g>" + "".join(_free(lay, game, mv) for mv in free) + "</g>")
    return root("boxes", box, view, data, RULES, body)


def preview_svg(game: BoxesGame, move: Move | str) -> str:
    """``move``'s line in the mover's colour and the boxes it would close, tinted."""
    mv = game.parse_move(move) if isinstance(move, str) else move
    trial = game.copy()
    trial.play(mv)  # raises IllegalMove
    lay = layout(game)
    before = game.taken_boxes()
    p = game.turn
    boxes = [
        _box(lay, r, c, o, "") for (r, c), o in trial.taken_boxes().items() if (r, c) not in before
    ]
    line = _lines(lay, [mv], f"l{p}", round(lay.line_width * 1.6))
    dots = _dot_path(lay, [(mv.r, mv.c), (mv.r + (mv.orient == "v"), mv.c + (mv.orient == "h"))])
    return f'<g class="pv" data-move="{game.format_move(mv)}">{"".join(boxes)}{line}{dots}</g>'


def _paper(lay: BoxesLayout) -> str:
    """The half-box squares round the board and the coordinate labels (left and below)."""
    (x0, y0), (x1, y1) = lay.xy(0, 0), lay.xy(lay.rows, lay.cols)
    m, half = lay.overhang, lay.cell / 2
    area = (x0 - m, y0 - m, x1 + m, y1 + m)
    grid = grid_path(
        steps(x0, half, area[0], area[2]), steps(y0, half, area[1], area[3]), area
    ).replace("/>", f' stroke-width="{max(1, round(2 * lay.u))}"/>')
    gap = lay.label_gap
    texts = [
        f'<text x="{lay.xy(0, col)[0]}" y="{y1 + gap}">{chr(ord("a") + col)}</text>'
        for col in range(lay.cols + 1)
    ]
    texts += [
        f'<text x="{x0 - gap}" y="{lay.xy(row, 0)[1]}">{lay.rows - row + 1}</text>'
        for row in range(lay.rows + 1)
    ]
    return grid + f'<g class="lb" font-size="{lay.label_px}">{"".join(texts)}</g>'


def _lines(lay: BoxesLayout, moves: Iterable[Move], cls: str, width: int) -> str:
    d = "".join(f"M{a[0]} {a[1]}L{b[0]} {b[1]}" for a, b in (line_ends(lay, mv) for mv in moves))
    return f'<path class="{cls}" d="{d}" stroke-width="{width}"/>'


def _dot_path(lay: BoxesLayout, dots: Iterable[tuple[int, int]]) -> str:
    d = "".join(f"M{x} {y}h0" for x, y in (lay.xy(r, c) for r, c in dots))
    width = num(2 * lay.dot_radius)
    return f'<path class="dt" d="{d}" stroke-width="{width}" stroke-linecap="round"/>'


def _box(lay: BoxesLayout, r: int, c: int, owner: int, letter: str) -> str:
    """A taken box: tinted, with its owner's marker in the corner and initial in the middle."""
    (x0, y0), (x1, y1) = lay.xy(r, c), lay.xy(r + 1, c + 1)
    out = f'<rect class="t{owner}" x="{x0}" y="{y0}" width="{x1 - x0}" height="{y1 - y0}"/>'
    if not letter:
        return out
    mr, inset = lay.marker
    cx, cy, rim = x0 + inset, y0 + inset, max(1.0, mr / 4)
    poly = marker_outline(MARKERS[owner], cx, cy, mr - rim / 2)
    if poly is None:
        shape = f'circle cx="{num(cx)}" cy="{num(cy)}" r="{num(mr - rim / 2)}"'
    else:
        shape = 'polygon points="' + " ".join(f"{num(x)},{num(y)}" for x, y in poly) + '"'
    out += f'<{shape} class="m{owner}" stroke-width="{num(rim)}"/>'
    return out + (
        f'<text class="nm n{owner}" x="{(x0 + x1) / 2:g}" y="{(y0 + y1) / 2:g}"'
        f' font-size="{lay.letter_px}">{escape(letter)}</text>'
    )


def _free(lay: BoxesLayout, game: BoxesGame, mv: Move) -> str:
    (ax, ay), (bx, by) = line_ends(lay, mv)
    return (
        f'<line class="free" data-move="{game.format_move(mv)}"'
        f' x1="{ax}" y1="{ay}" x2="{bx}" y2="{by}"/>'
    )
