"""A match's live channel: every match write announces the new revision on the pub/sub
channel ``<prefix>:live:{<id>}`` (in the write's own script, so no writer can forget it,
whichever replica or path wrote), and :class:`Live` lets this process's listeners hear it.

One pub/sub connection per process, subscribed to the matches someone here is watching;
each watcher gets an ``asyncio.Queue`` of revisions. A watcher that falls behind loses
revisions, never the news that something changed (it reads the match anyway).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from redis import exceptions as rx
from redis.asyncio import Redis
from redis.asyncio.client import PubSub

from storage._base import text
from storage.keys import Keys

log = logging.getLogger(__name__)
QUEUE_SIZE = 8
POLL = 1.0  # seconds the reader waits for a message before looking round again
RETRY = 1.0  # seconds after a lost connection before reading again


class Live:
    def __init__(self, client: Redis, keys: Keys) -> None:
        self._client = client
        self._keys = keys
        self._watchers: dict[str, set[asyncio.Queue[str]]] = {}
        self._pubsub: PubSub | None = None
        self._reader: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()  # subscribe/unsubscribe one at a time

    @asynccontextmanager
    async def watch(self, match_id: str) -> AsyncIterator[asyncio.Queue[str]]:
        """A queue of the revisions the match is written at from now on, while inside."""
        channel = self._keys.live(match_id)
        queue: asyncio.Queue[str] = asyncio.Queue(QUEUE_SIZE)
        async with self._lock:
            first = channel not in self._watchers
            self._watchers.setdefault(channel, set()).add(queue)
            if first:
                if self._pubsub is None:
                    self._pubsub = self._client.pubsub(ignore_subscribe_messages=True)
                await self._pubsub.subscribe(channel)
            if self._reader is None or self._reader.done():
                self._reader = asyncio.get_running_loop().create_task(self._read())
        try:
            yield queue
        finally:
            async with self._lock:
                queues = self._watchers.get(channel, set())
                queues.discard(queue)
                if not queues:
                    self._watchers.pop(channel, None)
                    if self._pubsub is not None:
                        with contextlib.suppress(rx.RedisError, RuntimeError):
                            await self._pubsub.unsubscribe(channel)

    @property
    def watching(self) -> int:
        """How many matches this process listens to (tests, metrics)."""
        return len(self._watchers)

    async def _read(self) -> None:
        while self._watchers:
            assert self._pubsub is not None
            try:
                message = await self._pubsub.get_message(
                    ignore_subscribe_messages=True, timeout=POLL
                )
            except (rx.ConnectionError, rx.TimeoutError, OSError) as e:
                log.warning("live channel read failed (%s); reading again", e)
                await asyncio.sleep(RETRY)
                continue
            if message is None or message.get("type") != "message":
                continue
            for queue in list(self._watchers.get(text(message["channel"]), ())):
                if queue.full():  # a slow watcher: keep the newest news
                    queue.get_nowait()
                queue.put_nowait(text(message["data"]))

    async def close(self) -> None:
        self._watchers.clear()
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader
        if self._pubsub is not None:
            with contextlib.suppress(Exception):
                await self._pubsub.aclose()  # type: ignore[no-untyped-call,unused-ignore]  # untyped before redis 8
