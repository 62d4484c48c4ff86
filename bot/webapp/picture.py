"""The board the page shows: :func:`render.board_svg` (the chat picture's geometry and
palette, with the hit-target metadata the page reads) and :func:`render.preview_svg`, kept
per (match, version, language) since every viewer of a version is sent the same drawing.
The page switches the light/dark theme itself (the root's ``dark`` class).

Рассада has no SVG yet: until ``render.board_svg`` draws it, its chat PNG is wrapped in an
``<svg>`` (no hit targets: the page shows it, moves are made from the chat).
"""

from __future__ import annotations

import base64
import io
from typing import Any

from PIL import Image

import render
from engine.recent import Recent

_CACHE: Recent[tuple[str, int, str], str] = Recent(128)  # (match, version, lang) -> svg
SVG_KINDS = ("dots", "boxes")


def board_svg(match_id: str, version: int, game: Any, lang: str) -> str:
    key = (match_id, version, lang)
    svg = _CACHE.get(key)
    if svg is None:
        if game.kind in SVG_KINDS:
            svg = render.board_svg(game, {"lang": lang})
        else:
            svg = _png_in_svg(game, lang)
        _CACHE.put(key, svg)
    return svg


def preview_svg(game: Any, move: Any) -> str:
    """The ghost of a legal move and what it would do (the caller has checked it)."""
    if game.kind in SVG_KINDS:
        return render.preview_svg(game, move)
    return '<g class="ghost"></g>'


def _png_in_svg(game: Any, lang: str) -> str:
    data = render.board_png(game, {"lang": lang, "status": " "})
    width, height = Image.open(io.BytesIO(data)).size
    href = "data:image/png;base64," + base64.b64encode(data).decode()
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" data-game="{game.kind}" '
        f'viewBox="0 0 {width} {height}"><image href="{href}" width="{width}" '
        f'height="{height}"/></svg>'
    )
