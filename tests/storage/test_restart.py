"""Redis restarted during a test, with AOF on: acknowledged writes are there afterwards.

These need the real server (the memory store has nothing to restart). A clean restart
(SIGTERM) and a crash of the Redis process (SIGKILL) both keep every acknowledged write. The
crash runs with ``appendfsync always``: under ``everysec`` Redis answers writes it has put off
writing while a background fsync is slow (up to 2 s on a busy disk), and a SIGKILL then loses
them (README, "What a crash loses").
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

import storage
from tests.fixtures.redis import RedisServer

from .helpers import bump, record


@pytest.mark.parametrize("hard", [False, True], ids=["sigterm", "sigkill"])
async def test_matches_survive_a_restart(
    redis_server: RedisServer, redis_url: str, hard: bool
) -> None:
    async with await storage.connect(redis_url) as store:
        if hard:  # until the restart: its command line says everysec
            await store.client.config_set("appendfsync", "always")
        recs = [record(status=s, chats=[1]) for s in ("lobby", "active", "finished") * 10]
        for r in recs:
            await store.matches.create(r)
            await store.matches.update(r["id"], bump)
        token = await store.challenges.create({"match": recs[0]["id"]})
        await store.deadlines.schedule(recs[1]["id"], 1e9, "clock")

        await redis_server.arestart(hard=hard)

        for r in recs:
            assert await store.matches.get(r["id"]) == {**r, "version": 1}
        assert (await store.matches.ttl(recs[0]["id"]) or 0) > 0  # lobby still expires
        assert await store.matches.ttl(recs[1]["id"]) is None  # active never does
        assert len(await store.matches.active_in_chat(1)) == 20
        assert await store.challenges.redeem(token) == {"match": recs[0]["id"]}
        assert await store.deadlines.when(recs[1]["id"]) == 1e9


async def test_updates_keep_going_across_a_restart(
    redis_server: RedisServer, redis_url: str
) -> None:
    """Twenty coroutines keep updating while Redis goes down and comes back: the client's
    retries carry them over, and every update that returned is there exactly once."""
    async with await storage.connect(redis_url) as store:
        ids = [(await store.matches.create(record(log=[])))["id"] for _ in range(4)]
        stop = asyncio.Event()
        applied: dict[str, list[str]] = {m: [] for m in ids}

        async def worker(w: int) -> None:
            i = 0
            while not stop.is_set():
                match_id = ids[(w + i) % len(ids)]
                mark = f"{w}:{i}"

                def add(r: dict[str, Any], mark: str = mark) -> dict[str, Any]:
                    r["log"].append(mark)
                    return r

                await store.matches.update(match_id, add)
                applied[match_id].append(mark)
                i += 1
                await asyncio.sleep(0.002)

        workers = [asyncio.create_task(worker(w)) for w in range(20)]
        await asyncio.sleep(0.3)
        before = sum(map(len, applied.values()))
        await redis_server.arestart(hard=True, down_for=0.3)
        await asyncio.sleep(0.3)
        stop.set()
        await asyncio.gather(*workers)

        assert sum(map(len, applied.values())) > before > 0
        for match_id in ids:
            rec = await store.matches.get(match_id)
            assert rec is not None
            assert sorted(rec["log"]) == sorted(applied[match_id])


async def test_unreachable_redis_raises_unavailable(redis_server: RedisServer) -> None:
    store = await storage.connect(redis_server.url, retries=1, connect_timeout=0.5)
    try:
        redis_server.stop()
        assert await store.ping() is False
        with pytest.raises(storage.Unavailable):
            await store.matches.get("abcdefgh")
    finally:
        redis_server.start()
    assert await store.ping() is True
    await store.close()
