"""The show after a tap starts from the record the tap wrote, and still ends on the latest
stored state when the match changed while the boards were edited."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from typing import Any

import pytest
from telegram.ext import Application

from bot.telegram import boards
from bot.telegram.stored import load
from playground.client import MessageView, PlaygroundClient, UserHandle
from playground.server import Emulator
from tests.bot.helpers import message, wait_message
from tests.fixtures.playground import bot_settings, reporting

LINK = re.compile(r"https://t\.me/\S+\?start=[A-Za-z0-9_-]+")


@pytest.fixture
async def app(emulator: Emulator, redis_url: str) -> AsyncIterator[Application]:  # type: ignore[type-arg]
    async with reporting(emulator, bot_settings(emulator, redis_url)) as application:
        yield application


async def _dots_board(pg: PlaygroundClient) -> tuple[UserHandle, MessageView, str]:
    """A Dots match between two people by link; Alice's board (with its ▲ ▼ window arrows).
    The emulator's flood limits are off: an edit refused by a chat's flood wait is shown again
    from a fresh read when the wait ends (by design), and these tests are about the read path."""
    await pg.set_limits(enabled=False)
    alice, bob = await pg.user("alice"), await pg.user("bob")
    await alice.send("/challenge dots")
    link = LINK.search((await alice.private.last_message()).body)
    assert link
    await bob.open_link(link.group(0))
    board = next(
        m
        for m in reversed(await alice.private.bot_messages())
        if m.media is not None and m.media.kind == "photo"
    )
    board = await wait_message(
        alice.private, board.message_id, lambda m: any("▼" in row for row in m.button_texts)
    )
    data = next(b.callback_data for row in board.buttons for b in row if b.callback_data)
    return alice, board, str(data.split(":")[1])


async def _step(alice: UserHandle, board: MessageView, arrow: str) -> MessageView:
    shown = board.button_texts
    await alice.press(arrow, board)
    return await wait_message(
        alice.private, board.message_id, lambda m, s=shown: m.button_texts != s
    )


async def test_a_tap_is_shown_without_reading_the_match_back(
    app: Application,  # type: ignore[type-arg]
    emulator: Emulator,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    svc: Any = app.bot_data["svc"]
    pg = PlaygroundClient(emulator.url)
    await pg.connect()
    try:
        alice, board, _ = await _dots_board(pg)
        reads: list[str] = []
        get_revised = svc.store.matches.get_revised

        async def counted(match_id: str) -> Any:
            reads.append(match_id)
            return await get_revised(match_id)

        monkeypatch.setattr(svc.store.matches, "get_revised", counted)
        before = board.button_texts
        board = await _step(alice, board, "▼")
        assert board.button_texts != before
        assert reads == []
    finally:
        await pg.close()


async def test_a_show_of_a_record_changed_meanwhile_goes_round_to_the_latest(
    app: Application,  # type: ignore[type-arg]
    emulator: Emulator,
) -> None:
    svc: Any = app.bot_data["svc"]
    pg = PlaygroundClient(emulator.url)
    await pg.connect()
    try:
        alice, board, match_id = await _dots_board(pg)
        old = await svc.store.matches.get_revised(match_id)
        assert old is not None
        latest = (await _step(alice, board, "▼")).button_texts
        # A show that starts from the older record (as if another tap had been written
        # between this one's write and its show) edits the board back to the older window
        # first; the revision read after the edits tells it so, and it shows the latest.
        await boards.refresh(svc, app.bot, match_id, written=boards.Written(old[0], load(old[1])))
        await pg.settle()
        assert (await message(alice.private, board.message_id)).button_texts == latest
    finally:
        await pg.close()


async def test_a_picture_shown_in_two_chats_is_uploaded_once(
    app: Application,  # type: ignore[type-arg]
    emulator: Emulator,
) -> None:
    """A link challenge shows the match in both players' private chats: the move's picture is
    uploaded with the first edit, and the second edit reuses the file Telegram answered with
    (read from the edit's raw answer)."""
    pg = PlaygroundClient(emulator.url)
    await pg.connect()
    try:
        alice, bob = await pg.user("alice"), await pg.user("bob")
        await alice.send("/challenge boxes")
        link = LINK.search((await alice.private.last_message()).body)
        assert link
        await bob.open_link(link.group(0))
        await pg.settle()
        boards_now = [await _last_photo(u) for u in (alice, bob)]
        mover = next(i for i, b in enumerate(boards_now) if "Your move" in b.body)
        user, board = (alice, bob)[mover], boards_now[mover]
        move = next(b for row in board.buttons for b in row if (b.callback_data or "")[:2] == "p:")
        await user.press(move.text, board)
        await pg.settle()
        after = [
            await message(u.private, b.message_id)
            for u, b in zip((alice, bob), boards_now, strict=True)
        ]
        assert all(a.media is not None for a in after)
        ids = {a.media.file_id for a in after if a.media is not None}
        before = {b.media.file_id for b in boards_now if b.media is not None}
        assert len(ids) == 1 and not ids & before
    finally:
        await pg.close()


async def _last_photo(user: UserHandle) -> MessageView:
    return next(
        m
        for m in reversed(await user.private.bot_messages())
        if m.media is not None and m.media.kind == "photo"
    )
