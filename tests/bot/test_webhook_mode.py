"""Webhook mode: the emulator posts updates to our aiohttp server, which checks the secret."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import aiohttp
import pytest

from bot.settings import Settings
from bot.telegram import app as app_module
from bot.telegram.services import Services
from bot.telegram.webhook import SECRET_HEADER, serving
from playground.client import PlaygroundClient
from playground.server import Emulator
from tests.fixtures.ports import free_port
from tests.fixtures.redis import RedisServer

SECRET = "s3cret-Hook_token"


def webhook_settings(emulator: Emulator, redis_url: str, port: int) -> Settings:
    return Settings.from_env(
        {
            "TELEGRAM_BOT_TOKEN": emulator.world.token,
            "TELEGRAM_API_URL": emulator.url,
            "REDIS_URL": redis_url,
            "WEBHOOK_URL": f"http://127.0.0.1:{port}/tg/hook",
            "WEBHOOK_SECRET": SECRET,
            "PORT": str(port),
            "AI_TIME_SCALE": "0.05",
            "AI_SHOW_AFTER": "60",
            "WARM_WORKERS": "0",  # as the other tests' bots (test_warm_start warms)
        }
    )


@asynccontextmanager
async def webhook_bot(emulator: Emulator, redis_url: str) -> AsyncIterator[str]:
    """The bot in webhook mode on a free port; yields its base URL."""
    port = free_port()
    async with serving(webhook_settings(emulator, redis_url, port), host="127.0.0.1"):
        yield f"http://127.0.0.1:{port}"


def start_update(emulator: Emulator, user_id: int, update_id: int = 10**6) -> dict[str, Any]:
    world = emulator.world
    user = world.users[user_id]
    return {
        "update_id": update_id,
        "message": {
            "message_id": 999,
            "date": 0,
            "chat": world.chat_api(world.chats[user_id]),
            "from": user.to_api(),
            "text": "/help",
            "entities": [{"type": "bot_command", "offset": 0, "length": 5}],
        },
    }


async def test_webhook_mode_with_the_secret(emulator: Emulator, redis_url: str) -> None:
    async with webhook_bot(emulator, redis_url) as base, aiohttp.ClientSession() as http:
        hook = emulator.world.webhook
        assert hook is not None and hook["url"] == f"{base}/tg/hook"
        assert hook["secret_token"] == SECRET
        pg = PlaygroundClient(emulator.url)
        await pg.connect()
        try:
            alice = await pg.user("alice")
            await alice.send("/start")
            assert "Tetrad" in (await alice.private.last_message()).body
            before = len(await alice.private.messages())

            # Posts without the secret, or with a wrong one, are refused and not processed.
            update = start_update(emulator, alice.id)
            async with http.post(f"{base}/tg/hook", json=update) as r:
                assert r.status == 401
            wrong = {SECRET_HEADER: SECRET + "x"}
            async with http.post(f"{base}/tg/hook", json=update, headers=wrong) as r:
                assert r.status == 403
            await pg.settle()
            assert len(await alice.private.messages()) == before
            good = {SECRET_HEADER: SECRET}
            async with http.post(f"{base}/tg/hook", json=update, headers=good) as r:
                assert r.status == 200
            assert "/new" in (await alice.private.last_message()).body
            # Null or odd parts where Telegram puts objects are answered, never crash.
            for odd in ({"callback_query": None}, {"callback_query": {"message": 5}}):
                body = {"update_id": update["update_id"] + 1, **odd}
                async with http.post(f"{base}/tg/hook", json=body, headers=good) as r:
                    assert r.status in (200, 400)

            async with http.get(f"{base}/healthz") as r:
                assert r.status == 200 and (await r.json()) == {"redis": "ok", "ready": True}
            async with http.get(f"{base}/metrics") as r:
                assert r.status == 200 and r.content_type == "text/plain"
                text = await r.text()
        finally:
            await pg.close()
    assert 'tetrad_updates_total{type="message"}' in text
    assert 'tetrad_handler_seconds_count{handler="start"}' in text
    assert 'tetrad_webhook_refused_total{reason="bad_secret"}' in text
    assert 'tetrad_webhook_refused_total{reason="no_secret"}' in text
    assert "tetrad_rate_limit_wait_seconds_bucket" in text


async def test_healthz_says_when_redis_is_gone(
    emulator: Emulator, redis_server: RedisServer, tmp_path: pytest.TempPathFactory
) -> None:
    own = RedisServer(tmp_path, redis_server.executable)  # type: ignore[arg-type]
    own.start()
    try:
        async with webhook_bot(emulator, own.url) as base, aiohttp.ClientSession() as http:
            async with http.get(f"{base}/healthz") as r:
                assert r.status == 200
            own.stop()
            async with http.get(f"{base}/healthz") as r:
                assert r.status == 503
                assert (await r.json()) == {"redis": "unreachable", "ready": True}
    finally:
        own.stop()


async def test_not_ready_until_the_workers_are_warm(
    emulator: Emulator, redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While the worker pools warm up (held here on an event) the replica listens: /healthz
    says 503 "not ready", an update posted to it is refused for Telegram to send again, and
    no webhook is set yet; once they are warm it is set and /healthz says 200."""
    warmed = asyncio.Event()
    real = app_module._warm_workers

    async def held(svc: Services) -> None:
        await warmed.wait()
        await real(svc)

    monkeypatch.setattr(app_module, "_warm_workers", held)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    settings = webhook_settings(emulator, redis_url, port)
    up = asyncio.Event()

    async def serve() -> None:
        async with serving(settings, host="127.0.0.1"):
            up.set()
            await asyncio.Event().wait()

    task = asyncio.create_task(serve())
    try:
        async with aiohttp.ClientSession() as http:
            for _ in range(600):
                with contextlib.suppress(aiohttp.ClientConnectionError):
                    async with http.get(f"{base}/healthz") as r:
                        status, body = r.status, await r.json()
                        break
                await asyncio.sleep(0.05)
            assert status == 503 and body["ready"] is False, body
            good = {SECRET_HEADER: SECRET}
            async with http.post(f"{base}/tg/hook", json={"update_id": 1}, headers=good) as r:
                assert r.status == 503
            assert emulator.world.webhook is None
            warmed.set()
            await asyncio.wait_for(up.wait(), 120)
            async with http.get(f"{base}/healthz") as r:
                assert r.status == 200 and (await r.json())["ready"] is True
            assert emulator.world.webhook is not None
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


async def test_a_taps_answer_rides_back_on_the_webhook_response(
    emulator: Emulator, redis_url: str
) -> None:
    """The callback query is answered in the hook's JSON answer, not by a request of its own,
    and the person still sees the popup (a forged button here) or the spinner stop."""
    async with webhook_bot(emulator, redis_url):
        pg = PlaygroundClient(emulator.url)
        await pg.connect()
        try:
            alice = await pg.user("alice", lang="en")
            await alice.send("/new")
            menu = await alice.private.last_with_buttons()
            popup = await alice.forge(menu, "junk")
            assert popup is not None and popup.answered and popup.text, popup
            popup = await alice.press(menu.buttons[0][0].text, menu)
            assert popup is not None and popup.answered, "a plain tap is answered too"
        finally:
            await pg.close()
    answers = [r for r in emulator.requests if r["method"] == "answerCallbackQuery"]
    assert len(answers) == 2 and all(r.get("via") == "webhook" for r in answers), answers
