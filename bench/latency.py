"""Tap-to-edit latency and throughput of one bot process, through the playground.

    python -m bench.latency [--quick] [--games dots,boxes] [--concurrency 1,50,200]

The bot runs as its own OS process (``python -m bot run`` in webhook mode, as deployed)
against the emulator and a real redis-server (temporary, AOF on); the emulator and the
simulated people run in this process and act on the emulator's world directly, so the bot's
CPU time can be read apart from theirs. Flood limits are OFF in the emulator and the bot's own
pacing is lifted (GROUP_EDITS_PER_MINUTE=60000, MESSAGES_PER_SECOND=10000): these runs measure
the process, not Telegram's limits.

What is measured, on group matches of two people (no AI):

* **1 match, sequential taps** — the player to move taps a legal move, the next tap waits
  for the edited board. Every tap counts, Рассада's two spot selections before a curve
  included. Wall time: the update queued → the board edited (its buttons or its version).
  Bot CPU per tap: the process's CPU time (all threads, ``/proc/<pid>/task/*/schedstat``,
  nanoseconds) from just before the tap until the bot is idle again, minus the idle rate
  measured before (the deadline watch polls Redis once a second). This counts everything the
  tap costs: parsing, Redis, the engine, the picture, the upload, the answer.
* **50 and 200 matches at once** — every player thinks a random 3–9 s (``--think``) before
  each move. Wall time per tap as above; bot CPU per tap as the process's CPU over the run
  divided by the taps, and its distribution from the bot's own metric
  ``tetrad_handler_cpu_seconds{handler="callback"}`` (thread CPU of each update's handler,
  timed step by step so concurrent updates are not charged for each other; quantiles are
  interpolated within the histogram's buckets, which sit on the targets).
* **Throughput without pictures** — Dots 38×31 boards whose players move the keyboard window
  back and forth (◀ ▶, a keyboard-only edit) as fast as the bot answers, with ``--tappers``
  of them at once: taps per second achieved, bot CPU per tap, and the capacity that implies
  for one process (taps per CPU-second, i.e. at one fully used core).

Targets: median bot CPU per non-AI tap (with the picture) ≤ 15 ms for Boxes and Sprouts,
≤ 25 ms for Dots 38×31, p99 ≤ 40 ms; ≥ 200 keyboard-only taps/s per process. On a shared
2-core machine the bot, the emulator and the people compete for the cores: wall times include
that wait; CPU times do not.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import engine
from playground.server import Emulator
from tests.fixtures.redis import temporary_server
from tests.reliability.cluster import BotProcess, bot_env, free_port, histogram, process_cpu
from tests.reliability.people import (
    Board,
    ObservedWorld,
    Seat,
    changed_from,
    finished,
    group_match,
    mentioned,
    observed_emulator,
    other_buttons,
    selections,
    version,
    with_op,
)

# (kind, label, /new menu path of a lobby for two people, CPU target for the median in ms)
GAMES = {
    "dots": ("Dots 38×31", "d.t.-", 25.0),
    "boxes": ("Boxes 5×5", "b.5.2", 15.0),
    "sprouts": ("Sprouts 8", "s.8.-", 15.0),
}
P99_TARGET_MS = 40.0
THROUGHPUT_TARGET = 200.0
CPU_METRIC = "tetrad_handler_cpu_seconds"


@dataclass
class Run:
    """Figures of one scenario."""

    name: str
    game: str
    matches: int
    taps: int
    seconds: float
    wall_ms: list[float] = field(default_factory=list)
    cpu_ms: list[float] = field(default_factory=list)  # per tap, when measured one by one
    proc_cpu_s: float = 0.0  # the bot's CPU over the run (idle rate removed)
    handler_cpu: list[tuple[float, float]] = field(default_factory=list)  # histogram delta
    handler_cpu_sum: float = 0.0
    load_cpu_s: float = 0.0  # this process (emulator + people) over the run
    workers_cpu_s: float = 0.0  # the bot's worker processes (AI, replays, Рассада's curves)
    ended: int = 0  # games that ended (each one's replay is drawn by a worker)
    target_ms: float | None = None
    offered: float | None = None  # taps/s the people meant to make
    failure: str | None = None  # the process did not keep up: what the people saw

    @property
    def rate(self) -> float:
        return self.taps / self.seconds if self.seconds else 0.0

    @property
    def cpu_per_tap_ms(self) -> float:
        return 1000 * self.proc_cpu_s / self.taps if self.taps else 0.0

    def cpu_quantile(self, q: float) -> float | None:
        """Per-tap CPU quantile in ms: exact from one-by-one taps; with many taps at once, the
        handler histogram's quantile plus the mean CPU a tap costs outside its handler (the
        webhook request, parsing the update: the process mean minus the handlers' mean)."""
        if self.cpu_ms:
            return quantile(self.cpu_ms, q)
        if not self.handler_cpu or not self.taps:
            return None
        outside = max(0.0, self.cpu_per_tap_ms - 1000 * self.handler_cpu_sum / self.taps)
        return 1000 * bucket_quantile(self.handler_cpu, q) + outside

    def row(self) -> dict[str, Any]:
        return {
            "scenario": self.name,
            "game": self.game,
            "matches": self.matches,
            "taps": self.taps,
            "taps/s": self.rate,
            "wall p50": quantile(self.wall_ms, 0.5) if self.wall_ms else None,
            "wall p95": quantile(self.wall_ms, 0.95) if self.wall_ms else None,
            "wall p99": quantile(self.wall_ms, 0.99) if self.wall_ms else None,
            "cpu p50": self.cpu_quantile(0.5),
            "cpu p95": self.cpu_quantile(0.95),
            "cpu p99": self.cpu_quantile(0.99),
            "cpu mean": self.cpu_per_tap_ms,
            "handler cpu mean": (
                1000 * self.handler_cpu_sum / self.taps if self.handler_cpu_sum else None
            ),
            "bot cores": self.proc_cpu_s / self.seconds if self.seconds else 0.0,
            "load cores": self.load_cpu_s / self.seconds if self.seconds else 0.0,
            "workers cpu s": self.workers_cpu_s,
            "workers cpu per tap": 1000 * self.workers_cpu_s / self.taps if self.taps else None,
            "ended": self.ended,
            "target": self.target_ms,
            "offered": self.offered,
        }


