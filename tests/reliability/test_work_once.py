"""Work done exactly once when the CPU is short (#28): every AI move is thought once, and
every Рассада curve is routed once.

Two webhook replicas share one Redis; a share of the updates is delivered to both at once (a
late reply redelivered); and the test loads the CPU itself with two busy processes for its
own duration (bounded: each ends itself after ``BURN_LIMIT`` seconds, and is killed by its
pid when the test ends). Games against the bot at every level are played to the end with
racing taps. A think that outlives its lease would be taken over by the other replica (a
second think of the same move), and a superseded thinker that thought again would be a third:
afterwards the AI think count of both replicas together equals the AI moves in the records.

Beside them, Рассада games against the bot are played spot by spot; where several curves join
the chosen spots the player looks at two previews (the second, back to the first, the second
again) and plays the second. The taps of one move go round the two replicas, so a preview
drawn on one and played on the other, or looked at again there, must not be routed again:
the curves routed by both replicas together equal the distinct curves played or previewed
(a curve: a drawing and a move; the games start alike, so their first curves are often the
same, routed once for all of them).
Short form: 20 matches and 4 Рассада games; full form (``TETRAD_FULL=1``): 60 and 10.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import engine
import storage
from playground.server import Emulator
from tests.reliability.checks import replay, verify
from tests.reliability.cluster import Cluster
from tests.reliability.conftest import scale
from tests.reliability.people import (
    Board,
    ObservedWorld,
    ai_match,
    button_at,
    finished,
    keyboard_step,
    moved_from,
    version,
    with_op,
)

BURN_LIMIT = 600  # seconds a CPU burner runs at most, should the test die without ending it
LEVELS = ("e", "m", "h")


@contextmanager
def cpu_burners(n: int = 2) -> Iterator[list[int]]:
    """``n`` processes spinning on the CPU while the block runs; their pids."""
    code = f"import time\nend = time.monotonic() + {BURN_LIMIT}\nwhile time.monotonic() < end: pass"
    procs = [subprocess.Popen([sys.executable, "-c", code]) for _ in range(n)]
    try:
        yield [p.pid for p in procs]
    finally:
        for p in procs:
            p.kill()
        for p in procs:
            p.wait()


async def person_to_move(board: Board, store: storage.Store) -> dict[str, Any] | None:
    """The stored match once the person is to move and the board shows it; None once it
    ended (and the board shows that)."""
    seat = board.seats[0]
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        record = await store.matches.get(board.id)
        assert record is not None, board.id
        view = board.view(seat)
        if record["status"] == "finished":
            if finished(view):
                return None
        else:
            turn = engine.load(record["game"]).turn
            if not record["seats"][turn].get("ai") and version(view) == record["version"]:
                return record
        await asyncio.sleep(0.05)
    raise AssertionError(f"match {board.id}: the person's turn did not come")


def curve(game: Any, move: Any) -> str:
    """A curve: the drawing it is drawn on and the move (the same in any game)."""
    return json.dumps([game.drawing.to_json(), move.to_json()])


def played_curves(record: dict[str, Any]) -> set[str]:
    fresh = engine.new(record["kind"], **record["opt"])
    out = set()
    for move in engine.load(record["game"]).moves:
        out.add(curve(fresh, move))
        fresh.play(move)
    return out


async def sprouts_with_previews(board: Board, store: storage.Store, rng: random.Random) -> set[str]:
    """A Рассада game against the bot played to its end, looking at previews where several
    curves join the chosen spots; the curves previewed (played or not)."""
    seat = board.seats[0]
    previewed: set[str] = set()
    while (record := await person_to_move(board, store)) is not None:
        game: Any = engine.load(record["game"])
        spots = [s.number for s in game.drawing.spots if s.lives]
        pairs = [(a, b) for a in spots for b in game.joinable(a)]
        several = [(a, b) for a, b in pairs if len(game.moves_between(a, b)) > 1]
        a, b = rng.choice(several or pairs)
        view = await keyboard_step(board, seat, *button_at(board.view(seat), f":s{a}"))
        r, c = button_at(view, f":s{b}")
        if several:
            view = await keyboard_step(board, seat, r, c)  # the first curve's preview
            for flip in (":n", ":v", ":n"):  # the second, the first again, the second
                view = await keyboard_step(board, seat, *button_at(view, flip))
            r, c, _ = with_op(view, "p")[0]
            previewed.update(curve(game, m) for m in game.moves_between(a, b)[:2])
        tap = board.press(seat.user, seat, r, c)
        tap.popup = await board.watch.popup(tap.query, 60)
        assert tap.accepted, (board.id, tap.data, tap.popup)
        await board.watch.until(seat.key, moved_from(record["version"]), 60)
    return previewed


async def test_work_done_once_on_a_loaded_machine(
    emu: Emulator, world: ObservedWorld, redis_url: str, tmp_path: Path
) -> None:
    n, n_sprouts = scale(20, 60), scale(4, 10)
    started = time.monotonic()
    with cpu_burners(int(os.environ.get("BURNERS", "2"))):
        async with (
            Cluster(emu, redis_url, tmp_path, 2, duplicate_every=5) as cluster,
            await storage.connect(redis_url) as store,
        ):
            gate = asyncio.Semaphore(8)

            async def make(i: int, kind: str, path: str) -> Board:
                async with gate:
                    user = world.add_user(f"wo{kind}{i}")
                    return await ai_match(world, kind, f"{path}.a{LEVELS[i % 3]}", user)

            boards = await asyncio.gather(*(make(i, "boxes", "b.3.2") for i in range(n)))
            gardens = await asyncio.gather(*(make(i, "sprouts", "s.5.-") for i in range(n_sprouts)))

            async def to_end(i: int) -> None:
                rng = random.Random(i)
                while await boards[i].race(rng, timeout=120, patience=10):
                    pass

            looked_at = await asyncio.gather(
                *(to_end(i) for i in range(n)),
                *(sprouts_with_previews(g, store, random.Random(i)) for i, g in enumerate(gardens)),
            )
            for b in boards:
                await b.collect_popups()
            thinks = await cluster.metric("tetrad_ai_think_seconds_count")
            routes = await cluster.metric("tetrad_sprouts_route_seconds_count")
            everyone = [*boards, *gardens]
            records = [await store.matches.get(b.id) for b in everyone]
            sent = cluster.proxy.sent
    logs = cluster.logs()
    ai_moves, curves = 0, set[str]()
    for record, board in zip(records, everyone, strict=True):
        verify(record, board)
        assert record is not None and record["status"] == "finished", board.id
        _, movers = replay(record)
        ai_seat = next(i for i, s in enumerate(record["seats"]) if s.get("ai"))
        ai_moves += movers.count(ai_seat)
        if record["kind"] == "sprouts":
            curves |= played_curves(record)
    previews = set().union(*(s for s in looked_at if s is not None)) - curves
    curves |= previews
    print(
        f"\nwork once: {n} Boxes and {n_sprouts} Рассада matches vs the bot on 2 replicas with "
        f"2 CPU burners: {ai_moves} AI moves, {thinks:.0f} thinks; {len(curves)} curves "
        f"({len(previews)} previewed, not played), {routes:.0f} routed; updates per replica "
        f"{sent}, {cluster.proxy.duplicates} delivered twice; "
        f"{time.monotonic() - started:.0f} s"
    )
    assert ai_moves > n
    assert thinks == ai_moves
    assert previews
    assert routes == len(curves)
    assert cluster.proxy.duplicates > 0
    assert " ERROR " not in logs and "Traceback" not in logs, logs[-4000:]
