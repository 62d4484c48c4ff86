"""The bot's heavy jobs on the job queue (WORKERS=queue): real `tetrad worker` processes on
the test's redis-server, the real bot through the playground.

Games against the bot end with every bot move thought by a worker; a Рассада game has its
curves routed and its replay drawn by the workers too, exactly as the bot's own pools do
them; a worker killed in the middle of a think has its move thought again by the other (the
queue's retry); a job taken after its deadline is dropped; with no worker at all the bot
does each job itself, and the fallback metric counts it by job and reason.
"""

from __future__ import annotations

import asyncio
import dataclasses
import io
import os
import random
import signal
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from PIL import Image, ImageSequence
from saq import Job, Status
from saq.job import TERMINAL_STATUSES

import engine
import storage
from bench.queue import search_position
from bot.i18n import t
from bot.telegram.ai_pool import AIPool, replay
from bot.telegram.job_worker import WORKER_ID
from bot.telegram.jobs import REPLAY, ROUTE, THINK, QueueThinker, think_queue
from bot.telegram.metrics import REGISTRY
from bot.telegram.route_pool import RoutePool, route_json
from engine.sprouts.drawing import Drawing
from engine.sprouts.game import route_here
from engine.sprouts.moves import Move
from playground.server import Emulator
from render.view import View
from tests.bot.helpers import alive, endings, finished, play_to_end, quick_game, stored_match
from tests.fixtures.playground import ScenarioClient, bot_settings, scenario
from tests.reliability.fleet import WAIT, Fleet

REASONS = ("no_worker", "timeout", "failed", "error")
JOBS = (THINK, REPLAY, ROUTE)


def moves() -> float:
    return REGISTRY.get_sample_value("tetrad_queue_moves_total") or 0.0


def jobs(job: str) -> float:
    return REGISTRY.get_sample_value("tetrad_queue_jobs_total", {"job": job}) or 0.0


def fallbacks(reason: str, job: str = "think") -> float:
    labels = {"job": job, "reason": reason}
    return REGISTRY.get_sample_value("tetrad_queue_fallbacks_total", labels) or 0.0


def all_fallbacks() -> float:
    return sum(fallbacks(r, j) for r in REASONS for j in JOBS)


def routed(where: str) -> float:
    labels = {"where": where}
    return REGISTRY.get_sample_value("tetrad_sprouts_route_seconds_count", labels) or 0.0


async def until(check: Callable[[], object], what: str, timeout: float = WAIT) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"not in {timeout:.0f} s: {what}")
        await asyncio.sleep(0.05)


@pytest.fixture
async def fleet(redis_url: str) -> AsyncIterator[Fleet]:
    f = Fleet(redis_url)
    await f.queue.connect()
    try:
        yield f
    finally:
        f.stop()
        await f.queue.disconnect()


@pytest.fixture
async def qpg(emulator: Emulator, redis_url: str) -> AsyncIterator[ScenarioClient]:
    """``pg`` with the bot's moves on the queue."""
    settings = dataclasses.replace(bot_settings(emulator, redis_url), workers="queue")
    async with scenario(emulator, settings) as client:
        yield client


async def test_games_against_the_bot_are_thought_by_the_workers(
    qpg: ScenarioClient, fleet: Fleet
) -> None:
    fleet.start()
    fleet.start()
    await fleet.ready(2)
    await qpg.set_limits(enabled=False)
    before, fell, replays = moves(), all_fallbacks(), jobs(REPLAY)

    async def game(name: str, button: str, seed: int) -> Any:
        user = await qpg.user(name, lang="en")
        board = await quick_game(user, t("en", button))
        final = await play_to_end(
            {user.id: user}, user.private, board.message_id, random.Random(seed)
        )
        assert finished(final)
        return (await stored_match(qpg._settings.redis_url, final)).game

    games = await asyncio.gather(
        game("alice", "menu.quick_boxes", 1), game("bob", "menu.quick_boxes", 2)
    )
    assert all(g.over for g in games)
    # Every bot move was asked of the queue: answered by a worker, or counted as a fallback.
    print(f"{moves() - before:.0f} bot moves thought by the workers")
    assert moves() - before >= 2, "the workers thought no move"
    assert all_fallbacks() == fell, "the bot did jobs itself"
    await until(lambda: jobs(REPLAY) - replays == 2, "both replays drawn by the workers")


