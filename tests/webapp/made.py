"""A started two-player match written straight to the store as the bot stores it, with no
chat (the Mini App is all that shows it): for the bench and the replica tests, which need
matches the bot did not make through a chat."""

from __future__ import annotations

import random
import time
from typing import Any

import engine
import storage
from bot.match.actions import Actor
from bot.match.lobby import join, new_match


async def make_match(
    store: storage.Store,
    kind: str,
    options: dict[str, Any],
    moves: int,
    seed: int,
    users: tuple[int, int],
) -> str:
    """The id of a new match between ``users`` with ``moves`` random moves played."""
    match_id = storage.new_match_id()
    match, _ = new_match(
        match_id=match_id,
        kind=kind,
        options=options,
        creator=Actor(users[0], "Alice", "en"),
        chat=None,
        group=False,
        lang="en",
        now=time.time(),
    )
    join(match, Actor(users[1], "Bob", "en"), time.time())
    if moves:
        engine.random_playout(match.game, random.Random(seed), max_moves=moves)
        match.version += moves
    await store.matches.create(match.to_json())
    return match_id
