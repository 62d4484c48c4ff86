"""The move record of a match as a file, in the game's own format (``facts.record``: SGF
``GM[40]`` for Dots, the engine's plain-text record for Boxes and Sprouts), read back by the
engine."""

from __future__ import annotations

import re

import engine
from bot.match.model import Match
from bot.match.views import result_line, seat_name


def record_file(match: Match) -> tuple[str, bytes]:
    game = match.game
    players = ", ".join(seat_name(s, "en") for s in match.seats)
    comments = [f"match {match.id}", f"players: {players}"]
    if game.result is not None:
        comments.append("result: " + _plain(result_line(match, "en")))
    return f"tetrad-{match.id}.{match.facts.record}", game.record(comments).encode()


def _plain(html_text: str) -> str:
    return re.sub(r"<[^>]+>", "", html_text)


def read_record(name: str, data: bytes) -> engine.Game:  # type: ignore[type-arg]
    """Read a record file back into a game (tests and tools)."""
    return engine.read_record(data.decode(), name.rsplit(".", 1)[-1])