async def test_a_worker_killed_mid_think_has_the_move_thought_again(
    fleet: Fleet, redis_url: str
) -> None:
    started = time.monotonic()
    engine.warm_ai("dots")  # Точки's search kernels in numba's cache, for the workers to load
    fleet.start(warm=True)
    fleet.start(warm=True)
    await fleet.ready(2)
    print(f"2 warm workers ready in {time.monotonic() - started:.1f} s")
    pool = AIPool(workers=1, kernels=False)  # the fallback, at the real time scale
    thinker = await QueueThinker.connect(redis_url, pool)
    try:
        fell = sum(fallbacks(r) for r in REASONS)
        state = search_position()  # the hard level thinks its whole time there
        t0 = time.monotonic()
        asked = asyncio.create_task(thinker.choose(state, "hard", 1))
        taken: list[Any] = []

        async def active() -> bool:
            taken[:] = [j async for j in fleet.queue.iter_jobs([Status.ACTIVE])]
            return bool(taken)

        deadline = time.monotonic() + WAIT
        while not await active():
            assert time.monotonic() < deadline, "no worker took the job"
            await asyncio.sleep(0.02)
        pids = await fleet.pids()
        victim = pids[taken[0].worker_id]
        print(f"killing worker {victim} {time.monotonic() - t0:.1f} s in")
        await asyncio.sleep(0.3)
        assert not asked.done(), "the think ended before the worker could be killed"
        os.kill(victim, signal.SIGKILL)
        await until(lambda: not alive(victim), "the killed worker to end")
        move, _spent = await asyncio.wait_for(asked, WAIT)
        print(f"the move came {time.monotonic() - t0:.1f} s in")
        game = engine.load(state)
        assert move in {game.format_move(m) for m in game.legal_moves()}
        survivor = next(p for p in pids.values() if p != victim)
        host = WORKER_ID.split(":")[0]
        assert dict(thinker.answered_by) == {f"{host}:{survivor}": 1}, "not the queue's retry"
        assert sum(fallbacks(r) for r in REASONS) == fell
    finally:
        await thinker.close()
        pool.close()


async def test_with_no_worker_the_bot_thinks_itself_and_counts_it(qpg: ScenarioClient) -> None:
    await qpg.set_limits(enabled=False)
    before, fell = moves(), fallbacks("no_worker")
    alice = await qpg.user("alice", lang="en")
    board = await quick_game(alice, t("en", "menu.quick_boxes"))
    rng = random.Random(3)
    shown = await play_to_end({alice.id: alice}, alice.private, board.message_id, rng, moves=2)
    match = await stored_match(qpg._settings.redis_url, shown)
    seat = match.to_move
    assert seat is None or not seat.is_ai, "the bot's move did not come"
    assert fallbacks("no_worker") - fell >= 1, "no fallback was counted"
    assert moves() == before, "a worker thought a move, with none running"


def ended_boxes() -> dict[str, Any]:
    """A 2×2 Boxes game played to its end (seeded), as a record's game."""
    game = engine.new("boxes", rows=2, cols=2)
    rng = random.Random(5)
    while not game.over:
        legal = game.legal_moves()
        game.play(legal[rng.randrange(len(legal))])
    return dict(game.to_json())


def frames(gif: bytes) -> list[tuple[bytes, object]]:
    """A GIF's frames as pixels and durations (two processes' encodings of the same
    frames may order a palette differently: the bytes are not the picture)."""
    with Image.open(io.BytesIO(gif)) as im:
        assert im.format == "GIF"
        return [
            (f.convert("RGB").tobytes(), f.info.get("duration")) for f in ImageSequence.Iterator(im)
        ]


def sprouts_step() -> tuple[dict[str, Any], list[Any], list[Any]]:
    """A Рассада drawing three moves in, a legal move from it and a move it refuses."""
    game = engine.new("sprouts", spots=3)
    for pick in (0, -1, 0):
        legal = game.legal_moves()
        game.play(legal[pick])
    legal = game.legal_moves()
    refused = dataclasses.replace(legal[0], a=99, b=99)  # spots the drawing does not have
    return game.drawing.to_json(), legal[-1].to_json(), refused.to_json()


async def test_replays_and_curves_from_the_workers_are_the_pools(
    fleet: Fleet, redis_url: str
) -> None:
    """A replay and a curve a worker made are exactly what the bot's pools make; a refused
    curve comes back as the engine's refusal; neither falls back."""
    fleet.start(warm=True)
    await fleet.ready(1)
    pool = AIPool(workers=1, kernels=False)
    thinker = await QueueThinker.connect(redis_url, pool)
    try:
        fell, replays, routes = all_fallbacks(), jobs(REPLAY), jobs(ROUTE)
        state = ended_boxes()
        view: View = {"lang": "ru", "players": ["Алиса", "Tetrad"], "size": 480}
        gif = await thinker.replay(state, view)
        shown = frames(gif)
        assert shown == frames(replay(state, view)), "the worker drew another replay"
        assert len(shown) > engine.load(state).ply
        drawing, move, refused = sprouts_step()
        answer = await thinker.route(drawing, move)
        assert answer == route_json(drawing, move)
        assert answer[0] == "drawn"
        assert (
            Drawing.from_json(answer[1]).to_json()
            == route_here(Drawing.from_json(drawing), Move.from_json(move)).to_json()
        )
        illegal = await thinker.route(drawing, refused)
        assert illegal is not None and illegal[0] == "illegal", illegal
        assert (jobs(REPLAY) - replays, jobs(ROUTE) - routes) == (1, 2)
        assert all_fallbacks() == fell
    finally:
        await thinker.close()
        pool.close()


