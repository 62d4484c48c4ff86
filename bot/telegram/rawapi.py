"""Board edits posted below python-telegram-bot's public methods, and the Bot API answers that
PTB gives no exception type of their own.

Why: ``bot.edit_message_*`` builds Telegram's answer into a Message, and a board's answer
carries its whole keyboard (up to a hundred buttons); building it, and our keyboards as PTB
objects, took a tenth of the CPU of a keyboard-only tap while nothing reads the answer but an
edited photo's file_id (``media.remember``). ``Bot._post`` is the private step each public
method ends in (defaults, our rate limiter, Telegram's errors raised as exceptions), so these
edits behave like the public calls without the objects. It is private API: this module is
the only caller, and tests/bot/test_show_path.py drives all three edits through the emulator,
so an upgrade of python-telegram-bot that changes it fails there.
"""

from __future__ import annotations

from typing import Any

from telegram import Bot, InputMediaPhoto
from telegram.constants import ParseMode
from telegram.error import BadRequest

from bot.telegram.ratelimit import LATEST

# Where a board is: {"chat_id", "message_id"} or {"inline_message_id"}.
Target = dict[str, Any]
# A keyboard as the Bot API's JSON (see keyboards.markup_json): {} or {"reply_markup": ...}.
RawMarkup = dict[str, str]


def latest_only(bot: Bot, api_kwargs: dict[str, Any]) -> dict[str, Any]:
    """``api_kwargs`` marked :data:`ratelimit.LATEST`: the limiter does not hold the call
    for a closed chat (python-telegram-bot carries its ``rate_limit_args`` there)."""
    merge = getattr(bot, "_merge_api_rl_kwargs", None)
    marked: dict[str, Any] = merge(dict(api_kwargs), LATEST) if merge else api_kwargs
    return marked


async def edit_photo(
    bot: Bot, target: Target, photo: str | bytes, caption: str, markup: RawMarkup
) -> Any:
    """``editMessageMedia``; the answer is the Bot API's JSON (the edited message, or True
    for an inline message)."""
    media = InputMediaPhoto(photo, caption=caption, parse_mode=ParseMode.HTML)
    return await bot._post(
        "editMessageMedia", {"media": media, **target}, api_kwargs=latest_only(bot, markup)
    )


async def edit_caption(bot: Bot, target: Target, caption: str, markup: RawMarkup) -> None:
    await bot._post(
        "editMessageCaption",
        {"caption": caption, "parse_mode": ParseMode.HTML, **target},
        api_kwargs=latest_only(bot, markup),
    )


async def edit_keyboard(bot: Bot, target: Target, markup: RawMarkup) -> None:
    await bot._post("editMessageReplyMarkup", dict(target), api_kwargs=latest_only(bot, markup))


# python-telegram-bot raises a plain BadRequest for these: its text is all there is to go by.
_NOT_MODIFIED = ("not modified",)
_GONE = ("not found", "message_id_invalid", "can't be edited")


def not_modified(e: BadRequest) -> bool:
    """The edit changed nothing: the board shows this already (success)."""
    text = e.message.lower()
    return any(s in text for s in _NOT_MODIFIED)


def message_gone(e: BadRequest) -> bool:
    """The board's message was deleted (or can no longer be edited)."""
    text = e.message.lower()
    return any(s in text for s in _GONE)
