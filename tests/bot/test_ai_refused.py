"""The bot's own move refused by the table: it plays another one.

A move the engine lists as legal can still be refused when it is applied: a Рассада curve
that finds no room to be drawn (``RoutingError``, "no_room"). The AI thinks with the match's
version as its seed, so thinking again would choose the same move and the game would stall
with the bot to move for ever.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.sprouts import game as sprouts_game
from engine.sprouts.routing import RoutingError
from tests.bot.helpers import finished, play_to_end, quick_game, stored_match
from tests.fixtures.playground import ScenarioClient


async def test_the_bot_plays_another_move_when_its_own_is_refused(
    pg: ScenarioClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = sprouts_game._router
    first_tried: dict[Any, Any] = {}  # drawing -> the first move routed from it

    def router(drawing: Any, move: Any) -> Any:
        # Two curves a move, the person moves first: an odd number of moves played is the
        # bot's turn. Its first choice there is refused every time it is tried, unless it
        # is the only move left.
        bots_turn = len(drawing.curves) // 2 % 2 == 1
        choice = bots_turn and len(sprouts_game._table(drawing).moves) > 1
        if choice and first_tried.setdefault(drawing.content, move) == move:
            raise RoutingError(f"no room for {move} (test)")
        return real(drawing, move)

    monkeypatch.setattr(sprouts_game, "_router", router)
    await pg.set_limits(enabled=False)
    alice = await pg.user("alice", lang="en")
    board = await quick_game(alice, "⚡ Sprouts vs bot")
    final = await play_to_end({alice.id: alice}, alice.private, board.message_id, random.Random(5))
    assert finished(final)
    stored = await stored_match(pg._settings.redis_url, final)
    assert stored.game.over
    assert len(first_tried) >= 2, "the bot's first choices were refused"
