"""Several games of one player in one chat: a typed move goes to the game it fits (or the
player chooses), /new offers to continue, /games brings a board down."""

from __future__ import annotations

import re

from playground.client import ChatHandle, MessageView, UserHandle
from tests.bot.helpers import message, quick_game, tap_move, texts, version, wait_message
from tests.bot.test_match_life import _group_match
from tests.fixtures.playground import ScenarioClient


async def _two_games(pg: ScenarioClient, lang: str = "en") -> tuple[UserHandle, list[int]]:
    """Bob with two fresh Dots games against the bot in his private chat, his move in both."""
    await pg.set_limits(enabled=False)
    bob = await pg.user("bob", lang=lang)
    ids = []
    for _ in range(2):
        board = await quick_game(bob, "⚡ Dots vs bot" if lang == "en" else "⚡ Точки с ботом")
        ids.append(board.message_id)
        pg.clock.advance(1)  # the games are listed oldest first
    return bob, ids


async def _bob_to_move_again(chat: ChatHandle, board_id: int, before: int | None) -> MessageView:
    """The board once Bob's move and the bot's answer are on it (his turn again)."""
    return await wait_message(
        chat,
        board_id,
        lambda m: (
            version(m) is not None
            and version(m) != before
            and (version(m) or 0) >= (before or 0) + 2
        ),
    )


async def test_a_typed_move_goes_where_it_fits_or_the_player_chooses(pg: ScenarioClient) -> None:
    bob, (a, b) = await _two_games(pg)
    chat = bob.private
    va, vb = version(await message(chat, a)), version(await message(chat, b))

    # g9 is legal in both: the bot asks which game, one button per game.
    await bob.send("g9")
    ask = await chat.last_message()
    assert "fits more than one game" in (ask.text or ""), ask.text
    labels = texts(ask)
    assert labels == ["Dots · 🤖 medium · move 1"] * 2, labels
    assert version(await message(chat, b)) == vb, "nothing is played before the choice"
    # The second button is the game sent second (the chooser lists them as the chat does).
    await bob.press_button(1, 0, ask)
    done = await message(chat, ask.message_id)
    assert done.text == "g9 played: Dots vs Tetrad bot (medium)" and not done.buttons, done.text
    board_b = await _bob_to_move_again(chat, b, vb)
    assert "Move 2:" in (board_b.caption or ""), "Bob's move and the bot's answer"
    assert version(await message(chat, a)) == va, "the other game is untouched"

    # g9 is now taken in game b, free in game a: the typed move goes to a without asking.
    before = (await chat.last_message()).message_id
    await bob.send("/m g9")
    board_a = await _bob_to_move_again(chat, a, va)
    assert (await chat.last_message()).message_id in (before, before + 1), "no chooser, no reply"
    assert version(await message(chat, b)) == version(board_b)

    # Taken in both: the bot says it fits none of the games waiting, and names them.
    await bob.send("g9")
    said = await chat.last_message()
    assert "not a legal move in any of the games waiting for you" in (said.text or "")
    assert (said.text or "").count("Dots vs Tetrad bot") == 2, said.text
    assert version(await message(chat, a)) == version(board_a)

    # A chooser tapped after its game moved on is refused as a stale board is.
    await bob.send("a1")
    ask = await chat.last_message()
    assert len(texts(ask)) == 2, ask.text
    board_a = await tap_move(bob, chat, await message(chat, a))
    popup = await bob.press_button(0, 0, ask)
    assert popup is not None and "changed" in popup.text, popup
    assert (await message(chat, ask.message_id)).buttons, "the chooser stays for the other game"


async def test_games_lists_and_brings_a_board_down_and_new_offers_to_continue(
    pg: ScenarioClient,
) -> None:
    bob, (a, b) = await _two_games(pg)
    chat = bob.private
    await bob.send("/games")
    listing = await chat.last_message()
    assert (listing.text or "").startswith("Your games here:"), listing.text
    assert (listing.text or "").count("your move") == 2
    assert texts(listing) == ["⬇ Dots · 🤖 medium · move 1"] * 2, texts(listing)
    caption_a = (await message(chat, a)).caption
    await bob.press_button(0, 0, listing)
    newest = await chat.last_message()
    assert newest.message_id > listing.message_id and newest.caption == caption_a
    assert a not in [m.message_id for m in await chat.messages()], "the old board is gone"
    # The board brought down is the game: a tap on it plays.
    moved = await tap_move(bob, chat, newest)
    assert version(moved) != version(newest)
    # The bot answers in the background: its move (2) is on the board before /new lists it.
    moved = await wait_message(chat, moved.message_id, lambda m: "Move 2:" in (m.caption or ""))
    # The list was drawn before that move: its button for this game is stale now.
    popup = await bob.press_button(0, 0, await message(chat, listing.message_id))
    assert popup is not None and "out of date" in popup.text, popup
    assert (await chat.last_message()).message_id == moved.message_id, "nothing sent again"

    await bob.send("/new")
    offer = await chat.last_message()
    assert "You have unfinished games" in (offer.text or ""), offer.text
    labels = texts(offer)
    assert labels[1] == "⬇ Dots · 🤖 medium · move 1", labels
    assert labels[0].startswith("⬇ Dots · 🤖 medium · move 3 ("), labels
    assert "Dots and Boxes" in labels, "and below them the menu that starts another"
    await bob.press(labels[1], offer)  # continue game b
    newest = await chat.last_message()
    assert newest.message_id > offer.message_id and newest.buttons
    assert b not in [m.message_id for m in await chat.messages()]


async def test_typed_move_without_a_waiting_game_says_what_there_is(pg: ScenarioClient) -> None:
    (alice, _), group, board = await _group_match(pg)
    await tap_move(alice, group, board)  # Bob's move now
    await alice.send("/m g9", group)
    said = await group.last_message()
    assert "It is not your move in any of your games here" in (said.text or ""), said.text
    assert re.search(r"Dots vs Bob, move 2, after \w+ — waiting for Bob", said.text or ""), said

    assert "/new" in (said.text or "")
    carol = await pg.user("carol", lang="ru")
    await carol.send("g9")
    said = await carol.private.last_message()
    assert said.text == "У вас здесь нет игр. Начните новую: /new.", said.text


async def test_russian_chooser(pg: ScenarioClient) -> None:
    bob, _ = await _two_games(pg, lang="ru")
    await bob.send("g9")
    ask = await bob.private.last_message()
    assert "подходит к нескольким играм" in (ask.text or ""), ask.text
    assert texts(ask) == ["Точки · 🤖 средний · ход 1"] * 2, texts(ask)
