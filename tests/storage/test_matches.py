"""Match records: create/get/update/delete, the per-chat index, and what storage refuses."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest

import storage
from storage import InvalidRecord, MatchExists, MatchNotFound

from .helpers import bump, record


def test_new_match_ids_are_short_url_safe_and_distinct() -> None:
    ids = {storage.new_match_id() for _ in range(2000)}
    assert len(ids) == 2000
    assert all(re.fullmatch(r"[A-Za-z0-9]{8}", i) for i in ids)


async def test_create_get_roundtrip(store: storage.Store) -> None:
    rec = record(chats=[-1001], board={"w": 5, "cells": [1, 2, 3]}, name="Ёж")
    assert await store.matches.create(rec) == rec
    assert await store.matches.get(rec["id"]) == rec
    assert await store.matches.get(storage.new_match_id()) is None


async def test_the_revision_changes_with_every_write_and_only_then(store: storage.Store) -> None:
    rec = record()
    assert await store.matches.revision(rec["id"]) is None
    assert await store.matches.get_revised(rec["id"]) is None
    await store.matches.create(rec)
    loaded = await store.matches.get_revised(rec["id"])
    assert loaded is not None and loaded[1] == rec
    first = loaded[0]
    assert await store.matches.revision(rec["id"]) == first  # reading changes nothing
    await store.matches.update(rec["id"], bump)
    second = await store.matches.revision(rec["id"])
    assert second not in (None, first)
    await store.matches.update(rec["id"], lambda r: r)  # even a write of the same record
    assert await store.matches.revision(rec["id"]) not in (first, second)
    await store.matches.delete(rec["id"])
    assert await store.matches.revision(rec["id"]) is None


async def test_update_revised_returns_the_revision_it_wrote(store: storage.Store) -> None:
    rec = record()
    await store.matches.create(rec)
    rev, out = await store.matches.update_revised(rec["id"], bump)
    assert out["version"] == 1
    assert (rev, out) == await store.matches.get_revised(rec["id"])
    await store.matches.update(rec["id"], bump)
    assert await store.matches.revision(rec["id"]) != rev


async def test_a_tap_reads_settings_and_match_in_one_go_and_updates_from_them(
    store: storage.Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    rec = record(chats=[-1001])
    await store.matches.create(rec)
    await store.chats.patch(-1001, {"language": "ru"})
    await store.users.patch(7, {"name": "Ёж"})
    chat, user, first = await store.settings_and_match(7, -1001, rec["id"])
    assert (chat, user) == ({"language": "ru"}, {"name": "Ёж"})
    assert first == await store.matches.get_revised(rec["id"])
    assert await store.settings_and_match(8, None, storage.new_match_id()) == (None, {}, None)

    reads: list[str] = []
    load = store.matches._load

    async def counted(match_id: str) -> Any:
        reads.append(match_id)
        return await load(match_id)

    monkeypatch.setattr(store.matches, "_load", counted)
    seen: list[int] = []

    def step(r: dict[str, Any]) -> dict[str, Any]:
        seen.append(r["version"])
        return {**r, "version": r["version"] + 1}

    _, out = await store.matches.update_revised(rec["id"], step, first=first)
    assert (reads, seen, out["version"]) == ([], [0], 1)
    # A stale first read (someone wrote since) costs one more try, from a fresh read.
    await store.matches.update_revised(rec["id"], step, first=first)
    assert (reads, seen) == ([rec["id"]], [0, 0, 1])
    assert (await store.matches.get(rec["id"]) or {})["version"] == 2


async def test_revision_releasing_reads_the_revision_and_gives_the_lease_up(
    store: storage.Store,
) -> None:
    rec = record()
    await store.matches.create(rec)
    rev = await store.matches.revision(rec["id"])
    lease = await store.leases.acquire("show:" + rec["id"], 10)
    assert lease is not None
    assert await store.matches.revision_releasing(rec["id"], lease) == rev
    assert not await lease.held()
    # A lease that ran out and passed to someone else stays theirs.
    old = await store.leases.acquire("show:" + rec["id"], 0.05)
    assert old is not None
    await asyncio.sleep(0.1)
    new = await store.leases.acquire("show:" + rec["id"], 10)
    assert new is not None
    await store.matches.update(rec["id"], bump)
    assert await store.matches.revision_releasing(rec["id"], old) not in (None, rev)
    assert await new.held()
    await store.matches.delete(rec["id"])
    assert await store.matches.revision_releasing(rec["id"], new) is None
    assert not await new.held()


async def test_revision_releasing_gives_the_lease_up_even_when_the_record_is_broken(
    store: storage.Store,
) -> None:
    match_id = storage.new_match_id()
    await store.client.set(store.keys.match(match_id), "a string, not a match hash")
    lease = await store.leases.acquire("show:" + match_id, 10)
    assert lease is not None
    with pytest.raises(storage.CorruptRecord):
        await store.matches.revision_releasing(match_id, lease)
    assert not await lease.held()


async def test_create_refuses_a_taken_id(store: storage.Store) -> None:
    rec = record()
    await store.matches.create(rec)
    with pytest.raises(MatchExists):
        await store.matches.create({**rec, "other": 1})
    assert await store.matches.get(rec["id"]) == rec


async def test_update_returns_and_stores_what_fn_returns(store: storage.Store) -> None:
    rec = record()
    await store.matches.create(rec)
    out = await store.matches.update(rec["id"], bump)
    assert out["version"] == 1
    assert await store.matches.get(rec["id"]) == out


async def test_update_never_touches_the_bots_version(store: storage.Store) -> None:
    rec = record(version=41)
    await store.matches.create(rec)
    for _ in range(3):
        await store.matches.update(rec["id"], lambda r: {**r, "cursor": r.get("cursor", 0) + 1})
    got = await store.matches.get(rec["id"])
    assert got is not None and got["version"] == 41 and got["cursor"] == 3


async def test_update_accepts_an_async_function(store: storage.Store) -> None:
    rec = record()
    await store.matches.create(rec)

    async def fn(r: dict[str, Any]) -> dict[str, Any]:
        await asyncio.sleep(0)
        return bump(r)

    assert (await store.matches.update(rec["id"], fn))["version"] == 1


async def test_update_of_a_missing_match(store: storage.Store) -> None:
    with pytest.raises(MatchNotFound):
        await store.matches.update("nope1234", bump)


async def test_exception_in_fn_aborts_without_writing(store: storage.Store) -> None:
    class Refused(Exception):
        pass

    rec = record()
    await store.matches.create(rec)

    def fn(r: dict[str, Any]) -> dict[str, Any]:
        r["version"] = 99
        raise Refused("stale button")

    with pytest.raises(Refused):
        await store.matches.update(rec["id"], fn)
    assert await store.matches.get(rec["id"]) == rec


@pytest.mark.parametrize(
    "change",
    [
        {"status": "paused"},
        {"id": "someoneElse"},
        {"v": 2},
        {"chats": "-100"},
        {"chats": [1.5]},
        {"nan": float("nan")},
        {"obj": object()},
    ],
    ids=["status", "id", "version", "chats-type", "chat-id", "nan", "not-json"],
)
async def test_records_storage_cannot_keep_are_refused(
    store: storage.Store, change: dict[str, Any]
) -> None:
    rec = record()
    await store.matches.create(rec)
    with pytest.raises(InvalidRecord):
        await store.matches.update(rec["id"], lambda r: {**r, **change})
    if "id" not in change:  # any valid id is fine for a new record
        with pytest.raises(InvalidRecord):
            await store.matches.create({**record(), **change})
    assert await store.matches.get(rec["id"]) == rec


@pytest.mark.parametrize("bad", ["", "a}b", "{x}", "a b", "x" * 33, "ид", None, 5])
async def test_ids_that_do_not_belong_in_a_key_are_refused(store: storage.Store, bad: Any) -> None:
    with pytest.raises(InvalidRecord):
        await store.matches.get(bad)
    with pytest.raises(InvalidRecord):
        await store.matches.create({**record(), "id": bad})


async def test_delete(store: storage.Store) -> None:
    rec = record(status="lobby", chats=[7])
    await store.matches.create(rec)
    assert await store.matches.delete(rec["id"]) is True
    assert await store.matches.get(rec["id"]) is None
    assert await store.matches.active_in_chat(7) == []
    assert await store.matches.delete(rec["id"]) is False


async def test_chat_index_follows_status_and_chats(store: storage.Store) -> None:
    a, b, c = record(status="lobby", chats=[1]), record(chats=[1, 2]), record(chats=[2])
    for r in (a, b, c):
        await store.matches.create(r)
    assert sorted(await store.matches.active_in_chat(1)) == sorted([a["id"], b["id"]])
    assert sorted(await store.matches.active_in_chat(2)) == sorted([b["id"], c["id"]])
    assert await store.matches.active_in_chat(3) == []

    await store.matches.update(a["id"], lambda r: {**r, "status": "active"})
    await store.matches.update(b["id"], lambda r: {**r, "chats": [2, 3]})  # left chat 1
    await store.matches.update(c["id"], lambda r: {**r, "status": "finished"})
    assert await store.matches.active_in_chat(1) == [a["id"]]
    assert await store.matches.active_in_chat(2) == [b["id"]]
    assert await store.matches.active_in_chat(3) == [b["id"]]
    assert await store.matches.get(c["id"]) is not None  # finished: kept, just not listed


async def test_lobbies_are_listed_before_active_matches(store: storage.Store) -> None:
    active, lobby = record(chats=[5]), record(status="lobby", chats=[5])
    await store.matches.create(active)
    await store.matches.create(lobby)
    assert await store.matches.active_in_chat(5) == [lobby["id"], active["id"]]


async def test_live_in_chat_reads_the_indexed_records(store: storage.Store) -> None:
    active, lobby, done = record(chats=[6]), record(status="lobby", chats=[6]), record(chats=[6])
    broken = record(chats=[6])
    for r in (active, lobby, done, broken):
        await store.matches.create(r)
    await store.matches.update(done["id"], lambda r: {**r, "status": "finished"})
    await store.client.hset(store.keys.match(broken["id"]), "d", "not json")
    live = await store.matches.live_in_chat(6)
    assert [r["id"] for r in live] == [lobby["id"], active["id"]]  # unreadable: left out
    assert live[1] == await store.matches.get(active["id"])
    assert await store.matches.live_in_chat(8) == []


async def test_index_drops_ids_whose_records_vanished(store: storage.Store) -> None:
    rec = record(chats=[9])
    await store.matches.create(rec)
    await store.client.delete(store.keys.match(rec["id"]))  # e.g. removed by hand
    assert await store.matches.active_in_chat(9) == []
    assert await store.client.zcard(store.keys.chat_matches(9)) == 0


async def test_duplicate_chat_ids_are_indexed_once(store: storage.Store) -> None:
    rec = record(chats=[4, 4])
    await store.matches.create(rec)
    assert await store.matches.active_in_chat(4) == [rec["id"]]


async def test_a_resent_write_is_applied_once(store: storage.Store) -> None:
    """When the connection drops after the write script ran, redis-py sends it again; the
    write's own tag makes the repeat a no-op that still reports success."""
    rec = record(n=0)
    await store.matches.create(rec)
    real = store.matches._write_script
    sent = 0

    async def lose_first_reply(**kwargs: Any) -> Any:
        nonlocal sent
        await real(**kwargs)  # ran on the server; the reply is "lost"
        sent += 2
        return await real(**kwargs)  # the retry with the very same arguments

    calls = 0

    def inc(r: dict[str, Any]) -> dict[str, Any]:
        nonlocal calls
        calls += 1
        r["n"] += 1
        return r

    store.matches._write_script = lose_first_reply  # type: ignore[assignment]
    try:
        await store.matches.update(rec["id"], inc)
    finally:
        store.matches._write_script = real
    got = await store.matches.get(rec["id"])
    assert sent == 2 and calls == 1
    assert got is not None and got["n"] == 1
    raw = await store.client.hget(store.keys.match(rec["id"]), "r")
    assert raw == b"2"  # created at revision 1, one update


