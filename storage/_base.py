"""What every storage module shares: JSON in and out, Redis errors turned into ours, and the
retry loop of optimistic (WATCH/MULTI) transactions."""

from __future__ import annotations

import asyncio
import functools
import json
import random
from collections.abc import Awaitable, Callable
from typing import Any, ParamSpec, TypeVar, cast

from redis import exceptions as rx
from redis.asyncio import Redis
from redis.asyncio.client import Pipeline

from storage.config import Config
from storage.errors import Contention, CorruptRecord, InvalidRecord, Unavailable
from storage.keys import Keys

P = ParamSpec("P")
T = TypeVar("T")
R = TypeVar("R")


def text(value: bytes | str) -> str:
    """A reply from Redis as text (our client returns bytes)."""
    return value.decode() if isinstance(value, bytes) else value


def dumps(value: Any) -> bytes:
    """Compact UTF-8 JSON; NaN and other non-JSON values are refused, not written."""
    try:
        text = json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as e:
        raise InvalidRecord(f"not JSON-safe: {e}") from e
    return text.encode()


def loads(key: str, raw: bytes | str) -> Any:
    try:
        return json.loads(raw)
    except (UnicodeDecodeError, ValueError) as e:
        raise CorruptRecord(key, f"not valid JSON ({e})") from e


def load_object(key: str, raw: bytes | str) -> dict[str, Any]:
    value = loads(key, raw)
    if not isinstance(value, dict):
        raise CorruptRecord(key, f"expected a JSON object, found {type(value).__name__}")
    return value


def is_wrong_type(error: rx.ResponseError) -> bool:
    return "WRONGTYPE" in str(error)


def guarded(fn: Callable[P, Awaitable[T]]) -> Callable[P, Awaitable[T]]:
    """Turn "the server is gone (after redis-py's own retries)" into :class:`Unavailable`."""

    @functools.wraps(fn)
    async def wrapper(*args: P.args, **kwargs: P.kwargs) -> T:
        try:
            return await fn(*args, **kwargs)
        except (rx.ConnectionError, rx.TimeoutError) as e:
            task = asyncio.current_task()
            if task is not None and task.cancelling():
                # A cancel that arrived in the client's read came out as its own error (3.11's
                # asyncio.timeout, redis-py's socket timeout, can swallow it): as Unavailable
                # a caller that retries would go on forever (a test's tapping loop hung 300 s).
                raise asyncio.CancelledError from e
            raise Unavailable(f"Redis unavailable: {e}") from e

    return wrapper


async def backoff(attempt: int, *, base: float = 0.001, cap: float = 0.02) -> None:
    """Full-jitter exponential pause between optimistic retries, so racers spread out."""
    await asyncio.sleep(random.uniform(0, min(cap, base * (2**attempt))))


def start_writes(pipe: Pipeline) -> None:
    """End a watched body's reads: MULTI, after which the pipeline queues its commands.
    redis-py leaves ``Pipeline.multi`` unannotated; this is its one typed door."""
    multi: Callable[[], None] = pipe.multi
    multi()


async def watched(
    client: Redis,
    keys: list[str],
    body: Callable[[Pipeline], Awaitable[T]],
    *,
    attempts: int,
    what: str,
) -> T:
    """Run ``body`` in a WATCH/MULTI transaction on ``keys`` until EXEC goes through.

    ``body`` reads with the pipeline in immediate mode, then calls :func:`start_writes`, queues
    its writes and awaits ``pipe.execute()``. A change to a watched key by anyone else makes
    EXEC fail with nothing written; we pause and run ``body`` again from its reads.
    """
    for attempt in range(attempts):
        async with client.pipeline(transaction=True) as pipe:
            try:
                await pipe.watch(*keys)
                return await body(pipe)
            except rx.WatchError:
                pass
        await backoff(attempt)
    raise Contention(f"{what}: gave up after {attempts} conflicting attempts")


class Part:
    """A part of the store that reads the clock and retries transactions: what its
    constructor keeps (the client, the key names, the limits, the clock)."""

    def __init__(
        self, client: Redis, keys: Keys, config: Config, clock: Callable[[], float]
    ) -> None:
        self._r = client
        self._keys = keys
        self._config = config
        self._clock = clock

    async def _rewrite(
        self,
        key: str,
        name: str,
        parse: Callable[[str, bytes | None], R],
        to_json: Callable[[R], Any],
        fn: Callable[[R], R],
    ) -> R:
        """Read one hash field's record, change it with ``fn`` and write it back, retried
        while someone else writes the key meanwhile (``fn`` may raise to write nothing)."""

        async def body(pipe: Pipeline) -> R:
            new = fn(parse(key, cast("bytes | None", await pipe.hget(key, name))))
            start_writes(pipe)
            pipe.hset(key, name, dumps(to_json(new)))
            await pipe.execute()
            return new

        return await watched(
            self._r, [key], body, attempts=self._config.max_attempts, what=f"{name} of {key}"
        )
