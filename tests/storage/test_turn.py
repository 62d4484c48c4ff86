"""``matches.turn``: the caller reads, computes in its own code and writes if nobody wrote
since; storage calls nothing of the caller's."""

from __future__ import annotations

import asyncio

import pytest

import storage
from storage import MatchNotFound

from .helpers import bump, record


async def test_read_write_gives_the_revision_written(store: storage.Store) -> None:
    rec = record(chats=[-1001])
    await store.matches.create(rec)
    async with store.matches.turn(rec["id"]) as tries:
        rev, got = await tries.read()
        assert got == rec
        written = await tries.write(bump(got), due={"show": 123.0})
    assert written is not None and written != rev
    assert await store.matches.get_revised(rec["id"]) == (written, {**rec, "version": 1})
    assert await store.matches.active_in_chat(-1001) == [rec["id"]]
    assert [(d.match_id, d.kind) for d in await store.deadlines.due(200.0)] == [(rec["id"], "show")]


async def test_a_write_after_someone_else_s_loses_and_the_next_read_is_fresh(
    store: storage.Store, store_url: str
) -> None:
    rec = record()
    await store.matches.create(rec)
    other = await storage.connect(store_url)  # another process's store
    async with store.matches.turn(rec["id"]) as tries:
        _, got = await tries.read()
        await other.matches.update(rec["id"], bump)
        await other.close()
        assert await tries.write(bump(dict(got))) is None
        _, fresh = await tries.read()
        assert fresh["version"] == 1
        assert await tries.write(bump(fresh)) is not None
    stored = await store.matches.get(rec["id"])
    assert stored is not None and stored["version"] == 2


async def test_first_is_used_once_and_a_stale_one_only_costs_a_retry(
    store: storage.Store,
) -> None:
    rec = record()
    await store.matches.create(rec)
    first = await store.matches.get_revised(rec["id"])
    await store.matches.update(rec["id"], bump)  # before the turn: `first` is stale now
    async with store.matches.turn(rec["id"], first=first) as tries:
        _, got = await tries.read()
        assert got["version"] == 0  # what `first` said
        assert await tries.write(bump(got)) is None
        _, got = await tries.read()
        assert got["version"] == 1
        assert await tries.write(bump(got)) is not None


async def test_updates_of_one_match_from_this_process_take_turns(store: storage.Store) -> None:
    rec = record()
    await store.matches.create(rec)
    async with store.matches.turn(rec["id"]) as tries:
        waiting = asyncio.ensure_future(store.matches.update(rec["id"], bump))
        await asyncio.sleep(0)  # it queues behind this turn
        _, got = await tries.read()
        assert await tries.write(bump(got)) is not None
        assert not waiting.done()
    assert (await waiting)["version"] == 2


async def test_no_match_and_writes_without_a_read_are_refused(store: storage.Store) -> None:
    async with store.matches.turn(storage.new_match_id()) as tries:
        with pytest.raises(MatchNotFound):
            await tries.read()
        with pytest.raises(RuntimeError):
            await tries.write(record())
