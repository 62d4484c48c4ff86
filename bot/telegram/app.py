"""Build and run the python-telegram-bot Application against TELEGRAM_API_URL.

Handlers are registered explicitly in :func:`build_application`; shared services (the store,
the AI pool) live in ``bot_data["svc"]`` and are opened in ``post_init``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from telegram import BotCommand, Update
from telegram.ext import (
    Application,
    CallbackQueryHandler,
    ChatMemberHandler,
    ChosenInlineResultHandler,
    CommandHandler,
    InlineQueryHandler,
    MessageHandler,
    filters,
)

import storage
from bot.i18n import LANGUAGES, t
from bot.match.actions import Tick
from bot.match.clocks import Timeouts
from bot.settings import Settings
from bot.telegram import (
    act,
    boards,
    buttons,
    challenge,
    commands,
    common,
    games,
    inline,
    language,
    lessons,
    metrics,
    puzzles,
    rules,
    typed,
)
from bot.telegram.ai_pool import AIPool
from bot.telegram.http import AiohttpRequest, UpdatesRequest
from bot.telegram.jobs import QueueThinker
from bot.telegram.route_pool import RoutePool
from bot.telegram.services import Services
from bot.webapp import server as miniapp

log = logging.getLogger(__name__)
COMMANDS = (
    "new",
    "games",
    "challenge",
    "learn",
    "puzzle",
    "help",
    "rules",
    "stats",
    "top",
    "record",
    "lang",
    "m",
)
WATCH_PERIOD = 1.0
WARM_TIMEOUT = 120.0  # seconds start-up waits for the worker pools before going on anyway
GUARDS = [act.AI_KIND, boards.SHOW_KIND, act.END_KIND]  # deadlines that guard work in flight


def build_application(
    settings: Settings, *, clock: Callable[[], float] = time.time, polling: bool = True
) -> Application:  # type: ignore[type-arg]
    """The bot with its handlers; ``polling=False`` leaves out the updater (webhook mode)."""
    if settings.token is None:
        raise ValueError("a bot token is required")
    builder = (
        Application.builder()
        .token(settings.token)
        .base_url(settings.base_url)
        .base_file_url(settings.base_file_url)
        .request(AiohttpRequest())
        .get_updates_request(UpdatesRequest(pool_size=1, read_timeout=None))
        .rate_limiter(
            metrics.MeasuredRateLimiter(
                overall_max_rate=settings.messages_per_second,
                group_max_rate=settings.group_edits_per_minute,
                max_retries=3,
            )
        )
        .concurrent_updates(True)
        .post_init(_post_init)
        .post_shutdown(_post_shutdown)
    )
    if not polling:
        builder = builder.updater(None)
    app = builder.build()
    app.bot_data["settings"] = settings
    app.bot_data["clock"] = clock  # tests pass a fake clock; nothing else reads the time
    app.add_handler(CommandHandler("start", commands.start))
    app.add_handler(CommandHandler("help", commands.help_command))
    app.add_handler(CommandHandler("rules", rules.command))
    app.add_handler(CommandHandler("new", commands.new))
    app.add_handler(CommandHandler("games", games.games_command))
    app.add_handler(CommandHandler("challenge", challenge.challenge_command))
    app.add_handler(CommandHandler("lang", language.lang_command))
    app.add_handler(CommandHandler(["m", "move"], typed.move_command))
    app.add_handler(CommandHandler("record", commands.record_command))
    app.add_handler(CommandHandler("stats", commands.stats_command))
    app.add_handler(CommandHandler("top", commands.top_command))
    app.add_handler(CommandHandler("puzzle", puzzles.command))
    app.add_handler(CommandHandler("learn", lessons.command))
    app.add_handler(CallbackQueryHandler(buttons.callback))
    app.add_handler(InlineQueryHandler(inline.inline_query))
    app.add_handler(ChosenInlineResultHandler(inline.chosen))
    app.add_handler(ChatMemberHandler(boards.member_changed, ChatMemberHandler.MY_CHAT_MEMBER))
    private_text = filters.ChatType.PRIVATE & filters.TEXT & ~filters.COMMAND
    reply_text = filters.REPLY & filters.TEXT & ~filters.COMMAND
    app.add_handler(MessageHandler(private_text | reply_text, typed.text_message))
    app.add_error_handler(common.error_handler)
    metrics.instrument(app)
    return app


async def _post_init(app: Application) -> None:  # type: ignore[type-arg]
    settings: Settings = app.bot_data["settings"]
    store = await storage.connect(settings.redis_url)
    metrics.watch_replicas(store.replicas)
    given: AIPool | None = app.bot_data.get("ai")
    svc = Services(
        settings=settings,
        store=store,
        ai=given
        or AIPool(
            settings.ai_workers or None,
            time_scale=settings.ai_time_scale,
            kernels=settings.warm_workers,
        ),
        clock=app.bot_data["clock"],
        timeouts=Timeouts(lobby=settings.lobby_timeout, idle=settings.idle_timeout),
    )
    if settings.workers == "queue":
        svc.queue = await QueueThinker.connect(settings.redis_url, fallback=svc.ai)
    if settings.route_workers:
        svc.routes = RoutePool(settings.route_workers)
        svc.routes.share(store)
        svc.routes.queue = svc.queue  # with WORKERS=queue, curves are routed by workers too
        svc.routes.install()
    app.bot_data["svc"] = svc
    await _warm_workers(svc)
    me = await app.bot.get_me()
    svc.bot_username = me.username or ""
    for lang in LANGUAGES:
        commands = [BotCommand(c, t(lang, f"cmd.{c}")) for c in COMMANDS]
        await app.bot.set_my_commands(commands, language_code=lang)
    await app.bot.set_my_commands([BotCommand(c, t("en", f"cmd.{c}")) for c in COMMANDS])
    app.bot_data["watch"] = asyncio.get_running_loop().create_task(_watch(app, svc))


async def _warm_workers(svc: Services) -> None:
    """Start the worker pools and wait until each worker has prepared itself: polling (or
    the webhook) starts after this, so no tap waits for a worker's start-up. With
    ``WARM_WORKERS=0`` (the tests' bots, which start hundreds of times) they start when
    first asked for work instead."""
    if not svc.settings.warm_workers:
        svc.ready = True
        return
    started = time.perf_counter()
    pools = [svc.ai] if svc.routes is None else [svc.ai, svc.routes]
    warm = await asyncio.gather(*(pool.warm(WARM_TIMEOUT) for pool in pools))
    if not all(warm):
        log.warning("worker pools not warm after %.0f s: taking updates anyway", WARM_TIMEOUT)
    svc.ready = True
    log.info("worker pools ready in %.1f s", time.perf_counter() - started)


async def _post_shutdown(app: Application) -> None:  # type: ignore[type-arg]
    task = app.bot_data.pop("watch", None)
    if task is not None:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
    svc: Services | None = app.bot_data.pop("svc", None)
    if svc is not None:
        await svc.cancel_tasks()
        if svc.ai is not app.bot_data.get("ai"):  # a pool the caller gave is the caller's
            svc.ai.close()
        if svc.queue is not None:
            await svc.queue.close()
        if svc.routes is not None:
            svc.routes.close()
        await svc.store.close()


async def _watch(app: Application, svc: Services) -> None:  # type: ignore[type-arg]
    """Deadlines kept in Redis (AI watchdog, clocks…): claim what is due and act on it.
    Every replica runs this; storage hands each due entry to one of them.

    The loop also stops once a cancellation was requested but swallowed on the way (a
    client library can turn it into its own error): shutdown must not wait forever."""
    me = asyncio.current_task()
    try:  # work a process may have died doing is looked at now, not when its guard falls due
        await svc.store.deadlines.expedite(GUARDS, svc.clock())
    except storage.StorageError as e:
        log.warning("deadlines of work in flight not looked at: %s", e)
    while me is None or not me.cancelling():
        try:
            for due in await svc.store.deadlines.due(svc.clock(), limit=50, lease=60):
                # The AI turn, the show and the ending each take a lease that moves their
                # deadline to its end (or, finding it busy, reschedule it for then), so the
                # claim's entry is theirs from the start and `done` below leaves it alone.
                if due.kind == act.AI_KIND:
                    act.start_ai(svc, app.bot, due.match_id)
                elif due.kind == boards.SHOW_KIND:
                    svc.spawn(boards.refresh(svc, app.bot, due.match_id))
                elif due.kind == act.END_KIND:
                    svc.spawn(act.finished(svc, app.bot, due.match_id))
                elif due.kind == act.TICK_KIND:
                    outcome = await act.act(svc, due.match_id, None, Tick())
                    await act.perform(svc, app.bot, outcome)
                    if outcome.match is not None and not outcome.effects:
                        await act.schedule_tick(svc, outcome.match)
                await svc.store.deadlines.done(due)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("deadline watch failed")
        await asyncio.sleep(WATCH_PERIOD)


@asynccontextmanager
async def running(
    settings: Settings,
    *,
    poll_timeout: int = 10,
    clock: Callable[[], float] = time.time,
    host: str = "0.0.0.0",
    ai: AIPool | None = None,
) -> AsyncIterator[Application]:  # type: ignore[type-arg]
    """Start the bot with long polling inside the caller's event loop, and stop it on exit;
    with MINIAPP_URL also the Mini App's server on ``host``:PORT.

    `tetrad local` and the end-to-end test fixture use this, so both run the real bot.
    ``ai``: an AI pool to use instead of starting one, left running at the end (the tests'
    bots start hundreds of times in one process; each pool of its own spawned its workers
    again, 1.4 s of CPU apiece).
    """
    app = build_application(settings, clock=clock)
    if ai is not None:
        app.bot_data["ai"] = ai
    async with app:  # initialize() and shutdown(); post_init/post_shutdown are ours to call
        try:
            # Inside the try: a start cancelled while the workers warm (a test's timeout,
            # a stop during start-up) still closes the pools and puts the engine's router
            # back, or every later Рассада move in the process asks a dead pool.
            await _post_init(app)
            await app.start()
            assert app.updater is not None
            await app.updater.start_polling(
                poll_interval=0.0, timeout=poll_timeout, allowed_updates=Update.ALL_TYPES
            )
            try:
                async with miniapp.serving(app, settings, host):
                    yield app
            finally:
                await app.updater.stop()
                await app.stop()
        finally:
            await _post_shutdown(app)
