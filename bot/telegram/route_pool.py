"""Рассада's curves are routed in worker processes.

Routing a curve (and tidying the drawing after it) is most of a Рассада move's cost: tens of
milliseconds, more on a crowded drawing, in pure CPU. Done in the bot process it would take
the CPU every other chat's tap shares, and one process could use one core only. The engine
asks its router for each new drawing (:func:`engine.sprouts.game.set_router`); this one sends
the drawing and the move to a worker, which routes them exactly as the engine would in
process (:func:`engine.sprouts.game.route_here`) and answers with the new drawing.

The router is called where Рассада moves and previews already run, in threads that may wait
(``act.run``'s step, the picture), never on the event loop. A pool that cannot take work
(shut down, or broken twice in a row) makes the move be routed here instead: slower, never
lost.

Shared (:meth:`RoutePool.share`), a curve is routed once for all the replicas: the router
looks for it in Redis first (``storage.routes``), and while one replica routes it (holding a
lease named after it) the others wait for its answer. A preview drawn on one replica is then
the very curve another plays. Redis out of reach: each replica routes for itself.

With ``WORKERS=queue`` (:attr:`RoutePool.queue`) a curve is routed by a ``tetrad worker``
from the job queue (bot/telegram/jobs.py), the pool's own processes the fallback: the answer
comes back as JSON (:func:`route_json`), so the bot works out the routed drawing's walks
and faces again from it (~1.5 ms of its CPU), where the pool's pickled answer carried them.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import threading
import time
from concurrent.futures import CancelledError
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import storage
from bot.telegram import metrics
from bot.telegram.jobs import ROUTE_LIMIT, QueueThinker, job_timeout, longest_wait
from bot.telegram.workers import Workers
from engine.core import IllegalMove
from engine.sprouts.drawing import Drawing, DrawingError
from engine.sprouts.game import Router, route_here, set_router
from engine.sprouts.moves import Move
from engine.sprouts.paper import warm
from engine.sprouts.routing import RoutingError

log = logging.getLogger(__name__)

KEEP = 600.0  # seconds a routed curve is kept for the other replicas (looked at, then played)
CLAIM = 10.0  # the lease of a curve being routed: how long the others wait for it at most
POLL = 0.02  # how often a waiting replica looks for the curve
STORE_WAIT = 5.0  # a Redis call from a router thread gives up after this


def route(drawing: dict[str, Any], move: list[Any]) -> tuple[str, Any]:
    """Worker entry point: ``("drawn", the new drawing)``, or ``("illegal", (reason, code,
    params))`` for a move the engine refused (an exception's own fields do not survive the
    trip back between processes).

    The drawing goes back whole, pickled with what the check after routing worked out about
    it (its walks, faces and position): the bot needs them next, for the moves from it, and
    rebuilt from JSON it would work them out again (~1.5 ms of its CPU per curve)."""
    try:
        child = route_here(Drawing.from_json(drawing), Move.from_json(move))
    except IllegalMove as e:
        return "illegal", (e.reason, e.code, e.params)
    return "drawn", child


def route_json(drawing: dict[str, Any], move: list[Any]) -> tuple[str, Any]:
    """:func:`route` for the job queue, whose answers are JSON: ``("drawn", the drawing as
    the other replicas keep it)`` or ``("illegal", [reason, code, params])``."""
    kind, answer = route(drawing, move)
    return (kind, _kept(answer)) if kind == "drawn" else (kind, list(answer))


def prepare() -> None:
    """Worker start-up: the router's kernels loaded and a few curves routed
    (:func:`engine.sprouts.paper.warm`); being named from this module, it also imports the
    module the jobs name (:func:`route`), which the first job otherwise imported: 0.6 s of
    CPU, with storage, Redis and the metrics, inside the first curve of a fresh worker."""
    warm()


def _kept(child: Drawing) -> dict[str, Any]:
    """A routed drawing as the other replicas read it: with its sketch, which their
    previews draw (:attr:`Drawing.sketch`)."""
    data = child.to_json()
    if child.sketch is not None:
        data["sketch"] = child.sketch.to_json()
    return data


def _unkept(data: dict[str, Any]) -> Drawing:
    """:func:`_kept` read back; a sketch that is not one is left out (the preview then shows
    the tidied drawing), a drawing that is not one raises ``DrawingError``."""
    child = Drawing.from_json(data)
    with contextlib.suppress(DrawingError):
        child.sketch = Drawing.from_json(data["sketch"]) if "sketch" in data else None
    return child


class RoutePool(Workers):
    """The worker processes that route this bot process's Рассада curves."""

    def __init__(self, workers: int | None = None) -> None:
        super().__init__(workers, prepare=prepare)  # ready before the first curve
        self._replaced: Router | None = None
        self._store: storage.Store | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._loop_thread = 0
        self.queue: QueueThinker | None = None  # WORKERS=queue: curves routed by workers

    def share(self, store: storage.Store) -> None:
        """Route each curve once for every replica that shares ``store`` (call it on the
        event loop the store's client belongs to)."""
        self._store, self._loop = store, asyncio.get_running_loop()
        self._loop_thread = threading.get_ident()

    def route(self, drawing: Drawing, move: Move) -> Drawing:
        """The engine's router: the drawing after ``move``, routed by another replica or by
        one of this one's workers."""
        data, step = drawing.to_json(), move.to_json()
        if self._store is None or threading.get_ident() == self._loop_thread:
            return self._route(data, step, drawing, move)
        text = json.dumps([data, step], separators=(",", ":"))
        digest = hashlib.blake2b(text.encode(), digest_size=16).hexdigest()
        try:
            return self._route_shared(digest, data, step, drawing, move)
        except storage.StorageError as e:
            log.warning("routing %s without the other replicas: %s", move, e)
            return self._route(data, step, drawing, move)

    def _route_shared(
        self, digest: str, data: dict[str, Any], step: list[Any], drawing: Drawing, move: Move
    ) -> Drawing:
        store = self._store
        assert store is not None
        waited_until = time.monotonic() + CLAIM
        while True:
            found = self._wait(store.routes.get(digest))
            if found is not None:
                return _unkept(found)
            lease = self._wait(store.leases.acquire(f"route:{digest}", CLAIM))
            if lease is not None or time.monotonic() > waited_until:
                break
            time.sleep(POLL)  # another replica is routing it
        try:
            # The lease may have come free because its holder has just kept the curve.
            found = self._wait(store.routes.get(digest)) if lease is not None else None
            if found is not None:
                return _unkept(found)
            child = self._route(data, step, drawing, move)
            self._wait(store.routes.put(digest, _kept(child), KEEP))
        except storage.StorageError as e:  # routed all the same; the others route it too
            log.warning("routed %s, but could not keep it for the other replicas: %s", move, e)
        finally:
            if lease is not None:
                with contextlib.suppress(storage.StorageError):  # it runs out by itself
                    self._wait(lease.release())
        return child

    def _wait(self, call: Any, timeout: float = STORE_WAIT) -> Any:
        """Run a store (or queue) call on the event loop from this router thread; its
        answer, within ``timeout`` seconds."""
        assert self._loop is not None
        try:
            future = asyncio.run_coroutine_threadsafe(call, self._loop)
        except RuntimeError:  # the loop has closed: its bot stopped without closing this pool
            call.close()
            raise storage.Unavailable("the store's event loop has closed") from None
        try:
            return future.result(timeout)
        except TimeoutError:
            future.cancel()
            raise storage.Unavailable("the store did not answer a router thread") from None

    def _route(
        self, data: dict[str, Any], step: list[Any], drawing: Drawing, move: Move
    ) -> Drawing:
        """The drawing after ``move``, from a queue's worker, one of this pool's processes,
        or (when neither can) this process."""
        started = time.perf_counter()
        queued = self._from_queue(data, step)
        if queued is not None:
            metrics.ROUTED.labels("queue").observe(time.perf_counter() - started)
            return _answer(*queued)
        try:
            kind, answer = self.call(route, data, step)
        except (BrokenProcessPool, CancelledError, RuntimeError) as e:
            # closed (before the call, or under it: shutting down), or its workers keep dying
            log.warning("routing %s in the bot process: the workers cannot (%s)", move, e)
            try:
                return route_here(drawing, move)
            finally:
                metrics.ROUTED.labels("here").observe(time.perf_counter() - started)
        metrics.ROUTED.labels("worker").observe(time.perf_counter() - started)
        return _answer(kind, answer)

    def _from_queue(self, data: dict[str, Any], step: list[Any]) -> tuple[str, Any] | None:
        """A worker's answer from the job queue, read back (the drawing, or the refusal's
        ``(reason, code, params)``); None when there is no queue, this is the event loop's
        thread (which must not wait for itself), or the queue gave none (it counted why)
        or one that does not read back (logged): the pool routes the curve then."""
        queue = self.queue
        if queue is None or self._loop is None or threading.get_ident() == self._loop_thread:
            return None
        try:
            answer: tuple[str, Any] | None = self._wait(
                queue.route(data, step), longest_wait(job_timeout(ROUTE_LIMIT)) + 1
            )
        except storage.StorageError:  # the loop has gone, or did not answer in time
            return None
        if answer is None:
            return None
        kind, got = answer
        try:
            if kind == "drawn":
                return kind, _unkept(got)
            reason, code, params = got
            return kind, (str(reason), str(code), dict(params))
        except (DrawingError, KeyError, TypeError, ValueError) as e:
            log.warning("a worker's curve does not read back (%s): the pool routes it", e)
            return None

    def install(self) -> None:
        """Route every new curve of this process in the workers, starting them now."""
        self.start()
        self._replaced = set_router(self.route)

    def close(self) -> None:
        """Back to the router this one replaced (if it is still the one in use)."""
        if self._replaced is not None:
            old = set_router(self._replaced)
            if old != self.route:  # another pool took over since: leave it in place
                set_router(old)
            self._replaced = None
        super().close()


def _answer(kind: str, answer: Any) -> Drawing:
    """A worker's answer as the engine's router gives it: the drawing, or the refusal raised."""
    if kind == "illegal":
        reason, code, params = answer
        if code == "no_room":
            raise RoutingError(reason, **params)
        raise IllegalMove(reason, code=code, **params)
    drawn: Drawing = answer
    return drawn
