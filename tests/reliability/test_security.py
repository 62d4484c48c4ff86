"""Attacks: only seated players act; a button cannot reach another chat's match; challenge
tokens cannot be guessed or used twice; the webhook wants its secret; no secret is logged."""

from __future__ import annotations

import asyncio
import json
import random
import re
import secrets
import string
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp
import redis

import storage
from playground.server import Emulator
from tests.fixtures.redis import RedisServer
from tests.reliability.cluster import HOOK_PATH, NO_WORKERS, SECRET, SECRET_HEADER, Cluster
from tests.reliability.people import (
    LINK,
    Board,
    ObservedWorld,
    group_match,
    link_match,
    version,
    with_op,
)

NOT_A_PLAYER = "only its players can move"
BAD_BUTTON = "This button does not work any more."
NO_MATCH = "This game no longer exists."
TOKEN = re.compile(r"\?start=([A-Za-z0-9_-]+)")


async def _record(redis_url: str, match_id: str) -> dict[str, Any] | None:
    async with await storage.connect(redis_url) as store:
        return await store.matches.get(match_id)


def _bot_texts(world: ObservedWorld, user: Any) -> list[str]:
    return [m.text or "" for m in world.chats[user.id].messages.values() if m.sender != user.id]


def _count(world: ObservedWorld, user: Any, text: str) -> int:
    return sum(text in r for r in _bot_texts(world, user))


async def _replies(
    world: ObservedWorld, user: Any, enough: Callable[[list[str]], bool], timeout: float = 60.0
) -> list[str]:
    """The bot's messages in the user's private chat once ``enough`` holds for them: a bounded
    wait for what must come, never a fixed sleep before looking for what must not."""
    deadline = time.monotonic() + timeout
    while not enough(replies := _bot_texts(world, user)):
        if time.monotonic() > deadline:
            raise AssertionError(f"the bot's replies so far: {replies}")
        await asyncio.sleep(0.05)
    return replies


async def _forge(board: Board, user: Any, data: str) -> str:
    seat = board.seats[0]
    tap = board.press(user, seat, 0, 0, data)
    popup = await board.watch.popup(tap.query, 20)
    assert popup is not None, f"no answer to {data}"
    return str(popup["text"])


async def test_only_players_act_and_buttons_stay_in_their_chat(
    emu: Emulator, world: ObservedWorld, redis_url: str, tmp_path: Path
) -> None:
    async with Cluster(emu, redis_url, tmp_path, 1, **NO_WORKERS):
        a, b, s = world.add_user("sa"), world.add_user("sb"), world.add_user("ss")
        c, d = world.add_user("sc"), world.add_user("sd")
        here = await group_match(world, "boxes", "b.3.2", [a, b], [s], "here")
        there = await group_match(world, "dots", "d.q.-", [c, d], [a, s], "there")
        v = version(here.main())
        before_here = await _record(redis_url, here.id)
        before_there = await _record(redis_url, there.id)
        code = with_op(here.main(), "p")[0][2].split(":")[3]

        # A spectator (a member of the group without a seat), with the current version.
        for data in (
            f"p:{here.id}:{v}:{code}",
            f"c:{here.id}:{v}:menu",
            f"a:{here.id}:{v}:R",
            f"a:{here.id}:{v}:d",
            f"l:{here.id}:{v}",
        ):
            answer = await _forge(here, s, data)
            assert answer and answer != "", (data, answer)
        world.user_send(s, here.seats[0].chat, "/m a1-b1")
        # A player of one match, with valid data of it, pressed under the other chat's board.
        there_v = version(there.main())
        there_code = with_op(there.main(), "p")[0][2].split(":")[3]
        for user, board, data in (
            (c, here, f"p:{there.id}:{there_v}:{there_code}"),  # c plays `there`, not `here`
            (a, there, f"p:{here.id}:{v}:{code}"),  # a plays `here`; forged under `there`
            (a, there, f"c:{here.id}:{v}:menu"),
        ):
            if user.id not in board.seats[0].chat.members:
                world.add_member(board.seats[0].chat, user, board.seats[0].user)
            assert await _forge(board, user, data) == BAD_BUTTON, data
        # /record of a match shown elsewhere reveals nothing: "no such game", and no file.
        gone = _count(world, c, NO_MATCH)
        world.user_send(c, world.chats[c.id], f"/record {here.id}")
        await _replies(world, c, lambda rs: sum(NO_MATCH in r for r in rs) > gone)
        sent = [m for m in world.chats[c.id].messages.values() if m.media_kind == "document"]
        assert sent == []

        assert await _record(redis_url, here.id) == before_here
        assert await _record(redis_url, there.id) == before_there
        # The rightful player's tap still works.
        seat = next(x for x in here.seats if x.user.id in (a.id, b.id))
        assert (await here.step(random.Random(1))) is not None
        del seat


