"""Board pictures for a match: the render package draws, the bot adds who sits where."""

from __future__ import annotations

import engine
import render
from bot.i18n import t
from bot.match.model import Match
from bot.match.views import seat_name, title
from render.view import View


def _view(match: Match, view: View) -> View:
    lang = view.get("lang", match.lang)
    full = view.copy()
    full.setdefault("title", title(match, lang))
    full.setdefault("players", [seat_name(s, lang) for s in match.seats])
    if match.status == "lobby":
        full.setdefault("status", t(lang, "lobby.picture"))
    return full


def board_png(match: Match, view: View) -> bytes:
    full = _view(match, view)
    preview = full.get("preview")
    if isinstance(preview, str):  # views stay JSON-safe; the renderer wants the move
        try:
            full["preview"] = match.game.parse_move(preview)
        except engine.EngineError:
            full.pop("preview")
    return render.board_png(match.game, full)


def replay_view(match: Match) -> View:
    """The view of the replay (JSON-safe: the animation is drawn in a worker process)."""
    return _view(match, {"lang": match.lang})
