"""The Mini App's JSON API against the real bot in the playground: it reads the match as
each viewer may see it, moves through the tap's path (the chat board is edited), refuses
what a tap would refuse with the HTTP status of the reason, refuses unsigned requests, and
a move racing a button tap applies exactly once."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qsl, urlencode

import aiohttp

from tests.bot.helpers import buttons, quick_game, stored_match, version, wait_message
from tests.fixtures.playground import ScenarioClient
from tests.webapp.conftest import MiniClient, dots_in_group, mini_client
from tests.webapp.signing import init_data


async def test_read_move_and_refusals(
    mpg: ScenarioClient, http: aiohttp.ClientSession, redis_url: str
) -> None:
    alice, bob, carol, group, board, ref = await dots_in_group(mpg, "alice", "bob", "carol")
    a, b, c = (mini_client(mpg, http, u.id) for u in (alice, bob, carol))

    status, mine = await a.get(ref)
    assert status == 200, mine
    assert (mine["game"], mine["seat"], mine["turn"], mine["over"]) == ("dots", 0, 0, False)
    assert 'data-game="dots"' in mine["svg"] and "data-grid=" in mine["svg"]
    assert "resign" in {x["action"] for x in mine["actions"]}
    headers = {**a.headers(), "Accept-Encoding": "gzip"}
    async with http.get(f"{a.base}/app/api/match/{ref}", headers=headers) as r:
        assert r.headers.get("Content-Encoding") == "gzip"  # the SVG travels compressed
    status, watching = await c.get(ref)
    assert status == 200 and watching["seat"] is None and watching["actions"] == []
    v = mine["version"]

    # Not the mover, not a player, a stale version, an illegal move: refused, nothing changes.
    assert (await b.post(ref, "move", {"version": v, "move": "e5"}))[0] == 403
    assert (await c.post(ref, "move", {"version": v, "move": "e5"}))[0] == 403
    status, stale = await a.post(ref, "move", {"version": v - 1, "move": "e5"})
    assert status == 409 and stale["error"] == "err.stale"
    assert (await a.post(ref, "move", {"version": v, "move": "zz99"}))[0] == 422
    assert (await a.post(ref, "move", {"version": "x", "move": "e5"}))[0] == 400
    assert (await a.post(ref, "preview", {"move": "zz99"}))[0] == 422
    assert (await a.get("nosuchid"))[0] == 404
    assert (await stored_match(redis_url, board)).version == v

    status, preview = await a.post(ref, "preview", {"move": "e5"})
    assert status == 200 and preview["svg"].startswith("<g")
    status, moved = await a.post(ref, "move", {"version": v, "move": "e5"})
    assert status == 200, moved
    assert moved["version"] == v + 1 and moved["turn"] == 1 and moved["last"] == "e5"
    # The chat board shows it as after a tap.
    edited = await wait_message(group, board.message_id, lambda m: version(m) == v + 1)
    assert "e5" in (edited.caption or ""), edited.caption
    status, theirs = await b.get(ref)
    assert theirs["turn"] == 1 and theirs["seat"] == 1


async def test_unsigned_requests_change_nothing(
    mpg: ScenarioClient, http: aiohttp.ClientSession, redis_url: str
) -> None:
    alice, bob, _group, board, ref = await dots_in_group(mpg, "alice", "bob")
    a = mini_client(mpg, http, alice.id)
    token = mpg.emulator.world.token
    v = version(board)
    move = {"version": v, "move": "e5"}
    other_bot = "654321:ZYXWVUTSRQPONMLKJIHGFEDCBAzyxwvutsr"
    as_bob = dict(parse_qsl(init_data(token, bob.id, "Bob")))
    as_bob["user"] = as_bob["user"].replace(str(bob.id), str(alice.id))  # Bob's data, Alice's id
    cases = {
        "forged": init_data(other_bot, alice.id),
        "expired": init_data(token, alice.id, auth_date=mpg.clock() - 25 * 3600),
        "other-user": urlencode(as_bob),
        "malformed": "user=alice&hash=1&hash=2",
        "missing": "",
    }
    for name, data in cases.items():
        for what in ("move", "action", "preview"):
            status, body = await a.post(ref, what, move | {"action": "resign"}, init=data)
            assert status == 401, (name, what, body)
            assert set(body) == {"error", "message"} and body["message"], body
        status, body = await a.get(ref, init=data)
        assert status == 401, (name, body)
    async with http.get(
        f"{a.base}/app/api/match/{ref}", headers={"Authorization": "Bearer x"}
    ) as r:
        assert r.status == 401
    after = await stored_match(redis_url, board)
    assert after.version == v and not after.game.moves


async def test_a_mini_app_move_racing_a_tap_applies_once(
    mpg: ScenarioClient, http: aiohttp.ClientSession, redis_url: str
) -> None:
    alice, _bob, group, board, ref = await dots_in_group(mpg, "alice", "bob")
    a = mini_client(mpg, http, alice.id)
    v = version(board)
    assert v is not None
    r, c = buttons(board, "p")[0]
    tap, api = await asyncio.gather(
        alice.press_button(r, c, board, group), a.post(ref, "move", {"version": v, "move": "e5"})
    )
    match = await stored_match(redis_url, board)
    tapped = tap is None or not tap.text
    assert match.version == v + 1 and len(match.game.moves) == 1
    assert tapped != (api[0] == 200), (tap, api)
    if api[0] != 200:
        assert api[0] in (409, 422), api  # stale, or the point is taken
    elif tap is not None:
        assert "changed" in tap.text, tap
    await wait_message(group, board.message_id, lambda m: version(m) == v + 1)


async def test_a_move_against_the_bot_gets_its_answer(
    mpg: ScenarioClient, http: aiohttp.ClientSession
) -> None:
    """The effects of a Mini App move are a tap's: the bot's own move follows."""
    alice = await mpg.user("alice")
    board = await quick_game(alice, "⚡ Dots vs bot")
    ref = (board.buttons[0][0].callback_data or "").split(":")[1]
    a = mini_client(mpg, http, alice.id)
    status, state = await a.get(ref)
    assert status == 200 and state["seat"] == 0
    if state["turn"] != 0:  # the bot moved first
        state = await _until(a, ref, lambda s: s["turn"] == 0)
    status, moved = await a.post(ref, "move", {"version": state["version"], "move": "c3"})
    assert status == 200, moved
    answered = await _until(a, ref, lambda s: s["turn"] == 0 and s["version"] > moved["version"])
    assert answered["last"] not in ("", "c3")


async def _until(a: MiniClient, ref: str, ok: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    for _ in range(300):  # generous: the bot thinks on a busy machine
        status, state = await a.get(ref)
        if status == 200 and ok(state):
            return state
        await asyncio.sleep(0.2)
    raise AssertionError(f"not reached: {state}")
