"""Board pictures for a match: the render package draws, the bot adds who sits where."""

from __future__ import annotations

import contextlib

import engine
import render
from bot.i18n import t
from bot.match.model import Match
from bot.match.ui import PictureView
from bot.match.views import seat_name, title
from render.view import View


def _view(match: Match, lang: str) -> View:
    """The renderer's view of ``match``: its title, the seats' names, a lobby's status."""
    view: View = {
        "lang": lang,
        "title": title(match, lang),
        "players": [seat_name(s, lang) for s in match.seats],
    }
    if match.status == "lobby":
        view["status"] = t(lang, "lobby.picture")
    return view


def board_png(match: Match, picture: PictureView) -> bytes:
    """The picture a place asks for (see :class:`bot.match.ui.PictureView`)."""
    view = _view(match, picture.get("lang", match.lang))
    if "labels" in picture:
        view["labels"] = picture["labels"]
    preview = picture.get("preview")
    # The match layer names the move, the renderer wants the move; one no longer there
    # leaves the board as it is.
    if preview is not None:
        with contextlib.suppress(engine.EngineError):
            view["preview"] = match.game.parse_move(preview)
    return render.board_png(match.game, view)


def replay_view(match: Match) -> View:
    """The view of the replay (JSON-safe: the animation is drawn in a worker process)."""
    return _view(match, match.lang)
