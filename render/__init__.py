"""Pillow renderers for the three games: pure functions of (game, view), no Telegram.

``board_png(game, view)`` draws the board with a header strip (title, players, scores, whose
turn, the result); ``replay(game, view=...)`` animates a whole game as a GIF. ``view`` is a
:class:`render.view.View`: ``lang`` ("ru" | "en"), ``title``, ``players`` (names per seat),
``status`` (replaces the header's status line), ``last`` (mark the last move, default True),
``window`` ([x0, y0, w, h] Dots keyboard viewport, y from the top), ``labels`` (Boxes: free
lines and box names as the keyboard shows them), ``preview`` (Sprouts: a candidate move drawn
as a ghost), ``size`` (long side in pixels, default 1280), all optional.

``board_svg(game, view)`` draws the same board as SVG for the Mini App (no header strip;
``view["theme"]`` "light" | "dark"), ``preview_svg(game, move)`` the ghost of a move as a
fragment to put inside it: see :mod:`render.svg` and the ``render.svg_<kind>`` modules for the
hit-target attributes a page reads.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

from render import common
from render.common import HeaderText
from render.view import Shown, View

KINDS = ("dots", "boxes", "sprouts")


class UnknownGame(ValueError):
    """A game whose kind has no renderer."""


def _module(game: Shown) -> ModuleType:
    kind = getattr(game, "kind", None)
    if kind not in KINDS:
        raise UnknownGame(f"no renderer for game kind {kind!r}")
    return import_module(f"render.{kind}")


def board_png(game: Shown, view: View | None = None) -> bytes:
    """The board of ``game`` as PNG bytes, dispatched on ``game.kind``."""
    result: bytes = _module(game).board_png(game, view or {})
    return result


def header_text(game: Shown, view: View | None = None) -> HeaderText:
    """The header's lines as ``board_png`` draws them, each fitted to its room: what a
    phone shows of the title, the names and the status (tests measure it)."""
    module, view = _module(game), view or {}
    lay = module.layout(game, view)
    lay = lay[0] if isinstance(lay, tuple) else lay  # Рассада's layout comes with its fit
    return common.header_text(module.header(game, view, lay), lay.width, lay.u)


def _svg_module(game: Shown) -> ModuleType:
    _module(game)  # refuses an unknown kind
    return import_module(f"render.svg_{game.kind}")


def board_svg(game: Shown, view: View | None = None) -> str:
    """The board of ``game`` as an SVG document (a string), dispatched on ``game.kind``."""
    result: str = _svg_module(game).board_svg(game, view or {})
    return result


def preview_svg(game: Shown, move: object) -> str:
    """An SVG ``<g>`` fragment, in the board's user units, showing what ``move`` (the
    game's move or its notation) would do; raises the engine's IllegalMove if it is not
    legal."""
    result: str = _svg_module(game).preview_svg(game, move)
    return result


def replay(game: Shown, *, view: View | None = None) -> bytes:
    """The whole game as an animated GIF (see :mod:`render.animation`)."""
    from render.animation import replay_gif

    return replay_gif(game, view=view or {})


__all__ = [
    "KINDS",
    "HeaderText",
    "UnknownGame",
    "View",
    "board_png",
    "board_svg",
    "header_text",
    "preview_svg",
    "replay",
]
