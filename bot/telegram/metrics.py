"""Prometheus metrics of one bot process (each replica serves its own ``/metrics``).

Handlers are timed by wrapping their callbacks once the application is built, so adding a
handler needs no extra code here; Bot API waits are measured by a rate limiter subclass.
"""

from __future__ import annotations

import functools
import time
import types
from collections.abc import Awaitable, Callable, Coroutine, Generator
from typing import Any

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Histogram,
    ProcessCollector,
    generate_latest,
)
from telegram import Update
from telegram.error import RetryAfter
from telegram.ext import Application, TypeHandler

from bot.telegram.ratelimit import ChatRateLimiter
from storage.replicas import ReplicaWait

REGISTRY = CollectorRegistry()
ProcessCollector(registry=REGISTRY)
FAST = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)

UPDATES = Counter("tetrad_updates", "Updates received, by type", ["type"], registry=REGISTRY)
HANDLED = Histogram(
    "tetrad_handler_seconds",
    "Time a handler took for one update, by handler",
    ["handler"],
    buckets=FAST,
    registry=REGISTRY,
)
HANDLER_CPU = Histogram(
    "tetrad_handler_cpu_seconds",
    "CPU time of the event-loop thread spent in one handler call (its own steps, with the "
    "pictures it draws and the Bot API and Redis calls it awaits), by handler",
    ["handler"],
    buckets=(
        0.001,
        0.0025,
        0.005,
        0.0075,
        0.01,
        0.0125,
        0.015,
        0.02,
        0.025,
        0.03,
        0.04,
        0.05,
        0.075,
        0.1,
        0.25,
        0.5,
        1.0,
    ),
    registry=REGISTRY,
)
ERRORS = Counter(
    "tetrad_handler_errors", "Handler calls that raised, by handler", ["handler"], registry=REGISTRY
)
AI_THINK = Histogram(
    "tetrad_ai_think_seconds",
    "Time the AI thought about one move, by level",
    ["level"],
    buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0),
    registry=REGISTRY,
)
QUEUE_MOVES = Counter(
    "tetrad_queue_moves",
    "AI moves thought by a `tetrad worker` from the job queue (WORKERS=queue)",
    registry=REGISTRY,
)
QUEUE_JOBS = Counter(
    "tetrad_queue_jobs",
    "Jobs a `tetrad worker` answered from the job queue (WORKERS=queue), by job (think: an AI "
    "move; replay: an ended game's animation; route: a Рассада curve)",
    ["job"],
    registry=REGISTRY,
)
QUEUE_FALLBACKS = Counter(
    "tetrad_queue_fallbacks",
    "Jobs the bot did itself because the job queue gave no answer in time, by job (think, "
    "replay, route) and reason (no_worker: none took the job; timeout: taken, no answer; "
    "failed: the job failed or was dropped; error: Redis or the queue failed)",
    ["job", "reason"],
    registry=REGISTRY,
)
QUEUE_START = Histogram(
    "tetrad_queue_start_seconds",
    "Time from enqueueing an AI move to a worker starting it",
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
    registry=REGISTRY,
)
ROUTED = Histogram(
    "tetrad_sprouts_route_seconds",
    "Time one Рассада curve took to route, waiting for a worker included, by where it was "
    "routed (worker: the bot's route pool; queue: a `tetrad worker` from the job queue; "
    "here: the bot process, when the workers could not)",
    ["where"],
    buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0),
    registry=REGISTRY,
)
RATE_WAIT = Histogram(
    "tetrad_rate_limit_wait_seconds",
    "Time a Bot API call waited in the rate limiter (including sleeps after a 429)",
    buckets=(0.001, 0.01, 0.05, 0.1, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0),
    registry=REGISTRY,
)
TOO_MANY = Counter(
    "tetrad_rate_limit_429",
    "429 Too Many Requests answers seen, by method",
    ["method"],
    registry=REGISTRY,
)
WEBHOOK_REFUSED = Counter(
    "tetrad_webhook_refused",
    "Webhook requests refused before processing, by reason",
    ["reason"],
    registry=REGISTRY,
)
REPLICA_WAIT = Histogram(
    "tetrad_replica_wait_seconds",
    "Time a match write waited (WAIT 1) for a replica to have it before the move was shown; "
    "only writes to a primary with replicas wait",
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
    registry=REGISTRY,
)
REPLICA_TIMEOUTS = Counter(
    "tetrad_replica_wait_timeouts",
    "Match writes that no replica acknowledged within Config.replica_wait: shown to the "
    "player anyway, on the primary alone (a failover then could lose them)",
    registry=REGISTRY,
)


