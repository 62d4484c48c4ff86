"""Storage figures: update latency (p50/p95/p99) and bytes per match record.

    python -m bench.storage_bench                  # a temporary redis-server + memory://
    python -m bench.storage_bench --url redis://…  # an existing server (keys under "bench")
    python -m bench.storage_bench --quick          # fewer rounds

Latency is the whole ``store.matches.update`` call as the bot makes it (read, JSON decode, the
update function, JSON encode, compare-and-set write with its indexes), on a record the size
of a late Dots game, against a baseline in the same run: the same read and write as plain
HGET + HSET without compare-and-set or indexes. Shapes: one writer after another; 8 writers
on one match in one process (taps on one board: they queue locally); the same 8 spread over
4 connections as if 4 replicas (they race; "runs/update" counts the retries); 64 writers on
64 matches (many boards at once, with throughput).

Bytes per match: the JSON size, ``MEMORY USAGE`` of the match key, and Redis' ``used_memory``
growth per match over 500 matches (record plus chat index entries and allocator overhead).
Records come from the engines' ``engine.new(...).to_json()`` for Dots 38×31 late game, Boxes
5×5 and Sprouts 8 when those engines are registered (random legal play to a late position);
a synthetic record of the same shape stands in while an engine has not landed.

Timings on a shared 2-core machine are noisy: compare figures from one run, repeat to trust.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import random
import statistics
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import Any

import storage
from storage import Config
from tests.fixtures.redis import temporary_server

# (kind, label, option sets to try in order, plies to play): the reference records.
ENGINE_SAMPLES: list[tuple[str, str, list[dict[str, Any]], int]] = [
    ("dots", "Dots 38×31 late game", [{"preset": "tournament"}, {"width": 38, "height": 31}], 600),
    ("boxes", "Boxes 5×5 late game", [{"width": 5, "height": 5}, {"rows": 5, "cols": 5}], 55),
    ("sprouts", "Sprouts 8 late game", [{"spots": 8}, {"n": 8}], 18),
]


def match_record(match_id: str, game: dict[str, Any], chats: list[int]) -> dict[str, Any]:
    """A match as the bot will store it: the engine record plus seats, places, clocks."""
    return {
        "id": match_id,
        "v": 1,
        "status": "active",
        "version": 0,
        "chats": chats,
        "kind": game.get("kind"),
        "game": game,
        "seats": [{"user": 100000001, "name": "Аня"}, {"user": 100000002, "name": "Boris"}],
        "places": [{"chat": c, "message": 4242} for c in chats],
        "cursors": {"100000001": [12, 9]},
        "clock": {"left": [287.5, 301.0], "since": 1_767_000_000.0},
        "created": 1_767_000_000.0,
        "updated": 1_767_000_600.0,
    }


def synthetic_dots_game(plies: int = 600, seed: int = 1) -> dict[str, Any]:
    """Stand-in for a Dots 38×31 record: the options and a move list of [x, y] pairs."""
    rng = random.Random(seed)
    points = rng.sample([(x, y) for x in range(38) for y in range(31)], plies)
    return {
        "kind": "dots",
        "v": 1,
        "options": {"width": 38, "height": 31, "start": "zone"},
        "moves": [list(p) for p in points],
        "result": None,
    }


def engine_games() -> Iterator[tuple[str, dict[str, Any] | None, str]]:
    """(label, engine record or None, how it was made / why not) for each reference game."""
    try:
        import engine
    except ImportError as e:  # pragma: no cover - the engine package is always there
        for _, label, _, _ in ENGINE_SAMPLES:
            yield label, None, f"engine not importable: {e}"
        return
    for kind, label, option_sets, plies in ENGINE_SAMPLES:
        if kind not in engine.GAMES:
            yield label, None, f"engine {kind!r} is not registered yet"
            continue
        errors = []
        for options in option_sets:
            try:
                g = engine.new(kind, **dict(options))
            except engine.BadOptions as e:
                errors.append(f"{options}: {e}")
                continue
            engine.random_playout(g, random.Random(7), max_moves=plies)
            yield label, g.to_json(), f"engine.new({kind!r}, {options}), {g.ply} plies"
            break
        else:
            yield label, None, "no option set accepted: " + "; ".join(errors)


def percentiles(samples: list[float]) -> str:
    qs = statistics.quantiles(samples, n=100, method="inclusive")
    ms = [q * 1000 for q in (qs[49], qs[94], qs[98])]
    return f"p50 {ms[0]:6.3f} ms  p95 {ms[1]:6.3f} ms  p99 {ms[2]:6.3f} ms"


async def timed(n: int, call: Callable[[], Awaitable[Any]]) -> list[float]:
    out = []
    for _ in range(n):
        t = time.perf_counter()
        await call()
        out.append(time.perf_counter() - t)
    return out


async def latency(
    store: storage.Store, replicas: list[storage.Store], game: dict[str, Any], rounds: int
) -> dict[str, str]:
    calls = 0

    def tap(r: dict[str, Any]) -> dict[str, Any]:
        nonlocal calls
        calls += 1
        r["version"] += 1
        r["cursors"]["100000001"] = [r["version"] % 38, 9]
        return r

    results = {}
    one = match_record(storage.new_match_id(), game, [-1001])
    await store.matches.create(one)
    key = store.keys.match(one["id"])

    async def plain() -> None:
        """Baseline: the same read and write without compare-and-set or indexes."""
        raw = await store.client.hget(key, "d")
        assert raw is not None
        r = tap(storage._base.loads(key, raw))
        await store.client.hset(key, "d", storage._base.dumps(r))

    await timed(50, plain)  # warm up
    base = await timed(rounds, plain)
    await timed(50, lambda: store.matches.update(one["id"], tap))
    samples = await timed(rounds, lambda: store.matches.update(one["id"], tap))
    ratio = statistics.median(samples) / statistics.median(base)
    results["baseline HGET+HSET"] = percentiles(base)
    results["1 writer"] = f"{percentiles(samples)}  (p50 {ratio:.2f}× baseline)"

    for label, stores in (("8 on 1 match", [store] * 8), ("8 on 1 match, 4 stores", replicas * 2)):
        calls = 0
        per = max(1, rounds // 8)
        groups = await asyncio.gather(
            *(timed(per, functools.partial(s.matches.update, one["id"], tap)) for s in stores)
        )
        samples = [s for g in groups for s in g]
        results[label] = f"{percentiles(samples)}  ({calls / len(samples):.2f} runs/update)"

    many = [match_record(storage.new_match_id(), game, [-2000 - i]) for i in range(64)]
    for r in many:
        await store.matches.create(r)
    # warm up: open the pool's connections before timing
    await asyncio.gather(*(store.matches.update(r["id"], tap) for r in many))
    per = max(4, rounds // 64)
    started = time.perf_counter()
    groups = await asyncio.gather(
        *(timed(per, functools.partial(store.matches.update, r["id"], tap)) for r in many)
    )
    elapsed = time.perf_counter() - started
    samples = [s for g in groups for s in g]
    rate = len(samples) / elapsed
    results["64 on 64 matches"] = f"{percentiles(samples)}  ({rate:,.0f} updates/s)"
    return results


async def memory_figures(store: storage.Store, game: dict[str, Any]) -> str:
    f = await memory_bytes(store, game)
    if "redis per match" not in f:
        return f"JSON {f['json']:6.0f} B"
    return (
        f"JSON {f['json']:6.0f} B  key {f['key']:6.0f} B  "
        f"Redis per match {f['redis per match']:8.0f} B"
    )


async def memory_bytes(store: storage.Store, game: dict[str, Any]) -> dict[str, float]:
    """JSON bytes of a match record; on Redis also ``MEMORY USAGE`` of its key and the growth
    of ``used_memory`` per match over 500 matches."""
    record = match_record("probe001", game, [-1001, 100000001])
    json_bytes = len(storage._base.dumps(record))
    if store.backend != "redis":
        return {"json": json_bytes}
    await store.matches.create(record)
    key_bytes = await store.client.memory_usage(store.keys.match("probe001"), samples=0)
    await store.matches.delete("probe001")
    before = (await store.client.info("memory"))["used_memory"]
    n = 500
    ids = [f"mem{i:05d}" for i in range(n)]
    for i, match_id in enumerate(ids):
        await store.matches.create({**record, "id": match_id, "chats": [-5000 - i % 50]})
    after = (await store.client.info("memory"))["used_memory"]
    for match_id in ids:
        await store.matches.delete(match_id)
    per_match = (after - before) / n
    return {"json": json_bytes, "key": key_bytes or 0, "redis per match": per_match}


async def run(url: str | None, rounds: int) -> None:
    games = list(engine_games())
    print("Records:")
    for label, game, how in games:
        print(f"  {label:22s} {'engine' if game else 'n/a   '}  {how}")
    samples = [(label, game) for label, game, _ in games if game is not None]
    samples.append(("synthetic Dots 38×31", synthetic_dots_game()))
    dots = next(g for label, g in samples if "Dots" in label)

    with contextmanager(lambda: iter([url]))() if url else temporary_server() as real_url:
        for backend_url in (real_url, "memory://"):
            config = Config(prefix="bench")
            if backend_url == "memory://":
                backend_url = "memory://storage-bench"  # shared by the "replicas" below
            async with await storage.connect(backend_url, config=config) as store:
                replicas = [await storage.connect(backend_url, config=config) for _ in range(4)]
                print(f"\n{store.backend} ({store.url}), {rounds} updates per shape:")
                for shape, line in (await latency(store, replicas, dots, rounds)).items():
                    print(f"  {shape:22s} {line}")
                for r in replicas:
                    await r.close()
                print("  bytes per match:")
                for label, game in samples:
                    print(f"    {label:22s} {await memory_figures(store, game)}")
                if store.backend == "redis":
                    await _drop(store)


async def _drop(store: storage.Store) -> None:
    keys = [k async for k in store.client.scan_iter(match=f"{store.keys.prefix}:*")]
    if keys:
        await store.client.delete(*keys)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", help="an existing Redis (default: start a temporary one)")
    parser.add_argument("--rounds", type=int, default=3000, help="updates per shape")
    parser.add_argument("--quick", action="store_true", help="300 updates per shape")
    args = parser.parse_args()
    asyncio.run(run(args.url, 300 if args.quick else args.rounds))


if __name__ == "__main__":
    main()
