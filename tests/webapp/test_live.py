"""The live channel: a viewer's stream gets the match now and after each change, whoever
made it (a button tap in the chat here); at most a few streams per person; the stream
ends when the match does."""

from __future__ import annotations

import asyncio
import json
from typing import Any
from urllib.parse import quote

import aiohttp

from bot.webapp.server import LIVE_PER_USER
from tests.bot.helpers import buttons, version
from tests.fixtures.playground import ScenarioClient
from tests.webapp.conftest import MiniClient, dots_in_group, mini_client

WAIT = 30.0  # generous: a busy machine


async def _events(response: aiohttp.ClientResponse) -> Any:
    """(event name, data) of a Server-Sent Events stream, as they come."""
    name, data = "message", ""
    async for raw in response.content:
        line = raw.decode().rstrip("\n")
        if line.startswith("event: "):
            name = line[7:]
        elif line.startswith("data: "):
            data += line[6:]
        elif line == "" and data:
            yield name, json.loads(data)
            name, data = "message", ""


def _live_url(c: MiniClient, ref: str) -> str:
    return f"{c.base}/app/api/match/{ref}/live?tma={quote(c.init_data)}"


async def test_live_updates_limits_and_the_end(
    mpg: ScenarioClient, http: aiohttp.ClientSession
) -> None:
    alice, bob, carol, group, board, ref = await dots_in_group(mpg, "alice", "bob", "carol")
    a, c = mini_client(mpg, http, alice.id), mini_client(mpg, http, carol.id)
    v = version(board)
    assert v is not None
    async with http.get(_live_url(c, ref)) as stream:
        assert stream.status == 200
        assert stream.headers["Content-Type"].startswith("text/event-stream")
        events = _events(stream)
        name, first = await asyncio.wait_for(anext(events), WAIT)
        assert name == "state" and first["version"] == v and first["seat"] is None

        # A move tapped in the chat reaches the page.
        r, col = buttons(board, "p")[0]
        await alice.press_button(r, col, board, group)
        name, moved = await asyncio.wait_for(anext(events), WAIT)
        assert name == "state" and moved["version"] == v + 1 and moved["turn"] == 1

        # At most LIVE_PER_USER streams per person: the next is refused, others' are not.
        extra = [await http.get(_live_url(c, ref)) for _ in range(LIVE_PER_USER - 1)]
        try:
            async with http.get(_live_url(c, ref)) as refused:
                assert refused.status == 429
                assert (await refused.json())["error"] == "too_many"
            async with http.get(_live_url(a, ref)) as alices:
                assert alices.status == 200
        finally:
            for s in extra:
                s.close()

        # Bob resigns from his Mini App: the stream shows the end and closes.
        b = mini_client(mpg, http, bob.id)
        status, body = await b.post(ref, "action", {"version": v + 1, "action": "resign"})
        assert status == 200 and body["over"], body
        name, over = await asyncio.wait_for(anext(events), WAIT)
        assert name == "state" and over["over"] and over["status"] == "finished"
        name, _ = await asyncio.wait_for(anext(events), WAIT)
        assert name == "end"
        assert await asyncio.wait_for(stream.content.read(), WAIT) == b""


async def test_live_needs_signed_data(mpg: ScenarioClient, http: aiohttp.ClientSession) -> None:
    alice, _bob, _group, _board, ref = await dots_in_group(mpg, "alice", "bob")
    a = mini_client(mpg, http, alice.id)
    async with http.get(f"{a.base}/app/api/match/{ref}/live?tma=user%3D1%26hash%3D0") as r:
        assert r.status == 401
    async with http.get(f"{a.base}/app/api/match/{ref}/live") as r:
        assert r.status == 401
    async with http.get(_live_url(a, "nosuchid")) as r:
        assert r.status == 404
