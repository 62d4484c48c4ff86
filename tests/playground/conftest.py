"""Helpers for the emulator's own tests: python-telegram-bot's ``Bot`` pointed at it, and
people who have started the bot."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator

import pytest
from PIL import Image
from telegram import Bot

from playground.server import Emulator
from playground.world import User, World
from tests.fixtures.playground import ScenarioClient
from tests.playground.minibot import running_minibot


@pytest.fixture
async def tg(emulator: Emulator) -> AsyncIterator[Bot]:
    bot = Bot(
        emulator.world.token,
        base_url=f"{emulator.url}/bot",
        base_file_url=f"{emulator.url}/file/bot",
    )
    async with bot:
        yield bot


def started(world: World, name: str, lang: str = "en") -> User:
    """A person who has opened the chat with the bot (their /start is left in the queue)."""
    user = world.add_user(name, lang)
    world.user_send(user, world.chats[user.id], "/start")
    return user


def png(width: int = 64, height: int = 48, color: str = "red") -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), color).save(out, "PNG")
    return out.getvalue()


@pytest.fixture
async def mini(emulator: Emulator) -> AsyncIterator[ScenarioClient]:
    """The scenario client with the test-only mini bot (buttons, photos, inline) running."""
    async with running_minibot(emulator.world.token, emulator.url):
        client = ScenarioClient(emulator.url)
        client.emulator = emulator
        await client.connect()
        try:
            yield client
        finally:
            await client.close()
