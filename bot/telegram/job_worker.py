"""``tetrad worker``: one process that does the bot's heavy jobs from the job queue
(bot/telegram/jobs.py): its moves, the replays of ended games and Рассада's curves. Run as
many per machine as it has cores, on any number of machines sharing the bot's Redis.

Each worker does one job at a time (each is CPU-bound: a second one would only halve
both), in a thread beside its event loop so that the loop still answers the queue's
pings. Its start loads the AIs' compiled kernels and Рассада's router (as the bot's own
pools do) before it takes a job, so its first job costs what the others do.

Every job carries the deadline its bot waits until; one taken after it is dropped (the bot
did the work itself meanwhile), and a move never thinks past it.
"""

from __future__ import annotations

import asyncio
import base64
import logging
import os
import socket
import time
from typing import Any

from saq import Worker
from saq.types import Context, PartialTimersDict

from bot.settings import Settings
from bot.telegram.ai_pool import load_ais, replay, think
from bot.telegram.jobs import REPLAY, ROUTE, SWEEP_SECONDS, THINK, think_queue
from bot.telegram.route_pool import prepare, route_json
from bot.warmup import settle
from render.view import View

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
    left = _left(THINK, deadline)
    if left is None:
        return None
    budget = left if budget is None else min(budget, left)
    move, spent = think(state, level, seed, time_scale, budget)
    return {"move": move, "spent": spent, "worker": WORKER_ID}


def replay_job(
    ctx: Context, *, state: dict[str, Any], view: View, deadline: float
) -> dict[str, Any] | None:
    """An ended game's animation, its GIF as base64 (the job's result is JSON)."""
    if _left(REPLAY, deadline) is None:
        return None
    gif = base64.b64encode(replay(state, view)).decode("ascii")
    return {"gif": gif, "worker": WORKER_ID}


def route_job(
    ctx: Context, *, drawing: dict[str, Any], move: list[Any], deadline: float
) -> dict[str, Any] | None:
    """A Рассада curve: the drawing after ``move``, or the engine's refusal."""
    if _left(ROUTE, deadline) is None:
        return None
    kind, answer = route_json(drawing, move)
    return {"kind": kind, "answer": answer, "worker": WORKER_ID}


def _left(job: str, deadline: float) -> float | None:
    """Seconds left before ``deadline``; None (logged) for a job taken after it."""
    left = deadline - time.time()
    if left <= 0:
        log.info("a %s job past its deadline by %.1f s is dropped", job, -left)
        return None
    return left


def worker(settings: Settings) -> Worker[Context]:
    def start_up(ctx: Context) -> None:
        started = time.perf_counter()
        load_ais(settings.warm_workers)
        if settings.warm_workers:
            prepare()  # Рассада's router, as the bot's route pool warms its own
        settle()
        log.info("tetrad worker %s ready in %.1f s", WORKER_ID, time.perf_counter() - started)

    return Worker(
        think_queue(settings.redis_url),
        functions=[(THINK, think_job), (REPLAY, replay_job), (ROUTE, route_job)],
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
