"""Webhook mode: updates are posted to the bot's URL with the secret-token header."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from aiohttp import web
from telegram import Bot
from telegram.error import BadRequest, Conflict

from playground.server import Emulator


async def test_updates_are_pushed_with_the_secret(emulator: Emulator, tg: Bot) -> None:
    received: list[tuple[str | None, dict[str, Any]]] = []
    fail_first = [True]

    async def hook(request: web.Request) -> web.Response:
        if fail_first[0]:  # Telegram retries a delivery the bot did not accept
            fail_first[0] = False
            return web.Response(status=500)
        received.append(
            (request.headers.get("X-Telegram-Bot-Api-Secret-Token"), await request.json())
        )
        return web.Response()

    app = web.Application()
    app.router.add_post("/hook", hook)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    try:
        url = f"http://127.0.0.1:{port}/hook"
        assert await tg.set_webhook(url, secret_token="s3cret_token")
        with pytest.raises(Conflict, match="webhook is active"):
            await tg.get_updates()
        world = emulator.world
        alice = world.add_user("alice")
        world.user_send(alice, world.chats[alice.id], "/start")
        for _ in range(100):
            if received:
                break
            await asyncio.sleep(0.05)
        secret, update = received[0]
        assert secret == "s3cret_token"
        assert update["message"]["text"] == "/start"
        info = await tg.get_webhook_info()
        assert info.url == url and info.pending_update_count == 0
        assert info.last_error_message and "500" in info.last_error_message
        assert await tg.delete_webhook()
        world.user_send(alice, world.chats[alice.id], "again")
        assert (await tg.get_updates())[-1].message.text == "again"  # type: ignore[union-attr]
    finally:
        await runner.cleanup()


async def test_webhook_must_be_local(tg: Bot) -> None:
    with pytest.raises(BadRequest, match="Bad webhook"):
        await tg.set_webhook("https://example.org/hook")
