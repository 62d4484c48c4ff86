"""``tetrad worker``: one process that thinks the bot's moves from the job queue
(bot/telegram/jobs.py). Run as many per machine as it has cores, on any number of machines
sharing the bot's Redis.

Each worker thinks one move at a time (the move is CPU-bound: a second one would only halve
both), in a thread beside its event loop so that the loop still answers the queue's
pings. Its start loads the AIs' compiled kernels (as the bot's own pool does) before it
takes a job, so its first move costs what the others do.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import time
from typing import Any

from saq import Worker
from saq.types import Context, PartialTimersDict

from bot.settings import Settings
from bot.telegram.ai_pool import load_ais, think
from bot.telegram.jobs import SWEEP_SECONDS, THINK, think_queue
from bot.warmup import settle

log = logging.getLogger(__name__)
WORKER_ID = f"{socket.gethostname()}:{os.getpid()}"


def think_job(
    ctx: Context,
    *,
    state: dict[str, Any],
    level: str,
    seed: int | None,
    budget: float | None,
    time_scale: float,
    deadline: float,
) -> dict[str, Any] | None:
    """One move; None for a job taken after its ``deadline`` (the bot stopped waiting and
    thought the move itself). The think never runs past the deadline either."""
    left = deadline - time.time()
    if left <= 0:
        log.info("a think job past its deadline by %.1f s is dropped", -left)
        return None
    budget = left if budget is None else min(budget, left)
    move, spent = think(state, level, seed, time_scale, budget)
    return {"move": move, "spent": spent, "worker": WORKER_ID}


def worker(settings: Settings) -> Worker[Context]:
    def start_up(ctx: Context) -> None:
        started = time.perf_counter()
        load_ais(settings.warm_workers)
        settle()
        log.info("tetrad worker %s ready in %.1f s", WORKER_ID, time.perf_counter() - started)

    return Worker(
        think_queue(settings.redis_url),
        functions=[(THINK, think_job)],
        concurrency=1,
        startup=start_up,
        metadata={"worker": WORKER_ID, "pid": os.getpid()},  # who is who, for tests and ops
        # saq's defaults but the sweep (60 s there): a dead worker's job is retried soon
        timers=PartialTimersDict(schedule=1, worker_info=10, sweep=SWEEP_SECONDS, abort=1),
    )


def run(settings: Settings) -> int:
    """Work until SIGINT or SIGTERM (saq's own handlers: the move in hand is finished).
    saq logs every job at INFO: that is kept for LOG_LEVEL=DEBUG."""
    if settings.log_level != "DEBUG":
        logging.getLogger("saq").setLevel(logging.WARNING)
    asyncio.run(worker(settings).start())
    return 0
