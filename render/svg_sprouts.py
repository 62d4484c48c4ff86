"""Рассада as SVG: the PNG's drawing (same fit, same smoothed curves, same palette) without
the header strip.

User units are the PNG's pixels at its default size (1280). Each spot is
``<circle class="spot" data-spot="<number>" data-lives="<k>" cx cy r/>`` (a spot with no
lives left also has the class ``dead``), its number and its lives drawn over it. The root's
``data-units='{"scale":K,"dx":DX,"dy":DY}'`` maps the engine's drawing units (those of
``spot.x``/``spot.y`` and curve points) to user units: ``svg_x = x·K + DX``,
``svg_y = y·K + DY``, so a finger path in user units goes back as ``((X - DX) / K,
(Y - DY) / K)``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence

import numpy as np

from render.common import REFERENCE
from render.geometry import Fit, SproutsLayout
from render.sprouts import (
    LIFE_ARC,
    Room,
    curve_points,
    layout_of,
    newest_curves,
    preview_frame,
    sketch_of,
    smooth_curves,
    spot_points,
)
from render.svg import FONT, grid_path, num, root, steps
from render.view import DrawingLike, SpotLike, SproutsShown, View

SEATS = range(4)
RULES = (
    (".cv", "stroke:var(--ink);fill:none"),
    *((f".nw{p}", f"stroke:var(--p{p});fill:none") for p in SEATS),  # the newest curve
    *((f".nr{p}", f"stroke:var(--d{p});fill:none") for p in SEATS),  # round the newest spot
    (".spot", "fill:var(--spot);stroke:var(--ink)"),
    (".spot.dead", "fill:var(--dead);stroke:var(--mu)"),
    (".lf", "stroke:var(--ink);fill:none"),  # a life left
    (".lu", "stroke:var(--used);fill:none"),  # a life used up
    (
        ".sn",
        f"fill:var(--ink);font-family:{FONT};font-weight:bold;text-anchor:middle;"
        "dominant-baseline:central;pointer-events:none",
    ),
    (".sn.dead", "fill:var(--mu)"),
)


def fitted(game: SproutsShown) -> tuple[SproutsLayout, Fit]:
    """The PNG's layout and drawing-to-pixel map at the default size."""
    drawing = game.drawing
    return layout_of(drawing, {"size": REFERENCE}, curve_points(drawing)[0])


def board_svg(game: SproutsShown, view: View) -> str:
    drawing = game.drawing
    lay, fit = fitted(game)
    box = _box(lay)
    spot: SpotLike | None = None
    newest: list[int] = []
    if view.get("last", True) and game.ply > 0:
        spot, newest = newest_curves(drawing, *curve_points(drawing))
    mover = (game.ply - 1) % game.players % 4
    body = _picture(drawing, lay, fit, newest, f"nw{mover}", lay.newest_width, dashed=False)
    if spot is not None:
        body.append(_ring(fit, spot, lay, f"nr{mover}", dashed=False))
    return root("sprouts", box, view, {"units": _units(fit)}, RULES, body)


def preview_svg(game: SproutsShown, move: object) -> str:
    """``move`` played on a copy: the engine tidies the whole drawing as it routes a move,
    so spots and curves may shift; the fragment therefore covers the board's viewBox with
    the drawing as it would be (fitted into the same box, its own ``data-units``), the new
    curve dashed in the mover's colour and the new spot in a dashed ring."""
    parse = getattr(game, "parse_move", None)
    m = parse(move) if isinstance(move, str) and parse is not None else move
    trial = game.copy()
    trial.play(m)  # raises IllegalMove
    lay, _ = fitted(game)
    sketch = sketch_of(trial.drawing)
    smoothed: Sequence[np.ndarray] | None = None
    spot: SpotLike | None
    if sketch is not None:  # over the position's own drawing, which stays where it is
        drawing = sketch
        _, fit, smoothed = preview_frame(game.drawing, sketch, {"size": REFERENCE})
        spot, newest = drawing.spots[-1], [len(smoothed) - 2, len(smoothed) - 1]
    else:
        drawing = trial.drawing
        pts, sizes = curve_points(drawing)
        fit = Fit(lay, np.concatenate([spot_points(drawing), pts]))
        spot, newest = newest_curves(drawing, pts, sizes)
    p = game.turn % 4
    x, y, w, h = _box(lay)
    out = [f'<rect class="bg" x="{num(x)}" y="{num(y)}" width="{num(w)}" height="{num(h)}"/>']
    out += _picture(drawing, lay, fit, newest, f"nw{p}", lay.preview_width, True, smoothed)
    if spot is not None:
        out.append(_ring(fit, spot, lay, f"nr{p}", dashed=True))
    fmt = getattr(game, "format_move", None)
    units = json.dumps(_units(fit), separators=(",", ":"))
    return (
        f'<g class="pv" data-move="{fmt(m) if fmt is not None else ""}"'
        f" data-units='{units}'>{''.join(out)}</g>"
    )


def _box(lay: SproutsLayout) -> tuple[float, float, float, float]:
    """The viewBox: the PNG's drawing area and its paper margin."""
    pad = round(26 * lay.u)
    x0, y0, x1, y1 = lay.box
    return (x0 - pad, y0 - pad, x1 - x0 + 2 * pad, y1 - y0 + 2 * pad)


