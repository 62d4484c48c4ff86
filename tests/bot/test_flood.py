"""Telegram's answers through the emulator: 429 bursts, "not modified", deleted boards,
blocked bots and migrated groups. Nothing a player did may be lost."""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest
from telegram.ext import Application

import storage
from bot.match import ui, views
from bot.match.actions import Actor, Play, Refused
from bot.match.model import Match
from bot.telegram import act, boards
from playground.client import ChatHandle, MessageView, PlaygroundClient, UserHandle
from playground.server import Emulator
from tests.bot.helpers import buttons, message, version, wait_message
from tests.fixtures.playground import bot_settings, reporting

LINK = re.compile(r"https://t\.me/\S+\?start=[A-Za-z0-9_-]+")


class Bot:
    def __init__(self, client: PlaygroundClient, app: Application, redis_url: str) -> None:  # type: ignore[type-arg]
        self.pg, self.app, self.redis_url = client, app, redis_url

    @property
    def svc(self) -> Any:
        return self.app.bot_data["svc"]

    async def record(self, match_id: str) -> dict[str, Any]:
        record = await self.svc.store.matches.get(match_id)
        assert record is not None
        return dict(record)


@pytest.fixture
async def tb(emulator: Emulator, redis_url: str) -> AsyncIterator[Bot]:
    """The bot running in this loop, with a handle on its Application (and services)."""
    async with reporting(emulator, bot_settings(emulator, redis_url)) as app:
        client = PlaygroundClient(emulator.url)
        await client.connect()
        try:
            await client.settle()
            yield Bot(client, app, redis_url)
        finally:
            await client.close()


