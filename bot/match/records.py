"""The move record of a match as a file: SGF (``GM[40]``) for Dots, the engine's plain-text
record for Boxes and Sprouts — both read back by the engine."""

from __future__ import annotations

import re

import engine
from bot.match.model import Match
from bot.match.views import result_line, seat_name


def record_file(match: Match) -> tuple[str, bytes]:
    game = match.game
    if match.kind == "dots":
        return f"tetrad-{match.id}.sgf", game.to_sgf().encode()  # type: ignore[attr-defined]
    players = ", ".join(seat_name(s, "en") for s in match.seats)
    comments = [f"match {match.id}", f"players: {players}"]
    if game.result is not None:
        comments.append("result: " + _plain(result_line(match, "en")))
    text = engine.text_record(game, comments)
    return f"tetrad-{match.id}.txt", text.encode()


def _plain(html_text: str) -> str:
    return re.sub(r"<[^>]+>", "", html_text)


def read_record(name: str, data: bytes) -> engine.Game:  # type: ignore[type-arg]
    """Read a record file back into a game (tests and tools)."""
    text = data.decode()
    if name.endswith(".sgf"):
        from engine.dots import Game as Dots

        return Dots.from_sgf(text)
    return engine.read_text_record(text)