def _units(fit: Fit) -> dict[str, float]:
    """Drawing units to user units: svg = drawing · scale + (dx, dy)."""
    return {
        "scale": round(fit.k, 6),
        "dx": round(fit.ox - fit.x0 * fit.k, 4),
        "dy": round(fit.oy - fit.y0 * fit.k, 4),
    }


def _picture(
    drawing: DrawingLike,
    lay: SproutsLayout,
    fit: Fit,
    newest: list[int],
    cls: str,
    width: float,
    dashed: bool,
    smoothed: Sequence[np.ndarray] | None = None,
) -> list[str]:
    """Squared paper, the curves in ink, the ``newest`` ones in ``cls``, the spots
    (``smoothed``: the curves smoothed already, in drawing units)."""
    x0, y0, x1, y1 = lay.box
    grid = grid_path(
        steps(x0, lay.grid_step, x0, x1), steps(y0, lay.grid_step, y0, y1), lay.box
    ).replace("/>", f' stroke-width="{max(1, round(2 * lay.u))}"/>')
    curves = _curves(drawing, lay, fit) if smoothed is None else [fit.array(c) for c in smoothed]
    out = [grid, _path([c for i, c in enumerate(curves) if i not in newest], "cv", lay.curve_width)]
    if newest:
        new = _path([curves[i] for i in newest], cls, width)
        if dashed:
            dash, gap = lay.preview_dash
            new = new.replace("/>", f' stroke-dasharray="{num(dash)} {num(gap)}"/>')
        out.append(new)
    out.append(_spots(drawing.spots, lay, fit))
    return out


def _ring(fit: Fit, spot: SpotLike, lay: SproutsLayout, cls: str, dashed: bool) -> str:
    """The ring round the spot the latest move made (dashed: a previewed move's)."""
    r, w = lay.new_spot_ring
    cx, cy = fit((float(spot.x), float(spot.y)))
    dash = f' stroke-dasharray="{num(2 * math.pi * r / 24)}"' if dashed else ""  # 12 dashes
    return (
        f'<circle class="{cls}" cx="{num(cx)}" cy="{num(cy)}" r="{num(r)}"'
        f' stroke-width="{num(w)}"{dash}/>'
    )


def _curves(drawing: DrawingLike, lay: SproutsLayout, fit: Fit) -> list[np.ndarray]:
    """The curves smoothed exactly as the PNG smooths them, in user units."""
    return [fit.array(c) for c in smooth_curves(drawing, Room.of(lay, fit.k))]


def _path(lines: Iterable[np.ndarray], cls: str, width: float) -> str:
    d = "".join(
        "M" + "L".join(f"{num(x)} {num(y)}" for x, y in line.tolist())
        for line in lines
        if len(line) >= 2
    )
    return (
        f'<path class="{cls}" d="{d}" stroke-width="{num(width)}"'
        ' stroke-linecap="round" stroke-linejoin="round"/>'
    )


def _spots(spots: Sequence[SpotLike], lay: SproutsLayout, fit: Fit) -> str:
    """Each spot as the PNG's sprite draws it: a circle with an outline, its number, and its
    three lives as arcs round it (dark: left, pale: used up)."""
    r = lay.spot_radius
    rim = max(1.5, 0.12 * r)
    gap, arc_w = 0.28 * r, max(2.0, 0.26 * r)
    ring = r + gap + arc_w / 2
    bodies: list[str] = []
    numbers: list[str] = []
    left: list[str] = []
    used: list[str] = []
    for s in spots:
        n, lives = int(s.number), max(0, min(3, int(s.lives)))
        cx, cy = fit((float(s.x), float(s.y)))
        dead = " dead" if lives == 0 else ""
        bodies.append(
            f'<circle class="spot{dead}" data-spot="{n}" data-lives="{lives}"'
            f' cx="{num(cx)}" cy="{num(cy)}" r="{num(r - rim / 2)}"/>'
        )
        px = max(9, round(r * (1.0 if n < 10 else 0.86 if n < 100 else 0.7)))
        numbers.append(
            f'<text class="sn{dead}" x="{num(cx)}" y="{num(cy)}" font-size="{px}">{n}</text>'
        )
        if lives:
            for k in range(3):
                start = -90 - LIFE_ARC / 2 + k * 120
                (left if k < lives else used).append(_arc(cx, cy, ring, start, start + LIFE_ARC))
    out = f'<g stroke-width="{num(rim)}">{"".join(bodies)}</g>'
    for cls, arcs in (("lf", left), ("lu", used)):
        if arcs:
            out += f'<path class="{cls}" d="{"".join(arcs)}" stroke-width="{num(arc_w)}"/>'
    return out + "".join(numbers)


def _arc(cx: float, cy: float, r: float, a0: float, a1: float) -> str:
    """A clockwise arc (y down) from angle ``a0`` to ``a1`` degrees, 0 at three o'clock."""
    t0, t1 = math.radians(a0), math.radians(a1)
    x0, y0 = cx + r * math.cos(t0), cy + r * math.sin(t0)
    x1, y1 = cx + r * math.cos(t1), cy + r * math.sin(t1)
    return f"M{num(x0)} {num(y0)}A{num(r)} {num(r)} 0 0 1 {num(x1)} {num(y1)}"
