"""The board the page shows: :func:`render.board_svg` (the chat picture's geometry and
palette, with the hit-target metadata the page reads), kept per (match, version, language)
since every viewer of a version is sent the same drawing, and :func:`render.preview_svg`.
The page switches the light/dark theme itself (the root's ``dark`` class)."""

from __future__ import annotations

from typing import Any

import render
from engine.recent import Recent

_CACHE: Recent[tuple[str, int, str], str] = Recent(128)  # (match, version, lang) -> svg


def board_svg(match_id: str, version: int, game: Any, lang: str) -> str:
    key = (match_id, version, lang)
    svg = _CACHE.get(key)
    if svg is None:
        svg = render.board_svg(game, {"lang": lang})
        _CACHE.put(key, svg)
    return svg


def preview_svg(game: Any, move: Any) -> str:
    """The ghost of a legal move and what it would do (the caller has checked it)."""
    return render.preview_svg(game, move)
