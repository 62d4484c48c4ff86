"""Bad input: fuzzed updates posted to a replica's webhook (the bot's real parsing path: the
secret check, JSON, ``Update.de_json``, the handlers), while people play normally.

Zero unhandled exceptions (no handler error counted, no ERROR line or traceback in the log,
no 5xx answer), zero changes to the matches the fuzz aims at, and the normal players' moves
are accepted and shown during and after. Short form: a few thousand updates; full form
(``TETRAD_FULL=1``): 100,000.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections import Counter
from pathlib import Path
from typing import Any

import aiohttp

import storage
from playground.server import Emulator
from tests.reliability.cluster import HOOK_PATH, SECRET, SECRET_HEADER, Cluster
from tests.reliability.conftest import scale
from tests.reliability.fuzz import Fuzzer, Target
from tests.reliability.games import make_matches
from tests.reliability.people import Board, ObservedWorld, version

WORKERS = 16


async def test_fuzzed_updates_change_nothing(
    emu: Emulator, world: ObservedWorld, redis_url: str, tmp_path: Path
) -> None:
    total = scale(4000, 100_000)
    async with Cluster(emu, redis_url, tmp_path, 1) as cluster:
        bot = cluster.bots[0]
        aimed = await make_matches(world, 6, "fz")
        live = await make_matches(world, 2, "nt")
        normal = [b.id for b in live]
        targets = [
            Target(
                b.id,
                int(version(b.view(s)) or 0),
                world.chat_api(s.chat),
                s.msg,
                {x.user.id for x in b.seats},
            )
            for b in aimed
            for s in b.seats
        ]
        async with await storage.connect(redis_url) as store:
            before = {b.id: await store.matches.get(b.id) for b in aimed}
            keys_before = {k async for k in store.client.scan_iter(match="t:m:*")}
        fuzzer = Fuzzer(random.Random(13), targets, world.bot_username)
        statuses: Counter[int] = Counter()
        sent = 0
        done = asyncio.Event()

        async def worker(http: aiohttp.ClientSession) -> None:
            nonlocal sent
            while sent < total:
                sent += 1
                update = fuzzer.update()
                body = update if isinstance(update, bytes) else json.dumps(update).encode()
                async with http.post(
                    bot.url + HOOK_PATH,
                    data=body,
                    headers={SECRET_HEADER: SECRET, "Content-Type": "application/json"},
                ) as r:
                    statuses[r.status] += 1

        async def normal_traffic() -> int:
            rng, moves = random.Random(3), 0
            while not done.is_set():
                for i, b in enumerate(live):
                    if await b.step(rng, timeout=45) is not None:
                        moves += 1
                    elif not done.is_set():  # that game is over: its people start another
                        (live[i],) = await make_matches(world, 1, f"nt{moves}")
                        normal.append(live[i].id)
                await asyncio.sleep(0.2)
            return moves

        started = time.monotonic()
        players = asyncio.ensure_future(normal_traffic())
        async with aiohttp.ClientSession() as http:
            await asyncio.gather(*(worker(http) for _ in range(WORKERS)))
        fuzz_seconds = time.monotonic() - started
        done.set()
        during = await players
        fresh = await make_matches(world, 3, "af")  # one of each game
        normal += [b.id for b in fresh]
        after = sum([await play_moves(b, 3) for b in fresh])

        errors = await cluster.metric("tetrad_handler_errors_total")
        updates = await cluster.metric("tetrad_updates_total")
        async with await storage.connect(redis_url) as store:
            after_records = {i: await store.matches.get(i) for i in before}
            changed = [_diff(before[i], after_records[i]) for i in before]
            # The clock's reminder to a player who has not moved for minutes is no input's doing
            changed = [[x for x in d if not x.startswith(".x.pinged:")] for d in changed]
            changed = [d for d in changed if d]
            keys_after = {k async for k in store.client.scan_iter(match="t:m:*")}
    logs = cluster.logs()
    played = tuple(f"t:m:{{{i}}}".encode() for i in normal)  # the normal players' matches
    new_keys = {k for k in keys_after - keys_before if not k.startswith(played)}
    print(
        f"\nfuzz: {sent} updates in {fuzz_seconds:.0f} s ({sent / fuzz_seconds:.0f}/s), kinds "
        f"{dict(fuzzer.kinds)}, answers {dict(statuses)}, {updates:.0f} reached the handlers; "
        f"normal moves during {during}, after {after}"
    )
    assert errors == 0
    assert not [line for line in logs.splitlines() if " ERROR " in line], logs[-5000:]
    assert "Traceback" not in logs, logs[-5000:]
    assert not [s for s in statuses if s >= 500], statuses
    assert changed == [], changed
    assert not new_keys, new_keys
    assert during > 0 and after == 9


async def play_moves(board: Board, n: int) -> int:
    rng, made = random.Random(9), 0
    for _ in range(n):
        if await board.step(rng, timeout=45) is None:
            break
        made += 1
    return made


def _diff(a: Any, b: Any, path: str = "") -> list[str]:
    """Where two stored records differ (paths and values), for a readable failure."""
    if isinstance(a, dict) and isinstance(b, dict):
        out: list[str] = []
        for k in sorted(set(a) | set(b), key=str):
            out += _diff(a.get(k), b.get(k), f"{path}.{k}")
        return out
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [
            d
            for i, (x, y) in enumerate(zip(a, b, strict=True))
            for d in _diff(x, y, f"{path}[{i}]")
        ]
    return [] if a == b else [f"{path}: {a!r} -> {b!r}"[:300]]
