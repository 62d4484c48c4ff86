"""The live channel: every match write announces its revision to this process's watchers
and those of another connection (another replica), on real Redis and the embedded store."""

from __future__ import annotations

import asyncio

import storage
import storage.live
from tests.storage.helpers import bump, record

WAIT = 10.0  # generous: a busy machine


async def test_a_write_reaches_every_watcher(store: storage.Store, store_url: str) -> None:
    await store.matches.create(record("m1"))
    other = await storage.connect(store_url) if store_url.startswith("redis") else store
    try:
        async with store.live.watch("m1") as mine, other.live.watch("m1") as theirs:
            written = await store.matches.update("m1", lambda r: {**r, "n": 1})
            rev = await store.matches.revision("m1")
            assert written["n"] == 1 and rev is not None
            assert await asyncio.wait_for(mine.get(), WAIT) == rev
            assert await asyncio.wait_for(theirs.get(), WAIT) == rev
    finally:
        if other is not store:
            await other.close()


async def test_only_the_watched_match_and_nothing_after_leaving(store: storage.Store) -> None:
    await store.matches.create(record("m1"))
    await store.matches.create(record("m2"))
    async with store.live.watch("m1") as queue:
        await store.matches.update("m2", lambda r: {**r, "n": 2})
        await store.matches.update("m1", lambda r: {**r, "n": 1})
        rev = await asyncio.wait_for(queue.get(), WAIT)
        assert rev == await store.matches.revision("m1")
        assert queue.empty()  # m2's write was not announced here
    assert store.live.watching == 0
    async with store.live.watch("m2") as again:  # the reader still works after a pause
        await store.matches.update("m2", lambda r: {**r, "n": 3})
        assert await asyncio.wait_for(again.get(), WAIT) == await store.matches.revision("m2")


async def test_a_slow_watcher_keeps_the_newest(store: storage.Store) -> None:
    await store.matches.create(record("m1"))
    async with store.live.watch("m1") as queue:
        for _ in range(storage.live.QUEUE_SIZE + 4):
            await store.matches.update("m1", bump)
        last = await store.matches.revision("m1")

        async def newest() -> str:
            got = ""
            while got != last:
                got = await queue.get()
            return got

        assert await asyncio.wait_for(newest(), WAIT) == last
