"""Ending a Dots game by agreement, both ways, through the playground in both languages:
"🤝 End here (scores decide)" and "½ Draw" (a draw whatever the score); against a person and
against the bot (which agrees to end only when not behind, to a draw only when not ahead)."""

from __future__ import annotations

import re

import pytest

import storage
from bot.i18n import t
from engine.dots import Game
from tests.bot.helpers import (
    endings,
    finished,
    message,
    quick_game,
    stored_match,
    texts,
    wait_message,
)
from tests.bot.test_dots_stop import LANGS, WON, _set_up, _two, variant_game
from tests.fixtures.playground import ScenarioClient

# Scenario 1 of the reference on 15×15: Alice's diamond has caught Bob's (2, 2): 1:0.
CAUGHT = [(2, 1), (10, 10), (1, 2), (12, 12), (3, 2), (10, 12), (2, 3), (2, 2)]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("how", ["end_here", "half_draw"])
async def test_two_ways_to_agree(pg: ScenarioClient, lang: str, how: str) -> None:
    alice, bob, group, board = await _two(pg, lang)
    board = await _set_up(pg, group, board, CAUGHT)  # 1:0 for Alice, Alice to move
    await bob.press(t(lang, "btn.more"), board, group)
    menu = await message(group, board.message_id)
    assert t(lang, "btn.end_here") in texts(menu) and t(lang, "btn.half_draw") in texts(menu)
    assert t(lang, "btn.offer_draw") not in texts(menu)
    await bob.press(t(lang, f"btn.{how}"), menu, group)
    offered = await message(group, board.message_id)
    key = "caption.end_offered" if how == "end_here" else "caption.draw_offered"
    assert t(lang, key, who="Bob") in (offered.caption or "")
    accept = "btn.accept_end" if how == "end_here" else "btn.accept_draw"
    await alice.press(t(lang, accept), offered, group)
    final = await wait_message(group, board.message_id, finished)
    game = (await stored_match(pg._settings.redis_url, final)).game
    assert isinstance(game, Game) and game.result is not None
    assert game.scores == (1, 0) and game.result.reason == "agreement"
    how_text = t(lang, "end.agreement")
    if how == "end_here":
        assert game.result.winner == 0
        assert t(lang, "result.win", who="Alice", how=how_text) in (final.caption or "")
    else:
        assert game.result.winner is None
        assert t(lang, "result.draw", how=how_text) in (final.caption or "")
    back = Game.from_sgf(game.to_sgf())
    assert back.result is not None and back.result.winner == game.result.winner
    await endings(group)  # the ratings are recorded before the ending is sent
    store = await storage.connect(pg._settings.redis_url)
    try:  # the ratings agree with the result, not with the scores
        ratings = [(await store.ratings.get(p.id, "dots")).rating for p in (alice, bob)]
    finally:
        await store.close()
    if how == "end_here":
        assert ratings[0] > ratings[1]
    else:
        assert ratings[0] == ratings[1]


@pytest.mark.parametrize("lang", LANGS)
async def test_the_bot_answers_both_offers(pg: ScenarioClient, lang: str) -> None:
    alice = await pg.user("alice", lang=lang)
    board = await quick_game(alice, t(lang, "menu.quick_dots"))
    board = await _set_up(pg, alice.private, board, WON)  # the bot leads 1:0
    await alice.press(t(lang, "btn.more"), board)
    menu = await message(alice.private, board.message_id)
    popup = await alice.press(t(lang, "btn.half_draw"), menu)
    assert popup is not None and popup.text == t(lang, "draw.bot_declines")
    await alice.press(t(lang, "btn.end_here"), await message(alice.private, board.message_id))
    final = await wait_message(alice.private, board.message_id, finished)
    game = (await stored_match(pg._settings.redis_url, final)).game
    assert game.result is not None and game.result.winner == 1  # the scores decided


@pytest.mark.parametrize("lang", LANGS)
async def test_grounding_is_explained_where_it_is_offered(pg: ScenarioClient, lang: str) -> None:
    alice = await pg.user("alice", lang=lang)
    board = await variant_game(alice, lang, "grounding", 1)
    assert t(lang, "caption.ground_help") not in (board.caption or "")
    await alice.press(t(lang, "btn.more"), board)
    menu = await message(alice.private, board.message_id)
    assert t(lang, "btn.ground") in texts(menu)
    assert t(lang, "caption.ground_help") in (menu.caption or "")
    await alice.send("/rules dots")
    said = [m.text or m.caption or "" for m in await alice.private.messages() if m.from_bot]
    grounding = next(line for line in t(lang, "rules.dots").splitlines() if "⏚" in line)
    assert any(re.sub(r"<[^>]+>", "", grounding)[:60] in s for s in said)