def quantile(xs: list[float], q: float) -> float:
    s = sorted(xs)
    if len(s) == 1:
        return s[0]
    pos = q * (len(s) - 1)
    lo = int(pos)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (pos - lo)


def bucket_quantile(buckets: list[tuple[float, float]], q: float) -> float:
    """A quantile from cumulative (upper bound, count) pairs, linear within a bucket."""
    total = buckets[-1][1] if buckets else 0
    if not total:
        return 0.0
    want = q * total
    lower, below = 0.0, 0.0
    for upper, count in buckets:
        if count >= want:
            if upper == float("inf"):
                return lower
            inside = count - below
            return lower + (upper - lower) * ((want - below) / inside if inside else 1.0)
        lower, below = upper, count
    return lower


def delta(after: list[tuple[float, float]], before: list[tuple[float, float]]):  # type: ignore[no-untyped-def]
    was = dict(before)
    return [(le, n - was.get(le, 0.0)) for le, n in after]


# -- the setting: redis, emulator, the bot process ----------------------------------------------


class Stage:
    """The emulator (this process), one bot process, and its idle CPU rate."""

    def __init__(self, emulator: Emulator, bot: BotProcess) -> None:
        self.emulator = emulator
        self.bot = bot
        self.idle_rate = 0.0
        world = emulator.world
        assert isinstance(world, ObservedWorld)
        self.world = world
        self._names = 0

    async def measure_idle(self, seconds: float = 3.0) -> None:
        c0, t0 = self.bot.cpu(), time.perf_counter()
        await asyncio.sleep(seconds)
        self.idle_rate = (self.bot.cpu() - c0) / (time.perf_counter() - t0)

    async def quiet(self, after: float = 0.03) -> None:
        """Until the bot has no Bot API call in flight and made none for ``after`` s."""
        world = self.world
        while True:
            if world.bot_inflight == 0 and time.monotonic() - world.bot_last_activity >= after:
                return
            await asyncio.sleep(0.005)

    def users(self, n: int) -> list[Any]:
        out = []
        for _ in range(n):
            self._names += 1
            out.append(self.world.add_user(f"p{self._names}"))
        return out

    async def matches(self, kind: str, n: int) -> list[Board]:
        path = GAMES[kind][1]
        gate = asyncio.Semaphore(8)

        async def one(i: int) -> Board:
            async with gate:
                a, b = self.users(2)
                return await group_match(self.world, kind, path, [a, b], [], f"{kind} {i}")

        return list(await asyncio.gather(*(one(i) for i in range(n))))

    def forget_files(self) -> None:
        """The emulator keeps every upload; drop those of finished scenarios."""
        self.world.files.by_id.clear()
        self.world.files.by_path.clear()

    async def handler_cpu(self) -> tuple[list[tuple[float, float]], float]:
        from tests.reliability.cluster import metric_sum

        text = await self.bot.metrics()
        buckets = histogram(text, CPU_METRIC, handler="callback")
        total = metric_sum(text, CPU_METRIC + "_sum", handler="callback")
        return buckets, total


