"""Worker processes for the bot's heavy computations, so they never take the bot process's
own CPU (which every tap shares) or its event loop.

A :class:`Workers` pool starts its processes when first used (or at :meth:`Workers.start`),
replaces them when one dies, and ends them with the bot process however it ends. Work is
asked for from the event loop (:meth:`Workers.run`) or from a thread that may block
(:meth:`Workers.call`). The bot takes its first update only once :meth:`Workers.warm` says
every worker has started and prepared itself: a worker that spawns, imports and loads its
kernels inside someone's first tap made that tap take seconds (8 s on a loaded machine).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from bot.warmup import settle

log = logging.getLogger(__name__)
T = TypeVar("T")

PARENT_CHECK_SECONDS = 1.0


def _end_with_parent(
    parent: int, then: Callable[[], None] | None = None, warmed: Any = None
) -> None:
    """Worker initializer: a spawned worker is not told when the bot process dies (killed,
    say) and would wait for work forever; this one exits when its parent is gone. ``then``
    prepares the worker (loads compiled kernels) before its first job; ``warmed`` (a
    semaphore) is released once it has.

    Ctrl-C in a terminal reaches the whole process group: the bot stops and ends its pools,
    and a worker that took the interrupt too would only print a traceback from its idle wait
    (one per worker, on every stop of ``tetrad local``), so workers ignore it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()
    if then is not None:
        then()
    settle()
    if warmed is not None:
        warmed.release()


def _nothing() -> None:
    """A job that only makes the pool start a worker for it."""


class Workers:
    """A small process pool shared by every match of this bot process."""

    def __init__(
        self, workers: int | None = None, prepare: Callable[[], None] | None = None
    ) -> None:
        self.workers = workers or max(1, min(2, os.cpu_count() or 1))
        self._prepare = prepare
        self._pool: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()  # threads may ask for work at the same time
        self._closed = False  # shutting down: no new workers for a broken pool
        self._warmed: Any = None  # released by each worker of the current pool once ready
        self.ready = False  # every worker of the first pool has prepared itself
        self.cold_calls = 0  # jobs asked for before that (each may wait for a start-up)

    def _executor(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._closed:
                raise RuntimeError("the worker pool is closed")
            if self._pool is None:
                # "spawn": the bot's threads and event loop must not be forked into workers.
                context = multiprocessing.get_context("spawn")
                self._warmed = context.Semaphore(0)
                self._pool = ProcessPoolExecutor(
                    max_workers=self.workers,
                    mp_context=context,
                    initializer=_end_with_parent,
                    initargs=(os.getpid(), self._prepare, self._warmed),
                )
            return self._pool

    def _replace(self, broken: ProcessPoolExecutor) -> None:
        """A worker that died (killed for memory, say) breaks the whole pool for good."""
        with self._lock:
            if self._closed:
                return
            if self._pool is broken:
                log.warning("a worker process died: starting new workers")
                self._pool = None
        broken.shutdown(wait=False, cancel_futures=True)

    def _submit(self, fn: Callable[..., T], *args: Any) -> tuple[ProcessPoolExecutor, Future[T]]:
        pool = self._executor()
        if not self.ready:
            self.cold_calls += 1
        try:
            return pool, pool.submit(fn, *args)
        except BrokenProcessPool:  # it broke before: the pool knows already
            self._replace(pool)
            pool = self._executor()
            return pool, pool.submit(fn, *args)

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker; a broken pool is replaced and the call made once more."""
        pool, future = self._submit(fn, *args)
        try:
            return await asyncio.wrap_future(future)
        except BrokenProcessPool:
            self._replace(pool)
            return await asyncio.wrap_future(self._submit(fn, *args)[1])

    def call(self, fn: Callable[..., T], *args: Any) -> T:
        """:meth:`run` for a thread that can wait (never the event loop's)."""
        pool, future = self._submit(fn, *args)
        try:
            return future.result()
        except BrokenProcessPool:
            self._replace(pool)
            return self._submit(fn, *args)[1].result()

    def start(self) -> None:
        """Start every worker now (each prepares itself), not when the first job comes."""
        pool = self._executor()
        for _ in range(self.workers):  # each job that finds no idle worker starts one
            pool.submit(_nothing)

    def wait_warm(self, timeout: float) -> bool:
        """Start the workers and block until each has prepared itself (False if that took
        longer than ``timeout`` seconds: the bot goes on, slower at first, never stuck)."""
        self.start()
        with self._lock:
            warmed = self._warmed
        deadline = time.monotonic() + timeout
        for _ in range(self.workers):
            if not warmed.acquire(timeout=max(0.0, deadline - time.monotonic())):
                return False
        self.ready = True
        return True

    async def warm(self, timeout: float) -> bool:
        """:meth:`wait_warm` from the event loop."""
        return await asyncio.to_thread(self.wait_warm, timeout)

    def processes(self) -> list[int]:
        """The workers' process ids (for tests and the bench)."""
        with self._lock:
            return [] if self._pool is None else list(self._pool._processes)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
