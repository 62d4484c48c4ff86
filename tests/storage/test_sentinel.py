"""Redis failover through Sentinel, with real processes (tests/fixtures/sentinel.py): the
store follows the primary the sentinels name, a move acknowledged after its WAIT survives
the primary's SIGKILL, a replica too slow to acknowledge is counted (and the move stands),
and a lone server or the embedded store never waits."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

import pytest
import redis
from redis import exceptions as rx
from redis.asyncio.retry import Retry
from redis.backoff import ConstantBackoff

import storage
from bot.telegram import metrics
from storage.config import Config
from storage.sentinel import sentinel_client
from tests.fixtures.sentinel import SETTLE, Deployment, wait_for
from tests.storage.helpers import bump, record

T = TypeVar("T")


async def eventually(call: Callable[[], Awaitable[T]], timeout: float = SETTLE) -> T:
    """``call()``'s answer once the store answers again (it is Unavailable mid-failover)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            return await call()
        except storage.Unavailable:
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.1)


def _sample(name: str) -> float:
    return metrics.REGISTRY.get_sample_value(name) or 0.0


async def test_failover_keeps_every_acknowledged_move(sentinels: Deployment) -> None:
    async with await storage.connect(sentinels.url) as store:
        assert await store.replicas.replicas() == 1
        rec = await store.matches.create(record())
        for _ in range(5):
            await store.matches.update(rec["id"], bump)
        # each of the six writes returned only once the replica had it
        assert (store.replicas.waits, store.replicas.timeouts) == (6, 0)

        acked, refused = 5, 0

        async def tap() -> None:  # a player tapping on through the failover
            nonlocal acked, refused
            while True:
                try:
                    await store.matches.update(rec["id"], bump)
                    acked += 1
                except storage.Unavailable:
                    refused += 1  # not shown as made; it may or may not be stored
                await asyncio.sleep(0.01)

        tapping = asyncio.create_task(tap())
        await asyncio.sleep(0.2)
        sentinels.primary.stop(hard=True)  # SIGKILL, mid-tap
        took = await asyncio.to_thread(sentinels.wait_promoted, sentinels.replica)
        assert took < SETTLE
        at_promotion = acked
        await eventually(lambda: store.matches.get(rec["id"]))
        deadline = time.monotonic() + SETTLE
        while acked < at_promotion + 3 and time.monotonic() < deadline:
            await asyncio.sleep(0.05)  # the same Store taps on: its pool asked the sentinels
        tapping.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await tapping

        got = await eventually(lambda: store.matches.get(rec["id"]))
        assert got is not None
        # every acknowledged tap is there, once; a refused one at most once
        assert acked <= got["version"] <= acked + refused + 1  # + 1: the tap cancelled mid-way
        assert acked >= at_promotion + 3
        # the promoted primary has no replica (the old primary is dead): writes stop waiting
        assert await store.replicas.replicas() == 0
        waits = store.replicas.waits
        await store.matches.update(rec["id"], bump)
        assert store.replicas.waits == waits


async def test_a_command_cut_off_by_the_sigkill_retries_on_the_promoted_replica(
    sentinels: Deployment,
) -> None:
    """A blocking pop in flight when the primary dies (a queue worker waiting for a job) is
    sent again, by the client's own retries, to the replica the sentinels promote, and
    answers there: its retries ask the sentinels each time, not the dead primary's address
    again and again (redis-py's own connection did, till its retries ran out)."""
    client = sentinel_client(
        sentinels.url,
        max_connections=2,
        retry=Retry(ConstantBackoff(0.1), 10 * int(SETTLE)),  # outlasts the promotion
        retry_on_error=[rx.ConnectionError, rx.TimeoutError],
    )
    try:
        popping = asyncio.ensure_future(client.blpop(["jobs"], timeout=0))
        await asyncio.sleep(0.2)  # BLPOP is in flight on the primary
        assert not popping.done()
        sentinels.primary.stop(hard=True)
        await asyncio.to_thread(sentinels.wait_promoted, sentinels.replica)
        await asyncio.sleep(0.5)  # the retries had time to find the promoted replica
        with redis.Redis(port=sentinels.replica.port, socket_timeout=1) as promoted:
            promoted.rpush("jobs", "j1")
        popped = await asyncio.wait_for(popping, SETTLE)
        assert popped is not None and list(popped) == [b"jobs", b"j1"]
    finally:
        await client.aclose()