@contextlib.asynccontextmanager
async def stage(redis_url: str, log_dir: Path) -> AsyncIterator[Stage]:
    emulator = observed_emulator()
    await emulator.start()
    port = free_port()
    env = bot_env(
        emulator,
        redis_url,
        port=port,
        webhook_url=f"http://127.0.0.1:{port}/tg/hook",
        LOG_LEVEL="WARNING",
    )
    bot = BotProcess("bench-bot", env, log_dir / "bot.log")
    bot.start()
    try:
        await bot.wait_ready()
        yield Stage(emulator, bot)
    finally:
        bot.stop()
        await emulator.stop()


# -- the scenarios -----------------------------------------------------------------------------


def mover(board: Board) -> Seat | None:
    """The seat to move on a group board (None when over)."""
    view = board.main()
    if finished(view):
        return None
    ids = mentioned(view)
    return next((s for s in board.seats if ids and s.user.id == ids[0]), None)


OnTap = Callable[[float], Awaitable[None]]


async def tap_move(board: Board, rng: random.Random, on_tap: OnTap) -> bool:
    """The player to move makes a random move: selection steps first where the game has them
    (Рассада: a spot, then a spot), then the tap that plays — another one if the bot refuses
    it (a Dots first move outside the starting zone). Every tap counts: ``on_tap`` gets the
    seconds from it until the board showed its answer (or the refusal came). False when the
    match is over."""
    seat = mover(board)
    if seat is None:
        return False
    v = version(board.main())
    for _ in range(30):
        view = board.view(seat)
        if finished(view) or version(view) != v:
            return False
        plays = with_op(view, "p")
        options = plays or selections(view)
        if not options:
            raise AssertionError(f"nothing to tap in match {board.id}: {view.get('caption')}")
        r, c, _ = rng.choice(options)
        before = view["buttons"]
        tap = board.press(seat.user, seat, r, c)
        popup = await board.watch.popup(tap.query)
        if popup is None:
            raise AssertionError(f"no answer to a tap in match {board.id}")
        if popup["text"]:
            await on_tap(time.perf_counter() - tap.at)
            continue  # refused: try another

        seen = await board.watch.until(seat.key, changed_from(v, before))
        await on_tap(board.watch.changed_at[seat.key] - tap.at)
        if finished(seen) or version(seen) != v:
            return True
    raise AssertionError(f"no move made in match {board.id}")


async def sequential(st: Stage, kind: str, taps: int, rng: random.Random) -> Run:
    label, _, target = GAMES[kind]
    (board,) = await st.matches(kind, 1)
    await st.quiet(0.3)
    h0, s0 = await st.handler_cpu()
    run = Run("1 match, one tap at a time", label, 1, 0, 0.0, target_ms=target)
    started, load0 = time.perf_counter(), process_cpu(os.getpid())
    workers0 = st.bot.workers_cpu()
    mark = [st.bot.cpu(), time.perf_counter()]

    async def measured(wall: float) -> None:
        await st.quiet()
        now = time.perf_counter()
        spent = st.bot.cpu() - mark[0] - st.idle_rate * (now - mark[1])
        run.wall_ms.append(1000 * wall)
        run.cpu_ms.append(1000 * max(0.0, spent))
        run.taps += 1
        mark[:] = [st.bot.cpu(), time.perf_counter()]

    while run.taps < taps:
        if not await tap_move(board, rng, measured):  # the game ended: start another
            run.ended += 1
            (board,) = await st.matches(kind, 1)
            await st.quiet(0.3)
            mark[:] = [st.bot.cpu(), time.perf_counter()]
    run.seconds = time.perf_counter() - started
    run.load_cpu_s = process_cpu(os.getpid()) - load0
    run.proc_cpu_s = sum(run.cpu_ms) / 1000
    run.ended += finished(board.main())
    await st.quiet(0.5)  # the last replay
    run.workers_cpu_s = st.bot.workers_cpu() - workers0
    h1, s1 = await st.handler_cpu()
    run.handler_cpu, run.handler_cpu_sum = delta(h1, h0), s1 - s0
    return run