async def _photo(chat: ChatHandle, timeout: float = 60.0) -> MessageView:
    """The newest board in the chat, once there is one (a 38×31 board is drawn and sent a
    moment after the tap that made it is answered; longer on a busy machine)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        for m in reversed(await chat.bot_messages()):
            if m.media is not None and m.media.kind == "photo":
                return m
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"no board in {chat} after {timeout:.0f} s")
        await asyncio.sleep(0.2)


def _match_id(m: MessageView) -> str:
    data = next(b.callback_data for row in m.buttons for b in row if b.callback_data)
    return str(data.split(":")[1])


async def _link_game(pg: PlaygroundClient, a: UserHandle, b: UserHandle) -> tuple[int, int, str]:
    await a.send("/challenge boxes")
    link = LINK.search((await a.private.last_message()).body)
    assert link
    await b.open_link(link.group(0))
    a_board, b_board = await _photo(a.private), await _photo(b.private)
    await wait_message(a.private, a_board.message_id, lambda m: "Your move" in m.body)
    return a_board.message_id, b_board.message_id, _match_id(a_board)


async def _too_many(pg: PlaygroundClient, after: int) -> int:
    return sum(1 for r in await pg.bot_requests(after) if r.get("error_code") == 429)


async def test_429_bursts_lose_no_move(tb: Bot) -> None:
    """Private chats limited to a burst of one and an edit every 3 s: the players tap as soon
    as their board lets them; every accepted tap is a move, and both boards end up current.
    The bot edits each chat's board once a move, so the limit is what a tap's edit meets
    however long a move takes: at 2 edits a second, a busy machine (load 11) was too slow
    to meet it at all."""
    pg = tb.pg
    alice, bob = await pg.user("alice"), await pg.user("bob")
    a_id, b_id, match_id = await _link_game(pg, alice, bob)
    start = await pg.seq()
    mark = (await pg.bot_requests())[-1]["seq"]
    await pg.set_limits(enabled=True, private_burst=1, private_per_second=1 / 3)
    players = {alice.id: (alice, a_id), bob.id: (bob, b_id)}
    accepted = 0
    for _ in range(6):
        for user, mid in players.values():
            board = await message(user.private, mid)
            if "Your move" in board.body:
                break
        r, c = buttons(board, "p")[0]
        popup = await user.press_button(r, c, board)
        assert popup is not None and popup.answered and popup.text == "", popup
        accepted += 1
        v = version(board)
        for other, oid in players.values():  # both boards show the move before the next tap
            await wait_message(other.private, oid, lambda m, v=v: version(m) == v + 1, 20)
    await pg.settle(timeout=30)
    assert await _too_many(pg, mark) > 0, "the emulator should have answered 429"
    record = await tb.record(match_id)
    game = Match.from_json(record).game
    assert game.ply == accepted == 6
    for user, mid in players.values():
        assert f"Move {accepted}:" in (await message(user.private, mid)).body
    assert start < await pg.seq()


async def test_latest_board_wins_when_the_edit_budget_is_spent(tb: Bot) -> None:
    """Six window steps tapped at once while the chat can take one edit a second: each step
    is applied, far fewer edits go out, and the board shows the last state exactly."""
    pg = tb.pg
    alice = await pg.user("alice")
    await alice.send("/new")
    for label in ("Dots", "Tournament 38×31", "Next »", "🤖 Easy"):
        await alice.press(label)
    board = await wait_message(
        alice.private, (await _photo(alice.private)).message_id, lambda m: bool(buttons(m, "c"))
    )
    await pg.settle()
    match_id = _match_id(board)
    await pg.set_limits(enabled=True, private_burst=1, private_per_second=1)
    r, c = next((b.row, b.col) for row in board.buttons for b in row if b.text == "▶")
    # One step first spends the chat's budget, so the burst below meets a 429 however well
    # the bot coalesces it.
    await alice.press_button(r, c, board)
    expected_match = Match.from_json(await tb.record(match_id))
    mark = (await pg.bot_requests())[-1]["seq"]
    popups = await asyncio.gather(
        *(alice.press_button(r, c, board, settle=False) for _ in range(6))
    )
    await pg.settle(timeout=30)
    assert all(p is not None for p in popups)
    match = Match.from_json(await tb.record(match_id))
    for _ in popups:  # the same six steps, one after another, give the stored window
        with contextlib.suppress(Refused):
            ui.get("dots").cursor(expected_match, expected_match.places[0], "r")
    assert match.places[0].cursor["w"] == expected_match.places[0].cursor["w"]
    edits = [
        q for q in await pg.bot_requests(mark) if q["method"].lower().startswith("editmessage")
    ]
    done = [q for q in edits if q.get("ok")]
    assert 1 <= len(done) <= 3, edits  # coalesced: not one edit per step
    assert await _too_many(pg, mark) > 0
    shown = await message(alice.private, board.message_id)
    expected = views.place_view(match, 0).keyboard
    assert [[b.callback_data for b in row] for row in shown.buttons] == [
        [b.data for b in row] for row in expected
    ]


async def test_not_modified_deleted_and_blocked(tb: Bot) -> None:
    pg = tb.pg
    alice, bob = await pg.user("alice"), await pg.user("bob")
    a_id, b_id, match_id = await _link_game(pg, alice, bob)
    await pg.settle()
    svc, bot = tb.svc, tb.app.bot

    # "Message is not modified": a replica that forgot what it showed edits to the same.
    mark = (await pg.bot_requests())[-1]["seq"]
    svc.shown.clear()
    await boards.refresh(svc, bot, match_id)
    answers = [q.get("description", "") for q in await pg.bot_requests(mark)]
    assert any("not modified" in d for d in answers), answers
    assert len(svc.shown) == 2

    # Bob deletes his board; Alice's move brings it back as a new message, remembered.
    await bot.delete_message(bob.id, b_id)
    board = await message(alice.private, a_id)
    r, c = buttons(board, "p")[0]
    await alice.press_button(r, c, board)
    new_b = await _photo(bob.private)
    assert new_b.message_id != b_id and "Move 1:" in new_b.body
    record = await tb.record(match_id)
    assert record["places"][1]["m"] == new_b.message_id

    # Bob blocks the bot: his place is left alone (no edits), the match goes on.
    await bob.block()
    board = await wait_message(bob.private, new_b.message_id, lambda m: "Your move" in m.body)
    r, c = buttons(board, "p")[0]
    await bob.unblock()
    await bob.press_button(r, c, board)  # his move before blocking, tapped from the old board
    await bob.block()
    mark = (await pg.bot_requests())[-1]["seq"]
    board = await wait_message(alice.private, a_id, lambda m: "Your move" in m.body)
    r, c = buttons(board, "p")[0]
    await alice.press_button(r, c, board)
    board = await message(alice.private, a_id)
    assert "Move 3:" in board.body
    record = await tb.record(match_id)
    assert record["places"][1].get("o") == 1 and record["status"] == "active"
    sent = await pg.bot_requests(mark)
    to_bob = [q for q in sent if str(q.get("params", {}).get("chat_id")) == str(bob.id)]
    assert len([q for q in to_bob if q.get("error_code") == 403]) <= 1, to_bob
    # Bob comes back: his board is brought up to date, and edited again from then on.
    await bob.unblock()
    await pg.settle()
    assert "Move 3:" in (await message(bob.private, new_b.message_id)).body
    assert (await tb.record(match_id))["places"][1].get("o") is None


async def test_migrated_group_moves_the_board(tb: Bot) -> None:
    pg = tb.pg
    alice, bob = await pg.user("alice"), await pg.user("bob")
    group = await pg.group("friends", members=[alice, bob])
    await alice.send("/challenge boxes", group)
    board = await _photo(group)
    await bob.press("Join", board, group)
    board = await wait_message(group, board.message_id, lambda m: "To move: Alice" in m.body)
    match_id = _match_id(board)
    new_id = await group.migrate(alice)
    r, c = buttons(board, "p")[0]
    popup = await alice.press_button(r, c, board, group)
    assert popup is not None and popup.text == ""
    await pg.settle()
    record = await tb.record(match_id)
    assert record["places"][0]["c"] == new_id and record["chats"] == [new_id]
    latest = await _photo(group)
    assert latest.message_id != board.message_id and "Move 1:" in latest.body
    async with await storage.connect(tb.redis_url) as store:
        assert match_id in await store.matches.active_in_chat(new_id)


async def test_tap_before_the_board_message_id_is_stored(tb: Bot) -> None:
    """Another replica can take a tap on a board in the instant between Telegram's answer to
    sendPhoto and the message id reaching Redis: the tap still acts on that chat's board."""
    pg = tb.pg
    alice, bob = await pg.user("alice"), await pg.user("bob")
    group = await pg.group("quick hands", members=[alice, bob])
    await alice.send("/challenge boxes", group)
    board = await _photo(group)
    match_id = _match_id(board)
    await boards._update_place(tb.svc, match_id, 0, msg=None)  # the id is not stored yet
    popup = await bob.press("Join", board, group)
    assert popup is not None and popup.text == ""
    record = await tb.record(match_id)
    assert [s["u"] for s in record["seats"]] == [alice.id, bob.id]
    assert record["status"] == "active"


