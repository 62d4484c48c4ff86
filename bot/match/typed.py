"""Which of a player's games in a chat a typed move is for, and how those games are named.

A chat may hold several games of one player (a private chat often does): a typed move goes
to the one game where it is legal for them, and only when several fit do they choose, with
one button per game (a :data:`~bot.match.buttons.CHOSEN` button plays the move there at the
version it was offered for, so a game that moved on meanwhile refuses it).
"""

from __future__ import annotations

from collections.abc import Iterable

import engine
from bot.i18n import Text, t
from bot.match.buttons import BRING, CHOSEN, On
from bot.match.model import Match
from bot.match.ui import Button, Keyboard
from bot.match.views import seat_name


def mine(matches: Iterable[Match], user: int) -> list[Match]:
    """The lobbies and games in progress where ``user`` has a seat."""
    return [m for m in matches if m.status != "finished" and m.seat_of(user) is not None]


def waiting(matches: Iterable[Match], user: int) -> list[Match]:
    """The games where ``user`` is to move."""
    out = []
    for m in matches:
        seat = m.to_move if m.status == "active" else None
        if seat is not None and not seat.is_ai and seat.user == user:
            out.append(m)
    return out


def fit(match: Match, text: str) -> str | None:
    """``text`` as the game writes the move, when it is a legal move there now; else None."""
    game = match.game
    try:
        move = game.parse_move(text.strip())
    except engine.BadNotation:
        return None
    if not game.is_legal(move):
        return None
    return game.format_move(move)


def versus(match: Match, user: int, lang: str) -> str:
    """The game and the player's opponents: "Dots vs Bob"."""
    game = Text(f"game.{match.kind}")
    return t(lang, "move.versus", game=game, opponent=_opponents(match, user, lang, short=False))


def name(match: Match, user: int, lang: str) -> str:
    """A game as its player tells it from their others: the game, the opponent, the move
    number and the last move (two games against one opponent are told apart by it)."""
    return _told(match, user, lang, "move.game", versus=versus(match, user, lang))


def label(match: Match, user: int, lang: str) -> str:
    """:func:`name` short enough for a button on a phone (the bot as "🤖 medium")."""
    game = Text(f"game.{match.kind}")
    opponent = _opponents(match, user, lang, short=True)
    return _told(match, user, lang, "move.button", game=game, opponent=opponent)


def _told(match: Match, user: int, lang: str, key: str, **params: object) -> str:
    if not match.has_game or not match.game.moves:
        return t(lang, key, n=1, **params)
    game = match.game
    last = game.format_move(game.moves[-1])
    return t(lang, f"{key}_after", n=game.ply + 1, last=last, **params)


def _opponents(match: Match, user: int, lang: str, *, short: bool) -> str:
    others = [
        t(lang, "move.bot", level=Text(f"level.{s.level}"))
        if short and s.is_ai
        else seat_name(s, lang)
        for s in match.seats
        if s.user != user or s.is_ai
    ]
    return ", ".join(others) or "…"


def line(match: Match, user: int, lang: str) -> str:
    """One game of a list: its name and whose move it is."""
    if match.status == "lobby":
        return t(lang, "move.line_lobby", game=Text(f"game.{match.kind}"))
    if waiting([match], user):
        return t(lang, "move.line_waiting", game=name(match, user, lang))
    seat = match.to_move
    who = seat_name(seat, lang) if seat is not None else "…"
    return t(lang, "move.line_other", game=name(match, user, lang), who=who)


def chooser(fits: list[tuple[Match, str]], user: int, lang: str) -> Keyboard:
    """One button per game a typed move fits: a tap plays that move in that game. A move
    too long for a button's data is left out (the player replies to its board instead)."""
    rows: Keyboard = []
    for m, move in fits:
        try:
            rows.append([Button(label(m, user, lang), On(m.id, m.version)(CHOSEN, move))])
        except ValueError:
            continue
    return rows


def bring_buttons(matches: Iterable[Match], user: int, lang: str) -> Keyboard:
    """A button per game that brings its board down to the bottom of the chat."""
    return [
        [Button(t(lang, "games.bring", game=label(m, user, lang)), BRING.data(m.id, m.version))]
        for m in matches
    ]
