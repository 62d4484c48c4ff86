"""Playing through the playground as a person would: read the board message, tap buttons."""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from pathlib import Path
from typing import Any

import engine
import storage
from bot.match.actions import Actor
from bot.match.lobby import new_match
from bot.match.model import Match
from playground.client import ChatHandle, MessageView, PlaygroundClientError, UserHandle

WAIT = 60.0
ALICE = Actor(1, "Alice")


def group_match(
    kind: str,
    options: dict[str, Any],
    *,
    ai: str | None = "easy",
    moves: int = 0,
    seed: int = 0,
    creator: Actor = ALICE,
) -> Match:
    """A match made by the match layer alone (no bot, no Redis) in a group chat: against the
    bot at ``ai`` (started, then ``moves`` random moves), or a lobby when ``ai`` is None."""
    match, _ = new_match(
        match_id="abcdEFGH",
        kind=kind,
        options=options,
        creator=creator,
        chat=-100,
        group=True,
        lang="en",
        now=0.0,
        ai_level=ai,
    )
    if match.status == "active":
        engine.random_playout(match.game, random.Random(seed), max_moves=moves)
    return match


async def message(chat: ChatHandle, message_id: int) -> MessageView:
    for m in await chat.messages():
        if m.message_id == message_id:
            return m
    raise AssertionError(f"message {message_id} is gone from {chat}")


def version(m: MessageView) -> int | None:
    for row in m.buttons:
        for b in row:
            parts = (b.callback_data or "").split(":")
            if len(parts) >= 3 and parts[2].isdigit() and parts[0] != "N":
                return int(parts[2])
    return None


def buttons(m: MessageView, op: str) -> list[tuple[int, int]]:
    return [
        (b.row, b.col)
        for row in m.buttons
        for b in row
        if (b.callback_data or "").startswith(op + ":")
    ]


async def wait_message(
    chat: ChatHandle,
    message_id: int,
    pred,
    timeout: float = WAIT,  # type: ignore[no-untyped-def]
) -> MessageView:
    deadline = time.monotonic() + timeout
    while True:
        m = await message(chat, message_id)
        if pred(m):
            return m
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting on message {message_id}: {m.body!r}")
        await asyncio.sleep(0.05)


RECORD_CAPTIONS = ("The move record of this game.", "Запись ходов этой партии.")


async def endings(chat: ChatHandle, count: int = 1, timeout: float = WAIT) -> None:
    """Wait until ``count`` ended games have sent ``chat`` their ending: the replay (drawn in
    a worker process, which may take a while to start) and then the record file."""
    deadline = time.monotonic() + timeout
    while True:
        sent = [
            m
            for m in await chat.messages()
            if m.media is not None
            and m.media.kind == "document"
            and (m.caption or "") in RECORD_CAPTIONS
        ]
        if len(sent) >= count:
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"{len(sent)} of {count} endings arrived in {chat}")
        await asyncio.sleep(0.05)


async def play_to_end(
    players: dict[int, UserHandle],
    chat: ChatHandle,
    board_id: int,
    rng: random.Random,
    *,
    max_taps: int = 2000,
    moves: int | None = None,
) -> MessageView:
    """Tap random legal-looking buttons for whoever is to move until the keyboard disappears
    (or, with ``moves``, until that many taps made a move).

    ``players`` maps a seat's Telegram user id to the handle that taps for it; the caption's
    "to move" mention tells whose turn it is (in private games the single human always taps).
    """
    made = 0
    for _ in range(max_taps):
        board = await message(chat, board_id)
        if finished(board) or made == moves:
            return board
        v = version(board)
        user = to_move(players, board)
        plays = buttons(board, "p")
        if plays:
            r, c = rng.choice(plays)
            await user.press_button(r, c, board, settle=False)
            await wait_message(chat, board_id, lambda m, v=v: not m.buttons or version(m) != v)
            made += 1
            continue
        steps = buttons(board, "c")
        assert steps, f"no move and no navigation on the board: {board.button_texts}"
        r, c = rng.choice(steps)
        try:  # keyboard-only step: wait until the bot is quiet
            popup = await user.press_button(r, c, board)
        except PlaygroundClientError:
            # The bot's reply (its move drawn slowly, say) replaced the keyboard after the
            # playground looked quiet: a person would look again, and so does this.
            continue
        if popup is not None and not popup.text:
            # Accepted: a person taps on once the board shows the step. Quiet is not enough:
            # the bot makes no request while it draws the picture (a Рассада preview takes
            # seconds on a busy machine), and a tap on the old keyboard would be a different
            # game from the one an idle machine plays.
            with contextlib.suppress(AssertionError):
                await wait_message(chat, board_id, lambda m, b=board: _looks(m) != _looks(b), 10)
        made += version(await message(chat, board_id)) != v  # a step that ends a move
    raise AssertionError("the game did not end")


def _looks(m: MessageView) -> tuple[object, ...]:
    """What a person sees of a board: its caption, picture and keyboard."""
    picture = None if m.media is None else m.media.file_id
    return (m.caption, picture, m.button_texts, [b.callback_data for row in m.buttons for b in row])


async def tap_move(user: UserHandle, chat: ChatHandle, board: MessageView) -> MessageView:
    """Tap the board's first move button; the board once its version has moved on."""
    v = version(board)
    r, c = buttons(board, "p")[0]
    await user.press_button(r, c, board, chat)
    return await wait_message(chat, board.message_id, lambda m: version(m) != v)


def finished(m: MessageView) -> bool:
    """A final board: no move or navigation buttons left (only rematch/record, or none)."""
    return not any(buttons(m, op) for op in ("p", "c"))


def to_move(players: dict[int, UserHandle], board: MessageView) -> UserHandle:
    if len(players) == 1:
        return next(iter(players.values()))
    raw = board.raw.get("caption_entities") or board.raw.get("entities") or []
    for e in raw:
        uid = (e.get("user") or {}).get("id")
        if uid in players:
            return players[uid]
        url = e.get("url") or ""
        if url.startswith("tg://user?id="):
            uid = int(url.split("=", 1)[1])
            if uid in players:
                return players[uid]
    raise AssertionError(f"cannot tell whose turn it is: {board.body!r}")


def texts(m: MessageView) -> list[str]:
    """Every button label of a message, row by row."""
    return [b.text for row in m.buttons for b in row]


async def stored_match(redis_url: str, board: MessageView) -> Match:
    """The match behind a board message, as stored (its id is in every button's data)."""
    match_id = next((b.callback_data or "").split(":")[1] for row in board.buttons for b in row)
    store = await storage.connect(redis_url)
    try:
        record = await store.matches.get(match_id)
    finally:
        await store.close()
    assert record is not None
    return Match.from_json(record)


async def quick_game(user: UserHandle, button: str) -> MessageView:
    """``/new`` and a "⚡ … vs bot" button in the user's private chat; the board, once it has
    its keyboard."""
    await user.send("/new")
    await user.press(button)
    first = await user.private.last_message()
    return await wait_message(user.private, first.message_id, lambda m: bool(m.buttons))


def alive(pid: int) -> bool:
    """Whether process ``pid`` is running (a zombie has ended)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"  # a zombie has ended
