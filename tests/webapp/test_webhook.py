"""Webhook mode serves the Mini App from its own aiohttp server when MINIAPP_URL is set,
and nothing of it otherwise."""

from __future__ import annotations

import dataclasses

import aiohttp

from bot.telegram.webhook import serving
from playground.server import Emulator
from tests.bot.test_webhook_mode import webhook_settings
from tests.fixtures.ports import free_port
from tests.webapp.signing import init_data


async def test_webhook_mode_serves_the_mini_app(emulator: Emulator, redis_url: str) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    settings = dataclasses.replace(
        webhook_settings(emulator, redis_url, port), miniapp_url=f"{base}/app/"
    )
    signed = {"Authorization": f"tma {init_data(emulator.world.token, 77)}"}
    async with serving(settings, host="127.0.0.1"), aiohttp.ClientSession() as http:
        async with http.get(f"{base}/app/") as r:
            assert r.status == 200 and "static/app.js" in await r.text()
        async with http.get(f"{base}/app?m=abcdEFGH", allow_redirects=False) as r:
            assert r.status == 302 and r.headers["Location"] == "/app/?m=abcdEFGH"
        async with http.get(f"{base}/app/static/telegram.js") as r:
            assert r.status == 200 and "TelegramWebviewProxy" in await r.text()
        async with http.get(f"{base}/app/api/match/abcdEFGH") as r:
            assert r.status == 401 and (await r.json())["error"] == "missing"
        async with http.get(f"{base}/app/api/match/abcdEFGH", headers=signed) as r:
            assert r.status == 404 and (await r.json())["error"] == "not_found"
        async with http.get(f"{base}/healthz") as r:
            assert r.status == 200


async def test_no_mini_app_without_its_url(emulator: Emulator, redis_url: str) -> None:
    port = free_port()
    settings = webhook_settings(emulator, redis_url, port)
    async with (
        serving(settings, host="127.0.0.1"),
        aiohttp.ClientSession() as http,
        http.get(f"http://127.0.0.1:{port}/app/") as r,
    ):
        assert r.status == 404
