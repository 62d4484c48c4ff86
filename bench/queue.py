"""AI moves per second thought by the bot's own pool and by `tetrad worker`s on the job queue
(WORKERS=queue), the queue's own cost per move, and the bot's CPU per move:
``python -m bench.queue [--moves N] [--workers 1,2,4]``.

Two loads, on a temporary redis-server, each asked by as many games at once as there are
processes thinking:
"search": a Точки position where the hard level thinks its whole (scaled) time, so moves/s
shows how the thinking scales with the processes (on a 2-core machine two is the ceiling,
and the bench itself and Redis share those cores); "quick": a Boxes 3×3 move that takes
well under a millisecond, so its round trip is the queue's overhead. Prints moves/s, the
round trip beyond the think (p50/p99: enqueue → start → finish → answer read); for the
queue, enqueue → a worker starting the move and the worker finishing it → the bot holding
the answer, ready to apply (p50/p99, saq's own time stamps); and the bot's CPU per move:
this process's CPU time over the run divided by its moves (the pool's processes run on the
bot's machine, the queue's workers need not), beside the thinking processes' CPU per move
and the cores they kept busy (moves/s × CPU per move). The hard level thinks for a time, not
an amount of work: more workers than cores each get a share of a core for that time, so
moves/s grows past the cores while each move's search shrinks; the cores column shows the
ceiling. The
pool and each worker count run one after the other in one run (paired), with the load
average printed beside them: the machine may be shared.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import subprocess
import sys
import time
from typing import Any

import engine
from bench.quantiles import nearest
from bot.telegram.ai_pool import AIPool
from bot.telegram.jobs import QueueThinker, Thinker, think_queue
from tests.fixtures.redis import temporary_server
from tests.reliability.cluster import process_cpu

SCALE = 0.1  # the hard level's 1.8 s becomes 0.18 s a move


def search_position() -> dict[str, Any]:
    """A Точки position where the hard level thinks its whole time: past the opening book, a
    dozen random moves in (tests/reliability/test_queue kills a worker mid-think there)."""
    game = engine.new("dots")
    rng = random.Random(4)
    for _ in range(12):
        legal = game.legal_moves()
        game.play(legal[rng.randrange(len(legal))])
    return dict(game.to_json())


LOADS = {
    "search": (search_position, "hard"),
    "quick": (lambda: dict(engine.new("boxes", rows=3, cols=3).to_json()), "easy"),
}


async def measure(
    thinker: Thinker, load: str, moves: int, callers: int
) -> tuple[float, list[float]]:
    """Moves per second over ``moves`` moves asked by ``callers`` games at once (one per
    process: each move's time beyond its think is then the overhead, not a wait in line)."""
    make, level = LOADS[load]
    state = make()
    left = list(range(moves))
    extra: list[float] = []

    async def caller() -> None:
        while left:
            seed = left.pop()
            started = time.perf_counter()
            _move, spent = await thinker.choose(state, level, seed)
            extra.append(time.perf_counter() - started - spent)

    started = time.perf_counter()
    await asyncio.gather(*(caller() for _ in range(callers)))
    return moves / (time.perf_counter() - started), extra


def ms(xs: list[float]) -> str:
    if not xs:
        return "-"
    return f"{nearest(xs, 0.5) * 1000:.1f} / {nearest(xs, 0.99) * 1000:.1f} ms"


async def workers_ready(url: str, n: int) -> None:
    queue = think_queue(url)
    await queue.connect()
    try:
        deadline = time.monotonic() + 120
        while len((await queue.info())["workers"]) < n:
            if time.monotonic() > deadline:
                raise SystemExit(f"{n} workers not ready in 120 s")
            await asyncio.sleep(0.1)
    finally:
        await queue.disconnect()


def load_average() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def cpu_of(pids: list[int]) -> float:
    """CPU seconds of the processes ``pids`` (a pool's, or the workers')."""
    return sum(process_cpu(p) for p in pids)


async def row(
    name: str, thinker: Thinker, load: str, moves: int, callers: int, thinkers: list[int]
) -> None:
    """One line of the table: ``moves`` moves of ``load`` asked by ``callers`` games;
    ``thinkers``: the processes that think them (the pool's, or the workers)."""
    queue = thinker if isinstance(thinker, QueueThinker) else None
    if queue is not None:
        queue.start_delays.clear()
        queue.finish_delays.clear()
    own, cpu = time.process_time(), cpu_of(thinkers)
    rate, extra = await measure(thinker, load, moves, callers)
    own_per_move = (time.process_time() - own) / moves * 1000
    think_per_move = (cpu_of(thinkers) - cpu) / moves * 1000
    starts = ms(list(queue.start_delays)) if queue else "-"
    finishes = ms(list(queue.finish_delays)) if queue else "-"
    print(
        f"| {name} | {load} | {rate:.1f} | {ms(extra)} | {starts} | {finishes} | "
        f"{own_per_move:.2f} | {think_per_move:.1f} | {rate * think_per_move / 1000:.2f} | "
        f"{load_average()} |"
    )


async def main(moves: int, counts: list[int]) -> None:
    engine.warm_ai("dots")  # compiled once here, loaded by the pool and the workers
    print(f"{moves} moves a load, AI_TIME_SCALE {SCALE}, {os.cpu_count()} cores")
    print(
        "| thinker | load | moves/s | beyond the think p50 / p99 | enqueue → start p50 / p99 "
        "| finish → answer p50 / p99 | bot process CPU ms / move | thinking CPU ms / move "
        "| cores thinking | load average |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    pool = AIPool(workers=2, time_scale=SCALE)
    await pool.warm(120)
    try:
        for load in LOADS:
            await row("pool, 2 processes", pool, load, moves, 2, pool.processes())
        with temporary_server() as url:
            workers: list[subprocess.Popen[bytes]] = []
            env = dict(os.environ, REDIS_URL=url, WARM_WORKERS="1")
            cmd = [sys.executable, "-c", "import sys; from bot.cli import main; sys.exit(main())"]
            try:
                for n in counts:
                    while len(workers) < n:
                        workers.append(subprocess.Popen([*cmd, "worker"], env=env))
                    await workers_ready(url, n)
                    thinker = await QueueThinker.connect(url, pool)
                    name = f"queue, {n} worker{'s' if n > 1 else ''}"
                    try:
                        for load in LOADS:
                            await row(name, thinker, load, moves, n, [w.pid for w in workers])
                    finally:
                        await thinker.close()
            finally:
                for w in workers:
                    w.terminate()
                for w in workers:
                    w.wait(10)
    finally:
        pool.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--workers", default="1,2,4", help="worker counts, in order")
    args = parser.parse_args()
    asyncio.run(main(args.moves, [int(n) for n in args.workers.split(",")]))
