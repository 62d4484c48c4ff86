"""The bot's moves on the job queue (WORKERS=queue): real `tetrad worker` processes on the
test's redis-server, the real bot through the playground.

Games against the bot end with every bot move thought by a worker; a worker killed in the
middle of a think has its move thought again by the other (the queue's retry); with no
worker at all the bot thinks its moves itself, and the fallback metric counts each.
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from saq import Status

import engine
from bench.queue import search_position
from bot.i18n import t
from bot.telegram.ai_pool import AIPool
from bot.telegram.job_worker import WORKER_ID
from bot.telegram.jobs import QueueThinker, ThinkQueue, think_queue
from bot.telegram.metrics import REGISTRY
from playground.server import Emulator
from tests.bot.helpers import alive, finished, play_to_end, quick_game, stored_match
from tests.fixtures.playground import ScenarioClient, bot_settings, scenario

REASONS = ("no_worker", "timeout", "failed", "error")
WAIT = 40.0  # bounded waits for processes on a busy machine


def moves() -> float:
    return REGISTRY.get_sample_value("tetrad_queue_moves_total") or 0.0


def fallbacks(reason: str) -> float:
    value = REGISTRY.get_sample_value("tetrad_queue_fallbacks_total", {"reason": reason})
    return value or 0.0


async def until(check: Callable[[], object], what: str, timeout: float = WAIT) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"not in {timeout:.0f} s: {what}")
        await asyncio.sleep(0.05)


class Fleet:
    """`tetrad worker` processes on the test's Redis."""

    def __init__(self, redis_url: str) -> None:
        self.redis_url = redis_url
        self.processes: list[subprocess.Popen[bytes]] = []
        self.queue: ThinkQueue = think_queue(redis_url)

    def start(self, *, warm: bool = False) -> subprocess.Popen[bytes]:
        """A worker; ``warm``: it loads the AIs' compiled kernels before its first job."""
        env = dict(os.environ, REDIS_URL=self.redis_url, WARM_WORKERS="1" if warm else "0")
        cmd = [sys.executable, "-c", "import sys; from bot.cli import main; sys.exit(main())"]
        process = subprocess.Popen([*cmd, "worker"], env=env)
        self.processes.append(process)
        return process

    async def pids(self) -> dict[str, int]:
        """The saq worker id → process id of each worker that registered (is ready)."""
        info = await self.queue.info()
        return {w: int((i["metadata"] or {})["pid"]) for w, i in info["workers"].items()}

    async def ready(self, n: int) -> None:
        deadline = time.monotonic() + WAIT
        while len(await self.pids()) < n:
            assert time.monotonic() < deadline, f"{n} workers not ready in {WAIT:.0f} s"
            await asyncio.sleep(0.1)

    def stop(self) -> None:
        for p in self.processes:
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        for p in self.processes:
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


@pytest.fixture
async def fleet(redis_url: str) -> AsyncIterator[Fleet]:
    f = Fleet(redis_url)
    await f.queue.connect()
    try:
        yield f
    finally:
        f.stop()
        await f.queue.disconnect()


@pytest.fixture
async def qpg(emulator: Emulator, redis_url: str) -> AsyncIterator[ScenarioClient]:
    """``pg`` with the bot's moves on the queue."""
    settings = dataclasses.replace(bot_settings(emulator, redis_url), workers="queue")
    async with scenario(emulator, settings) as client:
        yield client


async def test_games_against_the_bot_are_thought_by_the_workers(
    qpg: ScenarioClient, fleet: Fleet
) -> None:
    fleet.start()
    fleet.start()
    await fleet.ready(2)
    await qpg.set_limits(enabled=False)
    before, fell = moves(), sum(fallbacks(r) for r in REASONS)

    async def game(name: str, button: str, seed: int) -> Any:
        user = await qpg.user(name, lang="en")
        board = await quick_game(user, t("en", button))
        final = await play_to_end(
            {user.id: user}, user.private, board.message_id, random.Random(seed)
        )
        assert finished(final)
        return (await stored_match(qpg._settings.redis_url, final)).game

    games = await asyncio.gather(
        game("alice", "menu.quick_boxes", 1), game("bob", "menu.quick_boxes", 2)
    )
    assert all(g.over for g in games)
    # Every bot move was asked of the queue: answered by a worker, or counted as a fallback.
    print(f"{moves() - before:.0f} bot moves thought by the workers")
    assert moves() - before >= 2, "the workers thought no move"
    assert sum(fallbacks(r) for r in REASONS) == fell, "the bot thought moves itself"


async def test_a_worker_killed_mid_think_has_the_move_thought_again(
    fleet: Fleet, redis_url: str
) -> None:
    started = time.monotonic()
    engine.warm_ai("dots")  # Точки's search kernels in numba's cache, for the workers to load
    fleet.start(warm=True)
    fleet.start(warm=True)
    await fleet.ready(2)
    print(f"2 warm workers ready in {time.monotonic() - started:.1f} s")
    pool = AIPool(workers=1, kernels=False)  # the fallback, at the real time scale
    thinker = await QueueThinker.connect(redis_url, pool)
    try:
        fell = sum(fallbacks(r) for r in REASONS)
        state = search_position()  # the hard level thinks its whole time there
        t0 = time.monotonic()
        asked = asyncio.create_task(thinker.choose(state, "hard", 1))
        taken: list[Any] = []

        async def active() -> bool:
            taken[:] = [j async for j in fleet.queue.iter_jobs([Status.ACTIVE])]
            return bool(taken)

        deadline = time.monotonic() + WAIT
        while not await active():
            assert time.monotonic() < deadline, "no worker took the job"
            await asyncio.sleep(0.02)
        pids = await fleet.pids()
        victim = pids[taken[0].worker_id]
        print(f"killing worker {victim} {time.monotonic() - t0:.1f} s in")
        await asyncio.sleep(0.3)
        assert not asked.done(), "the think ended before the worker could be killed"
        os.kill(victim, signal.SIGKILL)
        await until(lambda: not alive(victim), "the killed worker to end")
        move, _spent = await asyncio.wait_for(asked, WAIT)
        print(f"the move came {time.monotonic() - t0:.1f} s in")
        game = engine.load(state)
        assert move in {game.format_move(m) for m in game.legal_moves()}
        survivor = next(p for p in pids.values() if p != victim)
        host = WORKER_ID.split(":")[0]
        assert dict(thinker.answered_by) == {f"{host}:{survivor}": 1}, "not the queue's retry"
        assert sum(fallbacks(r) for r in REASONS) == fell
    finally:
        await thinker.close()
        pool.close()


async def test_with_no_worker_the_bot_thinks_itself_and_counts_it(qpg: ScenarioClient) -> None:
    await qpg.set_limits(enabled=False)
    before, fell = moves(), fallbacks("no_worker")
    alice = await qpg.user("alice", lang="en")
    board = await quick_game(alice, t("en", "menu.quick_boxes"))
    rng = random.Random(3)
    shown = await play_to_end({alice.id: alice}, alice.private, board.message_id, rng, moves=2)
    match = await stored_match(qpg._settings.redis_url, shown)
    seat = match.to_move
    assert seat is None or not seat.is_ai, "the bot's move did not come"
    assert fallbacks("no_worker") - fell >= 1, "no fallback was counted"
    assert moves() == before, "a worker thought a move, with none running"
