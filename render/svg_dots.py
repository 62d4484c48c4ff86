"""Точки as SVG: the PNG's board (same layout, same palette) without the header strip.

User units are the PNG's pixels at its default size (1280). The root ``<svg>`` carries
``data-grid='{"cols":C,"rows":R,"x0":X,"y0":Y,"step":S}'``: point (col, row), col 0 at the
left and row 0 at the TOP, is centred at (X + col·S, Y + row·S), and its move in the engine's
notation is ``column_name(col) + str(rows - row)`` (columns a–z, then aa, ab…; rows counted
from 1 at the bottom: (0, rows-1) is "a1"). ``data-last`` is the last move's notation ("" before
the first). A page finds the point nearest a tap by rounding ((x - X) / S, (y - Y) / S).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.dots import Game as DotsGame
from engine.dots import Move
from render.common import REFERENCE, SQUARE_HALF
from render.dots import SHAPES, column_name, dot_points, territory
from render.geometry import DotsLayout, dots_layout
from render.palette import DOTS_FILL_ALPHA, DOTS_ZONE_ALPHA
from render.svg import grid_path, num, root, steps
from render.view import View

Points = Sequence[tuple[int, int]]

RULES = (
    *((f".o{p}", f"stroke:var(--d{p})") for p in (0, 1)),  # a live dot: outline
    *((f".i{p}", f"stroke:var(--p{p})") for p in (0, 1)),  # and inside
    *((f".go{p}", f"stroke:var(--gl{p})") for p in (0, 1)),  # a captured dot
    *((f".gi{p}", f"stroke:var(--gf{p})") for p in (0, 1)),
    *((f".a{p}", f"fill:var(--p{p});fill-opacity:{DOTS_FILL_ALPHA[p]}") for p in (0, 1)),
    *((f".r{p}", f"stroke:var(--d{p});fill:none") for p in (0, 1)),
    *((f".rf{p}", f"stroke:var(--fade{p});fill:none") for p in (0, 1)),
    *((f".b{p}", f"stroke:var(--base{p});fill:none") for p in (0, 1)),
    (".zn", f"fill:var(--ink);fill-opacity:{DOTS_ZONE_ALPHA};stroke:var(--mu)"),
    (".pv .i0,.pv .i1,.pv .o0,.pv .o1", "stroke-opacity:.55"),
)


def layout(game: DotsGame) -> DotsLayout:
    return dots_layout(game.width, game.height, REFERENCE)


def board_svg(game: DotsGame, view: View) -> str:
    lay = layout(game)
    s, band, pad = lay.step, lay.band, lay.pad
    x0, y0, x1, y1 = lay.board_box
    box = (x0 - band - pad, y0 - band - pad, x1 - x0 + 2 * (band + pad), y1 - y0 + 2 * (band + pad))
    cx0, cy0 = lay.xy(0, 0)
    data = {
        "grid": {"cols": lay.cols, "rows": lay.rows, "x0": cx0, "y0": cy0, "step": s},
        "last": game.format_move(game.last_move) if game.last_move is not None else "",
    }
    body = [_paper(lay)]
    t = territory(game)
    if t.zone is not None:
        body.append(_zone(lay, t.zone))
    # A capture whose ring's dots were captured since lies inside a later capture, whose
    # tint covers it in the PNG; translucent tints would add up, so it gets none here.
    body += [_area(lay, owner, ring) for owner, ring, faded in t.captures if not faded]
    body += [_ring(lay, owner, ring, faded) for owner, ring, faded in t.captures]
    body += [_base(lay, owner, ring) for owner, ring in t.bases]
    body.append(_dots(lay, game))
    last = game.last_move
    if last is not None and view.get("last", True):
        r, w = lay.last_ring
        cx, cy = lay.xy(last.x, last.y)
        body.append(
            f'<circle class="lm" cx="{cx}" cy="{cy}" r="{num(r)}" stroke-width="{num(w)}"/>'
        )
    return root("dots", box, view, data, RULES, body)


def preview_svg(game: DotsGame, move: Move | str) -> str:
    """The ghost of ``move``: a translucent dot of the player to move, and each ring it
    would close dashed, with the area it would capture tinted."""
    m = game.parse_move(move) if isinstance(move, str) else move
    trial = game.copy()
    trial.play(m)  # raises IllegalMove
    lay = layout(game)
    before = len(game.captures)
    parts = []
    for c in trial.captures[before:]:
        parts.append(_area(lay, c.owner, c.ring))
        dash = f' stroke-dasharray="{num(lay.step * 0.4)} {num(lay.step * 0.25)}"'
        parts.append(_ring(lay, c.owner, c.ring, False).replace("/>", dash + "/>"))
    x, y = lay.xy(m.x, m.y)
    parts.append(_dot_paths(lay, [(x, y)], game.turn, "o", "i"))
    return f'<g class="pv" data-move="{game.format_move(m)}">{"".join(parts)}</g>'


def _paper(lay: DotsLayout) -> str:
    """Grid lines through the points inside the board area, labels on all four sides (as
    the PNG's paper layer)."""
    s, h = lay.step, lay.step // 2
    x0, y0, x1, y1 = lay.board_box
    xs = steps(x0 + h, s, x0, x1 - 1)
    ys = steps(y0 + h, s, y0, y1 - 1)
    grid = grid_path(xs, ys, (x0, y0, x1 - 1, y1 - 1)).replace(
        "/>", f' stroke-width="{max(1, round(2 * lay.u))}"/>'
    )
    mid = lay.band // 2
    texts = []
    for x in range(lay.cols):
        cx, name = lay.xy(x, 0)[0], column_name(x)
        texts.append(f'<text x="{cx}" y="{y0 - mid}">{name}</text>')
        texts.append(f'<text x="{cx}" y="{y1 + mid}">{name}</text>')
    for y in range(lay.rows):
        cy, label = lay.xy(0, y)[1], lay.rows - y
        texts.append(f'<text x="{x0 - mid}" y="{cy}">{label}</text>')
        texts.append(f'<text x="{x1 + mid}" y="{cy}">{label}</text>')
    return grid + f'<g class="lb" font-size="{lay.label_px}">{"".join(texts)}</g>'


def _points(lay: DotsLayout, ring: Iterable[tuple[int, int]]) -> str:
    return " ".join(f"{x},{y}" for x, y in (lay.xy(*p) for p in ring))


def _zone(lay: DotsLayout, zone: tuple[int, int, int, int]) -> str:
    x, y, w, h = zone
    g = round(lay.zone_grow)
    (ax, ay), (bx, by) = lay.xy(x, y), lay.xy(x + w - 1, y + h - 1)
    dash, gap = lay.zone_dash
    return (
        f'<rect class="zn" x="{ax - g}" y="{ay - g}" width="{bx - ax + 2 * g}"'
        f' height="{by - ay + 2 * g}" stroke-width="{lay.zone_width}"'
        f' stroke-dasharray="{num(dash)} {num(gap)}"/>'
    )


def _area(lay: DotsLayout, owner: int, ring: Points) -> str:
    return f'<polygon class="a{owner}" points="{_points(lay, ring)}"/>'


def _ring(lay: DotsLayout, owner: int, ring: Points, faded: bool) -> str:
    w = max(1, lay.ring_width // 2) if faded else lay.ring_width
    cls = f"rf{owner}" if faded else f"r{owner}"
    return (
        f'<polygon class="{cls}" points="{_points(lay, ring)}" stroke-width="{w}"'
        ' stroke-linejoin="round"/>'
    )


def _base(lay: DotsLayout, owner: int, ring: Points) -> str:
    dash, gap = lay.base_dash
    return (
        f'<polygon class="b{owner}" points="{_points(lay, ring)}" stroke-width="{lay.base_width}"'
        f' stroke-dasharray="{num(dash)} {num(gap)}"/>'
    )


def _dots(lay: DotsLayout, game: DotsGame) -> str:
    """Every dot as two zero-length strokes with round (player 0) or square (player 1) caps:
    the outline, then the inside over it; a few bytes a dot."""
    groups: dict[tuple[int, bool], list[tuple[int, int]]] = {}
    for x, y in dot_points(game):
        cell = game.cell(x, y)
        if cell.dot is not None:
            groups.setdefault((cell.dot, cell.captured), []).append(lay.xy(x, y))
    out = []
    for (p, captured), pts in sorted(groups.items()):
        out.append(_dot_paths(lay, pts, p, "go" if captured else "o", "gi" if captured else "i"))
    return "".join(out)


def _dot_paths(lay: DotsLayout, pts: Sequence[tuple[int, int]], p: int, out: str, inn: str) -> str:
    r, rim = lay.dot_radius, lay.dot_rim
    shape = SHAPES[p]
    k = SQUARE_HALF if shape == "square" else 1.0
    cap = "square" if shape == "square" else "round"
    d = "".join(f"M{x} {y}h0" for x, y in pts)
    return (
        f'<path class="{out}{p}" d="{d}" stroke-width="{num(2 * k * r)}" stroke-linecap="{cap}"/>'
        f'<path class="{inn}{p}" d="{d}" stroke-width="{num(2 * k * (r - rim))}"'
        f' stroke-linecap="{cap}"/>'
    )