async def test_challenge_tokens_are_unguessable_and_single_use(
    emu: Emulator, world: ObservedWorld, redis_url: str, tmp_path: Path
) -> None:
    async with await storage.connect(redis_url) as store:
        tokens = {await store.challenges.create({"m": "x"}, ttl=60) for _ in range(2000)}
    assert len(tokens) == 2000
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{22}", t) for t in tokens)  # 22 × 6 bits ≥ 128
    counts = [0] * 64
    alphabet = string.ascii_uppercase + string.ascii_lowercase + string.digits + "-_"
    for t in tokens:
        for ch in t[:21]:  # the last character carries only 2 of the 128 bits
            counts[alphabet.index(ch)] += 1
    expected = 2000 * 21 / 64
    assert max(counts) < 1.4 * expected and min(counts) > 0.6 * expected  # uniform

    async with Cluster(emu, redis_url, tmp_path, 1, **NO_WORKERS):
        a, b, c = world.add_user("ta"), world.add_user("tb"), world.add_user("tc")
        board = await link_match(world, "boxes", a, b)
        texts = [m.text or "" for m in world.chats[a.id].messages.values() if m.sender != a.id]
        token = next(TOKEN.search(t).group(1) for t in texts if TOKEN.search(t))  # type: ignore[union-attr]
        assert len(token) == 22
        async with await storage.connect(redis_url) as store:
            keys_before = {k async for k in store.client.scan_iter(match="t:m:*")}
            record_before = await store.matches.get(board.id)
        # Guesses: well-formed random tokens, and the real one with a character changed.
        guesses = [secrets.token_urlsafe(16) for _ in range(40)]
        guesses += [token[:-1] + ("A" if token[-1] != "A" else "B"), token.lower()]
        for guess in guesses:
            world.user_send(c, world.chats[c.id], f"/start {guess}")
        # The real link again, by someone else: used.
        link = next(LINK.search(t).group(0) for t in texts if LINK.search(t))  # type: ignore[union-attr]
        world.open_link(c, link)
        replies = await _replies(
            world,
            c,
            lambda rs: (
                sum("not valid" in r for r in rs) >= len(guesses)
                and any("already been used" in r for r in rs)
            ),
        )
        assert sum("not valid" in r for r in replies) == len(guesses), replies
        assert any("already been used" in r for r in replies), replies
        async with await storage.connect(redis_url) as store:
            assert {k async for k in store.client.scan_iter(match="t:m:*")} == keys_before
            record = await store.matches.get(board.id)
        assert record == record_before
        assert [s["u"] for s in record["seats"]] == [a.id, b.id]  # type: ignore[index]


async def test_webhook_wants_the_secret(
    emu: Emulator, world: ObservedWorld, redis_url: str, tmp_path: Path
) -> None:
    async with Cluster(emu, redis_url, tmp_path, 1, **NO_WORKERS) as cluster:
        bot = cluster.bots[0]
        user = world.add_user("wa")
        user.started = True  # has a chat with the bot, so a reply can reach them
        chat = world.chats[user.id]
        update = {
            "update_id": 10**7,
            "message": {
                "message_id": 1,
                "date": 1_700_000_000,
                "chat": world.chat_api(chat),
                "from": user.to_api(),
                "text": "/help",
                "entities": [{"type": "bot_command", "offset": 0, "length": 5}],
            },
        }
        before = await cluster.metric("tetrad_updates_total")
        async with aiohttp.ClientSession() as http:
            for headers, status in (
                ({}, 401),
                ({SECRET_HEADER: "wrong"}, 403),
                ({SECRET_HEADER: SECRET[:-1]}, 403),
                ({SECRET_HEADER: SECRET + "x"}, 403),
                ({SECRET_HEADER: ""}, 403),
            ):
                async with http.post(bot.url + HOOK_PATH, json=update, headers=headers) as r:
                    assert r.status == status, (headers, r.status)
            # refused at the door (the webhook answers after handling): none was handled
            assert await cluster.metric("tetrad_updates_total") == before
            assert not [m for m in chat.messages.values() if m.sender != user.id]
            async with http.post(
                bot.url + HOOK_PATH, json=update, headers={SECRET_HEADER: SECRET}
            ) as r:
                assert r.status == 200
        assert await cluster.metric("tetrad_updates_total") == before + 1
        assert [m for m in chat.messages.values() if m.sender != user.id]


async def test_no_secret_in_the_logs(
    emu: Emulator,
    world: ObservedWorld,
    redis_server: RedisServer,
    redis_url: str,
    tmp_path: Path,
) -> None:
    """A run at DEBUG level with a password on Redis: moves, Bot API failures, Redis going
    away, refused webhook requests and bad updates; then the whole log is searched."""
    password = "R3dis-" + secrets.token_urlsafe(12)

    def add_user() -> None:
        with redis.Redis(port=redis_server.port) as r:
            r.execute_command("ACL", "SETUSER", "tetrad", "on", f">{password}", "~*", "&*", "+@all")

    add_user()
    url = f"redis://tetrad:{password}@127.0.0.1:{redis_server.port}/0"
    async with Cluster(emu, url, tmp_path, 1, LOG_LEVEL="DEBUG") as cluster:
        bot = cluster.bots[0]
        a, b = world.add_user("la"), world.add_user("lb")
        board = await group_match(world, "boxes", "b.3.2", [a, b], [], "logs")
        rng = random.Random(2)
        await board.step(rng)
        world.faults.add("5xx", methods=["editMessageMedia"], seconds=3)
        world.faults.add("429", methods=["sendMessage"], seconds=3)
        await board.step(rng)
        world.user_send(a, world.chats[a.id], "/help")
        await asyncio.sleep(3.5)
        await redis_server.arestart(hard=True, down_for=0.5)
        add_user()
        await board.step(rng, timeout=90)
        async with aiohttp.ClientSession() as http:
            for headers in ({}, {SECRET_HEADER: "nope"}, {SECRET_HEADER: SECRET}):
                async with http.post(bot.url + HOOK_PATH, data=b"{", headers=headers) as r:
                    await r.read()
            bad = json.dumps({"update_id": 1, "message": {"chat": [], "from": "x"}})
            async with http.post(
                bot.url + HOOK_PATH, data=bad, headers={SECRET_HEADER: SECRET}
            ) as r:
                assert r.status == 400
    logs = cluster.logs()
    token = world.token
    assert "DEBUG" in logs  # the run really logged at DEBUG
    for secret, what in (
        (token, "bot token"),
        (token.split(":", 1)[1], "bot token's secret part"),
        (SECRET, "webhook secret"),
        (password, "Redis password"),
    ):
        assert secret not in logs, f"the {what} appears in the log"
