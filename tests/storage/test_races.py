"""Concurrent updates lose nothing: many coroutines, two OS processes (real server) or two
threads with their own event loops (memory store), and racing status changes with indexes."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import threading
import uuid
from pathlib import Path
from typing import Any

import storage
from storage.connect import drop_memory

from .helpers import record
from .racer import race

ROOT = Path(__file__).resolve().parents[2]


async def _hundred_racers(stores: list[storage.Store]) -> int:
    """100 coroutines, spread over ``stores``, each add their mark to one match at once;
    returns how many times the update functions ran."""
    rec = record(log=[], n=0)
    await stores[0].matches.create(rec)
    calls = 0

    def racer(k: int) -> Any:
        async def fn(r: dict[str, Any]) -> dict[str, Any]:
            nonlocal calls
            calls += 1
            await asyncio.sleep(0)  # let every other racer get going
            r["log"].append(k)
            r["n"] += 1
            return r

        return stores[k % len(stores)].matches.update(rec["id"], fn)

    results = await asyncio.gather(*(racer(k) for k in range(100)))
    final = await stores[0].matches.get(rec["id"])
    assert final is not None
    assert sorted(final["log"]) == list(range(100))
    assert final["n"] == 100
    # each caller got back the record as it stored it, containing its own mark
    assert all(k in r["log"] for k, r in enumerate(results))
    return calls


async def test_100_coroutines_on_4_connections_each_update_applied_once(store_url: str) -> None:
    stores = [await storage.connect(store_url) for _ in range(4)]  # as if 4 replicas
    try:
        calls = await _hundred_racers(stores)
    finally:
        for s in stores:
            await s.close()
    assert calls > 100, "the racers never collided, so this test proved nothing"


async def test_100_coroutines_on_one_connection_take_turns(store: storage.Store) -> None:
    assert await _hundred_racers([store]) == 100  # queued locally: no update ran twice
    assert store.matches._local == {}  # and the queue cleaned up after itself


async def test_two_processes_racing_lose_nothing(redis_url: str) -> None:
    rounds = 60
    async with await storage.connect(redis_url) as store:
        ids = [(await store.matches.create(record(log=[])))["id"] for _ in range(3)]
        cmd = [sys.executable, "-m", "tests.storage.racer", redis_url]
        procs = [
            subprocess.Popen([*cmd, tag, str(rounds), *ids], cwd=ROOT, stdout=subprocess.PIPE)
            for tag in ("a", "b")
        ]
        outs = [p.communicate(timeout=120)[0].split() for p in procs]
        assert [p.returncode for p in procs] == [0, 0]
        assert [int(o[0]) for o in outs] == [rounds * 3, rounds * 3]
        assert sum(int(o[1]) for o in outs) > 2 * rounds * 3, "no race happened"
        for match_id in ids:
            rec = await store.matches.get(match_id)
            assert rec is not None
            want = {f"{t}:{i}" for t in "ab" for i in range(rounds)}
            assert len(rec["log"]) == 2 * rounds and set(rec["log"]) == want


async def test_two_event_loops_in_threads_racing_on_one_memory_store() -> None:
    name = f"race-{uuid.uuid4().hex}"
    url = f"memory://{name}"
    rounds = 60
    try:
        await _race_threads(url, rounds)
    finally:
        drop_memory(name)


async def _race_threads(url: str, rounds: int) -> None:
    async with await storage.connect(url) as store:
        ids = [(await store.matches.create(record(log=[])))["id"] for _ in range(3)]
        done: dict[str, tuple[int, int]] = {}

        def run(tag: str) -> None:
            done[tag] = asyncio.run(race(url, tag, rounds, ids))

        threads = [threading.Thread(target=run, args=(t,)) for t in "ab"]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=120)
        assert {t: d[0] for t, d in done.items()} == {"a": rounds * 3, "b": rounds * 3}
        assert sum(d[1] for d in done.values()) > 2 * rounds * 3, "no race happened"
        for match_id in ids:
            rec = await store.matches.get(match_id)
            assert rec is not None and len(rec["log"]) == 2 * rounds
            assert len(set(rec["log"])) == 2 * rounds


async def test_racing_status_changes_keep_the_chat_index_exact(store: storage.Store) -> None:
    recs = [record(status="lobby", chats=[100 + i % 3, 200]) for i in range(12)]
    for r in recs:
        await store.matches.create(r)

    async def step(match_id: str, status: str) -> None:
        async def fn(r: dict[str, Any]) -> dict[str, Any]:
            await asyncio.sleep(0)
            order = storage.STATUSES
            if order.index(status) > order.index(r["status"]):
                r["status"] = status
            return r

        await store.matches.update(match_id, fn)

    await asyncio.gather(
        *(step(r["id"], s) for r in recs for s in ("active", "finished", "active", "lobby"))
    )
    # every match ends "finished" (status only moves forward), so no index lists any of them
    for r in recs:
        got = await store.matches.get(r["id"])
        assert got is not None and got["status"] == "finished"
    for chat in (100, 101, 102, 200):
        assert await store.matches.active_in_chat(chat) == []
        assert await store.client.zcard(store.keys.chat_matches(chat)) == 0
    assert await store.client.zcard(store.keys.lobbies) == 0
