"""Where the bot's heavy work is done: its moves (the seam act.py asks, :class:`Thinker`),
the replays of ended games (:class:`Replayer`) and Рассада's routed curves
(bot/telegram/route_pool.py asks :meth:`QueueThinker.route`).

Two kinds stand behind each. By default the bot process's own worker pool (``AIPool``): one
machine, nothing to run beside the bot. With ``WORKERS=queue`` a :class:`QueueThinker` puts
each move, replay and curve on a Redis job queue that ``tetrad worker`` processes take
(bot/telegram/job_worker.py), on any number of machines sharing the Redis. The match layer
does not change: the answer is applied through the same compare-and-set path, and a move
that comes after its match moved on is refused there like any stale one; a job the bot
stopped waiting for is dropped by the worker that takes it late (its deadline).

The queue is saq (https://github.com/tobymao/saq), not arq, for three reasons: arq pins
redis-py below 6 (this project runs redis-py 8, whose types mypy checks), saq's workers take
a job the moment it is pushed (a blocking move between lists) where arq polls. Both retry a job
whose worker died; saq finds it by its timeout in a sweep any live worker runs (every
second here, see job_worker.py), and ``retries=2`` lets it run at most once more.

When no worker answers in time the bot does the job itself in its pool, and
``tetrad_queue_fallbacks_total{job,reason}`` counts it: the move (the replay, the curve)
comes, slower, and the metric says why. A bot process gone while its move is on the queue
is the AI turn's watchdog's (act.ai_turn's lease), as before.

Through a Redis failover the queue's writes are not waited for (only match writes are, see
storage/replicas.py): a job pushed or taken on the primary that dies may be gone from the
one promoted, and its wait ends as ``no_worker``, ``failed`` or ``error``, the bot doing the
job itself (tests/reliability/test_failover.py prints these fallbacks). saq's "Upkeep task
failed" in a worker's log is a Redis call that gave up in that window: each upkeep (sweep,
schedule, abort, the worker's heartbeat) logs it and runs again at its next interval (a
second; the heartbeat ten); it holds no job and loses none. It used to come seconds after
the promotion too, with "Error processing job" for a job taken just before the SIGKILL:
redis-py retried those calls at the dead primary (storage/sentinel.PrimaryConnection).
"""

from __future__ import annotations

import asyncio
import base64
import collections
import contextlib
import logging
import math
import time
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

import redis.asyncio as aioredis
from redis import exceptions as rx
from redis.asyncio.retry import Retry
from redis.backoff import EqualJitterBackoff
from saq import Job, Status
from saq.job import TERMINAL_STATUSES
from saq.queue.redis import RedisQueue

from bot.telegram import metrics
from bot.telegram.ai_pool import AIPool, move_limit
from render.view import View
from storage import sentinel

log = logging.getLogger(__name__)
T = TypeVar("T")

QUEUE_NAME = "tetrad-think"
THINK = "think"  # the jobs' function names in the worker
REPLAY = "replay"
ROUTE = "route"
REPLAY_LIMIT = 30.0  # seconds a replay may take (a long 38×31 Точки game: a few seconds)
ROUTE_LIMIT = 3.0  # seconds a curve may take (tens of milliseconds, more when crowded)
START_WAIT = 2.0  # a job no worker has started by then is thought by the bot itself
SWEEP_SECONDS = 1  # how often a live worker looks for jobs whose worker died
SWEEP_ABORT = 0.5  # the sweep's wait for a dead worker to own up, before the retry
FIRST_POLL = 0.01  # a job's status is read this long after it is enqueued, then twice as
POLL = 0.1  # long each time, at most this far apart (see QueueThinker._wait)
DUE_POLL = 0.02  # how often a job is read once the time it was expected to take is up
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


class Replayer(Protocol):
    """What act.py calls for the animation of an ended game: its GIF bytes."""

    async def replay(self, state: dict[str, Any], view: View) -> bytes: ...