async def test_a_write_stores_the_deadlines_its_state_needs_in_the_same_step(
    store: storage.Store,
) -> None:
    rec = record()
    await store.matches.create(rec, due=lambda r: {"show": 100.0, "ai": 105.0})
    assert await store.deadlines.when(rec["id"], kind="show") == 100.0
    assert await store.deadlines.when(rec["id"], kind="ai") == 105.0
    seen: list[dict[str, Any]] = []

    def due(new: dict[str, Any]) -> dict[str, float | None]:
        seen.append(new)
        return {"ai": None, "tick": 300.0}

    new = await store.matches.update(rec["id"], bump, due=due)
    assert seen[-1] == new  # called on the record that was written
    assert await store.deadlines.when(rec["id"], kind="ai") is None
    assert await store.deadlines.when(rec["id"], kind="tick") == 300.0
    assert await store.deadlines.when(rec["id"], kind="show") == 100.0  # not named: kept

    def refuse(_: dict[str, Any]) -> dict[str, Any]:
        raise ValueError("no")

    with pytest.raises(ValueError):  # nothing written: no deadline either
        await store.matches.update(rec["id"], refuse, due=lambda r: {"tick": 1.0})
    assert await store.deadlines.when(rec["id"], kind="tick") == 300.0


async def test_releasing_cancels_a_deadline_only_for_the_revision_its_work_was_for(
    store: storage.Store,
) -> None:
    rec = record()
    await store.matches.create(rec, due=lambda r: {"ai": 100.0})
    rev = await store.matches.revision(rec["id"])
    assert rev is not None
    lease = await store.leases.acquire("ai:" + rec["id"], 10)
    assert lease is not None
    await store.matches.update(rec["id"], bump)  # a person moved meanwhile
    await store.matches.revision_releasing(rec["id"], lease, done=("ai", rev, None))
    assert await store.deadlines.when(rec["id"], kind="ai") == 100.0  # their need stays
    assert not await lease.held()
    rev = await store.matches.revision(rec["id"])
    assert rev is not None
    lease = await store.leases.acquire("ai:" + rec["id"], 10)
    assert lease is not None
    # With a score: only the entry written then goes (a retry scheduled since stays).
    await store.matches.revision_releasing(rec["id"], lease, done=("ai", rev, 99.0))
    assert await store.deadlines.when(rec["id"], kind="ai") == 100.0
    lease = await store.leases.acquire("ai:" + rec["id"], 10)
    assert lease is not None
    await store.matches.revision_releasing(rec["id"], lease, done=("ai", rev, 100.0))
    assert await store.deadlines.when(rec["id"], kind="ai") is None
