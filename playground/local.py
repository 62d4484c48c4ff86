"""``tetrad local``: the emulator, the embedded store and the real bot in one process.

The bot is started exactly as in production (``bot.telegram.app.running``, long polling)
but with TELEGRAM_API_URL pointing at the emulator, so it reaches it over HTTP only. This
module is the one place in ``playground/`` that imports the bot (to run it), see
tests/test_layers.py.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import os
import signal
import socket
import sys
import webbrowser

from bot.settings import Settings
from bot.telegram.app import running
from playground.server import Emulator

log = logging.getLogger(__name__)

DEMO_USERS = (("alice", "ru", "Алиса"), ("bob", "en", "Bob"))
DEMO_GROUP = "Friends"
STORAGE_CHANNEL = "Tetrad storage"  # the private channel the bot uploads inline pictures to
MINIAPP_SHORT_NAME = "board"  # the local bot's Mini App, as BotFather's /newapp would name it


def local_settings(
    emulator: Emulator, env: dict[str, str] | None = None, *, host: str = "127.0.0.1"
) -> Settings:
    """The bot's settings for the emulator: its token and URL, memory:// unless REDIS_URL;
    the Mini App served on a free port of ``host`` (the playground opens it from the board's
    button; MINIAPP_URL="" in the environment turns it off)."""
    env = dict(os.environ if env is None else env)
    env["TELEGRAM_BOT_TOKEN"] = emulator.world.token
    env["TELEGRAM_API_URL"] = emulator.url
    env["REDIS_URL"] = env.get("REDIS_URL", "").strip() or "memory://"
    for name in ("WEBHOOK_URL", "WEBHOOK_SECRET"):  # the local bot always polls
        env.pop(name, None)
    if "MINIAPP_URL" not in env:
        port = free_port(host)
        env["PORT"] = str(port)
        env["MINIAPP_URL"] = f"http://{host}:{port}/app/"
        env.setdefault("MINIAPP_SHORT_NAME", MINIAPP_SHORT_NAME)
    return Settings.from_env(env)


def free_port(host: str) -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


def add_demo_world(emulator: Emulator) -> int:
    """A couple of people and a group with the bot, so there is something to click; returns
    the id of the storage chat for inline-message pictures (the bot's STORAGE_CHAT_ID): a
    private channel only the bot is in, so it shows in nobody's chat list."""
    world = emulator.world
    users = [world.add_user(name, lang, first) for name, lang, first in DEMO_USERS]
    if not any(c.title == DEMO_GROUP for c in world.chats.values()):
        world.create_group(DEMO_GROUP, users[0], users[1:], with_bot=True)
    for chat in world.chats.values():
        if chat.type == "channel" and chat.title == STORAGE_CHANNEL:
            return chat.id
    return world.create_channel(STORAGE_CHANNEL).id


async def serve(
    host: str, port: int, *, open_browser: bool, ready: asyncio.Event | None = None
) -> None:
    # SIGTERM (a service manager, `kill`, a test) stops the bot as Ctrl-C does, its worker
    # pools ended and their semaphores released. Left to its default action it killed the
    # process at once, and multiprocessing's resource tracker warned of leaked semaphores.
    terminated = asyncio.Event()
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, terminated.set)
    try:
        await _serve(host, port, open_browser, ready, terminated)
    finally:
        loop.remove_signal_handler(signal.SIGTERM)


async def _serve(
    host: str, port: int, open_browser: bool, ready: asyncio.Event | None, stop: asyncio.Event
) -> None:
    emulator = Emulator()
    try:
        await emulator.start(host, port)
    except OSError as e:
        if e.errno != errno.EADDRINUSE:
            raise
        print(f"tetrad local: port {port} is busy, using a free one", file=sys.stderr)
        emulator = Emulator()
        await emulator.start(host, 0)
    try:
        storage_chat = add_demo_world(emulator)
        env = {**os.environ, "STORAGE_CHAT_ID": str(storage_chat)}
        settings = local_settings(emulator, env, host=host)
        if settings.miniapp_url and settings.miniapp_short_name:  # as BotFather's /newapp
            emulator.world.set_mini_app(settings.miniapp_url, settings.miniapp_short_name)
        logging.basicConfig(
            level=settings.log_level,
            format="%(asctime)s %(levelname)s %(name)s: %(message)s",
            stream=sys.stderr,
        )
        logging.getLogger("httpx").setLevel(logging.WARNING)
        async with running(settings, host=host):
            page = f"{emulator.url}/"
            print(f"Tetrad playground: open {page}  (store {settings.redis_url}; Ctrl-C stops)")
            sys.stdout.flush()
            if open_browser:
                webbrowser.open(page)
            if ready is not None:
                ready.set()
            await stop.wait()  # or until Ctrl-C cancels us
    finally:
        await emulator.stop()


def run_local(*, host: str, port: int, open_browser: bool) -> int:
    try:
        asyncio.run(serve(host, port, open_browser=open_browser))
    except KeyboardInterrupt:
        print(file=sys.stderr)  # after the terminal's ^C
    print("tetrad local: stopped", file=sys.stderr)
    return 0