class ThinkQueue(RedisQueue):
    """saq's Redis queue with a quick sweep: a worker killed mid-think has its job retried
    about a second after the job's timeout, not after saq's default five-second wait for
    the dead worker to acknowledge the abort."""

    async def sweep(self, lock: int = 60, abort: float = 5.0) -> list[str]:
        return await super().sweep(lock, SWEEP_ABORT)


def queue_client(redis_url: str) -> aioredis.Redis:
    """The queue's Redis client: a plain URL as saq would open it, or the primary that a
    ``redis+sentinel://`` URL's sentinels name, retried through a failover (the bot's store
    rides one out the same way, storage/connect.py). No socket timeout: a worker's wait for
    a job is a blocking pop that may last as long as the queue is idle."""
    if not redis_url.startswith(sentinel.SCHEME + "://"):
        return aioredis.from_url(redis_url)
    return sentinel.sentinel_client(
        redis_url,
        socket_connect_timeout=3.0,
        socket_keepalive=True,
        retry=Retry(EqualJitterBackoff(cap=1.0, base=0.05), 8),
        retry_on_error=[rx.ConnectionError, rx.TimeoutError],
    )


def think_queue(redis_url: str) -> ThinkQueue:
    return ThinkQueue(queue_client(redis_url), name=QUEUE_NAME)


def job_timeout(limit: float) -> int:
    """A think's timeout on the queue (whole seconds, as saq keeps it): its limit and a
    second for loading the game and a busy machine."""
    return math.ceil(limit) + 1


def longest_wait(timeout: int) -> float:
    """How long the bot waits for a job of ``timeout`` seconds at most: long enough for a
    start, the job, the sweep's retry after a worker died and the second try."""
    return START_WAIT + 2 * (timeout + SWEEP_SECONDS + SWEEP_ABORT)


