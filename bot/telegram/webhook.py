"""Webhook mode: our own aiohttp server in front of the Application.

``POST <path of WEBHOOK_URL>`` takes updates from Telegram (only with the right
``X-Telegram-Bot-Api-Secret-Token``) and answers after the handlers have run, so a replica that
dies mid-update makes Telegram deliver it again (stale buttons make a repeat harmless). The
answer may carry the tap's answerCallbackQuery (:mod:`bot.telegram.hookreply`).
``GET /healthz`` is 200 while Redis answers and the worker pools are warm, 503 otherwise;
``GET /metrics`` is Prometheus text. Any number of replicas may serve the same URL behind a
reverse proxy: they share Redis.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import signal
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from urllib.parse import urlsplit

from aiohttp import web
from telegram import Update
from telegram.ext import Application

from bot.settings import Settings
from bot.telegram import hookreply, metrics, shapes
from bot.telegram.app import _post_init, _post_shutdown, build_application
from bot.telegram.services import Services
from bot.webapp import server as miniapp

log = logging.getLogger(__name__)
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
ALLOWED_UPDATES = (
    "message",
    "edited_message",
    "callback_query",
    "inline_query",
    "chosen_inline_result",
    "my_chat_member",
)
MAX_CONNECTIONS = 40
HEALTH_TIMEOUT = 2.0
SHUTDOWN_GRACE = 30.0
APP_KEY = web.AppKey("application", Application)


def hook_path(settings: Settings) -> str:
    return urlsplit(settings.webhook_url or "").path or "/"


def web_app(application: Application, settings: Settings) -> web.Application:  # type: ignore[type-arg]
    """The routes of one replica."""
    app = web.Application(client_max_size=1024 * 1024)
    app[APP_KEY] = application
    secret = (settings.webhook_secret or "").encode()

    async def hook(request: web.Request) -> web.Response:
        given = request.headers.get(SECRET_HEADER)
        if given is None:
            metrics.WEBHOOK_REFUSED.labels("no_secret").inc()
            return web.Response(status=401, text="secret token missing")
        if not secret or not hmac.compare_digest(given.encode(), secret):
            metrics.WEBHOOK_REFUSED.labels("bad_secret").inc()
            return web.Response(status=403, text="wrong secret token")
        svc: Services | None = application.bot_data.get("svc")
        if svc is None or not svc.ready:  # Telegram delivers it again later
            metrics.WEBHOOK_REFUSED.labels("starting").inc()
            return web.Response(status=503, text="starting")
        try:
            data = await request.json()
        except ValueError as e:
            metrics.WEBHOOK_REFUSED.labels("bad_body").inc()
            log.warning("webhook body refused: %s", e)
            return web.Response(status=400, text="not JSON")
        if not shapes.well_formed(data):
            metrics.WEBHOOK_REFUSED.labels("bad_shape").inc()
            log.warning("webhook body refused: not an update of Telegram's shape")
            return web.Response(status=400, text="not an update")
        shapes.drop_tapped_keyboard(data)
        try:
            update = Update.de_json(data, application.bot)
        except Exception as e:  # untrusted JSON through a third-party parser: anything goes
            metrics.WEBHOOK_REFUSED.labels("bad_body").inc()
            log.warning("webhook body refused: %s: %s", type(e).__name__, e)
            return web.Response(status=400, text="not an update")
        slot = hookreply.open_slot()
        try:
            await application.process_update(update)
        finally:
            call = slot.take()
        if call is not None:
            return web.json_response(call)
        return web.Response(text="ok")

    async def healthz(request: web.Request) -> web.Response:
        svc: Services | None = application.bot_data.get("svc")
        ok = False
        if svc is not None:
            with contextlib.suppress(TimeoutError):
                ok = await asyncio.wait_for(svc.store.ping(), HEALTH_TIMEOUT)
        ready = svc is not None and svc.ready
        body = json.dumps({"redis": "ok" if ok else "unreachable", "ready": ready})
        status = 200 if ok and ready else 503
        return web.Response(status=status, text=body, content_type="application/json")

    async def metrics_page(request: web.Request) -> web.Response:
        body, ctype = metrics.render()
        return web.Response(body=body, headers={"Content-Type": ctype})

    app.router.add_post(hook_path(settings), hook)
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/metrics", metrics_page)
    if settings.miniapp_url is not None:
        miniapp.add_routes(app, application)
    return app


@asynccontextmanager
async def serving(settings: Settings, host: str = "0.0.0.0") -> AsyncIterator[Application]:  # type: ignore[type-arg]
    """Start the bot in webhook mode in the caller's loop; on exit stop taking updates, let the
    ones in flight finish, then shut the bot down."""
    if settings.webhook_url is None:
        raise ValueError("webhook mode needs WEBHOOK_URL")
    application = build_application(settings, polling=False)
    async with application:
        # Listening first: /healthz says "not ready" while the worker pools warm up, and
        # updates a proxy sends meanwhile are refused (503) for Telegram to deliver again.
        runner = web.AppRunner(
            web_app(application, settings), access_log=None, shutdown_timeout=SHUTDOWN_GRACE
        )
        await runner.setup()
        try:
            await web.TCPSite(runner, host, settings.port).start()
            await _post_init(application)
            await application.start()
            await application.bot.set_webhook(
                settings.webhook_url,
                secret_token=settings.webhook_secret,
                allowed_updates=list(ALLOWED_UPDATES),
                max_connections=MAX_CONNECTIONS,
            )
            log.info("webhook mode: %s on port %d", settings.webhook_url, settings.port)
            yield application
        finally:
            await runner.cleanup()  # stops listening, waits for requests in flight
            if application.running:
                await application.stop()
            await _post_shutdown(application)


async def serve_until_signal(settings: Settings) -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    async with serving(settings):
        await stop.wait()
        log.info("stopping: finishing the updates in flight")


def run(settings: Settings) -> None:
    asyncio.run(serve_until_signal(settings))
