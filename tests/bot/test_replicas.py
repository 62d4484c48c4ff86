"""Two bot processes in webhook mode behind one endpoint, sharing one real Redis.

A small round-robin reverse proxy (what nginx or Traefik does in front of the replicas) spreads
the emulator's concurrent webhook posts over the two processes, and now and then delivers an
update to both, as Telegram does when a reply is late. People tap several buttons of the same
board at once; every move must be applied exactly once, and the AI must think once per move.
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import aiohttp
import pytest

import engine
import storage
from playground.client import ChatHandle, MessageView, UserHandle
from playground.server import Emulator
from tests.bot.helpers import buttons, finished, message, version, wait_message
from tests.bot.test_webhook_mode import SECRET
from tests.fixtures.playground import ScenarioClient
from tests.fixtures.ports import free_port
from tests.reliability.cluster import START_TIMEOUT, Proxy

REPLICAS = 2
LINK = re.compile(r"https://t\.me/\S+\?start=[A-Za-z0-9_-]+")
AI_COUNT = re.compile(r'^tetrad_ai_think_seconds_count\{level="\w+"\} (\S+)$', re.M)
UPDATES = re.compile(r'^tetrad_updates_total\{type="\w+"\} (\S+)$', re.M)


@pytest.fixture
async def replicas(
    emulator: Emulator, redis_url: str, tmp_path: Path
) -> AsyncIterator[tuple[ScenarioClient, Proxy, list[int]]]:
    emulator.world.limits.enabled = False  # flood limits have their own tests
    ports = [free_port() for _ in range(REPLICAS)]
    proxy = Proxy([f"http://127.0.0.1:{p}/tg/hook" for p in ports], duplicate_every=5)
    proxy_url = await proxy.start()
    procs = []
    try:
        for k, port in enumerate(ports):
            env = dict(
                os.environ,
                TELEGRAM_BOT_TOKEN=emulator.world.token,
                TELEGRAM_API_URL=emulator.url,
                REDIS_URL=redis_url,
                WEBHOOK_URL=proxy_url,
                WEBHOOK_SECRET=SECRET,
                PORT=str(port),
                AI_TIME_SCALE="0.05",
                AI_SHOW_AFTER="60",
                GROUP_EDITS_PER_MINUTE="6000",
                # Warm before the first update, as deployed; one AI worker is enough for one
                # game against the bot, and Точки и квадраты routes no curve.
                AI_WORKERS="1",
                ROUTE_WORKERS="0",
            )
            log = open(tmp_path / f"replica{k}.log", "wb")  # noqa: SIM115 - closed with the process
            procs.append(
                (
                    subprocess.Popen(
                        [sys.executable, "-m", "bot", "run"], env=env, stdout=log, stderr=log
                    ),
                    log,
                )
            )
        await _wait_healthy(ports, procs, tmp_path)
        client = ScenarioClient(emulator.url, timeout=20)
        client.emulator = emulator
        await client.connect()
        try:
            yield client, proxy, ports
        finally:
            await client.close()
    finally:
        for proc, _ in procs:
            proc.terminate()
        for proc, log in procs:
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            log.close()
        await proxy.stop()
    for proc, _ in procs:  # a graceful stop: SIGTERM ends the process cleanly
        assert proc.returncode == 0, (tmp_path / "replica0.log").read_text()[-3000:]


async def _wait_healthy(ports: list[int], procs: list, tmp_path: Path) -> None:  # type: ignore[type-arg]
    deadline = time.monotonic() + START_TIMEOUT
    async with aiohttp.ClientSession() as http:
        for k, port in enumerate(ports):
            while True:
                if procs[k][0].poll() is not None:
                    raise AssertionError((tmp_path / f"replica{k}.log").read_text()[-3000:])
                try:
                    async with http.get(f"http://127.0.0.1:{port}/healthz") as r:
                        if r.status == 200:
                            break
                except aiohttp.ClientError:
                    pass
                assert time.monotonic() < deadline, (
                    f"replica {k} did not start:\n"
                    + (tmp_path / f"replica{k}.log").read_text()[-3000:]
                )
                await asyncio.sleep(0.1)


async def _metric(ports: list[int], pattern: re.Pattern[str]) -> list[float]:
    out = []
    async with aiohttp.ClientSession() as http:
        for port in ports:
            async with http.get(f"http://127.0.0.1:{port}/metrics") as r:
                out.append(sum(float(x) for x in pattern.findall(await r.text())))
    return out


async def _board(chat: ChatHandle) -> MessageView:
    for m in reversed(await chat.bot_messages()):
        if m.media is not None and m.media.kind == "photo":
            return m
    raise AssertionError(f"no board in {chat}")


async def _race(
    boards: dict[int, tuple[UserHandle, ChatHandle, int]],
    mover: Callable[[dict[int, MessageView]], int | None],
    rng: random.Random,
) -> int:
    """Play to the end: each round the player to move taps up to three buttons of one board at
    once while the other taps too; returns the number of rounds."""
    rounds = 0
    while True:
        deadline = time.monotonic() + 20
        while True:  # every board of the match shows the same version (or the end)
            views = {uid: await message(chat, mid) for uid, (_, chat, mid) in boards.items()}
            if len({version(m) for m in views.values()}) == 1:
                break
            assert time.monotonic() < deadline, [m.body for m in views.values()]
            await asyncio.sleep(0.05)
        main = views[next(iter(views))]
        if finished(main):
            return rounds
        v = version(main)
        who = mover(views)
        if who is None:  # the bot is thinking: its move is not a round
            _, chat, mid = boards[next(iter(boards))]
            await wait_message(chat, mid, lambda m, v=v: finished(m) or version(m) != v)
            continue
        user, chat, mid = boards[who]
        plays = buttons(views[who], "p")
        taps = [
            user.press_button(r, c, views[who], chat, settle=False)
            for r, c in rng.sample(plays, min(3, len(plays)))
        ]
        for uid, (other, ochat, _) in boards.items():
            if uid != who and buttons(views[uid], "p"):
                r, c = buttons(views[uid], "p")[0]
                taps.append(other.press_button(r, c, views[uid], ochat, settle=False))
        await asyncio.gather(*taps)
        await wait_message(chat, mid, lambda m, v=v: finished(m) or version(m) != v)
        rounds += 1


def _replay(record: dict) -> tuple[engine.Game, list[int]]:  # type: ignore[type-arg]
    """The stored game replayed move by move from a fresh one; who played each move."""
    stored = engine.load(record["game"])
    fresh = engine.new(record["kind"], **record["opt"])
    players = []
    for move in stored.moves:
        players.append(fresh.turn)
        fresh.play(move)
    assert fresh.to_json() == stored.to_json()
    return fresh, players


async def test_two_replicas_apply_every_move_exactly_once(
    replicas: tuple[ScenarioClient, Proxy, list[int]], redis_url: str
) -> None:
    pg, proxy, ports = replicas
    alice, bob = await pg.user("alice"), await pg.user("bob")
    carol, dave, erin = await pg.user("carol"), await pg.user("dave"), await pg.user("erin")
    rng = random.Random(12)

    # A link challenge: one board in each player's private chat.
    await alice.send("/challenge boxes")
    link = LINK.search((await alice.private.last_message()).body)
    assert link
    await bob.open_link(link.group(0))
    a_board, b_board = await _board(alice.private), await _board(bob.private)
    link_boards = {
        alice.id: (alice, alice.private, a_board.message_id),
        bob.id: (bob, bob.private, b_board.message_id),
    }

    def link_mover(views: dict[int, MessageView]) -> int:
        return next(uid for uid, m in views.items() if "Your move" in m.body)

    # A group game: one board, two players.
    arena = await pg.group("arena", members=[carol, dave])
    await carol.send("/challenge boxes", arena)
    g_board = await _board(arena)
    await dave.press("Join", g_board, arena)
    g_board = await wait_message(arena, g_board.message_id, lambda m: bool(buttons(m, "p")))
    group_boards = {
        carol.id: (carol, arena, g_board.message_id),
        dave.id: (dave, arena, g_board.message_id),
    }

    def group_mover(views: dict[int, MessageView]) -> int:
        return carol.id if "To move: Carol" in next(iter(views.values())).body else dave.id

    # A game against the bot.
    await erin.send("/new")
    await erin.press("⚡ Boxes vs bot")
    e_board = await wait_message(
        erin.private, (await _board(erin.private)).message_id, lambda m: bool(m.buttons)
    )
    ai_boards = {erin.id: (erin, erin.private, e_board.message_id)}

    def erin_mover(views: dict[int, MessageView]) -> int | None:
        return None if "To move: Tetrad bot" in views[erin.id].body else erin.id

    rounds = await asyncio.gather(
        _race(link_boards, link_mover, rng),
        _race(group_boards, group_mover, random.Random(7)),
        _race(ai_boards, erin_mover, random.Random(3)),
    )
    await pg.settle()

    async with await storage.connect(redis_url) as store:
        found: dict[int, dict[str, Any]] = {}
        for chat in (alice.private, arena, erin.private):
            ids = await _matches_shown_in(store, chat.id)
            assert len(ids) == 1, ids
            record = await store.matches.get(ids[0])
            assert record is not None
            found[chat.ref] = record
    assert set(found) == {alice.private.ref, arena.ref, erin.private.ref}, found

    # Human games: one move per round, no more, no less, and the record replays exactly.
    for ref, n in ((alice.private.ref, rounds[0]), (arena.ref, rounds[1])):
        record = found[ref]
        game, _ = _replay(record)
        assert record["status"] == "finished" and game.over
        assert game.ply == n == 24, (ref, game.ply, n)
    # The game against the bot: Erin's moves are the rounds; the bot thought once per move.
    record = found[erin.private.ref]
    game, players = _replay(record)
    assert game.over and players.count(0) == rounds[2]
    ai_moves = players.count(1)
    assert ai_moves > 0
    assert sum(await _metric(ports, AI_COUNT)) == ai_moves
    # Both replicas did real work, and duplicates were delivered to both.
    assert all(n > 20 for n in proxy.sent), proxy.sent
    assert proxy.duplicates > 5
    assert all(n > 0 for n in await _metric(ports, UPDATES))
    # Every board shows the end, the same version in both private chats.
    a_end, b_end = await _board(alice.private), await _board(bob.private)
    assert finished(a_end) and finished(b_end)
    assert "Move 24:" in (a_end.caption or "") and "Move 24:" in (b_end.caption or "")


async def _matches_shown_in(store: storage.Store, chat_id: int) -> list[str]:
    """Finished matches leave the chat index; find them by scanning the match keys."""
    out = []
    async for key in store.client.scan_iter(match="t:m:{*}"):
        name = key.decode()
        if name.endswith("}"):
            record = await store.matches.get(name[len("t:m:{") : -1])
            if record and "game" in record and chat_id in record.get("chats", []):
                out.append(record["id"])
    return out
