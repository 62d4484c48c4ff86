"""Challenge a friend by link, as two people see it in their own chats with the bot."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest

import storage
from bot.telegram import boards
from playground.client import MessageView, UserHandle
from tests.bot.helpers import buttons, message, version, wait_message
from tests.fixtures.playground import ScenarioClient

LINK = re.compile(r"https://t\.me/\S+\?start=[A-Za-z0-9_-]+")


async def _challenge(pg: ScenarioClient, user: UserHandle, command: str) -> tuple[int, str]:
    """Send the command; return the board's message id and the link."""
    await user.send(command)
    msgs = await user.private.bot_messages()
    board = next(m for m in reversed(msgs) if m.media and m.media.kind == "photo")
    link_msg = msgs[-1]
    found = LINK.search(link_msg.body)
    assert found, link_msg.body
    share = link_msg.find_button("Share").url
    assert share is not None and share.startswith("https://t.me/share/url?")
    return board.message_id, found.group(0)


async def _tap_move(user: UserHandle, board: MessageView) -> None:
    r, c = buttons(board, "p")[0]
    popup = await user.press_button(r, c, board)
    assert popup is not None and popup.text == "", popup


async def test_link_challenge_end_to_end(pg: ScenarioClient) -> None:
    await pg.set_limits(enabled=False)
    alice = await pg.user("alice")
    bob = await pg.user("bob", lang="ru", first_name="Боб")
    carol = await pg.user("carol")
    await alice.send("/start")
    a_id, url = await _challenge(pg, alice, "/challenge boxes")
    a_board = await alice.private.last_photo()
    assert a_board
    waiting = await wait_message(alice.private, a_id, lambda m: "friend" in (m.caption or ""))
    assert "Waiting for your friend" in (waiting.caption or "")

    # The creator opening their own link is told to send it on; the link stays usable.
    await alice.open_link(url)
    assert "your own challenge" in (await alice.private.last_message()).body

    await bob.open_link(url)
    b_board = next(m for m in reversed(await bob.private.bot_messages()) if m.media)
    a_now = await wait_message(alice.private, a_id, lambda m: "Your move" in (m.caption or ""))
    v_now = version(a_now)
    assert v_now is not None
    assert "Ждём хода: Alice" in (b_board.caption or ""), b_board.caption
    assert any("Боб accepted your challenge" in m.body for m in await alice.private.messages())

    # Alice moves on her board: both boards change; then Bob moves on his.
    await _tap_move(alice, a_now)
    b_after = await wait_message(bob.private, b_board.message_id, lambda m: "Ваш ход" in m.body)
    a_after = await wait_message(alice.private, a_id, lambda m: "Waiting for Боб" in m.body)
    assert version(a_after) == version(b_after) == v_now + 1
    assert "Move 1:" in (a_after.caption or "") and "Ход 1:" in (b_after.caption or "")
    await _tap_move(bob, b_after)
    await wait_message(alice.private, a_id, lambda m: "Your move" in m.body)
    await wait_message(bob.private, b_board.message_id, lambda m: "Ход 2:" in m.body)

    # A used link explains itself, in the reader's language; the joined friend is pointed home.
    await carol.open_link(url)
    assert "already been used" in (await carol.private.last_message()).body
    await bob.open_link(url)
    assert "Вы уже в этой игре" in (await bob.private.last_message()).body
    assert len([m for m in await bob.private.bot_messages() if m.media]) == 1


async def test_bad_and_expired_links_explain_themselves(pg: ScenarioClient, redis_url: str) -> None:
    alice = await pg.user("alice", lang="ru")
    await alice.open_link(f"https://t.me/{pg.bot_username}?start=NotAToken")
    assert "недействительна" in (await alice.private.last_message()).body
    async with await storage.connect(redis_url) as store:
        token = await store.challenges.create({"m": "Nothing1"}, ttl=0.05)
    await asyncio.sleep(0.1)
    await alice.open_link(f"https://t.me/{pg.bot_username}?start={token}")
    assert "истёк" in (await alice.private.last_message()).body


async def test_friend_choice_of_the_menu_makes_a_link(pg: ScenarioClient) -> None:
    alice = await pg.user("alice")
    await alice.send("/new")
    for label in ("Dots", "Small 10×10", "Next »", "👥 A friend"):
        await alice.press(label)
    last = await alice.private.last_message()
    assert LINK.search(last.body), last.body
    boards = [m for m in await alice.private.bot_messages() if m.media]
    assert len(boards) == 1 and "Waiting for your friend" in (boards[0].caption or "")


