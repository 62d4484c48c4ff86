"""A flood in one group stalls no other chat (#32): that group answers 429 for a while, with
Telegram's own "retry after" (the seconds its flood wait has left); meanwhile taps in 20
other chats are answered at once, and once the flood is over the group's board shows the
latest state, in one edit, not the backlog of states it missed.

The flood lasts 30 s with ``TETRAD_FULL=1`` (the issue's figure) and 10 s otherwise."""

from __future__ import annotations

import asyncio
import os
import random
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest
from telegram.ext import Application

from bot.match.model import Match
from playground.client import (
    ChatHandle,
    MessageView,
    PlaygroundClient,
    UserHandle,
)
from playground.server import Emulator
from tests.bot.helpers import buttons, message, version, wait_message
from tests.fixtures.playground import bot_settings, reporting

FLOOD = 30.0 if os.environ.get("TETRAD_FULL", "") not in ("", "0") else 10.0
OTHER_CHATS = 20
PACE = 0.5  # seconds a player looks at the board before the next tap


def _starved() -> bool:
    """Whether the machine had more runnable work than cores over the last minute: a tap's
    wall time then measures the scheduler (seconds for a CPU-starved process), not the flood,
    so the bounds below keep to what a stall by the flood would break."""
    return os.getloadavg()[0] > (os.cpu_count() or 1)


@pytest.fixture
async def bot(emulator: Emulator, redis_url: str) -> AsyncIterator[tuple[PlaygroundClient, Any]]:
    async with reporting(emulator, bot_settings(emulator, redis_url)) as app:
        pg = PlaygroundClient(emulator.url)
        await pg.connect()
        try:
            await pg.settle()
            yield pg, app
        finally:
            await pg.close()


async def _stored(app: Application, match_id: str) -> Match:  # type: ignore[type-arg]
    record = await app.bot_data["svc"].store.matches.get(match_id)
    assert record is not None
    return Match.from_json(record)


async def _group_move(
    app: Any, group: ChatHandle, players: dict[int, UserHandle], mid: str
) -> None:
    """Whoever is to move types a legal move (the board they see is held up by the flood);
    nothing once the game is over."""
    match = await _stored(app, mid)
    if match.status != "active":
        return
    user = match.seats[match.game.turn].user
    assert user is not None  # these games have no bot seat
    mover = players[user]
    move = random.Random(match.version).choice(match.game.legal_moves())
    await mover.send(f"/m {match.game.format_move(move)}", group, settle=False)
    for _ in range(200):  # stored: the bot has taken it
        if (await _stored(app, mid)).version > match.version:
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the typed move was not stored")


async def _quick_dots(user: UserHandle) -> MessageView:
    """A quick Dots game against the bot in the user's private chat (it outlasts the flood;
    Boxes games ended, and a replay's start-up cost every chat a second on a loaded machine):
    its board. Nothing waits for the bot to be quiet: other chats keep it busy."""
    before = len(await user.private.messages())
    await user.send("/new", settle=False)
    menu = await _new_message(user, before, lambda m: bool(m.buttons))
    await user.press("⚡ Dots vs bot", menu, settle=False)
    return await _new_message(user, before + 1, lambda m: bool(buttons(m, "p")))


async def _new_message(user: UserHandle, after: int, pred: Any) -> MessageView:
    for _ in range(1200):
        sent = (await user.private.messages())[after:]
        found = [m for m in sent if m.from_bot and pred(m)]
        if found:
            return found[-1]
        await asyncio.sleep(0.05)
    raise AssertionError(f"no such message from the bot in {user.private}")


async def _tap_along(
    app: Any, user: UserHandle, board: MessageView, until: float, waits: list[float]
) -> None:
    """Play moves on a private board against the bot until ``until``, timing each answer."""
    rng = random.Random(user.id)
    match_id = next((b.callback_data or "").split(":")[1] for r in board.buttons for b in r)
    while time.monotonic() < until:
        for _ in range(600):  # the bot's reply stored: the player's turn, or the game is over
            match = await _stored(app, match_id)
            if match.status != "active" or match.seats[match.game.turn].user == user.id:
                break
            await asyncio.sleep(0.05)
        if match.status != "active":  # a new game keeps the chat busy
            board = await _quick_dots(user)
            match_id = next((b.callback_data or "").split(":")[1] for r in board.buttons for b in r)
            continue
        shown = await wait_message(
            user.private, board.message_id, lambda m, v=match.version: version(m) == v, 30
        )
        await asyncio.sleep(PACE)  # a person looks at the board before tapping
        started = time.perf_counter()
        popup = await user.press_button(
            *rng.choice(buttons(shown, "p")), shown, settle=False, answered=True
        )
        waits.append(time.perf_counter() - started)
        assert popup is not None and popup.answered and not popup.text, popup
        for _ in range(600):
            if (await _stored(app, match_id)).version > match.version:
                break
            await asyncio.sleep(0.05)