async def test_a_replica_too_slow_is_counted_and_the_move_stands(sentinels: Deployment) -> None:
    # first (same deployment, to spare a start): redis-py's own Sentinel pool fails past
    # max_connections; ours waits for a free connection, as the plain one does
    async with await storage.connect(sentinels.url, max_connections=2) as store:
        ids = [storage.new_match_id() for _ in range(12)]
        assert await asyncio.gather(*(store.matches.get(m) for m in ids)) == [None] * 12

    config = Config(replica_wait=0.3)
    async with await storage.connect(sentinels.url, config=config) as store:
        metrics.watch_replicas(store.replicas)
        timeouts = _sample("tetrad_replica_wait_timeouts_total")
        waited = _sample("tetrad_replica_wait_seconds_count")
        rec = await store.matches.create(record())
        assert store.replicas.timeouts == 0

        replica = sentinels.replica.process
        assert replica is not None
        os.kill(replica.pid, signal.SIGSTOP)
        try:
            started = time.perf_counter()
            written = await store.matches.update(rec["id"], bump)
            took = time.perf_counter() - started
        finally:
            os.kill(replica.pid, signal.SIGCONT)
        assert 0.3 <= took < 3.0  # waited the whole timeout, then went on
        assert written["version"] == 1
        assert (await store.matches.get(rec["id"]) or {})["version"] == 1
        assert (store.replicas.waits, store.replicas.timeouts) == (2, 1)
        assert _sample("tetrad_replica_wait_timeouts_total") == timeouts + 1
        assert _sample("tetrad_replica_wait_seconds_count") == waited + 2

        # the replica back: writes are acknowledged again, nothing more counted
        await asyncio.to_thread(wait_for, "the replica catching up", sentinels.in_sync)
        await store.matches.update(rec["id"], bump)
        assert (store.replicas.waits, store.replicas.timeouts) == (3, 1)
        assert _sample("tetrad_replica_wait_timeouts_total") == timeouts + 1


async def test_a_lone_server_and_the_embedded_store_never_wait(redis_url: str) -> None:
    for url in (redis_url, "memory://"):
        async with await storage.connect(url) as store:
            rec = await store.matches.create(record())
            await store.matches.update(rec["id"], bump)
            assert store.replicas.waits == 0, url
    async with await storage.connect("memory://") as store:
        assert store.replicas.timeout_ms == 0  # not even ROLE is asked


@pytest.mark.parametrize(
    ("url", "needle"),
    [
        ("redis+sentinel://h1,h2/", "must name the monitored primary"),
        ("redis+sentinel://h1:99999/m", "port 99999"),
        ("redis+sentinel://h1/m/zero", "is a number"),
        ("redis+sentinel://h1,/m", "'' is not a sentinel"),
        ("redis+sentinel://h1/m?ssl=1", "no \\?options"),
    ],
)
async def test_bad_sentinel_urls(url: str, needle: str) -> None:
    with pytest.raises(storage.BadURL, match=needle):
        await storage.connect(url)


async def test_no_sentinel_answering_fails_fast_and_clearly() -> None:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    started = time.monotonic()
    with pytest.raises(storage.Unavailable, match=f"127.0.0.1:{port}") as caught:
        await storage.connect(f"redis+sentinel://:hunter2@127.0.0.1:{port}/mymaster", retries=1)
    assert time.monotonic() - started < 5
    assert "hunter2" not in str(caught.value) and ":***@" in str(caught.value)
