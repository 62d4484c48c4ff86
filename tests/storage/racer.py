"""A separate OS process (or thread) racing on shared matches; used by test_races.py.

``python -m tests.storage.racer URL TAG ROUNDS ID [ID...]`` waits until every racer is
connected (a counter under ``BARRIER``), appends ``TAG:i`` to the ``log`` of every listed
match ``ROUNDS`` times, and prints ``<updates made> <times the update function ran>``.
"""

from __future__ import annotations

import asyncio
import random
import sys
import time
from typing import Any

import storage

BARRIER = "test:racers"
RACERS = 2


async def race(url: str, tag: str, rounds: int, ids: list[str]) -> tuple[int, int]:
    done = calls = 0
    async with await storage.connect(url) as store:
        await store.client.incr(BARRIER)
        deadline = time.monotonic() + 30
        while int(await store.client.get(BARRIER) or 0) < RACERS:
            if time.monotonic() > deadline:
                raise TimeoutError("the other racer never showed up")
            await asyncio.sleep(0.005)
        for i in range(rounds):
            for match_id in ids:

                def add(r: dict[str, Any], mark: str = f"{tag}:{i}") -> dict[str, Any]:
                    nonlocal calls
                    calls += 1
                    # a real pause of random length between read and write releases the
                    # GIL and breaks lockstep, so two threads (or processes) interleave here
                    # instead of settling into taking turns
                    time.sleep(random.uniform(0, 0.002))
                    r["log"].append(mark)
                    return r

                await store.matches.update(match_id, add)
                done += 1
    return done, calls


def main(argv: list[str]) -> int:
    url, tag, rounds, *ids = argv
    done, calls = asyncio.run(race(url, tag, int(rounds), ids))
    print(done, calls)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