async def concurrent(
    st: Stage, kind: str, n: int, seconds: float, think: tuple[float, float], rng: random.Random
) -> Run:
    label, _, target = GAMES[kind]
    boards = await st.matches(kind, n)
    await st.quiet(0.5)
    run = Run(f"{n} matches at once", label, n, 0, 0.0, target_ms=target)
    run.offered = n * 2 / (think[0] + think[1])
    stop_at = time.perf_counter() + seconds
    h0, s0 = await st.handler_cpu()
    c0, load0, t0 = st.bot.cpu(), process_cpu(os.getpid()), time.perf_counter()
    workers0 = st.bot.workers_cpu()

    async def player(board: Board, seed: int) -> None:
        r = random.Random(seed)
        await asyncio.sleep(r.uniform(0, think[1]))  # people do not all start at once

        async def counted(wall: float) -> None:
            run.wall_ms.append(1000 * wall)
            run.taps += 1

        while time.perf_counter() < stop_at:
            if not await tap_move(board, r, counted):
                run.ended += 1
                return
            await asyncio.sleep(r.uniform(*think))

    results = await asyncio.gather(
        *(player(b, rng.randrange(1 << 30)) for b in boards), return_exceptions=True
    )
    failed = [e for e in results if isinstance(e, BaseException)]
    if failed:  # more taps than one process serves: some people waited in vain
        run.failure = f"{len(failed)} of {n} matches stalled ({failed[0]})"
    run.seconds = time.perf_counter() - t0
    await st.quiet()
    run.proc_cpu_s = st.bot.cpu() - c0 - st.idle_rate * (time.perf_counter() - t0)
    run.load_cpu_s = process_cpu(os.getpid()) - load0
    run.workers_cpu_s = st.bot.workers_cpu() - workers0
    h1, s1 = await st.handler_cpu()
    run.handler_cpu, run.handler_cpu_sum = delta(h1, h0), s1 - s0
    return run


async def throughput(st: Stage, tappers: int, seconds: float) -> Run:
    """Window steps (◀ ▶ on Dots 38×31: the keyboard and the framed picture) as fast as the bot
    answers them."""
    boards = await st.matches("dots", tappers)
    await st.quiet(0.5)
    run = Run(f"{tappers} people moving the window", "Dots 38×31 (framed picture)", tappers, 0, 0)
    run.target_ms = None
    stop_at = time.perf_counter() + seconds
    h0, s0 = await st.handler_cpu()
    c0, load0, t0 = st.bot.cpu(), process_cpu(os.getpid()), time.perf_counter()

    async def tapper(board: Board) -> None:
        seat = board.seats[0]
        arrows = {
            b["text"]: (r, c)
            for r, row in enumerate(board.view(seat)["buttons"])
            for c, b in enumerate(row)
        }
        steps = [arrows["▶"], arrows["◀"]]
        k = 0
        while time.perf_counter() < stop_at:
            before = board.view(seat)["buttons"]
            r, c = steps[k % 2]
            tap = board.press(seat.user, seat, r, c)

            await board.watch.until(seat.key, other_buttons(before))
            run.wall_ms.append(1000 * (board.watch.changed_at[seat.key] - tap.at))
            run.taps += 1
            k += 1

    await asyncio.gather(*(tapper(b) for b in boards))
    run.seconds = time.perf_counter() - t0
    await st.quiet()
    run.proc_cpu_s = st.bot.cpu() - c0 - st.idle_rate * (time.perf_counter() - t0)
    run.load_cpu_s = process_cpu(os.getpid()) - load0
    h1, s1 = await st.handler_cpu()
    run.handler_cpu, run.handler_cpu_sum = delta(h1, h0), s1 - s0
    return run


@dataclass
class Options:
    games: list[str]
    sequential_taps: int
    concurrency: list[int]
    seconds: float
    think: tuple[float, float]
    tappers: list[int]
    throughput_seconds: float


def options(quick: bool) -> Options:
    if quick:
        return Options(["dots", "boxes", "sprouts"], 40, [1, 50, 200], 20.0, (3.0, 9.0), [40], 10.0)
    return Options(
        ["dots", "boxes", "sprouts"], 150, [1, 50, 200], 60.0, (3.0, 9.0), [40, 100], 30.0
    )


