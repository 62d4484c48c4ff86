"""The bot's worker processes (AI moves, replays) end with the bot process, however it ends,
and a worker that dies is replaced."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable

import engine
from bot.settings import Settings
from bot.telegram.ai_pool import AIPool, think
from playground.client import PlaygroundClient
from playground.server import Emulator
from tests.bot.helpers import alive, play_to_end, quick_game
from tests.fixtures.playground import AI_SCALE, bot_settings, reporting

BOT = """
import asyncio
import engine
from bot.telegram.ai_pool import AIPool

async def main():
    pool = AIPool(workers=2)
    await pool.choose(engine.new("boxes", rows=2, cols=2).to_json(), "easy", 1)
    print(*pool.processes(), flush=True)
    await asyncio.sleep(120)

asyncio.run(main())
"""


def test_workers_end_when_the_bot_process_is_killed() -> None:
    bot = subprocess.Popen([sys.executable, "-c", BOT], stdout=subprocess.PIPE, text=True)
    try:
        assert bot.stdout is not None
        workers = [int(p) for p in bot.stdout.readline().split()]
        assert workers and all(alive(p) for p in workers)
    finally:
        bot.kill()
        bot.wait()
    deadline = time.monotonic() + 15
    while any(alive(p) for p in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [p for p in workers if alive(p)], "workers outlived the killed bot"


async def test_a_dead_worker_is_replaced() -> None:
    """A worker killed from outside (for memory, say) breaks a process pool for good; the
    next move and the next replay still come, from new workers."""
    pool = AIPool(workers=1)
    try:
        state = engine.new("boxes", rows=2, cols=2).to_json()
        await pool.choose(state, "easy", 1)
        (worker,) = pool.processes()
        os.kill(worker, signal.SIGKILL)
        deadline = time.monotonic() + 15
        while alive(worker) and time.monotonic() < deadline:
            time.sleep(0.05)
        move, _ = await pool.choose(state, "easy", 1)
        assert move
        gif = await pool.replay(state, {"lang": "en", "title": "t", "players": ["a", "b"]})
        assert gif[:6] == b"GIF89a"
    finally:
        pool.close()


def _late_tournament_game() -> dict[str, object]:
    """A 38×31 tournament game near its end (random play until a few dozen points are left),
    as the record a worker gets: replaying it is the costliest load a Точки move has."""
    game = engine.new("dots", preset="tournament")
    rng = random.Random(3)
    while len(game.legal_indices()) > 30:
        moves = game.legal_moves()
        game.play(moves[rng.randrange(len(moves))])
    return game.to_json()


def test_the_time_limit_covers_loading_the_game() -> None:
    """A move's reported time stays within its budget although the worker first replays a
    1,000-move record: the search gets what the replay left. The budget is twice the replay's
    measured time, so a search given the whole budget after the replay overruns it by about
    the replay (a margin of a quarter of it allowed); a busy machine only slows a try down, so
    the best of three counts."""
    engine.warm_ai("dots")
    state = _late_tournament_game()
    spent: list[float] = []
    load = 0.0
    for _ in range(3):
        load = min(_timed(lambda: engine.load(state)) for _ in range(3))
        budget = 2 * load
        move, took = think(state, "hard", 1, budget=budget)
        assert move
        spent.append(took)
        if took <= budget + load / 4:
            return
    raise AssertionError(f"spent {spent} s with a budget of {2 * load:.4f} s (load {load:.4f} s)")


def _timed(call: Callable[[], object]) -> float:
    started = time.perf_counter()
    call()
    return time.perf_counter() - started


async def test_a_pool_the_caller_gives_outlives_the_bot(emulator: Emulator, redis_url: str) -> None:
    """The tests' bots share one AI pool (tests/fixtures/playground.py): a bot given a pool
    thinks on it and leaves it running when it stops, so the next bot's moves come from the
    same workers, already started; a bot given none closes the pool it made."""
    settings = bot_settings(emulator, redis_url)
    pool = AIPool(time_scale=AI_SCALE, kernels=False)
    try:
        workers = [await _two_moves(emulator, settings, pool) for _ in range(2)]
        assert workers[0] and workers[0] == workers[1], workers
        assert all(alive(p) for p in workers[1])
        assert not pool._closed
    finally:
        pool.close()
    own = await _two_moves(emulator, settings, None)
    deadline = time.monotonic() + 15
    while any(alive(p) for p in own) and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    assert own and not [p for p in own if alive(p)], "the bot's own workers outlived it"


async def test_the_bot_starts_as_many_ai_workers_as_it_is_told(
    emulator: Emulator, redis_url: str
) -> None:
    """``AI_WORKERS`` (bot/settings.py) sizes the bot's own pool: the test replicas start one
    worker, not the two a 2-core machine gets by default; the bot still takes its first
    update only once that worker is warm."""
    settings = dataclasses.replace(
        bot_settings(emulator, redis_url), ai_workers=1, warm_workers=True
    )
    async with reporting(emulator, settings) as app:
        svc = app.bot_data["svc"]
        assert svc.ready and svc.ai.ready and len(svc.ai.processes()) == 1


async def _two_moves(emulator: Emulator, settings: Settings, ai: AIPool | None) -> set[int]:
    """A bot on ``ai`` (None: its own pool) plays two moves against a person; its AI
    workers' process ids."""
    async with reporting(emulator, settings, ai=ai) as app:
        svc = app.bot_data["svc"]
        assert ai is None or svc.ai is ai
        client = PlaygroundClient(emulator.url)
        await client.connect()
        try:
            await client.set_limits(enabled=False)
            alice = await client.user(f"alice{len(emulator.world.users)}", lang="en")
            board = await quick_game(alice, "⚡ Boxes vs bot")
            await play_to_end(
                {alice.id: alice}, alice.private, board.message_id, random.Random(1), moves=2
            )
        finally:
            await client.close()
        return set(svc.ai.processes())
