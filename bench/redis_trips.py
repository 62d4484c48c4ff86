"""Redis round trips per tap, counted at the bot's connection.

    python -m bench.redis_trips [--taps 30] [--seed 1]

The bot runs in this process (``bot.telegram.app.running``, long polling) against the
playground emulator and a temporary redis-server; every request redis-py sends on a
connection (one command, a pipeline, a script call: one round trip each) is counted. Two
people play a group match; each tap is counted from the moment it is sent until the bot is
quiet again, less the idle rate measured before (the deadline watch polls Redis on its own).
Rows: a Dots move on 10×10 (picture edited), a Dots window step (keys + framed picture), a Boxes
move on 3×3. Flood limits are off. Counts are exact, not timings: a busy machine changes
nothing but the idle correction, which is printed.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

from redis.asyncio.connection import AbstractConnection

from bot.telegram.app import running
from playground.client import ChatHandle, MessageView, PlaygroundClient, UserHandle
from playground.limits import Limits
from playground.server import Emulator
from tests.bot.helpers import buttons, message, wait_message
from tests.fixtures.playground import FakeClock, bot_settings
from tests.fixtures.redis import temporary_server

PATHS = {
    "dots": ["Dots", "Small 10×10", "Next »"],
    "boxes": ["Dots and Boxes", "3×3", "Next »"],
}
IDLE_SECONDS = 3.0


class Counter:
    """Round trips sent on any redis-py asyncio connection of this process."""

    def __init__(self) -> None:
        self.sent = 0
        self._original: Callable[..., Awaitable[None]] | None = None

    def install(self) -> None:
        original = AbstractConnection.send_packed_command
        self._original = original
        counter = self

        async def counted(conn: AbstractConnection, *args: Any, **kwargs: Any) -> None:
            counter.sent += 1
            await original(conn, *args, **kwargs)

        AbstractConnection.send_packed_command = counted  # type: ignore[method-assign,assignment]

    def remove(self) -> None:
        if self._original is not None:
            AbstractConnection.send_packed_command = self._original  # type: ignore[method-assign,assignment]


@asynccontextmanager
async def bot_and_emulator(redis_url: str) -> AsyncIterator[PlaygroundClient]:
    emulator = Emulator(limits=Limits())
    await emulator.start()
    try:
        settings = bot_settings(emulator, redis_url)
        async with running(settings, poll_timeout=10, clock=FakeClock()):
            client = PlaygroundClient(emulator.url)
            await client.connect()
            try:
                await client.set_limits(enabled=False)
                await client.settle()
                yield client
            finally:
                await client.close()
    finally:
        await emulator.stop()


async def _lobby(alice: UserHandle, group: ChatHandle, path: list[str]) -> MessageView:
    await alice.send("/new", group)
    for label in path:
        await alice.press(label, chat=group)
    await alice.press("👥 Players in this chat", chat=group)
    return await group.last_with_buttons()


async def _idle_rate(client: PlaygroundClient, counter: Counter) -> float:
    await client.settle()
    before, t0 = counter.sent, time.monotonic()
    await asyncio.sleep(IDLE_SECONDS)
    return (counter.sent - before) / (time.monotonic() - t0)


async def _counted(counter: Counter, idle: float, tap: Awaitable[Any]) -> tuple[float, int]:
    """The round trips of one tap (awaited here, not before) and the bot's quiet after it."""
    before, t0 = counter.sent, time.monotonic()
    await tap
    elapsed = time.monotonic() - t0
    raw = counter.sent - before
    return raw - idle * elapsed, raw


async def measure(taps: int, seed: int) -> list[tuple[str, list[float], list[int], float]]:
    rng = random.Random(seed)
    counter = Counter()
    rows = []
    with temporary_server() as url:
        counter.install()
        try:
            async with bot_and_emulator(url) as client:
                idle = await _idle_rate(client, counter)
                for kind in ("dots", "boxes"):
                    rows += await _game(client, kind, taps, rng, counter, idle)
        finally:
            counter.remove()
    return [(*r, idle) for r in rows]  # type: ignore[misc]


async def _game(
    client: PlaygroundClient,
    kind: str,
    taps: int,
    rng: random.Random,
    counter: Counter,
    idle: float,
) -> list[tuple[str, list[float], list[int]]]:
    alice = await client.user(f"alice_{kind}", lang="en")
    bob = await client.user(f"bob_{kind}", lang="en")
    group = await client.group(f"Trips {kind}", members=[alice, bob])
    lobby = await _lobby(alice, group, PATHS[kind])
    await bob.press("Join", lobby, group)
    board_id = lobby.message_id
    board = await wait_message(group, board_id, lambda m: bool(buttons(m, "p")))
    players = [alice, bob]
    moves: list[float] = []
    moves_raw: list[int] = []
    steps: list[float] = []
    steps_raw: list[int] = []
    for n in range(taps):
        board = await message(group, board_id)
        free = buttons(board, "p")
        if not free or "wins" in (board.caption or "") or "Draw" in (board.caption or ""):
            break
        mover = _to_move(board, players)
        r, c = rng.choice(free)
        net, raw = await _counted(counter, idle, mover.press_button(r, c, board, group))
        moves.append(net)
        moves_raw.append(raw)
        if kind == "dots":
            board = await message(group, board_id)
            mover = _to_move(board, players)
            arrow = "▶" if n % 2 == 0 else "◀"
            net, raw = await _counted(counter, idle, mover.press(arrow, board, group))
            steps.append(net)
            steps_raw.append(raw)
    rows = [(f"{kind} move", moves, moves_raw)]
    if steps:
        rows.append(("dots window step", steps, steps_raw))
    return rows


def _to_move(board: MessageView, players: list[UserHandle]) -> UserHandle:
    line = (board.caption or "").split("To move:")[-1]
    return next(p for p in players if p.first_name in line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--taps", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rows = asyncio.run(measure(args.taps, args.seed))
    print("| tap | taps | round trips per tap (median) | mean | raw median | idle/s |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, net, raw, idle in rows:
        print(
            f"| {name} | {len(net)} | {statistics.median(net):.1f} | {statistics.mean(net):.2f}"
            f" | {statistics.median(raw):.0f} | {idle:.2f} |"
        )


if __name__ == "__main__":
    main()
