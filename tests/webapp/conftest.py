"""The real bot with its Mini App served (MINIAPP_URL set, on a free port), polling the
playground as in ``pg``; and a client of the Mini App's API acting as one person."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from playground.server import Emulator
from tests.bot.helpers import wait_message
from tests.fixtures.playground import ScenarioClient, bot_settings, scenario
from tests.fixtures.ports import free_port
from tests.webapp.signing import init_data


class MiniClient:
    """The Mini App's API as one person's page calls it."""

    def __init__(self, http: aiohttp.ClientSession, base: str, token: str, user: int) -> None:
        self.http, self.base, self.token, self.user = http, base, token, user
        self.init_data = init_data(token, user, f"user{user}")

    def headers(self, init: str | None = None) -> dict[str, str]:
        return {"Authorization": f"tma {self.init_data if init is None else init}"}

    async def get(self, ref: str, **kw: Any) -> tuple[int, dict[str, Any]]:
        async with self.http.get(
            f"{self.base}/app/api/match/{ref}", headers=self.headers(**kw)
        ) as r:
            return r.status, await r.json()

    async def post(self, ref: str, what: str, body: Any, **kw: Any) -> tuple[int, dict[str, Any]]:
        url = f"{self.base}/app/api/match/{ref}/{what}"
        async with self.http.post(url, json=body, headers=self.headers(**kw)) as r:
            return r.status, await r.json()


@pytest.fixture
async def mpg(emulator: Emulator, redis_url: str) -> AsyncIterator[ScenarioClient]:
    port = free_port()
    settings = dataclasses.replace(
        bot_settings(emulator, redis_url),
        miniapp_url=f"http://127.0.0.1:{port}/app/",
        miniapp_short_name="board",
        port=port,
    )
    assert settings.miniapp_url is not None
    emulator.world.set_mini_app(settings.miniapp_url, "board")  # BotFather's /newapp
    async with scenario(emulator, settings) as client:
        yield client


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=60)) as session:
        yield session


def app_base(pg: ScenarioClient) -> str:
    return f"http://127.0.0.1:{pg._settings.port}"


def mini_client(pg: ScenarioClient, http: aiohttp.ClientSession, user: int) -> MiniClient:
    return MiniClient(http, app_base(pg), pg.emulator.world.token, user)


DOTS = ("Dots", "Small 10×10", "Next »")
BOXES = ("Dots and Boxes", "3×3", "Next »")


async def dots_in_group(pg: ScenarioClient, *names: str) -> tuple[Any, ...]:
    """A started 10×10 Dots match between the first two of ``names`` in a group of all of
    them: (users..., group, board message, match id)."""
    return await in_group(pg, DOTS, *names)


async def in_group(pg: ScenarioClient, path: tuple[str, ...], *names: str) -> tuple[Any, ...]:
    """A two-player match of the /new menu's ``path`` (see :func:`dots_in_group`)."""
    await pg.set_limits(enabled=False)
    users = [await pg.user(n, lang="en") for n in names]
    group = await pg.group("Friends", members=users)
    await users[0].send("/new", group)
    for label in (*path, "👥 Players in this chat"):
        await users[0].press(label, chat=group)
    lobby = await group.last_with_buttons()
    await users[1].press("Join", lobby, group)
    board = await wait_message(
        group, lobby.message_id, lambda m: "To move" in (m.caption or "") and bool(m.buttons)
    )
    match_id = next((b.callback_data or "").split(":")[1] for row in board.buttons for b in row)
    return (*users, group, board, match_id)