async def measure(opts: Options, log: Any = print) -> list[Run]:
    """Every scenario; ``log`` gets a line per finished scenario."""
    runs: list[Run] = []
    games = [g for g in opts.games if g in engine.GAMES]
    for g in opts.games:
        if g not in engine.GAMES:
            log(f"note: {g} is not in engine.GAMES yet; no latency figures for it")
    rng = random.Random(1)
    with temporary_server() as redis_url, tempfile.TemporaryDirectory() as tmp:
        async with stage(redis_url, Path(tmp)) as st:
            await st.measure_idle()
            log(f"bot idle CPU {1000 * st.idle_rate:.2f} ms per second (subtracted)")
            for kind in games:
                for n in opts.concurrency:
                    if n == 1:
                        run = await sequential(st, kind, opts.sequential_taps, rng)
                    else:
                        run = await concurrent(st, kind, n, opts.seconds, opts.think, rng)
                    runs.append(run)
                    log(line(run))
                    st.forget_files()
            for tappers in opts.tappers:
                run = await throughput(st, tappers, opts.throughput_seconds)
                runs.append(run)
                log(line(run))
                st.forget_files()
            errors = st.bot.log_text().count(" ERROR ")
            if errors:
                log(f"WARNING: the bot logged {errors} errors:\n{st.bot.log_tail(30)}")
    return runs


def _ms(x: float | None) -> str:
    return "—" if x is None else f"{x:.1f}"


def line(run: Run) -> str:
    r = run.row()
    return (
        f"{run.game:24} {run.name:28} taps {run.taps:5} ({r['taps/s']:6.1f}/s)  wall p50/p95/p99 "
        f"{_ms(r['wall p50'])}/{_ms(r['wall p95'])}/{_ms(r['wall p99'])} ms  bot CPU p50/p95/p99 "
        f"{_ms(r['cpu p50'])}/{_ms(r['cpu p95'])}/{_ms(r['cpu p99'])} ms, mean "
        f"{_ms(r['cpu mean'])} (in handlers {_ms(r['handler cpu mean'])})  bot "
        f"{r['bot cores']:.2f} cores, people+emulator {r['load cores']:.2f}"
        + (
            f", workers {run.workers_cpu_s:.2f} s ({_ms(r['workers cpu per tap'])} ms per tap)"
            if run.workers_cpu_s >= 0.01
            else ""
        )
        + (f" ({run.ended} games ended)" if run.ended else "")
        + (f"  DID NOT KEEP UP: {run.failure}" if run.failure else "")
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="shorter runs")
    parser.add_argument("--games", help="comma-separated: dots,boxes,sprouts")
    parser.add_argument("--concurrency", help="comma-separated match counts, e.g. 1,50,200")
    parser.add_argument("--seconds", type=float, help="length of each concurrent run")
    parser.add_argument("--taps", type=int, help="taps of the sequential run")
    parser.add_argument("--tappers", help="comma-separated tapper counts for throughput")
    args = parser.parse_args(argv)
    opts = options(args.quick)
    if args.games:
        opts.games = args.games.split(",")
    if args.concurrency:
        opts.concurrency = [int(x) for x in args.concurrency.split(",")]
    if args.seconds:
        opts.seconds = args.seconds
    if args.taps:
        opts.sequential_taps = args.taps
    if args.tappers:
        opts.tappers = [int(x) for x in args.tappers.split(",")]
    runs = asyncio.run(measure(opts))
    for run in runs:
        if run.target_ms is not None:
            med, p99 = run.cpu_quantile(0.5), run.cpu_quantile(0.99)
            ok = med is not None and med <= run.target_ms and p99 is not None
            ok = ok and p99 <= P99_TARGET_MS  # type: ignore[operator]
            print(f"{run.game} / {run.name}: {'target met' if ok else 'target MISSED'}")
        else:
            ok = run.rate >= THROUGHPUT_TARGET
            capacity = 1000 / run.cpu_per_tap_ms if run.cpu_per_tap_ms else 0.0
            print(
                f"{run.name}: {run.rate:.0f} taps/s achieved, {capacity:.0f} taps per CPU-second "
                f"(target {THROUGHPUT_TARGET:.0f}/s: {'met' if ok else 'MISSED'})"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
