"""Build and run the python-telegram-bot Application against TELEGRAM_API_URL."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from telegram import Update
from telegram.ext import AIORateLimiter, Application, CommandHandler, ContextTypes

from bot.settings import Settings


async def _start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    if update.effective_message is not None:
        await update.effective_message.reply_text(
            "Tetrad: Точки, Точки и квадраты, Рассада. Games arrive soon."
        )


def build_application(settings: Settings) -> Application:  # type: ignore[type-arg]
    if settings.token is None:
        raise ValueError("a bot token is required")
    app = (
        Application.builder()
        .token(settings.token)
        .base_url(settings.base_url)
        .base_file_url(settings.base_file_url)
        .rate_limiter(AIORateLimiter(max_retries=3))
        .build()
    )
    app.add_handler(CommandHandler("start", _start))
    return app


@asynccontextmanager
async def running(settings: Settings, *, poll_timeout: int = 10) -> AsyncIterator[Application]:  # type: ignore[type-arg]
    """Start the bot with long polling inside the caller's event loop, and stop it on exit.

    `tetrad local` and the end-to-end test fixture use this, so both run the real bot.
    """
    app = build_application(settings)
    async with app:
        await app.start()
        assert app.updater is not None
        await app.updater.start_polling(
            poll_interval=0.0, timeout=poll_timeout, allowed_updates=Update.ALL_TYPES
        )
        try:
            yield app
        finally:
            await app.updater.stop()
            await app.stop()


def run(settings: Settings) -> None:
    build_application(settings).run_polling(allowed_updates=Update.ALL_TYPES)