async def test_a_board_that_missed_an_edit_is_shown_again_on_a_stale_tap(tb: Bot) -> None:
    """A move stored while its edits were lost (nothing reported the loss): the first tap on
    the outdated board, a while later, says "look again" and brings the board up to date."""
    pg = tb.pg
    alice, bob = await pg.user("alice"), await pg.user("bob")
    a_id, b_id, match_id = await _link_game(pg, alice, bob)
    board = await message(alice.private, a_id)
    v = version(board)
    assert v is not None
    r, c = buttons(board, "p")[0]
    data = board.buttons[r][c].callback_data
    assert data is not None
    code = data.split(":")[3]
    # "another replica" applies Alice's move; its edits never land
    outcome = await act.act(tb.svc, match_id, Actor(alice.id, "Alice"), Play(code=code), version=v)
    assert outcome.refused is None
    popup = await alice.press_button(*buttons(board, "p")[-1], board)
    assert popup is not None and "changed" in popup.text  # a racing tap: not healed
    await pg.settle()
    assert version(await message(alice.private, a_id)) == v
    tb.svc.clock = lambda: time.time() + boards.HEAL_AFTER + 1  # a while later
    popup = await bob.press_button(*buttons(await message(bob.private, b_id), "p")[0])
    assert popup is not None and "changed" in popup.text
    fresh = await wait_message(bob.private, b_id, lambda m: version(m) == v + 1)
    assert "Your move" in fresh.body
    assert version(await message(alice.private, a_id)) == v  # only the tapped board


def _striped_dots() -> Any:
    """A 15×15 Dots game whose rows 0–13 are full: even rows orange, odd rows blue (stripes
    enclose nothing), so every keyboard window over them holds dots only."""
    import engine
    from engine.dots.game import Move as Dot

    g = engine.new("dots", preset="quick")
    even = [Dot(x, y) for y in range(0, 15, 2) for x in range(15)]
    odd = [Dot(x, y) for y in range(1, 15, 2) for x in range(15)]
    for a, b in zip(even, odd, strict=False):
        g.play(a)
        g.play(b)
    return g


async def test_a_window_step_over_dots_only_is_shown(tb: Bot) -> None:
    """Two Dots windows full of dots carry the same button data and differ only in their
    labels: a step from one to the other still edits the keyboard (late in a game it was
    taken for "already shown", and the arrows seemed dead)."""
    pg = tb.pg
    alice, bob = await pg.user("alice"), await pg.user("bob")
    await alice.send("/challenge dots")
    link = LINK.search((await alice.private.last_message()).body)
    assert link
    await bob.open_link(link.group(0))
    board = await _photo(alice.private)
    match_id = _match_id(board)
    game = _striped_dots()

    def fill(record: dict[str, Any]) -> dict[str, Any]:
        match = Match.from_json(record)
        assert match.game.options["width"] == 15
        match.attach(game)
        match.version += 1
        for place in match.places:
            place.cursor["w"] = [0, 0]
        return match.to_json()

    await tb.svc.store.matches.update(match_id, fill)
    await boards.refresh(tb.svc, tb.app.bot, match_id)
    board = await wait_message(alice.private, board.message_id, lambda m: "Move 210" in m.body)
    assert not buttons(board, "p")
    for arrow in ("▼", "▲"):  # rows 0–6, then 5–11 (a blue row on top), then back
        shown = board.button_texts
        await alice.press(arrow, board)
        board = await wait_message(
            alice.private, board.message_id, lambda m, s=shown: m.button_texts != s
        )
        assert not buttons(board, "p")
