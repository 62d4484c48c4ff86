"""Load: many matches at once on several webhook replicas sharing one Redis, with racing taps
from both players and spectators, and some updates delivered to two replicas at once.

Afterwards every stored record replays exactly, every acknowledged tap is its move in the
record, every move by a person comes from exactly one acknowledged tap, spectators moved
nothing, and no replica logged an error. Short form: 20 matches on 2 replicas; full form
(``TETRAD_FULL=1``): 200 matches on 3 replicas.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter
from pathlib import Path

import storage
from playground.server import Emulator
from tests.reliability.checks import verify
from tests.reliability.cluster import Cluster
from tests.reliability.conftest import scale
from tests.reliability.games import make_matches, play
from tests.reliability.people import ObservedWorld


async def test_concurrent_matches_on_replicas(
    emu: Emulator, world: ObservedWorld, redis_url: str, tmp_path: Path
) -> None:
    n, rounds, replicas = scale(20, 200), scale(8, 24), scale(2, 3)
    started = time.monotonic()
    async with Cluster(emu, redis_url, tmp_path, replicas, duplicate_every=7) as cluster:
        boards = await make_matches(world, n, "ld")
        made = time.monotonic()
        played = await asyncio.gather(
            *(play(b, rounds, random.Random(i)) for i, b in enumerate(boards))
        )
        for b in boards:
            await b.collect_popups()
        errors = await cluster.metric("tetrad_handler_errors_total")
        async with await storage.connect(redis_url) as store:
            verdicts = [verify(await store.matches.get(b.id), b) for b in boards]
        sent, duplicates = cluster.proxy.sent, cluster.proxy.duplicates
    logs = cluster.logs()
    taps = sum(len(b.taps) for b in boards)
    print(
        f"\nload: {n} matches ({Counter(v.kind for v in verdicts)}), {replicas} replicas, "
        f"{sum(played)} rounds, {taps} taps, {sum(v.accepted for v in verdicts)} moves by "
        f"people, {sum(v.refused for v in verdicts)} taps refused, "
        f"{sum(v.status == 'finished' for v in verdicts)} matches finished; updates per "
        f"replica {sent}, {duplicates} delivered twice; setup {made - started:.0f} s, "
        f"play {time.monotonic() - made:.0f} s"
    )
    assert errors == 0
    assert all(v.unanswered == 0 for v in verdicts)
    assert all(s > 0 for s in sent), sent
    assert " ERROR " not in logs and "Traceback" not in logs, logs[-4000:]
