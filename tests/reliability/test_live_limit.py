"""The Mini App's live streams are limited per person across replicas (storage/streams.py):
two ``python -m bot run`` processes serving the Mini App on one Redis; a person's streams
opened on both count together (LIVE_PER_USER), another person's do not; a closed stream
frees its place, and the streams of a replica killed while holding them lapse (LIVE_TTL)
and free theirs."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from urllib.parse import quote

import aiohttp

import storage
from bot.webapp.server import LIVE_PER_USER
from playground.server import Emulator
from tests.reliability.cluster import Cluster
from tests.webapp.made import make_match
from tests.webapp.signing import init_data

ALICE, BOB = 7001, 7002
WAIT = 60.0  # generous: a busy machine


async def _open(
    http: aiohttp.ClientSession, base: str, ref: str, data: str
) -> aiohttp.ClientResponse:
    """A live stream, once its first event came (its place is taken), or a refusal."""
    r = await http.get(f"{base}/app/api/match/{ref}/live?tma={quote(data)}")
    if r.status == 200:
        first = await asyncio.wait_for(r.content.readuntil(b"\n\n"), WAIT)
        assert first.startswith(b"event: state"), first
    return r


async def _admitted(
    http: aiohttp.ClientSession, base: str, ref: str, data: str
) -> aiohttp.ClientResponse:
    """Opens until one is let in (a freed place is seen by the next open)."""
    deadline = time.monotonic() + WAIT
    while True:
        r = await _open(http, base, ref, data)
        if r.status == 200:
            return r
        assert r.status == 429, r.status
        r.close()
        assert time.monotonic() < deadline, "no place was freed"
        await asyncio.sleep(0.5)


async def test_the_per_person_limit_holds_across_replicas(
    emu: Emulator, redis_url: str, tmp_path: Path
) -> None:
    token = emu.world.token
    alice, bob = init_data(token, ALICE, "Alice"), init_data(token, BOB, "Bob")
    store = await storage.connect(redis_url)
    streams: list[aiohttp.ClientResponse] = []
    async with (
        # No Рассада here: the replicas start without warming or routing workers.
        Cluster(
            emu,
            redis_url,
            tmp_path,
            2,
            MINIAPP_URL="https://tetrad.example.org/app/",
            WARM_WORKERS="0",
            ROUTE_WORKERS="0",
        ) as cluster,
        aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=None)) as http,
    ):
        try:
            ref = await make_match(store, "dots", {"width": 10, "height": 10}, 4, 1, (ALICE, BOB))
            one, two = (b.url for b in cluster.bots)
            streams += [
                await _open(http, base, ref, alice) for base in [one, two] * (LIVE_PER_USER // 2)
            ]
            assert [s.status for s in streams] == [200] * LIVE_PER_USER
            assert await store.streams.count(ALICE, ref) == (LIVE_PER_USER, LIVE_PER_USER)
            for base in (one, two):  # full, whichever replica is asked
                async with await _open(http, base, ref, alice) as refused:
                    assert refused.status == 429 and (await refused.json())["error"] == "too_many"
            theirs = await _open(http, two, ref, bob)  # the limit is per person
            assert theirs.status == 200
            theirs.close()

            # A stream closed on one replica frees its place for an open on the other.
            streams.pop(0).close()
            streams.append(await _admitted(http, two, ref, alice))

            # A replica killed with two of Alice's streams: they hold their places until
            # they lapse, then another replica lets her in again.
            on_two = sum(1 for s in streams if str(s.url).startswith(two))
            assert on_two >= 2
            cluster.bots[1].kill()
            async with await _open(http, one, ref, alice) as still_full:
                assert still_full.status == 429  # not freed at once: only by lapsing
            streams.append(await _admitted(http, one, ref, alice))
            # Its streams renewed at different instants, so they lapse one by one: all go.
            left = LIVE_PER_USER - on_two + 1
            deadline = time.monotonic() + WAIT
            while (count := await store.streams.count(ALICE, ref))[0] != left:
                assert time.monotonic() < deadline, count
                await asyncio.sleep(0.5)
        finally:
            for s in streams:
                s.close()
            await store.close()
