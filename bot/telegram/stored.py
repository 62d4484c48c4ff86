"""The stored match as the adapter holds it: the record decoded, with its live game from
this process's cache (a game rebuilt from its moves costs more than the rest of a tap)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
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


async def change(
    svc: Services,
    match_id: str,
    edit: Callable[[Match], None],
    *,
    due: Mapping[str, float | None] | None = None,
) -> Match:
    """Edit the stored match in place and write it back with ``due`` (the deadlines to set or,
    as None, cancel), reading again after a lost race. A book-keeping write beside the match
    layer's own (where a board is shown, the ending sent, a rematch named): the adapter reads,
    edits and writes; storage only compares and sets. ``edit`` may raise to change nothing."""
    async with svc.store.matches.turn(match_id) as tries:
        while True:
            _, record = await tries.read()
            match = Match.from_json(record)
            edit(match)
            if await tries.write(match.to_json(), due=due) is not None:
                return match
