"""Board pictures for a match: the render package draws, the bot adds who sits where."""

from __future__ import annotations

import contextlib

import engine
import render
from bot.i18n import Text, t
from bot.match.model import Match
from bot.match.ui import PictureView
from bot.match.views import seat_name, title
from render.view import View


def view_of(match: Match, lang: str) -> View:
    """The renderer's view of ``match``: its title, the seats' names, a lobby's status."""
    view: View = {
        "lang": lang,
        "title": title(match, lang),
        "players": picture_names(match, lang),
    }
    if match.status == "lobby":
        view["status"] = t(lang, "lobby.picture")
    return view


def picture_names(match: Match, lang: str) -> list[str]:
    """The seats' names in the picture's header, where a seat has half the width or less:
    the bot is "Bot (medium)" ("Tetrad bot (medium)" was cut to "Tetrad bot (mediu…"),
    and "Bot 1", "Bot 2"... when it holds several seats (the caption names the level)."""
    bots = [i for i, s in enumerate(match.seats) if s.is_ai]
    names = []
    for i, seat in enumerate(match.seats):
        if not seat.is_ai:
            names.append(seat_name(seat, lang))
        elif len(bots) == 1:
            names.append(t(lang, Text("bot.short", level=Text(f"level.{seat.level}"))))
        else:
            names.append(t(lang, "bot.numbered", n=bots.index(i) + 1))
    return names


def board_png(match: Match, picture: PictureView) -> bytes:
    """The picture a place asks for (see :class:`bot.match.ui.PictureView`)."""
    view = view_of(match, picture.get("lang", match.lang))
    if "labels" in picture:
        view["labels"] = picture["labels"]
    if "status" in picture:
        view["status"] = picture["status"]
    if "marks" in picture:
        view["marks"] = picture["marks"]
    if "window" in picture:
        view["window"] = picture["window"]
    if "map" in picture:
        view["map"] = picture["map"]
    preview = picture.get("preview")
    # The match layer names the move, the renderer wants the move; one no longer there
    # leaves the board as it is.
    if preview is not None:
        with contextlib.suppress(engine.EngineError):
            view["preview"] = match.game.parse_move(preview)
    return render.board_png(match.game, view)


def replay_view(match: Match) -> View:
    """The view of the replay (JSON-safe: the animation is drawn in a worker process)."""
    return view_of(match, match.lang)