class QueueThinker:
    """Moves thought by ``tetrad worker`` processes, the bot's own pool as the fallback."""

    def __init__(self, queue: ThinkQueue, fallback: AIPool) -> None:
        self.queue = queue
        self.fallback = fallback
        self.time_scale = fallback.time_scale
        self.answered_by: collections.Counter[str] = collections.Counter()  # worker → moves
        self.start_delays: collections.deque[float] = collections.deque(maxlen=1000)  # bench
        self.finish_delays: collections.deque[float] = collections.deque(maxlen=1000)

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
        kwargs = {
            "state": state,
            "level": level,
            "seed": seed,
            "budget": budget,
            "time_scale": self.time_scale,
        }
        limit = move_limit(level, self.time_scale, budget)
        answer = await self.run(THINK, kwargs, job_timeout(limit), _move, expect=limit)
        if answer is None:
            return await self.fallback.choose(state, level, seed, budget)
        metrics.QUEUE_MOVES.inc()
        metrics.AI_THINK.labels(level).observe(answer[1])
        return answer

    async def replay(self, state: dict[str, Any], view: View) -> bytes:
        """The ended game's animation from a worker, or from the bot's pool."""
        kwargs = {"state": state, "view": view}
        gif = await self.run(REPLAY, kwargs, job_timeout(REPLAY_LIMIT), _gif)
        return await self.fallback.replay(state, view) if gif is None else gif

    async def route(self, drawing: dict[str, Any], move: list[Any]) -> tuple[str, Any] | None:
        """A Рассада curve routed by a worker, as :func:`bot.telegram.route_pool.route_json`
        answers; None (counted) when the bot must route it itself."""
        return await self.run(
            ROUTE, {"drawing": drawing, "move": move}, job_timeout(ROUTE_LIMIT), _routed
        )

    async def run(
        self,
        function: str,
        kwargs: dict[str, Any],
        timeout: int,
        read: Callable[[dict[str, Any]], T | None],
        *,
        expect: float | None = None,
    ) -> T | None:
        """A worker's answer to the ``function`` job, as ``read`` makes it of the job's
        result (None for one that is not an answer); None when the bot must do the job
        itself, counted in ``tetrad_queue_fallbacks_total`` with the reason. ``expect``:
        about how long the job takes once started, if known (see :meth:`_wait`)."""
        try:
            answer, reason = await self._ask(function, kwargs, timeout, read, expect)
        except Exception as e:  # Redis or the queue failed: the work must still be done
            log.warning("the job queue failed (%s): the bot does the %s job itself", e, function)
            answer, reason = None, "error"
        if answer is None:
            metrics.QUEUE_FALLBACKS.labels(function, reason).inc()
        else:
            metrics.QUEUE_JOBS.labels(function).inc()
        return answer

    async def _ask(
        self,
        function: str,
        kwargs: dict[str, Any],
        timeout: int,
        read: Callable[[dict[str, Any]], T | None],
        expect: float | None,
    ) -> tuple[T | None, str]:
        """The worker's answer, or None and why there is none (the job is then taken off the
        queue: a worker finding it later would work for nobody)."""
        now = time.time()
        deadline = now + longest_wait(timeout)  # a worker drops a job it takes after this
        job = await self.queue.enqueue(
            Job(
                function,
                kwargs={**kwargs, "deadline": deadline},
                timeout=timeout,
                retries=2,
                ttl=RESULT_TTL,
            )
        )
        assert job is not None  # a fresh job's key is new, so it is always enqueued
        reason = await self._wait(job, now + START_WAIT, deadline, expect)
        if reason is None:
            result = job.result
            answer = read(result) if isinstance(result, dict) else None
            if answer is not None:
                self.answered_by[str(result.get("worker"))] += 1
                self.finish_delays.append(max(0.0, time.time() - job.completed / 1000))
                return answer, ""
            reason = "failed"  # the worker dropped it (past its deadline) or answered oddly
        with contextlib.suppress(Exception):
            await self.queue.abort(job, f"no answer ({reason}): the bot did the job")
        return None, reason

    async def _wait(
        self, job: Job, start_by: float, finish_by: float, expect: float | None = None
    ) -> str | None:
        """Follow ``job`` until it is done (None) or no answer can be waited for (the reason):
        none took it by ``start_by``, or none finished it by ``finish_by``.

        The status is read (one GET) 10 ms, 20 ms, … up to 100 ms apart, not heard on saq's
        pub/sub: its listener, shared by the process's waits, lost the first status changes
        of jobs whose waits began together (two games' first moves fell back), and a poll
        cannot miss one. A job ``expect``ed to take about that long once started (a move
        thinks its whole limit) is also read when it is due and :data:`DUE_POLL` apart after
        that: 100 ms apart, the answer of a long think waited 85 ms (p50) to be read."""
        started = False
        due: float | None = None
        step = FIRST_POLL
        while True:
            if not started and (job.started or job.attempts):  # attempts: put back by a retry
                started = True
                delay = max(0, job.started - job.queued) / 1000
                metrics.QUEUE_START.observe(delay)
                self.start_delays.append(delay)
                due = None if expect is None else time.time() + expect
            if job.status in TERMINAL_STATUSES:
                return None if job.status == Status.COMPLETE else "failed"
            now = time.time()
            left = (finish_by if started else start_by) - now
            if left <= 0:
                return "timeout" if started else "no_worker"
            pause = min(step, left)
            if due is not None:
                pause = min(pause, due - now if due > now else DUE_POLL)
            await asyncio.sleep(pause)
            step = min(POLL, 2 * step)
            await job.refresh()


def _move(result: dict[str, Any]) -> tuple[str, float] | None:
    move = result.get("move")
    return (move, float(result["spent"])) if isinstance(move, str) else None


def _gif(result: dict[str, Any]) -> bytes | None:
    """The replay's GIF, carried in the job's JSON as base64."""
    gif = result.get("gif")
    return base64.b64decode(gif) if isinstance(gif, str) else None


def _routed(result: dict[str, Any]) -> tuple[str, Any] | None:
    kind = result.get("kind")
    return (kind, result.get("answer")) if kind in ("drawn", "illegal") else None
