"""Open Mini App live streams counted in Redis: a limit per person and per match that holds
for every connection (replica) to the same server, a place given back when its stream
closes, and the place of a stream whose replica died (no more renewals) lapsing after ttl."""

from __future__ import annotations

import asyncio
import contextlib
from typing import TypedDict

import pytest

import storage


class Limits(TypedDict):
    per_user: int
    per_match: int
    ttl: float


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


async def test_limits_per_person_and_per_match_across_connections(store_url: str) -> None:
    clock = Clock()
    a = await storage.connect(store_url, clock=clock)
    b = await storage.connect(store_url, clock=clock) if store_url.startswith("redis") else a
    limits: Limits = {"per_user": 2, "per_match": 3, "ttl": 15.0}
    try:
        async with contextlib.AsyncExitStack() as held:
            await held.enter_async_context(a.streams.slot(1, "m1", **limits))
            await held.enter_async_context(b.streams.slot(1, "m2", **limits))
            with pytest.raises(storage.TooMany) as user_full:  # person 1: two open, on either
                async with a.streams.slot(1, "m3", **limits):
                    pass
            assert user_full.value.who == "user"
            await held.enter_async_context(b.streams.slot(2, "m1", **limits))
            await held.enter_async_context(a.streams.slot(3, "m1", **limits))
            with pytest.raises(storage.TooMany) as match_full:
                async with b.streams.slot(4, "m1", **limits):
                    pass
            assert match_full.value.who == "match"
            assert await a.streams.count(1, "m1") == (2, 3)
            async with b.streams.slot(4, "m2", **limits):  # another match has room
                assert await a.streams.count(4, "m2") == (1, 2)
            assert await a.streams.count(4, "m2") == (0, 1)  # closed: its place is free
        assert await a.streams.count(1, "m1") == (0, 0)
        assert [k async for k in a.client.scan_iter(match="t:*:ls")] == []
    finally:
        if b is not a:
            await b.close()
        await a.close()


async def test_a_place_lapses_when_its_holder_stops_renewing(store_url: str) -> None:
    clock = Clock()
    store = await storage.connect(store_url, clock=clock)
    limits: Limits = {"per_user": 1, "per_match": 10, "ttl": 15.0}
    try:
        dead = store.streams.slot(1, "m1", **limits)
        await dead.__aenter__()  # a replica that dies holding it: never leaves
        # the renewal task of a dead replica is gone too
        for task in asyncio.all_tasks():
            if "_keep" in repr(task.get_coro()):
                task.cancel()
        with pytest.raises(storage.TooMany):
            async with store.streams.slot(1, "m2", **limits):
                pass
        clock.now += 15.5
        async with store.streams.slot(1, "m2", **limits):
            assert await store.streams.count(1, "m1") == (1, 0)
    finally:
        await store.close()


async def test_an_open_stream_keeps_its_place_by_renewing(store_url: str) -> None:
    clock = Clock()
    store = await storage.connect(store_url, clock=clock)
    limits: Limits = {"per_user": 1, "per_match": 10, "ttl": 0.3}  # renewed every 0.1 s
    try:
        async with store.streams.slot(1, "m1", **limits):
            for _ in range(5):
                clock.now += 0.2  # each step within one ttl of a renewal
                await asyncio.sleep(0.25)
                with pytest.raises(storage.TooMany):
                    async with store.streams.slot(1, "m2", **limits):
                        pass
    finally:
        await store.close()
