"""Inline mode: @bot in a chat the bot is not in, a posted game, play in the inline message."""

from __future__ import annotations

import dataclasses
import random

import pytest

from tests.bot.helpers import finished, play_to_end, wait_message
from tests.fixtures.playground import ScenarioClient


@pytest.fixture
async def ipg(pg: ScenarioClient) -> ScenarioClient:
    """The bot with a storage chat for inline pictures (a private channel only the bot is in)."""
    world = pg.emulator.world
    storage_chat = world.create_channel("Tetrad storage")
    pg._settings = dataclasses.replace(pg._settings, storage_chats=(storage_chat.id,))
    pg.storage_ref = storage_chat.ref  # type: ignore[attr-defined]
    await pg.restart_bot()
    return pg


async def test_inline_game_end_to_end(ipg: ScenarioClient) -> None:
    pg = ipg
    await pg.set_limits(enabled=False)
    alice, bob, carol = await pg.user("alice"), await pg.user("bob"), await pg.user("carol")
    friends = await pg.group("friends", members=[alice, bob, carol], bot=False)

    answer = await alice.inline("", friends)
    assert answer.answered
    titles = [r.title for r in answer.results]
    assert "Dots" in titles and "Dots and Boxes" in titles
    assert all(r.type == "photo" and r.thumbnail for r in answer.results)

    posted = await alice.choose(answer, "Dots and Boxes")
    assert posted.via_bot == pg.bot_username and posted.inline_message_id
    lobby = await wait_message(
        friends, posted.message_id, lambda m: "Waiting for players (1/2)" in m.body
    )
    assert lobby.media is not None and lobby.find_button("Join")

    await bob.press("Join", lobby, friends)
    board = await wait_message(friends, posted.message_id, lambda m: "To move" in m.body)
    assert board.media is not None and board.media.file_id != lobby.media.file_id

    # Someone who is only watching cannot move; the players can.
    watcher = await carol.press_button(0, 0, board, friends)
    assert watcher is not None and "watching" in watcher.text
    final = await play_to_end(
        {alice.id: alice, bob.id: bob}, friends, posted.message_id, random.Random(5)
    )
    assert finished(final) and ("wins" in final.body or "Draw" in final.body), final.body
    assert final.inline_message_id == posted.inline_message_id
    # Pictures went through the storage chat: inline messages cannot take uploads.
    stored = await (await pg.chat(pg.storage_ref)).bot_messages()  # type: ignore[attr-defined]
    assert len(stored) >= 20 and all(m.media is not None for m in stored)


async def test_inline_mode_without_a_storage_chat_says_so(pg: ScenarioClient) -> None:
    alice = await pg.user("alice")
    answer = await alice.inline("")
    assert answer.answered and answer.results == []
