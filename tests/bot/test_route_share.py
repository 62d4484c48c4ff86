"""Рассада curves routed once for every replica (bot/telegram/route_pool.py, storage/routes.py):
two route pools sharing one Redis, as two bot processes would; asked for the same curve one
after the other, or both at once, only one of them routes it, and both give the same drawing.
The pools are closed, so each routes in its own process (counted as ``here``)."""

from __future__ import annotations

import asyncio

import engine
import storage
from bot.telegram.metrics import REGISTRY
from bot.telegram.route_pool import RoutePool
from engine.sprouts.drawing import Drawing
from engine.sprouts.moves import Move


def _routed() -> float:
    return REGISTRY.get_sample_value("tetrad_sprouts_route_seconds_count", {"where": "here"}) or 0


def _curves(spots: int) -> tuple[Drawing, list[Move]]:
    game = engine.new("sprouts", spots=spots)
    drawing: Drawing = game.drawing  # type: ignore[attr-defined]
    return drawing, list(game.legal_moves())  # type: ignore[attr-defined]


async def test_a_curve_is_routed_once_for_two_replicas(redis_url: str) -> None:
    async with (
        await storage.connect(redis_url) as a_store,
        await storage.connect(redis_url) as b_store,
    ):
        a, b = RoutePool(), RoutePool()
        a.close()
        b.close()
        a.share(a_store)
        b.share(b_store)
        drawing, moves = _curves(4)
        before = _routed()
        first = await asyncio.to_thread(a.route, drawing, moves[0])
        again = await asyncio.to_thread(b.route, drawing, moves[0])
        assert _routed() - before == 1
        assert again.to_json() == first.to_json()
        # the sketch a preview draws comes along
        assert first.sketch is not None and again.sketch is not None
        assert again.sketch.to_json() == first.sketch.to_json()

        # Both at once: one routes, the other waits for its answer.
        before = _routed()
        both = await asyncio.gather(
            asyncio.to_thread(a.route, drawing, moves[1]),
            asyncio.to_thread(b.route, drawing, moves[1]),
        )
        assert _routed() - before == 1
        assert both[0].to_json() == both[1].to_json()
        assert both[0].to_json() != first.to_json()


async def test_unshared_or_on_the_event_loop_each_routes_for_itself(redis_url: str) -> None:
    async with await storage.connect(redis_url) as store:
        shared, alone = RoutePool(), RoutePool()
        shared.close()
        alone.close()
        shared.share(store)
        drawing, moves = _curves(3)
        before = _routed()
        alone.route(drawing, moves[0])
        shared.route(drawing, moves[0])  # on the loop's thread: it must not wait for the loop
        assert _routed() - before == 2
        assert await store.routes.get("0" * 32) is None