async def test_startgroup_link_opens_a_lobby_in_that_group(pg: ScenarioClient) -> None:
    alice, bob = await pg.user("alice"), await pg.user("bob")
    group = await pg.group("friends", members=[alice, bob], bot=False)
    await alice.send("/challenge dots")
    link = (await alice.private.last_message()).find_button("group").url
    assert link and "startgroup=" in link
    await alice.open_link(link, group=group)
    board = next(m for m in reversed(await group.bot_messages()) if m.media)
    assert "Waiting for players (1/2)" in (board.caption or ""), board.caption
    await bob.press("Join", board, group)
    board = await wait_message(group, board.message_id, lambda m: "To move" in (m.caption or ""))
    assert buttons(board, "p")


async def test_a_board_that_missed_an_edit_is_shown_again_when_tapped(
    pg: ScenarioClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A replica killed between a move's write and its edits leaves a board behind with no
    error to tell. Its player's tap finds it out of date and, a while after the change, the
    bot shows it again."""
    await pg.set_limits(enabled=False)
    alice, bob = await pg.user("alice"), await pg.user("bob")
    a_id, url = await _challenge(pg, alice, "/challenge boxes")
    await bob.open_link(url)
    b_board = next(m for m in reversed(await bob.private.bot_messages()) if m.media)
    a_now = await wait_message(alice.private, a_id, lambda m: "Your move" in (m.caption or ""))
    v_now = version(a_now)
    assert v_now is not None

    show = boards._show
    missed: list[int] = []

    async def lose_bobs_edit(svc: Any, bot: Any, match: Any, i: int, *rest: Any) -> None:
        if match.places[i].chat == bob.id and not missed:
            missed.append(i)  # as if the replica died here
            return
        await show(svc, bot, match, i, *rest)

    monkeypatch.setattr(boards, "_show", lose_bobs_edit)
    await _tap_move(alice, a_now)
    await wait_message(alice.private, a_id, lambda m: version(m) == v_now + 1)
    await pg.settle()
    stale = await message(bob.private, b_board.message_id)
    assert missed and version(stale) == version(a_now)

    r, c = buttons(stale, "p")[0]
    popup = await bob.press_button(r, c, stale)  # right after the change: it is on its way
    assert popup is not None and "look again" in popup.text
    await pg.settle()
    assert version(await message(bob.private, b_board.message_id)) == version(a_now)
    pg.clock.advance(boards.HEAL_AFTER + 1)
    popup = await bob.press_button(r, c, stale)
    assert popup is not None and "look again" in popup.text
    healed = await wait_message(bob.private, b_board.message_id, lambda m: version(m) == v_now + 1)
    assert "Your move" in (healed.caption or "")


def _spot(board: MessageView, n: int) -> tuple[int, int]:
    """Where Рассада spot ``n``'s button is on a board."""
    found = [
        (b.row, b.col)
        for row in board.buttons
        for b in row
        if re.fullmatch(rf"c:\w+:\d+:s{n}", b.callback_data or "")
    ]
    assert found, [[b.callback_data for b in row] for row in board.buttons]
    return found[0]


async def test_a_selection_step_on_a_keyboard_it_left_behind_is_stale_and_heals(
    pg: ScenarioClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Рассада selection step bumps no version: a spot tapped on a keyboard older than the
    stored selection (the edit that showed it lost, or the player's other tap racing this
    one) is told "look again", never "does not work any more", and a while after the last
    change the board is shown again, so the player is not left with dead buttons."""
    await pg.set_limits(enabled=False)
    alice, bob = await pg.user("alice"), await pg.user("bob")
    a_id, url = await _challenge(pg, alice, "/challenge sprouts")
    await bob.open_link(url)
    board = await wait_message(alice.private, a_id, lambda m: "Your move" in (m.caption or ""))
    popup = await alice.press_button(*_spot(board, 1), board)
    assert popup is not None and popup.text == "", popup
    picked = await wait_message(alice.private, a_id, lambda m: m.buttons != board.buttons)

    show = boards._show
    missed: list[int] = []

    async def lose_alices_edit(svc: Any, bot: Any, match: Any, i: int, *rest: Any) -> None:
        if match.places[i].chat == alice.id and not missed:
            missed.append(i)  # as if the replica died here
            return
        await show(svc, bot, match, i, *rest)

    monkeypatch.setattr(boards, "_show", lose_alices_edit)
    popup = await alice.press_button(*_spot(picked, 1), picked)  # 1 to 1: a loop, 4 curves
    assert popup is not None and popup.text == "", popup
    await pg.settle()
    assert missed and (await message(alice.private, a_id)).buttons == picked.buttons

    popup = await alice.press_button(*_spot(picked, 2), picked)  # right after: on its way
    assert popup is not None and "look again" in popup.text, popup
    await pg.settle()
    assert (await message(alice.private, a_id)).buttons == picked.buttons
    pg.clock.advance(boards.HEAL_AFTER + 1)
    popup = await alice.press_button(*_spot(picked, 2), picked)
    assert popup is not None and "look again" in popup.text, popup
    healed = await wait_message(alice.private, a_id, lambda m: bool(buttons(m, "p")))
    assert version(healed) == version(picked)
