"""Work done exactly once when the CPU is short (#28): every AI move is thought once.

Two webhook replicas share one Redis; a share of the updates is delivered to both at once (a
late reply redelivered); and the test loads the CPU itself with two busy processes for its
own duration (bounded: each ends itself after ``BURN_LIMIT`` seconds, and is killed by its
pid when the test ends). Games against the bot at every level are played to the end with
racing taps. A think that outlives its lease would be taken over by the other replica (a
second think of the same move), and a superseded thinker that thought again would be a third:
afterwards the AI think count of both replicas together equals the AI moves in the records.
Short form: 20 matches; full form (``TETRAD_FULL=1``): 60.
"""

from __future__ import annotations

import asyncio
import os
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import storage
from playground.server import Emulator
from tests.reliability.checks import replay, verify
from tests.reliability.cluster import Cluster
from tests.reliability.conftest import scale
from tests.reliability.people import ObservedWorld, ai_match

BURN_LIMIT = 600  # seconds a CPU burner runs at most, should the test die without ending it
LEVELS = ("e", "m", "h")


@contextmanager
def cpu_burners(n: int = 2) -> Iterator[list[int]]:
    """``n`` processes spinning on the CPU while the block runs; their pids."""
    code = f"import time\nend = time.monotonic() + {BURN_LIMIT}\nwhile time.monotonic() < end: pass"
    procs = [subprocess.Popen([sys.executable, "-c", code]) for _ in range(n)]
    try:
        yield [p.pid for p in procs]
    finally:
        for p in procs:
            p.kill()
        for p in procs:
            p.wait()


async def test_ai_thinks_once_per_move_on_a_loaded_machine(
    emu: Emulator, world: ObservedWorld, redis_url: str, tmp_path: Path
) -> None:
    n = scale(20, 60)
    started = time.monotonic()
    with cpu_burners(int(os.environ.get("BURNERS", "2"))):
        async with Cluster(emu, redis_url, tmp_path, 2, duplicate_every=5) as cluster:
            gate = asyncio.Semaphore(8)

            async def make(i: int):  # type: ignore[no-untyped-def]
                async with gate:
                    user = world.add_user(f"wo{i}")
                    return await ai_match(world, "boxes", f"b.3.2.a{LEVELS[i % 3]}", user)

            boards = await asyncio.gather(*(make(i) for i in range(n)))

            async def to_end(i: int) -> None:
                rng = random.Random(i)
                while await boards[i].race(rng, timeout=120, patience=10):
                    pass

            await asyncio.gather(*(to_end(i) for i in range(n)))
            for b in boards:
                await b.collect_popups()
            thinks = await cluster.metric("tetrad_ai_think_seconds_count")
            async with await storage.connect(redis_url) as store:
                records = [await store.matches.get(b.id) for b in boards]
            sent = cluster.proxy.sent
    logs = cluster.logs()
    ai_moves = 0
    for record, board in zip(records, boards, strict=True):
        verify(record, board)
        assert record is not None and record["status"] == "finished", board.id
        _, movers = replay(record)
        ai_seat = next(i for i, s in enumerate(record["seats"]) if s.get("ai"))
        ai_moves += movers.count(ai_seat)
    print(
        f"\nwork once: {n} matches vs the bot on 2 replicas with 2 CPU burners: {ai_moves} AI "
        f"moves, {thinks:.0f} thinks; updates per replica {sent}, "
        f"{cluster.proxy.duplicates} delivered twice; {time.monotonic() - started:.0f} s"
    )
    assert ai_moves > n
    assert thinks == ai_moves
    assert cluster.proxy.duplicates > 0
    assert " ERROR " not in logs and "Traceback" not in logs, logs[-4000:]
