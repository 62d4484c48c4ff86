"""Where the bot's moves are thought: the seam act.py asks (:class:`Thinker`).

Two kinds stand behind it. By default the bot process's own worker pool (``AIPool``): one
machine, nothing to run beside the bot. With ``WORKERS=queue`` a :class:`QueueThinker` puts
each move on a Redis job queue that ``tetrad worker`` processes take (bot/telegram/
job_worker.py), on any number of machines sharing the Redis. The match layer does not
change: the answer is applied through the same compare-and-set path, and a move that comes
after its match moved on is refused there like any stale one.

The queue is saq (https://github.com/tobymao/saq), not arq, for three reasons: arq pins
redis-py below 6 (this project runs redis-py 8, whose types mypy checks), saq's workers take
a job the moment it is pushed (a blocking move between lists) where arq polls. Both retry a job
whose worker died; saq finds it by its timeout in a sweep any live worker runs (every
second here, see job_worker.py), and ``retries=2`` lets it run at most once more.

When no worker answers in time the bot thinks the move itself in its pool, and
``tetrad_queue_fallbacks_total{reason}`` counts it: the move comes, slower, and the metric
says why. A bot process gone while its move is on the queue is the AI turn's watchdog's
(act.ai_turn's lease), as before.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import math
import time
from typing import Any, Protocol

import redis.asyncio as aioredis
from saq import Job, Status
from saq.job import TERMINAL_STATUSES
from saq.queue.redis import RedisQueue

from bot.telegram import metrics
from bot.telegram.ai_pool import AIPool, move_limit

log = logging.getLogger(__name__)

QUEUE_NAME = "tetrad-think"
THINK = "think"  # the job's function name in the worker
START_WAIT = 2.0  # a job no worker has started by then is thought by the bot itself
SWEEP_SECONDS = 1  # how often a live worker looks for jobs whose worker died
SWEEP_ABORT = 0.5  # the sweep's wait for a dead worker to own up, before the retry
FIRST_POLL = 0.01  # a job's status is read this long after it is enqueued, then twice as
POLL = 0.1  # long each time, at most this far apart (see QueueThinker._wait)
RESULT_TTL = 60  # seconds a finished job's record stays in Redis


class Thinker(Protocol):
    """What act.py calls for the bot's move: the move in notation and the seconds spent."""

    async def choose(
        self,
        state: dict[str, Any],
        level: str,
        seed: int | None = None,
        budget: float | None = None,
    ) -> tuple[str, float]: ...


class ThinkQueue(RedisQueue):
    """saq's Redis queue with a quick sweep: a worker killed mid-think has its job retried
    about a second after the job's timeout, not after saq's default five-second wait for
    the dead worker to acknowledge the abort."""

    async def sweep(self, lock: int = 60, abort: float = 5.0) -> list[str]:
        return await super().sweep(lock, SWEEP_ABORT)


def think_queue(redis_url: str) -> ThinkQueue:
    return ThinkQueue(aioredis.from_url(redis_url), name=QUEUE_NAME)


def job_timeout(limit: float) -> int:
    """A think's timeout on the queue (whole seconds, as saq keeps it): its limit and a
    second for loading the game and a busy machine."""
    return math.ceil(limit) + 1


class QueueThinker:
    """Moves thought by ``tetrad worker`` processes, the bot's own pool as the fallback."""

    def __init__(self, queue: ThinkQueue, fallback: AIPool) -> None:
        self.queue = queue
        self.fallback = fallback
        self.time_scale = fallback.time_scale
        self.answered_by: collections.Counter[str] = collections.Counter()  # worker → moves
        self.start_delays: collections.deque[float] = collections.deque(maxlen=1000)  # bench

    @classmethod
    async def connect(cls, redis_url: str, fallback: AIPool) -> QueueThinker:
        queue = think_queue(redis_url)
        await queue.connect()
        return cls(queue, fallback)

    async def close(self) -> None:
        with contextlib.suppress(Exception):  # closing after Redis went away
            await self.queue.disconnect()

    async def choose(
        self,
        state: dict[str, Any],
        level: str,
        seed: int | None = None,
        budget: float | None = None,
    ) -> tuple[str, float]:
        try:
            answer, reason = await self._ask(state, level, seed, budget)
        except Exception as e:  # Redis or the queue failed: the move must still come
            log.warning("the job queue failed (%s): the bot thinks the move itself", e)
            answer, reason = None, "error"
        if answer is not None:
            metrics.QUEUE_MOVES.inc()
            metrics.AI_THINK.labels(level).observe(answer[1])
            return answer
        metrics.QUEUE_FALLBACKS.labels(reason).inc()
        return await self.fallback.choose(state, level, seed, budget)

    async def _ask(
        self, state: dict[str, Any], level: str, seed: int | None, budget: float | None
    ) -> tuple[tuple[str, float] | None, str]:
        """The worker's answer, or None and why there is none (the job is then taken off the
        queue: a worker finding it later would think for nobody)."""
        timeout = job_timeout(move_limit(level, self.time_scale, budget))
        now = time.time()
        # Long enough for a start, a think, the sweep's retry after a worker died and the
        # second think; a worker drops a job it takes after this.
        deadline = now + START_WAIT + 2 * (timeout + SWEEP_SECONDS + SWEEP_ABORT)
        job = await self.queue.enqueue(
            Job(
                THINK,
                kwargs={
                    "state": state,
                    "level": level,
                    "seed": seed,
                    "budget": budget,
                    "time_scale": self.time_scale,
                    "deadline": deadline,
                },
                timeout=timeout,
                retries=2,
                ttl=RESULT_TTL,
            )
        )
        assert job is not None  # a fresh job's key is new, so it is always enqueued
        reason = await self._wait(job, now + START_WAIT, deadline)
        if reason is None:
            result = job.result
            if isinstance(result, dict) and isinstance(result.get("move"), str):
                self.answered_by[str(result.get("worker"))] += 1
                return (result["move"], float(result["spent"])), ""
            reason = "failed"  # the worker dropped it (past its deadline) or answered oddly
        with contextlib.suppress(Exception):
            await self.queue.abort(job, f"no answer ({reason}): the bot thought the move")
        return None, reason

    async def _wait(self, job: Job, start_by: float, finish_by: float) -> str | None:
        """Follow ``job`` until it is done (None) or no answer can be waited for (the reason):
        none took it by ``start_by``, or none finished it by ``finish_by``.

        The status is read (one GET) 10 ms, 20 ms, … up to 100 ms apart, not heard on saq's
        pub/sub: its listener, shared by the process's waits, lost the first status changes
        of jobs whose waits began together (two games' first moves fell back), and a poll
        cannot miss one."""
        started = False
        step = FIRST_POLL
        while True:
            if not started and (job.started or job.attempts):  # attempts: put back by a retry
                started = True
                delay = max(0, job.started - job.queued) / 1000
                metrics.QUEUE_START.observe(delay)
                self.start_delays.append(delay)
            if job.status in TERMINAL_STATUSES:
                return None if job.status == Status.COMPLETE else "failed"
            left = (finish_by if started else start_by) - time.time()
            if left <= 0:
                return "timeout" if started else "no_worker"
            await asyncio.sleep(min(step, left))
            step = min(POLL, 2 * step)
            await job.refresh()
