"""The Dots edge variant through the playground, in both languages: chosen in the variants
menu, played against the bot, and a capture against the field's edge shown on the board."""

from __future__ import annotations

import random

import pytest

from engine.dots import Game
from tests.bot.helpers import buttons, message, stored_match, version, wait_message
from tests.bot.test_dots_stop import LANGS, _picture, _set_up, variant_game
from tests.fixtures.playground import ScenarioClient


@pytest.mark.parametrize("lang", LANGS)
async def test_edge_variant_against_the_bot(pg: ScenarioClient, lang: str) -> None:
    alice = await pg.user("alice", lang=lang)
    board = await variant_game(alice, lang, "edge", -1)
    game = (await stored_match(pg._settings.redis_url, board)).game
    assert isinstance(game, Game) and game.edge == "capturable"
    rng = random.Random(5)
    for _ in range(4):  # the bot answers each move in the variant
        v = version(board) or 0
        r, c = rng.choice(buttons(board, "p"))
        await alice.press_button(r, c, board, settle=False)
        board = await wait_message(
            alice.private, board.message_id, lambda m, v=v: (version(m) or 0) >= v + 2
        )
    # Alice's (0, 1) and the bot's corner dot (0, 0): Alice's b15 takes the corner.
    board = await _set_up(
        pg, alice.private, board, [(0, 1), (0, 0), (7, 7), (8, 8)], edge="capturable"
    )
    v = version(board) or 0
    await alice.send("/m b15")
    board = await wait_message(
        alice.private, board.message_id, lambda m: (version(m) or 0) >= v + 2
    )
    game = (await stored_match(pg._settings.redis_url, board)).game
    assert isinstance(game, Game) and game.edge == "capturable"
    assert game.scores[0] == 1 and game.cell(0, 0).captured
    assert "Alice — 1" in (board.caption or "")
    board = await message(alice.private, board.message_id)
    await _picture(pg, board, f"edge-corner-{lang}")
