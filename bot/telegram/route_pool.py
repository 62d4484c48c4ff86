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
"""

from __future__ import annotations

import logging
import time
from concurrent.futures import CancelledError
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from bot.telegram import metrics
from bot.telegram.workers import Workers
from engine.core import IllegalMove
from engine.sprouts.drawing import Drawing
from engine.sprouts.game import Router, route_here, set_router
from engine.sprouts.moves import Move
from engine.sprouts.paper import warm
from engine.sprouts.routing import RoutingError

log = logging.getLogger(__name__)


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


class RoutePool(Workers):
    """The worker processes that route this bot process's Рассада curves."""

    def __init__(self, workers: int | None = None) -> None:
        super().__init__(workers, prepare=warm)  # kernels loaded before the first curve
        self._replaced: Router | None = None

    def route(self, drawing: Drawing, move: Move) -> Drawing:
        """The engine's router: the drawing after ``move``, from a worker."""
        started = time.perf_counter()
        try:
            kind, answer = self.call(route, drawing.to_json(), move.to_json())
        except (BrokenProcessPool, CancelledError, RuntimeError) as e:
            # closed (before the call, or under it: shutting down), or its workers keep dying
            log.warning("routing %s in the bot process: the workers cannot (%s)", move, e)
            try:
                return route_here(drawing, move)
            finally:
                metrics.ROUTED.labels("here").observe(time.perf_counter() - started)
        metrics.ROUTED.labels("worker").observe(time.perf_counter() - started)
        if kind == "illegal":
            reason, code, params = answer
            if code == "no_room":
                raise RoutingError(reason, **params)
            raise IllegalMove(reason, code=code, **params)
        drawn: Drawing = answer
        return drawn

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
