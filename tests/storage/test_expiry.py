"""Lifetimes: lobbies expire when idle, finished matches after a week, active never;
challenge tokens and result markers as configured."""

from __future__ import annotations

import asyncio

import pytest

import storage
from storage import Config

from .helpers import bump, record

DAY = 86400.0


def _near(value: float | None, want: float) -> bool:
    return value is not None and want - 5 <= value <= want


async def test_default_lifetimes(store: storage.Store) -> None:
    lobby, active, done = record(status="lobby"), record(), record(status="finished")
    for r in (lobby, active, done):
        await store.matches.create(r)
    assert _near(await store.matches.ttl(lobby["id"]), DAY)
    assert await store.matches.ttl(active["id"]) is None
    assert _near(await store.matches.ttl(done["id"]), 7 * DAY)
    with pytest.raises(storage.MatchNotFound):
        await store.matches.ttl(storage.new_match_id())


async def test_lifetime_follows_the_status(store_url: str) -> None:
    config = Config(lobby_ttl=600, finished_ttl=3600)
    async with await storage.connect(store_url, config=config) as store:
        rec = record(status="lobby")
        await store.matches.create(rec)
        assert _near(await store.matches.ttl(rec["id"]), 600)
        await store.matches.update(rec["id"], lambda r: {**r, "status": "active"})
        assert await store.matches.ttl(rec["id"]) is None
        await store.matches.update(rec["id"], bump)
        assert await store.matches.ttl(rec["id"]) is None
        await store.matches.update(rec["id"], lambda r: {**r, "status": "finished"})
        assert _near(await store.matches.ttl(rec["id"]), 3600)


async def test_every_write_to_a_lobby_restarts_its_clock(store_url: str) -> None:
    async with await storage.connect(store_url, config=Config(lobby_ttl=0.4)) as store:
        rec = record(status="lobby", chats=[1])
        await store.matches.create(rec)
        for _ in range(3):  # 0.6 s in all: alive only because each write restarted the clock
            await asyncio.sleep(0.2)
            await store.matches.update(rec["id"], bump)  # someone joined, changed options…
        assert await store.matches.get(rec["id"]) is not None
        assert await store.matches.active_in_chat(1) == [rec["id"]]
        await asyncio.sleep(0.6)
        assert await store.matches.get(rec["id"]) is None  # abandoned: gone
        assert await store.matches.active_in_chat(1) == []
        assert await store.client.zcard(store.keys.chat_matches(1)) == 0


async def test_idle_lobbies_for_the_sweeper(store_url: str) -> None:
    now = [1000.0]
    async with await storage.connect(store_url, clock=lambda: now[0]) as store:
        old, fresh, active = record(status="lobby"), record(status="lobby"), record()
        await store.matches.create(old)
        now[0] += 3000
        await store.matches.create(fresh)
        await store.matches.create(active)
        assert await store.matches.idle_lobbies(2000) == [old["id"]]
        assert await store.matches.idle_lobbies(0) == [old["id"], fresh["id"]]
        assert await store.matches.idle_lobbies(0, limit=1) == [old["id"]]
        await store.matches.update(old["id"], lambda r: {**r, "status": "finished"})
        assert await store.matches.idle_lobbies(0) == [fresh["id"]]
        await store.matches.delete(fresh["id"])
        assert await store.matches.idle_lobbies(0) == []


async def test_challenge_and_result_lifetimes(store: storage.Store) -> None:
    token = await store.challenges.create({"m": 1}, ttl=3600)
    ttl = await store.client.pttl(store.keys.challenge(token)) / 1000
    assert _near(ttl, 3600 + 7 * DAY)  # remembered a week past its expiry
    await store.ratings.record("m1234567", "dots", [1, 2], [0, 1])
    ttl = await store.client.pttl(store.keys.result("m1234567")) / 1000
    assert _near(ttl, 30 * DAY)


def test_config_refuses_nonsense() -> None:
    with pytest.raises(ValueError):
        Config(lobby_ttl=0)
    with pytest.raises(ValueError):
        Config(max_attempts=0)
