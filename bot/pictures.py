"""Board pictures for a match: the render package draws, the bot adds who sits where."""

from __future__ import annotations

from typing import Any

import render
from bot.i18n import t
from bot.match.model import Match
from bot.match.views import seat_name, title


def board_png(match: Match, view: dict[str, Any]) -> bytes:
    lang = view.get("lang", match.lang)
    full = dict(view)
    full.setdefault("title", title(match, lang))
    full.setdefault("players", [seat_name(s, lang) for s in match.seats])
    if match.status == "lobby":
        full.setdefault("status", t(lang, "lobby.picture"))
    return render.board_png(match.game, full)
