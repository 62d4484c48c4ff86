"""Running the bot in production: long polling, or webhook mode (our aiohttp server, see
:mod:`bot.telegram.webhook`) when WEBHOOK_URL is set. It sits above both: the webhook server
builds its application from :mod:`bot.telegram.app`, so app must not import it."""

from __future__ import annotations

from telegram import Update

from bot.settings import Settings
from bot.telegram import webhook
from bot.telegram.app import build_application


def run(settings: Settings) -> None:
    if settings.webhook_url:
        webhook.run(settings)
        return
    build_application(settings).run_polling(allowed_updates=Update.ALL_TYPES)
