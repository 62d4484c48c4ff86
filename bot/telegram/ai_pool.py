"""The bot's moves, and the replays of ended games, are computed in worker processes: never
on the event loop, and never in the bot process's own CPU, which every tap shares.

Engine games cross the process boundary as their JSON records; the worker answers with the
move in the game's notation, which the match layer parses back like a typed move, or with the
replay's GIF bytes.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

import engine
import render
from bot.telegram import metrics

log = logging.getLogger(__name__)
T = TypeVar("T")

# Seconds per move by level (the engines scale down further on small boards). Hard gets what
# the engines' own defaults give it (the issues allow 2 s a move): the Boxes solver's node
# budget, and the share of 5×5 endgames it solves exactly, are measured at 1.8 s.
TIME_LIMITS = {"easy": 0.3, "medium": 0.8, "hard": 1.8}


def think(
    state: dict[str, Any], level: str, seed: int | None, time_scale: float = 1.0
) -> tuple[str, float]:
    """Worker entry point: the chosen move in notation, and the seconds spent."""
    started = time.perf_counter()
    game = engine.load(state)
    ai = importlib.import_module(f"engine.{game.kind}.ai")
    limit = TIME_LIMITS.get(level, 1.0) * time_scale
    move = ai.choose_move(game, level=level, seed=seed, time_limit=limit)
    return game.format_move(move), time.perf_counter() - started


def replay(state: dict[str, Any], view: dict[str, Any]) -> bytes:
    """Worker entry point: the ended game as an animation (a whole game's frames, encoded:
    over 100 ms even for a small board, so it never runs on a tap's CPU)."""
    return render.replay(engine.load(state), view=view)


PARENT_CHECK_SECONDS = 1.0


def _end_with_parent(parent: int) -> None:
    """Worker initializer: a spawned worker is not told when the bot process dies (killed,
    say) and would wait for work forever; this one exits when its parent is gone."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


class AIPool:
    """A small process pool shared by every match of this bot process."""

    def __init__(self, workers: int | None = None, time_scale: float = 1.0) -> None:
        self.workers = workers or max(1, min(2, os.cpu_count() or 1))
        self.time_scale = time_scale
        self._pool: ProcessPoolExecutor | None = None
        self._closed = False  # shutting down: no new workers for a broken pool

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # "spawn": the bot's threads and event loop must not be forked into workers.
            ctx = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=ctx,
                initializer=_end_with_parent,
                initargs=(os.getpid(),),
            )
        return self._pool

    async def _run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker. A worker that died (killed for memory, say) breaks the
        whole pool for good: the pool is replaced and the call made once more."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._executor(), fn, *args)
        except BrokenProcessPool:
            if self._closed:
                raise
            log.warning("a worker process died: starting new workers")
            broken, self._pool = self._pool, None
            if broken is not None:
                broken.shutdown(wait=False, cancel_futures=True)
            return await loop.run_in_executor(self._executor(), fn, *args)

    async def choose(
        self, state: dict[str, Any], level: str, seed: int | None = None
    ) -> tuple[str, float]:
        move, spent = await self._run(think, state, level, seed, self.time_scale)
        metrics.AI_THINK.labels(level).observe(spent)
        return move, spent

    async def replay(self, state: dict[str, Any], view: dict[str, Any]) -> bytes:
        return await self._run(replay, state, view)

    def close(self) -> None:
        self._closed = True
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
