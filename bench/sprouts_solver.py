"""Sprouts solver figures: ``python -m bench.sprouts_solver``.

Prints the shipped table's size, the outcome of the start for n = 1..13 (normal) and 1..8
(misère) with times, the time the AI needs per move (``winning_children``) along random
games, and the whole positions reachable from 5 spots. Each n gets a time budget; one that
runs out is reported as unfinished. Timings on a shared machine are noisy.
"""

from __future__ import annotations

import argparse
import random
import signal
import statistics
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from functools import partial
from typing import TypeVar

from engine.sprouts import solver, tables
from engine.sprouts.position import Position

NORMAL = "LLWWWLLLWWWLLLWWW"  # published first-player outcomes, n = 1..17
MISERE = "WLLLWWLLLWWWLLLWW"

T = TypeVar("T")


class OutOfTime(Exception):
    pass


@contextmanager
def budget(seconds: float) -> Iterator[None]:
    def expire(signum: int, frame: object) -> None:
        raise OutOfTime

    old = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def timed(fn: Callable[[], T], seconds: float) -> tuple[T | None, float]:
    t0 = time.perf_counter()
    try:
        with budget(seconds):
            return fn(), time.perf_counter() - t0
    except OutOfTime:
        return None, time.perf_counter() - t0


def table_size() -> None:
    size = tables.PATH.stat().st_size if tables.PATH.exists() else 0
    t0 = time.perf_counter()
    t = tables.load()
    load = time.perf_counter() - t0
    print(
        f"table {tables.PATH.name}: {size / 1024:.0f} KiB on disk, {len(t.nimbers)} land "
        f"nimbers (up to {t.spots} spots), {len(t.misere)} misère outcomes (up to "
        f"{t.misere_spots} spots), loaded in {load:.2f}s"
    )


def outcomes(
    variant: str, ns: Iterable[int], seconds: float = 1800
) -> Iterator[tuple[int, str, float]]:
    """(n, outcome, seconds) for each start: ``W``/``L`` for the first player, with the
    published outcome in brackets and MISMATCH when they differ; ``unfinished`` when the
    budget runs out."""
    misere = variant != "normal"
    oracle = MISERE if misere else NORMAL
    for n in ns:
        won, dt = timed(partial(solver.outcome, f"0*{n}", misere), seconds)
        if won is None:
            yield n, "unfinished", dt
            continue
        got = "W" if won else "L"
        yield n, f"{got} ({oracle[n - 1]})" + ("" if got == oracle[n - 1] else " MISMATCH"), dt


def starts(top: int, misere: bool, seconds: float, fresh: bool) -> None:
    name = "misère" if misere else "normal"
    print(f"\n{name}: n, outcome (published), seconds{' (fresh memo each n)' if fresh else ''}")
    for n in range(1, top + 1):
        if fresh:
            solver.SOLVER.clear()
        for _, outcome, dt in outcomes(name, [n], seconds):
            print(f"  {n:2d}  {outcome:16s}  {dt:8.2f}s")


def ai_moves(n: int, misere: bool, games: int, seed: int, seconds: float) -> None:
    """Time winning_children, then winning_move, at every position of random games; the
    memo is cleared before each call, so every figure is a cold start (the worst case)."""
    rng = random.Random(seed)
    every: list[float] = []
    one: list[float] = []
    over = 0
    for _ in range(games):
        p = Position.start(n)
        while children := p.children():
            for fn, out in ((solver.winning_children, every), (solver.winning_move, one)):
                solver.SOLVER.clear()
                _, dt = timed(partial(fn, p, misere), seconds)
                over += dt >= seconds
                out.append(dt)
            p = rng.choice(children)
    label = "misère" if misere else "normal"
    print(
        f"  {label} n={n}, {len(every)} positions in {games} games, cold: winning_children "
        f"mean {statistics.mean(every):.2f}s max {max(every):.2f}s "
        f"(over 2s: {sum(t > 2 for t in every)}); winning_move mean "
        f"{statistics.mean(one):.2f}s max {max(one):.2f}s"
        + (f"; {over} calls over {seconds:.0f}s" if over else "")
    )


def reachable(n: int) -> int:
    seen = {Position.start(n).canonical()}
    todo = [Position.start(n)]
    while todo:
        p = todo.pop()
        for m in p.moves(distinct=True):
            key = p.play(m).canonical()
            if key not in seen:
                seen.add(key)
                todo.append(Position.parse(key))
    return len(seen)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--normal", type=int, default=13, help="largest normal start")
    parser.add_argument("--misere", type=int, default=8, help="largest misère start")
    parser.add_argument("--budget", type=float, default=1800, help="seconds per start")
    parser.add_argument("--fresh", action="store_true", help="clear the memo before each n")
    parser.add_argument("--games", type=int, default=3, help="random games for AI timing")
    parser.add_argument("--skip-count", action="store_true", help="skip the n = 5 count")
    args = parser.parse_args(argv)

    table_size()
    if args.games:
        print("\nAI: winning_children along random games (budget 60s a move)")
        ai_moves(7, False, args.games, 1, 60)
        ai_moves(5, True, args.games, 1, 60)
    if not args.skip_count:
        count, dt = timed(lambda: reachable(5), args.budget)
        print(f"\nwhole positions reachable from 5 spots: {count} ({dt:.0f}s)")
    starts(args.misere, True, args.budget, args.fresh)
    starts(args.normal, False, args.budget, args.fresh)


if __name__ == "__main__":
    main()
