"""Who may open a board read-only (bot/webapp/access.py): its players, the members of the
group it is in (the bot asks getChatMember, which the emulator answers from its own
membership), and whoever holds an inline message's link; anyone else gets 403 on every read
(state, preview, live) and move, and nothing changes."""

from __future__ import annotations

import dataclasses
from urllib.parse import parse_qs, quote, urlsplit

import aiohttp
import pytest

from playground.client import MessageView
from tests.bot.helpers import stored_match, version, wait_message
from tests.fixtures.playground import ScenarioClient
from tests.webapp.conftest import MiniClient, dots_in_group, mini_client
from tests.webapp.signing import init_data

OPEN = "🖐 Open board"


def _has(m: MessageView, text: str) -> bool:
    return any(text in b.text for row in m.buttons for b in row)


async def _refused_everywhere(c: MiniClient, ref: str, v: int) -> None:
    status, body = await c.get(ref)
    assert (status, body["error"]) == (403, "not_entitled"), body
    status, body = await c.post(ref, "preview", {"move": "e5"})
    assert (status, body["error"]) == (403, "not_entitled"), body
    status, body = await c.post(ref, "move", {"version": v, "move": "e5"})
    assert status == 403, body
    url = f"{c.base}/app/api/match/{ref}/live?tma={quote(c.init_data)}"
    async with c.http.get(url) as r:
        assert r.status == 403 and (await r.json())["error"] == "not_entitled"


async def test_players_and_group_members_watch_others_are_refused(
    mpg: ScenarioClient, http: aiohttp.ClientSession, redis_url: str
) -> None:
    alice, bob, carol, group, board, ref = await dots_in_group(mpg, "alice", "bob", "carol")
    dave = await mpg.user("dave", lang="en")
    v = version(board)
    assert v is not None
    for user, seat in ((alice, 0), (bob, 1), (carol, None)):
        status, body = await mini_client(mpg, http, user.id).get(ref)
        assert status == 200 and body["seat"] == seat, body
    status, body = await mini_client(mpg, http, carol.id).post(
        ref, "move", {"version": v, "move": "e5"}
    )
    assert (status, body["error"]) == (403, "err.not_a_player")  # watching is read-only

    await _refused_everywhere(mini_client(mpg, http, dave.id), ref, v)

    # Carol leaves the group: Telegram (the emulator) now says "left", and so does the app.
    world = mpg.emulator.world
    chat = world.resolve_chat(group.id)
    world.remove_member(chat, world.users[carol.id], world.users[alice.id])
    await _refused_everywhere(mini_client(mpg, http, carol.id), ref, v)
    assert (await stored_match(redis_url, board)).version == v


@pytest.fixture
async def impg(mpg: ScenarioClient) -> ScenarioClient:
    """The Mini App bot with a storage chat for inline pictures (see tests/bot/test_inline)."""
    world = mpg.emulator.world
    keeper = world.add_user("keeper")
    storage_chat = world.create_group("Tetrad storage", keeper, [], with_bot=True)
    mpg._settings = dataclasses.replace(mpg._settings, storage_chats=(storage_chat.id,))
    await mpg.restart_bot()
    return mpg


async def test_the_inline_link_lets_its_holder_watch(
    impg: ScenarioClient, http: aiohttp.ClientSession
) -> None:
    pg = impg
    await pg.set_limits(enabled=False)
    alice, bob, erin = await pg.user("alice"), await pg.user("bob"), await pg.user("erin")
    friends = await pg.group("friends", members=[alice, bob, erin], bot=False)
    posted = await alice.choose(await alice.inline("", friends), "Dots")
    lobby = await wait_message(friends, posted.message_id, lambda m: _has(m, "Join"))
    await bob.press("Join", lobby, friends)
    board = await wait_message(
        friends, posted.message_id, lambda m: "To move" in m.body and _has(m, OPEN)
    )
    link = board.find_button(OPEN).url
    assert link is not None and link.startswith(f"https://t.me/{pg.bot_username}/board?")
    param = parse_qs(urlsplit(link).query)["startapp"][0]
    ref, _, key = param.partition("-")
    assert len(key) == 16, param
    v = version(board)
    assert v is not None

    # Erin is in a chat the bot is not in: only the link (signed into her launch data) counts.
    holder = mini_client(pg, http, erin.id)
    holder.init_data = init_data(pg.emulator.world.token, erin.id, "Erin", start_param=param)
    status, body = await holder.get(ref)
    assert status == 200 and body["seat"] is None and body["version"] == v, body
    for forged in (ref, f"{ref}-{'0' * 16}", f"{ref}-{key[:-1]}"):
        c = mini_client(pg, http, erin.id)
        c.init_data = init_data(pg.emulator.world.token, erin.id, "Erin", start_param=forged)
        await _refused_everywhere(c, ref, v)
