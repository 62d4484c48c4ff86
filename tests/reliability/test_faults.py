"""Faults: matches go on while things break under them, and nothing is lost.

One run, several webhook replicas sharing one Redis, matches of every game being played with
racing taps while: the emulator answers a share of the bot's calls with 429s, 5xx and
timeouts; a replica is killed (SIGKILL) mid-round and started again; Redis is killed and
restarted from its append-only file mid-round; a player deletes their board; a player blocks
the bot and comes back. Afterwards every record replays exactly, no acknowledged move is
missing, and every match can be played on (each to the end in the full form).
"""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path
from typing import Any

import redis

import storage
from playground.server import Emulator
from tests.fixtures.redis import RedisServer
from tests.reliability.checks import verify
from tests.reliability.cluster import Cluster
from tests.reliability.conftest import FULL, scale
from tests.reliability.games import make_matches
from tests.reliability.people import Board, ObservedWorld, finished, version

EDITS = ["editMessageMedia", "editMessageReplyMarkup", "editMessageCaption", "sendPhoto"]
PATIENCE = 4.0  # seconds without a change before people tap again
FAULTS: dict[str, dict[str, Any]] = {  # each for 8 seconds
    "429": {"methods": [*EDITS, "answerCallbackQuery"], "rate": 0.3, "seconds": 8},
    "5xx": {"methods": [*EDITS, "sendMessage"], "rate": 0.2, "seconds": 8},
    "timeout": {"methods": EDITS, "rate": 0.1, "seconds": 8, "delay": 7.0},
}


async def rounds(boards: list[Board], n: int, rng: random.Random) -> None:
    async def one(board: Board) -> None:
        for _ in range(n):
            if not await board.race(rng, timeout=90, patience=PATIENCE):
                return

    await asyncio.gather(*(one(b) for b in boards))


async def test_matches_survive_faults(
    emu: Emulator,
    world: ObservedWorld,
    redis_server: RedisServer,
    redis_url: str,
    tmp_path: Path,
) -> None:
    n, replicas = scale(9, 60), scale(2, 3)
    rng = random.Random(5)
    t0 = time.monotonic()
    async with Cluster(emu, redis_url, tmp_path, replicas) as cluster:
        boards = await make_matches(world, n, "ft")
        await rounds(boards, 1, rng)

        # The Bot API misbehaves for a while: 429s, 5xx, timeouts longer than the client's.
        faults = world.faults
        for kind in FAULTS:
            faults.add(kind, **FAULTS[kind])
        await rounds(boards, 3, rng)
        # Faults are random: play on until each kind has happened, giving a kind whose
        # window closed before it fired another window (one in a hundred runs needed it).
        deadline = time.monotonic() + 60
        while not all(faults.injected.get(k, 0) > 0 for k in FAULTS):
            assert time.monotonic() < deadline, faults.injected
            for kind in FAULTS:
                live = [f for f in faults.active if f.kind == kind and f.until > faults.clock()]
                if not faults.injected.get(kind) and not live:
                    faults.add(kind, **FAULTS[kind])
            await rounds(boards, 1, rng)
        injected = dict(faults.injected)
        await asyncio.sleep(max([0.0] + [f.until - time.monotonic() + 1 for f in faults.active]))

        # A replica dies in the middle of a round and comes back.
        playing = asyncio.ensure_future(rounds(boards, 2, rng))
        await asyncio.sleep(0.5)
        cluster.bots[0].kill()
        await asyncio.sleep(1.0)
        await cluster.restart(0)
        await playing

        # Redis is killed mid-round and restarted from its AOF. The round runs with every
        # write fsynced: under ``everysec`` Redis answers writes it has put off writing while
        # an fsync is slow (up to 2 s, a busy disk), and a SIGKILL loses them, acknowledged
        # moves included (README, "What a crash loses"); here the store keeps what it said it
        # stored, so what is checked is that the bot loses nothing.
        await asyncio.to_thread(every_write_synced, redis_server)
        playing = asyncio.ensure_future(rounds(boards, 2, rng))
        await asyncio.sleep(0.3)
        await redis_server.arestart(hard=True, down_for=1.0)
        await playing

        # A player deletes their board: the next move brings it back as a new message.
        link = next(b for b in boards if len(b.seats) == 2 and b.seats[0].chat.type == "private")
        if not link.over():
            await deleted_board_comes_back(world, link, rng)
            # A player blocks the bot: the match goes on; back, they see it up to date.
            await blocked_player_comes_back(world, link, rng)

        # Everything is playable afterwards.
        faults.clear()
        more = scale(4, 300)  # a 15×15 Dots game can take 225 moves
        await asyncio.gather(*(play_on(b, more, random.Random(i)) for i, b in enumerate(boards)))
        for b in boards:
            await b.collect_popups(timeout=5)
        async with await storage.connect(redis_url) as store:
            verdicts = [verify(await store.matches.get(b.id), b, exact=False) for b in boards]
        stats = (cluster.proxy.sent, cluster.proxy.failed_over, cluster.proxy.bad_gateway)
    codes = [b.proc.returncode for b in cluster.bots if b.proc]
    print(
        f"\nfaults: {n} matches, injected {injected}, proxy sent/failed over/502 {stats}, "
        f"{sum(v.accepted for v in verdicts)} acknowledged moves, "
        f"{sum(v.unanswered for v in verdicts)} taps never answered, "
        f"{sum(v.status == 'finished' for v in verdicts)} finished, "
        f"{time.monotonic() - t0:.0f} s"
    )
    assert codes == [0] * replicas, codes
    if FULL:
        assert all(v.status == "finished" for v in verdicts)


def every_write_synced(server: RedisServer) -> None:
    """``appendfsync always`` until the server restarts (its command line says everysec)."""
    with redis.Redis(port=server.port) as client:
        client.config_set("appendfsync", "always")


async def play_on(board: Board, moves: int, rng: random.Random) -> None:
    """``moves`` more moves (or to the end), each by the player to move, each accepted."""
    for _ in range(moves):
        if await board.step(rng, timeout=60) is None:
            return


async def deleted_board_comes_back(world: ObservedWorld, board: Board, rng: random.Random) -> None:
    await board.same_version()
    gone = next(s for s in board.seats if "Your move" not in (board.view(s).get("caption") or ""))
    mover = next(s for s in board.seats if s is not gone)
    old = gone.msg
    world.bot_delete(gone.chat, old)
    assert await board.step(rng, only=mover) is not None
    deadline = time.monotonic() + 30
    while not board.locate(gone) or gone.msg == old:
        assert time.monotonic() < deadline, "the deleted board was not sent again"
        await asyncio.sleep(0.05)
    await board.same_version()


async def blocked_player_comes_back(world: ObservedWorld, board: Board, rng: random.Random) -> None:
    await board.same_version()
    if board.over():
        return
    away = next(s for s in board.seats if "Your move" not in (board.view(s).get("caption") or ""))
    mover = next(s for s in board.seats if s is not away)
    v = version(board.view(away))
    world.set_blocked(away.user, True)
    assert await board.step(rng, only=mover) is not None
    await asyncio.sleep(0.5)
    assert version(board.view(away)) == v  # not edited while blocked
    world.set_blocked(away.user, False)
    await board.watch.until(away.key, lambda m: finished(m) or version(m) != v)
