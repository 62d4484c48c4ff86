"""Pillow renderers for the three games: pure functions of (game, view), no Telegram.

``board_png(game, view)`` draws the board with a header strip (title, players, scores, whose
turn, the result); ``replay(game, view=...)`` animates a whole game as a GIF. ``view`` is a
:class:`render.view.View`: ``lang`` ("ru" | "en"), ``title``, ``players`` (names per seat),
``status`` (replaces the header's status line), ``last`` (mark the last move, default True),
``window`` ([x0, y0, w, h] Dots keyboard viewport, y from the top), ``labels`` (Boxes: free
lines and box names as the keyboard shows them), ``preview`` (Sprouts: a candidate move drawn
as a ghost), ``size`` (long side in pixels, default 1280), all optional.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

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


def replay(game: Shown, *, view: View | None = None) -> bytes:
    """The whole game as an animated GIF (see :mod:`render.animation`)."""
    from render.animation import replay_gif

    return replay_gif(game, view=view or {})


__all__ = ["KINDS", "UnknownGame", "View", "board_png", "replay"]
