"""The bot's worker processes (AI moves, replays) end with the bot process, however it ends,
and a worker that dies is replaced."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable

import engine
from bot.telegram.ai_pool import AIPool, think
from tests.bot.helpers import alive

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
