"""Deadlines: claimed by exactly one of several racing pollers; a lost claim comes back."""

from __future__ import annotations

import asyncio

import pytest

import storage


async def test_schedule_due_done(store: storage.Store) -> None:
    d = store.deadlines
    await d.schedule("match001", 100.0, "clock")
    await d.schedule("match001", 150.0, "stop")
    await d.schedule("match002", 120.0)
    assert await d.next_time() == 100.0
    assert await d.due(now=99) == []
    claimed = await d.due(now=130, lease=10)
    assert [(c.match_id, c.kind, c.when) for c in claimed] == [
        ("match001", "clock", 100.0),
        ("match002", "clock", 120.0),
    ]
    assert await d.due(now=130) == []  # claimed: nobody else gets them meanwhile
    assert all([await d.done(c) for c in claimed])
    assert await d.when("match001", "clock") is None
    assert await d.when("match001", "stop") == 150.0
    assert await d.cancel("match001", "stop") is True
    assert await d.cancel("match001", "stop") is False
    assert await d.next_time() is None


async def test_rescheduling_replaces_the_time(store: storage.Store) -> None:
    await store.deadlines.schedule("match001", 100.0)
    await store.deadlines.schedule("match001", 300.0)
    assert await store.deadlines.due(now=200) == []
    assert await store.deadlines.when("match001") == 300.0


async def test_a_claim_that_is_never_done_comes_back(store: storage.Store) -> None:
    await store.deadlines.schedule("match001", 100.0)
    [first] = await store.deadlines.due(now=100, lease=30)  # this replica dies here
    assert await store.deadlines.due(now=129) == []
    [second] = await store.deadlines.due(now=131, lease=30)
    assert second.when == 130.0 and second.claimed_until == 161.0
    assert await store.deadlines.done(first) is False  # too late: someone else has it
    assert await store.deadlines.done(second) is True


async def test_done_keeps_a_time_set_while_handling(store: storage.Store) -> None:
    await store.deadlines.schedule("match001", 100.0)
    [due] = await store.deadlines.due(now=100)
    await store.deadlines.schedule("match001", 500.0)  # the handler moved the clock on
    assert await store.deadlines.done(due) is False
    assert await store.deadlines.when("match001") == 500.0


async def test_two_racing_claimers_each_deadline_claimed_once(store_url: str) -> None:
    async with (
        await storage.connect(store_url) as a,
        await storage.connect(store_url) as b,
    ):
        for i in range(300):
            await a.deadlines.schedule(f"m{i:07d}", float(i), "clock")
        got: dict[str, list[str]] = {"a": [], "b": []}

        async def poll(name: str, store: storage.Store) -> None:
            while True:
                claimed = await store.deadlines.due(now=1000, limit=7, lease=60)
                if not claimed:
                    return
                got[name] += [c.match_id for c in claimed]
                await asyncio.sleep(0)

        await asyncio.gather(poll("a", a), poll("b", b), poll("a", a), poll("b", b))
        everything = got["a"] + got["b"]
        assert len(everything) == 300 and len(set(everything)) == 300
        assert got["a"] and got["b"], "one claimer took everything: no race happened"


async def test_bad_arguments(store: storage.Store) -> None:
    with pytest.raises(storage.InvalidRecord):
        await store.deadlines.schedule("match|01", 1.0)
    with pytest.raises(storage.InvalidRecord):
        await store.deadlines.schedule("match001", 1.0, "Clock!")
    with pytest.raises(ValueError):
        await store.deadlines.due(now=1, lease=0)


async def test_expedite_makes_the_guards_of_work_in_flight_due_now(store: storage.Store) -> None:
    await store.deadlines.schedule("m1", 500.0, kind="ai")
    await store.deadlines.schedule("m2", 500.0, kind="show")
    await store.deadlines.schedule("m3", 500.0, kind="tick")
    await store.deadlines.schedule("m4", 50.0, kind="ai")  # due already: left as it is
    assert await store.deadlines.expedite(["ai", "show"], now=100.0) == 2
    assert await store.deadlines.when("m1", kind="ai") == 100.0
    assert await store.deadlines.when("m2", kind="show") == 100.0
    assert await store.deadlines.when("m3", kind="tick") == 500.0
    assert await store.deadlines.when("m4", kind="ai") == 50.0