def watch_replicas(replicas: ReplicaWait) -> None:
    """Count the store's replica waits in this process's metrics."""

    def observe(seconds: float, acknowledged: bool) -> None:
        REPLICA_WAIT.observe(seconds)
        if not acknowledged:
            REPLICA_TIMEOUTS.inc()

    replicas.observer = observe


def render() -> tuple[bytes, str]:
    """The exposition text and its content type."""
    return generate_latest(REGISTRY), CONTENT_TYPE_LATEST


def update_type(update: object) -> str:
    if isinstance(update, Update):
        for kind in Update.ALL_TYPES:
            if getattr(update, kind, None) is not None:
                return kind
    return "other"


async def _count(update: object, context: object) -> None:
    UPDATES.labels(update_type(update)).inc()


Callback = Callable[..., Coroutine[Any, Any, Any]]


@types.coroutine
def _cpu_steps(coro: Coroutine[Any, Any, Any], spent: list[float]) -> Generator[Any, Any, Any]:
    """Drive ``coro`` step by step like ``await`` does, adding the thread CPU time of each
    step to ``spent[0]``. Other tasks run between the steps, so with many updates in flight
    each one is charged only for its own work (wall time cannot tell them apart)."""
    clock = time.thread_time
    value: Any = None
    error: BaseException | None = None
    try:
        while True:
            started = clock()
            try:
                yielded = coro.send(value) if error is None else coro.throw(error)
            except StopIteration as stop:
                return stop.value
            finally:
                spent[0] += clock() - started
            value, error = None, None
            try:
                value = yield yielded
            except GeneratorExit:
                raise
            except BaseException as e:  # cancellation and the like go to the handler
                error = e
    finally:
        coro.close()


def timed(name: str, callback: Callback) -> Callback:
    hist, cpu, errors = HANDLED.labels(name), HANDLER_CPU.labels(name), ERRORS.labels(name)

    @functools.wraps(callback)
    async def wrapper(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        spent = [0.0]
        try:
            return await _cpu_steps(callback(*args, **kwargs), spent)
        except Exception:
            errors.inc()
            raise
        finally:
            hist.observe(time.perf_counter() - started)
            cpu.observe(spent[0])

    return wrapper


def instrument(app: Application) -> None:  # type: ignore[type-arg]
    """Count every update and time every handler registered so far."""
    for group in app.handlers.values():
        for handler in group:
            name = getattr(handler.callback, "__name__", type(handler).__name__)
            handler.callback = timed(name, handler.callback)
    app.add_handler(TypeHandler(Update, _count), group=-1)


class MeasuredRateLimiter(ChatRateLimiter):
    """The per-chat limiter, also counting 429s and the time calls spend waiting."""

    async def process_request(
        self,
        callback: Callable[..., Awaitable[Any]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: str | None,
    ) -> Any:
        in_calls = 0.0

        async def call(*a: Any, **kw: Any) -> Any:
            nonlocal in_calls
            started = time.perf_counter()
            try:
                return await callback(*a, **kw)
            except RetryAfter:
                TOO_MANY.labels(endpoint).inc()
                raise
            finally:
                in_calls += time.perf_counter() - started

        started = time.perf_counter()
        try:
            result = await super().process_request(
                call, args, kwargs, endpoint, data, rate_limit_args
            )
        finally:
            RATE_WAIT.observe(max(0.0, time.perf_counter() - started - in_calls))
        if isinstance(result, dict):
            # Telegram answers an edit with the whole message again, keyboard included, and
            # python-telegram-bot would build an object for every button (a big board has a
            # hundred): the bot never reads it back, so it is dropped unread.
            result.pop("reply_markup", None)
        return result
