"""Start-up on a loaded machine: the bot takes its first update only once its worker pools
are warm, so the first Рассада curve costs what later ones cost (#32: the first tap after a
start waited 8 s for the route workers to start)."""

from __future__ import annotations

import asyncio
import dataclasses
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest

from bot.telegram.app import running
from engine.sprouts import game as sprouts_game
from playground.client import PlaygroundClient
from playground.server import Emulator
from tests.bot.helpers import _looks, message, quick_game, texts, wait_message
from tests.fixtures.playground import bot_settings, reporting

BURN = "while True: pass"


@pytest.fixture
def loaded() -> Iterator[None]:
    """Two CPU-burning processes beside the bot for the test's duration (this machine has
    two cores), ended by their own process ids."""
    burners = [subprocess.Popen([sys.executable, "-c", BURN]) for _ in range(2)]
    try:
        yield
    finally:
        for p in burners:
            p.kill()
            p.wait(10)


def _spots(texts_: list[str]) -> list[str]:
    return [t for t in texts_ if t[:1].isdigit()]


async def test_the_first_sprouts_tap_waits_for_no_worker(
    emulator: Emulator, redis_url: str, loaded: None
) -> None:
    settings = dataclasses.replace(
        bot_settings(emulator, redis_url), route_workers=2, warm_workers=True
    )
    async with reporting(emulator, settings) as app:
        svc = app.bot_data["svc"]
        # Taking updates now: every worker of both pools has started and prepared itself.
        assert svc.ready and svc.ai.ready and svc.routes is not None and svc.routes.ready
        pg = PlaygroundClient(emulator.url)
        await pg.connect()
        try:
            await pg.set_limits(enabled=False)
            alice = await pg.user("alice", lang="en")
            board = await quick_game(alice, "⚡ Sprouts vs bot")
            seconds: list[float] = []
            for _ in range(4):  # the player's curve: first spot, then the second one
                first = _spots(texts(board))[0]
                await alice.press(first, board)
                picked = await message(alice.private, board.message_id)
                second = _spots(texts(picked))[0]
                started = time.perf_counter()
                await alice.press(second, picked, settle=False)
                await wait_message(
                    alice.private, board.message_id, lambda m, p=picked: _looks(m) != _looks(p)
                )
                seconds.append(time.perf_counter() - started)
                await pg.settle(timeout=60)
                board = await message(alice.private, board.message_id)
                for label in ("✔ Draw this curve",):  # several curves: play the previewed one
                    if label in texts(board):
                        await alice.press(label, board)
                await pg.settle(timeout=60)
                board = await message(alice.private, board.message_id)
                if not _spots(texts(board)):
                    break
        finally:
            await pg.close()
        # Instrumented: no job was asked of a pool before its workers were ready.
        assert svc.ai.cold_calls == 0 and svc.routes.cold_calls == 0
    later = statistics.median(seconds[1:])
    print(f"second-spot taps: first {seconds[0]:.2f} s, later median {later:.2f} s")
    assert seconds[0] <= 5 * later + 1.0, seconds  # generous: the machine is loaded


async def test_a_start_cancelled_while_the_workers_warm_puts_the_router_back(
    emulator: Emulator, redis_url: str
) -> None:
    """A bot stopped during its start (a timeout, a stop signal) closes its route pool: the
    Рассада router it installed would otherwise send every later move of the process to a
    pool whose event loop is gone (one such start failed every Рассада test after it)."""
    before = sprouts_game._router
    settings = dataclasses.replace(
        bot_settings(emulator, redis_url), route_workers=1, warm_workers=True
    )

    async def start() -> None:
        async with running(settings):
            pass  # not reached in time: cancelled while warming

    task = asyncio.ensure_future(start())
    deadline = time.monotonic() + 60
    while sprouts_game._router is before and not task.done() and time.monotonic() < deadline:
        await asyncio.sleep(0.01)
    assert sprouts_game._router is not before, "the pool never installed its router"
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    assert sprouts_game._router is before
