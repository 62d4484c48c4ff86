"""Connecting: URL schemes, the embedded store, health, masking passwords."""

from __future__ import annotations

import asyncio
import time

import pytest

import storage
from storage.connect import drop_memory, masked


async def test_memory_stores_named_are_shared_unnamed_are_private() -> None:
    async with (
        await storage.connect("memory://shared-test") as a,
        await storage.connect("memory://shared-test") as b,
        await storage.connect("memory://") as c,
    ):
        await a.chats.patch(1, {"language": "ru"})
        assert await b.chats.get(1) == {"language": "ru"}
        assert await c.chats.get(1) == {}
        assert a.backend == "memory" and await a.ping()
    drop_memory("shared-test")


async def test_store_is_an_async_context_manager(store_url: str) -> None:
    store = await storage.connect(store_url)
    async with store as s:
        assert s is store and await s.ping()


@pytest.mark.parametrize(
    "url", ["http://localhost", "postgres://x", "localhost:6379", "memory://bad name"]
)
async def test_bad_urls(url: str) -> None:
    with pytest.raises(storage.BadURL):
        await storage.connect(url)


async def test_nobody_listening_fails_fast_and_clearly() -> None:
    import socket

    with socket.socket() as s:  # a port that is surely closed
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    started = time.monotonic()
    with pytest.raises(storage.Unavailable, match=f"127.0.0.1:{port}"):
        await storage.connect(f"redis://:secret@127.0.0.1:{port}/0", retries=1)
    assert time.monotonic() - started < 5


def test_passwords_are_masked() -> None:
    assert masked("redis://:hunter2@h:1/0") == "redis://:***@h:1/0"
    assert masked("rediss://bot:hunter2@h:1/0") == "rediss://bot:***@h:1/0"
    assert masked("redis://h:1/0") == "redis://h:1/0"


async def test_a_cancel_the_client_turned_into_its_own_error_stays_a_cancel() -> None:
    """Redis gone is :class:`storage.Unavailable`, which callers retry; but the same error
    raised while the task is being cancelled (the client's socket timeout can swallow the
    cancel) is the cancel: as Unavailable, a retrying caller never ended."""
    import redis.exceptions as rx

    from storage._base import guarded

    @guarded
    async def read() -> None:
        raise rx.TimeoutError("Timeout reading from socket")

    with pytest.raises(storage.Unavailable):
        await read()

    async def cancelled_in_the_read() -> None:
        asyncio.current_task().cancel()  # type: ignore[union-attr]
        try:
            await asyncio.sleep(1)
        except asyncio.CancelledError:  # as asyncio.timeout can: the cancel becomes the
            await read()  # timeout's error, with the task still cancelling

    task = asyncio.create_task(cancelled_in_the_read())
    with pytest.raises(asyncio.CancelledError):
        await task
