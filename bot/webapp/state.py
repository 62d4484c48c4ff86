"""What the Mini App shows of a match to one viewer: a JSON-safe dict built from the match
layer's own answers (who is to move, the scores, the offers a board's buttons make), so the
page and the chat board cannot disagree about what is allowed."""

from __future__ import annotations

import html
import re
from typing import Any

import engine
from bot.i18n import Text, t
from bot.match import buttons, clocks, ui, views
from bot.match.buttons import Kind
from bot.match.model import Cursor, Match, Place
from bot.webapp import picture

# The match actions the page offers, by the name the API takes, and the button kind whose
# action (and whose showing on a board) it is. The first resign tap only asks "really?":
# the page asks that itself and sends the second.
ACTIONS: dict[str, Kind] = {
    "resign": buttons.RESIGN_SURE,
    "draw": buttons.OFFER_DRAW,
    "end_here": buttons.OFFER_END,
    "accept": buttons.ACCEPT_DRAW,
    "decline": buttons.DECLINE_DRAW,
    "stop": buttons.STOP,
    "done": buttons.DONE,
    "ground": buttons.GROUND,
    "claim_time": buttons.CLAIM_TIME,
}
_SHOWN_AS = {buttons.RESIGN: "resign", **{k: name for name, k in ACTIONS.items()}}
WORDS = (
    "place_here",
    "draw_line",
    "your_turn",
    "watching",
    "resign_sure",
    "yes",
    "no",
    "live_lost",
)
_TAG = re.compile(r"<[^>]+>")


def plain(text: str) -> str:
    """A caption line (Telegram HTML) as plain text for the page."""
    return html.unescape(_TAG.sub("", text))


def offered(match: Match, seat: int | None) -> list[tuple[str, str]]:
    """(action name, its button's label key) of what ``seat`` could ask for now: the
    buttons a player's own board shows, its ⋯ More menu included."""
    if seat is None or match.status != "active":
        return []
    found: dict[str, str] = {}
    for cursor in (Cursor(), Cursor(menu=1)):
        for row in views.active_rows(match, Place(seat=seat, cursor=cursor)):
            for b in row:
                kind = _kind(b.data)
                name = None if kind is None else _SHOWN_AS.get(kind)
                if name is not None and isinstance(b.text, Text):
                    found.setdefault(name, b.text.key)
    return list(found.items())


def _kind(data: str) -> Kind | None:
    try:
        return buttons.decode(data).kind
    except ValueError:
        return None


def match_state(match: Match, viewer: int, lang: str, now: float) -> dict[str, Any]:
    game = match.game if match.has_game else None
    seat = match.seat_of(viewer)
    active = match.status == "active"
    players = [
        {"name": views.seat_name(s, lang), "mark": views.MARKS[i], "ai": s.is_ai}
        for i, s in enumerate(match.seats)
    ]
    turn = game.turn if active and game is not None else None
    if not active:
        line = plain(views.result_line(match, lang)) if match.status == "finished" else ""
    elif turn == seat:
        line = t(lang, "app.your_turn")
    else:
        line = t(lang, "app.to_move", who=views.seat_name(match.seats[turn or 0], lang))
    stop = engine.stopping(game) if game is not None and active else None
    last = ""
    if game is not None and game.moves:
        said = ui.get(match.kind).say_move(match, game.moves[-1])
        last = t(lang, said) if isinstance(said, Text) else said
    return {
        "id": match.id,
        "version": match.version,
        "game": match.kind,
        "title": views.title(match, lang),
        "seat": seat,
        "turn": turn,
        "players": players,
        "scores": list(game.scores) if game is not None else [],
        "scored": match.facts.scored,
        "over": match.status == "finished",
        "status": match.status,
        "line": line,
        "last": last,
        "offer": match.extra.get("draw"),
        "clocks": {
            "per_move": clocks.per_move(match),
            "deadline": clocks.deadline(match),
            "stop_deadline": stop.deadline if stop is not None else None,
            "now": now,
        },
        "lang": lang,
        "svg": picture.board_svg(match.id, match.version, game, lang) if game else "",
        "actions": [{"action": name, "label": t(lang, key)} for name, key in offered(match, seat)],
        "words": {w: t(lang, f"app.{w}") for w in WORDS},
    }
