"""Leases: one holder at a time, always expiring, never released or renewed by a former
holder."""

from __future__ import annotations

import asyncio

import pytest

import storage
from storage import LeaseBusy, LeaseLost


async def test_one_holder_at_a_time(store: storage.Store) -> None:
    lease = await store.leases.acquire("ai:match001", ttl=10)
    assert lease is not None and await lease.held()
    assert await store.leases.acquire("ai:match001", ttl=10) is None
    with pytest.raises(LeaseBusy):
        async with store.lease("ai:match001", 10):
            pass
    assert await lease.release() is True
    async with store.lease("ai:match001", 10) as again:
        assert await again.held()
    assert await store.leases.acquire("ai:match001", ttl=10) is not None


async def test_one_ai_move_computed_once_across_replicas(store_url: str) -> None:
    async with (
        await storage.connect(store_url) as a,
        await storage.connect(store_url) as b,
    ):
        computed = 0

        async def replica(store: storage.Store) -> None:
            nonlocal computed
            try:
                async with store.lease("ai:match001", ttl=10):
                    computed += 1
                    await asyncio.sleep(0.05)  # thinking
            except LeaseBusy:
                pass

        await asyncio.gather(*(replica(s) for s in (a, b) * 5))
        assert computed == 1


async def test_a_lost_lease_wedges_nothing(store: storage.Store) -> None:
    old = await store.leases.acquire("ai:match001", ttl=0.1)
    assert old is not None
    await asyncio.sleep(0.2)  # the holder died or stalled
    new = await store.leases.acquire("ai:match001", ttl=10)
    assert new is not None
    with pytest.raises(LeaseLost):
        await old.renew()
    assert await old.release() is False
    assert await new.held() and not await old.held()
    await new.renew(20)
    assert await store.client.pttl(new.key) > 10_000


async def test_bad_names_and_lifetimes(store: storage.Store) -> None:
    with pytest.raises(storage.InvalidRecord):
        await store.leases.acquire("a{b}", 1)
    with pytest.raises(ValueError):
        await store.leases.acquire("ok", 0)


async def test_a_guarded_lease_keeps_its_deadline_at_its_end_while_it_is_kept(
    store: storage.Store,
) -> None:
    now = [1000.0]
    guard = storage.Guard("match001", "ai", lambda: now[0])
    lease = await store.leases.acquire("ai:match001", 0.6, guard)
    assert lease is not None
    assert await store.deadlines.when("match001", kind="ai") == 1000.0 + 0.6 + storage.GUARD_MARGIN
    assert await store.leases.acquire("ai:match001", 0.6, guard) is None  # busy: no change
    left = await store.leases.expires_in("ai:match001")
    assert left is not None and 0 < left <= 0.6
    async with lease.kept(every=0.1):
        now[0] = 2000.0
        await asyncio.sleep(1.0)  # longer than its ttl: the renewals keep it
        assert await lease.held() and not lease.lost
    assert await store.deadlines.when("match001", kind="ai") == 2000.0 + 0.6 + storage.GUARD_MARGIN
    await asyncio.sleep(0.8)  # not kept: it runs out, and a renewal finds it lost
    assert await store.leases.expires_in("ai:match001") is None
    with pytest.raises(LeaseLost):
        await lease.renew()
    assert lease.lost
