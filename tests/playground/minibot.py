"""A tiny python-telegram-bot Application used only by these tests, so the scenario client,
the page and the browser test have buttons, pictures, popups and inline results to work with
before the real bot's games land. It is not the Tetrad bot."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from PIL import Image
from telegram import (
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InlineQueryResultArticle,
    InputMediaPhoto,
    InputTextMessageContent,
    Update,
)
from telegram.ext import (
    AIORateLimiter,
    Application,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    InlineQueryHandler,
)

COLORS = {"Red": (220, 40, 40), "Blue": (40, 80, 220)}


def picture(color: str) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (120, 80), COLORS[color]).save(out, "PNG")
    return out.getvalue()


def keys(*rows: list[str]) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        [[InlineKeyboardButton(t, callback_data=t.lower()) for t in row] for row in rows]
    )


async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_message is not None
    payload = " ".join(context.args or [])
    await update.effective_message.reply_text(
        f"Mini bot here{': ' + payload if payload else ''}", reply_markup=keys(["Red", "Blue"])
    )


async def board(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_message is not None
    await update.effective_message.reply_photo(
        picture("Red"), caption="Board: red", reply_markup=keys(["Red", "Blue"], ["Alert"])
    )


async def pressed(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    assert query is not None and query.data is not None
    if query.data == "alert":
        await query.answer("This is an alert", show_alert=True)
        return
    color = query.data.capitalize()
    await query.answer(f"You chose {color}")
    if query.inline_message_id:
        await query.edit_message_text(f"{query.from_user.first_name} chose {color}")
    elif query.message is not None and getattr(query.message, "photo", None):
        await query.edit_message_media(
            InputMediaPhoto(picture(color), caption=f"Board: {color.lower()}"),
            reply_markup=keys(["Red", "Blue"], ["Alert"]),
        )
    else:
        await query.edit_message_text(f"You chose {color}", reply_markup=keys(["Red", "Blue"]))


async def inline(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.inline_query is not None
    q = update.inline_query.query or "game"
    await update.inline_query.answer(
        [
            InlineQueryResultArticle(
                f"play-{q}"[:64],
                f"Play {q}",
                InputTextMessageContent(f"Let's play {q}!"),
                description="Challenge this chat",
                reply_markup=keys(["Red", "Blue"]),
            )
        ],
        cache_time=0,
    )


@asynccontextmanager
async def running_minibot(token: str, api_url: str) -> AsyncIterator[Application]:  # type: ignore[type-arg]
    app = (
        Application.builder()
        .token(token)
        .base_url(f"{api_url}/bot")
        .base_file_url(f"{api_url}/file/bot")
        .rate_limiter(AIORateLimiter(max_retries=3))
        .build()
    )
    app.add_handler(CommandHandler("start", start))
    app.add_handler(CommandHandler("board", board))
    app.add_handler(CallbackQueryHandler(pressed))
    app.add_handler(InlineQueryHandler(inline))
    async with app:
        await app.start()
        assert app.updater is not None
        await app.updater.start_polling(
            poll_interval=0.0, timeout=10, allowed_updates=Update.ALL_TYPES
        )
        try:
            yield app
        finally:
            await app.updater.stop()
            await app.stop()
