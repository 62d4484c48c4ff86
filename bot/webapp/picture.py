"""The board the page shows, in the shape of the svg part's contract (``render.board_svg``:
a root ``<svg data-game=…>`` with hit-target metadata; ``render.preview_svg``: a ``<g>`` in
the same user units).

Until ``render.board_svg`` lands this wraps the chat's PNG in an ``<svg>`` and reads the
Dots grid from the PNG renderer's own layout, so the page is written once, against the
contract; the preview is a ghost dot. Replaced by the render calls when they exist.
"""

from __future__ import annotations

import base64
import io
import json
from typing import Any

from PIL import Image

import render
from engine.recent import Recent
from render import dots as dots_render
from render.view import View

_CACHE: Recent[tuple[str, int, str], str] = Recent(128)  # (match, version, lang) -> svg


def board_svg(match_id: str, version: int, game: Any, lang: str) -> str:
    key = (match_id, version, lang)
    svg = _CACHE.get(key)
    if svg is None:
        svg = _board_svg(game, {"lang": lang, "status": " "})
        _CACHE.put(key, svg)
    return svg


def _board_svg(game: Any, view: View) -> str:
    data = render.board_png(game, view)
    width, height = Image.open(io.BytesIO(data)).size
    attrs = f'data-game="{game.kind}" viewBox="0 0 {width} {height}"'
    if game.kind == "dots":
        lay = dots_render.layout(game, view)
        x0, y0 = lay.xy(0, 0)
        grid = {"cols": lay.cols, "rows": lay.rows, "x0": x0, "y0": y0, "step": lay.step}
        attrs += f" data-grid='{json.dumps(grid)}'"
    href = "data:image/png;base64," + base64.b64encode(data).decode()
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" {attrs}>'
        f'<image href="{href}" x="0" y="0" width="{width}" height="{height}"/></svg>'
    )


def preview_svg(game: Any, move: Any) -> str:
    """The ghost of a legal move (the caller has checked it)."""
    if game.kind == "dots":
        lay = dots_render.layout(game, {})
        x, y = lay.xy(move.x, move.y)
        r = lay.step * 0.3
        return (
            f'<g class="ghost"><circle cx="{x}" cy="{y}" r="{r}" fill="none" '
            f'stroke="currentColor" stroke-width="{lay.step * 0.08}" stroke-dasharray="4 3"/></g>'
        )
    return '<g class="ghost"></g>'