async def test_a_flood_in_one_group_stalls_no_other_chat(
    bot: tuple[PlaygroundClient, Any], emulator: Emulator
) -> None:
    pg, app = bot
    await pg.set_limits(enabled=False)  # only the flood below answers 429
    alice, bob = await pg.user("alice", lang="en"), await pg.user("bob", lang="en")
    group = await pg.group("flooded", members=[alice, bob])
    await alice.send("/challenge boxes", group)
    lobby = await group.last_with_buttons()
    await bob.press("Join", lobby, group)
    board = await wait_message(group, lobby.message_id, lambda m: "To move" in m.body)
    match_id = next((b.callback_data or "").split(":")[1] for r in board.buttons for b in r)
    players = {alice.id: alice, bob.id: bob}
    others = [await pg.user(f"p{i}", lang="en") for i in range(OTHER_CHATS)]
    boards = [await _quick_dots(u) for u in others]
    await pg.settle()

    mark = (await pg.bot_requests())[-1]["seq"]
    await pg.add_fault("429", chats=[group.id], seconds=FLOOD, retry_after=0)
    flood_ends = emulator.world.faults.active[-1].until  # the emulator's clock: monotonic
    waits: list[float] = []
    tapping = [
        asyncio.create_task(_tap_along(app, u, b, flood_ends - 1, waits))
        for u, b in zip(others, boards, strict=True)
    ]
    stale: list[float] = []
    # Rounds go on while another one would still end inside the flood, by the longest round
    # so far twice over: a busy machine stretches a round well past its 1 s pause.
    longest = 1.0
    while time.monotonic() + 2 * longest < flood_ends:
        round_started = time.monotonic()
        await _group_move(app, group, players, match_id)
        started = time.perf_counter()  # a tap on the group's outdated board: answered too
        popup = await bob.press_button(*buttons(board, "p")[0], board, settle=False, answered=True)
        stale.append(time.perf_counter() - started)
        assert popup is not None and popup.answered
        await asyncio.sleep(1.0)
        longest = max(longest, time.monotonic() - round_started)
    assert stale, "the flood ended before a single round"
    latest = (await _stored(app, match_id)).version
    assert time.monotonic() < flood_ends
    held = version(await message(group, board.message_id))
    assert held is not None and held < latest, "the flood held no edit?"

    async def current() -> float:
        """Seconds after the flood's end when the group's board showed the latest state."""
        await wait_message(group, board.message_id, lambda m: version(m) == latest, FLOOD + 30)
        return time.monotonic() - flood_ends

    watching = asyncio.create_task(current())
    await asyncio.gather(*tapping)
    # The board shows the latest state soon after the flood ends, in one edit.
    late = await watching
    shown = await message(group, board.message_id)
    sent = await pg.bot_requests(mark)
    to_group = [q for q in sent if str(q.get("params", {}).get("chat_id")) == str(group.id)]
    refused = [q for q in to_group if q.get("error_code") == 429]
    edits = [q for q in to_group if q["method"].lower().startswith("edit") and q.get("ok")]
    waits.sort()
    p99 = waits[min(len(waits) - 1, int(0.99 * len(waits)))]
    print(
        f"flood {FLOOD:.0f} s: {len(waits)} taps in {OTHER_CHATS} chats, answer p99 {p99:.2f} s,"
        f" max {waits[-1]:.2f} s; stale group taps max {max(stale):.2f} s; {len(refused)} 429s;"
        f" board current {late:.2f} s after the flood, {len(edits)} edit(s)"
    )
    assert len(waits) >= OTHER_CHATS, waits
    assert 1 <= len(refused) <= 3, refused  # closed at the first 429, not hammered
    assert len(edits) == 1, edits
    if not _starved():  # the figures: p99 1 s, the board current within 2 s
        assert p99 <= 1.0 and max(stale) <= 1.0, (waits, stale)
        assert late <= 2.0, late
        return
    # On a starved CPU: no tap waited for the flood (a chat held by it waits the flood's rest,
    # FLOOD / 2 on average: a median a quarter of that and no tap half of it is not held), and
    # the board follows its end. Slow answers alone are the machine, not the bot.
    assert waits[len(waits) // 2] < FLOOD / 4 and waits[-1] < FLOOD / 2, waits
    assert max(stale) < FLOOD / 2, stale
    assert late <= 5.0, late
    assert version(shown) == latest
