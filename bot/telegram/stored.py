"""The stored match as the adapter holds it: the record decoded, with its live game from
this process's cache (a game rebuilt from its moves costs more than the rest of a tap)."""

from __future__ import annotations

from typing import Any

from bot.match.model import Match
from bot.telegram.services import Services


def load(record: dict[str, Any], svc: Services | None = None) -> Match:
    """A match from its record, with its live game from the cache when we have it."""
    match = Match.from_json(record)
    if svc is not None and match.state is not None:
        game = svc.games.get(match.id, match.version)
        if game is not None:
            match.attach(game)
    return match


def remember(svc: Services, match: Match) -> None:
    """Keep the match's live game for the next tap at this version."""
    if match.has_game:
        svc.games.put(match.id, match.version, match.game)
