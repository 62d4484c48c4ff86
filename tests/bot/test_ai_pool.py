"""The bot's worker processes (AI moves, replays) end with the bot process, however it ends,
and a worker that dies is replaced."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import engine
from bot.telegram.ai_pool import AIPool
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