async def test_a_job_taken_after_its_deadline_is_dropped(fleet: Fleet) -> None:
    """The worker gives a late job no answer (the bot did the work itself meanwhile)."""
    fleet.start()
    await fleet.ready(1)
    drawing, move, _ = sprouts_step()
    late = {"deadline": time.time() - 1}
    for function, kwargs in (
        (ROUTE, {"drawing": drawing, "move": move, **late}),
        (REPLAY, {"state": ended_boxes(), "view": {}, **late}),
        (
            THINK,
            {
                "state": ended_boxes(),
                "level": "easy",
                "seed": 1,
                "budget": None,
                "time_scale": 1.0,
                **late,
            },
        ),
    ):
        job = await fleet.queue.enqueue(Job(function, kwargs=kwargs, timeout=5, ttl=60))
        assert job is not None
        await until_done(job)
        assert job.status == Status.COMPLETE and job.result is None, (function, job.result)


async def until_done(job: Job) -> None:
    deadline = time.monotonic() + WAIT
    while job.status not in TERMINAL_STATUSES:
        assert time.monotonic() < deadline, f"job {job.function} not done in {WAIT:.0f} s"
        await asyncio.sleep(0.05)
        await job.refresh()


async def test_with_no_worker_the_bot_draws_and_routes_itself(redis_url: str) -> None:
    pool = AIPool(workers=1, kernels=False)
    thinker = await QueueThinker.connect(redis_url, pool)
    try:
        before = (fallbacks("no_worker", REPLAY), fallbacks("no_worker", ROUTE))
        state = ended_boxes()
        gif = await thinker.replay(state, {})
        assert frames(gif) == frames(replay(state, {}))
        drawing, move, _ = sprouts_step()
        assert await thinker.route(drawing, move) is None  # the router routes it itself
        after = (fallbacks("no_worker", REPLAY), fallbacks("no_worker", ROUTE))
        assert (after[0] - before[0], after[1] - before[1]) == (1, 1)
    finally:
        await thinker.close()
        pool.close()


async def test_a_sprouts_game_on_the_queue_routes_every_curve_in_the_workers(
    emulator: Emulator, redis_url: str, fleet: Fleet
) -> None:
    """Рассада against the bot with WORKERS=queue and a route pool: every curve played is
    routed by a worker from the queue (none by the pool, none in the bot process), the
    bot's moves are thought there, and the replay is drawn there and sent."""
    fleet.start()
    fleet.start()
    await fleet.ready(2)
    settings = dataclasses.replace(
        bot_settings(emulator, redis_url), workers="queue", route_workers=1
    )
    async with scenario(emulator, settings) as pg:
        await pg.set_limits(enabled=False)
        fell, replays = all_fallbacks(), jobs(REPLAY)
        before = {w: routed(w) for w in ("queue", "worker", "here")}
        alice = await pg.user("alice", lang="en")
        board = await quick_game(alice, t("en", "menu.quick_sprouts"))
        final = await play_to_end(
            {alice.id: alice}, alice.private, board.message_id, random.Random(2)
        )
        assert finished(final)
        stored = await stored_match(redis_url, final)
        assert stored.game.over
        await endings(alice.private)
        gained = {w: routed(w) - n for w, n in before.items()}
        # each curve is routed once (a preview's curve is kept, and played from Redis)
        assert 1 <= gained["queue"] <= len(stored.game.moves), gained
        assert (gained["worker"], gained["here"]) == (0, 0), gained
        assert jobs(REPLAY) - replays == 1
        assert all_fallbacks() == fell
        animations = [
            m
            for m in await alice.private.messages()
            if m.media is not None and m.media.kind == "animation"
        ]
        assert len(animations) == 1
        media = animations[0].media
        assert media is not None
        assert len(frames(await pg.file_bytes(media.file_id))) > len(stored.game.moves)


class Garbled(QueueThinker):
    """A queue whose worker answers with something that is no drawing (a worker of another
    version, say)."""

    async def route(self, drawing: dict[str, Any], move: list[Any]) -> tuple[str, Any] | None:
        return "drawn", {"spots": "none"}


async def test_a_curve_that_does_not_read_back_is_routed_by_the_pool(redis_url: str) -> None:
    drawing, move, _ = sprouts_step()
    fallback = AIPool(workers=1, kernels=False)
    pool = RoutePool(1)
    try:
        async with await storage.connect(redis_url) as store:
            pool.share(store)
            pool.queue = Garbled(think_queue(redis_url), fallback)
            before = routed("worker"), routed("queue")
            child = await asyncio.to_thread(
                pool.route, Drawing.from_json(drawing), Move.from_json(move)
            )
            expected = route_here(Drawing.from_json(drawing), Move.from_json(move))
            assert child.to_json() == expected.to_json()
            assert (routed("worker") - before[0], routed("queue") - before[1]) == (1, 0)
    finally:
        pool.close()
        fallback.close()
