"""Рассада curves routed in worker processes: the same drawings the engine routes in process,
the engine's refusals carried back, a dead worker replaced, and a pool that cannot work
leaving the move to the bot process rather than losing it."""

from __future__ import annotations

import gc
import os
import random
import signal
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from bot.telegram.route_pool import RoutePool
from bot.warmup import PILLOW_BLOCKS
from engine.core import IllegalMove
from engine.sprouts import game as sprouts_game
from engine.sprouts.game import Game, route_here
from engine.sprouts.moves import Move
from tests.bot.helpers import alive


@pytest.fixture(scope="module")
def pool() -> Iterator[RoutePool]:
    routes = RoutePool(workers=1)
    routes.install()
    try:
        yield routes
    finally:
        routes.close()


def _forget_routes() -> None:
    """The engine keeps recent routes; each check here must route afresh."""
    sprouts_game._routed.clear()


def test_the_workers_draw_what_the_engine_draws(pool: RoutePool) -> None:
    rng = random.Random(5)
    game = Game(6)
    for _ in range(8):
        move = rng.choice(game.legal_moves())
        here = route_here(game.drawing, move)
        _forget_routes()
        game.play(move)  # through the installed router: in the worker
        assert game.drawing.content == here.content
        assert game.drawing.position.canonical() == here.position.canonical()
    assert sprouts_game._router == pool.route


def test_a_drawing_comes_back_with_its_position_worked_out(pool: RoutePool) -> None:
    """The worker's check after routing found the new drawing's faces and position; the bot
    needs them next and does not work them out again."""
    game = Game(5)
    drawn = pool.route(game.drawing, game.legal_moves()[0])
    assert {"walks", "faces", "position"} <= set(vars(drawn))


def test_a_refused_move_comes_back_as_the_engine_error(pool: RoutePool) -> None:
    game = Game(3)
    with pytest.raises(IllegalMove) as refused:
        pool.route(game.drawing, Move(1, 2, inside=(3,)))
    assert refused.value.code == "no_such_move"


def test_a_dead_worker_is_replaced(pool: RoutePool) -> None:
    game = Game(4)
    move = game.legal_moves()[0]
    pool.route(game.drawing, move)
    (worker,) = pool.processes()
    os.kill(worker, signal.SIGKILL)
    deadline = time.monotonic() + 15
    while alive(worker) and time.monotonic() < deadline:
        time.sleep(0.05)
    again = pool.route(game.drawing, move)
    assert again.content == route_here(game.drawing, move).content
    assert pool.processes() != [worker]


def test_a_closed_pool_leaves_the_move_to_the_bot_process() -> None:
    routes = RoutePool(workers=1)
    routes.close()
    game = Game(3)
    move = game.legal_moves()[0]
    assert routes.route(game.drawing, move).content == route_here(game.drawing, move).content


def test_closing_restores_the_router_it_replaced() -> None:
    before = sprouts_game._router
    routes = RoutePool(workers=1)
    routes.install()
    assert sprouts_game._router == routes.route
    routes.close()
    assert sprouts_game._router == before


def test_moves_in_flight_when_the_pool_closes_are_still_drawn() -> None:
    """Shutting down cancels the calls still queued: those moves are routed here instead."""
    routes = RoutePool(workers=1)
    routes.start()
    game = Game(8)
    moves = game.legal_moves()[:4]
    with ThreadPoolExecutor(4) as threads:
        drawn = [threads.submit(routes.route, game.drawing, m) for m in moves]
        time.sleep(0.05)
        routes.close()
        got = [f.result(timeout=60).content for f in drawn]
    assert got == [route_here(game.drawing, m).content for m in moves]


def test_a_worker_sets_its_start_up_objects_aside_from_the_collector(pool: RoutePool) -> None:
    """Its full collections then walk only what it made since (a full walk of the libraries
    and kernels took 50–200 ms, in the middle of a route)."""
    assert pool.call(gc.get_freeze_count) > 10_000


def test_a_worker_keeps_freed_picture_sized_buffers(pool: RoutePool) -> None:
    """Pillow keeps freed image blocks for the next image (with glibc's big blocks kept on
    the heap too, a picture's buffers stop costing page faults)."""
    assert pool.call(_pillow_blocks_max) == PILLOW_BLOCKS


def _pillow_blocks_max() -> int:
    from PIL import Image

    return Image.core.get_blocks_max()


def test_a_worker_leaves_ctrl_c_to_the_bot(pool: RoutePool) -> None:
    """Ctrl-C reaches the whole process group; the bot stops and ends its workers."""
    assert pool.call(signal.getsignal, signal.SIGINT) == signal.SIG_IGN
