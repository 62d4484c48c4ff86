"""Our plain keyboards (lists of Button) as python-telegram-bot markup."""

from __future__ import annotations

import json
from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo

from bot.i18n import Text, t
from bot.match.ui import Button, Keyboard


def _label(b: Button, lang: str) -> str:
    return t(lang, b.text) if isinstance(b.text, Text) else b.text


def _button(b: Button, lang: str) -> InlineKeyboardButton:
    if b.kind == "web_app":
        return InlineKeyboardButton(_label(b, lang), web_app=WebAppInfo(b.data))
    if b.kind == "url":
        return InlineKeyboardButton(_label(b, lang), url=b.data)
    return InlineKeyboardButton(_label(b, lang), callback_data=b.data)


def _json(b: Button, lang: str) -> dict[str, Any]:
    if b.kind == "web_app":
        return {"text": _label(b, lang), "web_app": {"url": b.data}}
    if b.kind == "url":
        return {"text": _label(b, lang), "url": b.data}
    return {"text": _label(b, lang), "callback_data": b.data}


def markup(rows: Keyboard, lang: str) -> InlineKeyboardMarkup | None:
    if not rows:
        return None
    return InlineKeyboardMarkup([[_button(b, lang) for b in row] for row in rows if row])


def markup_json(rows: Keyboard, lang: str) -> dict[str, str]:
    """The keyboard as the Bot API's own JSON, for ``api_kwargs`` of a board edit.

    A big board has up to a hundred buttons; building python-telegram-bot objects for them
    and serialising those back cost more CPU than the rest of a window move. An empty
    keyboard gives no parameter, which removes the message's keyboard as ``None`` does."""
    if not rows:
        return {}
    keyboard = [[_json(b, lang) for b in row] for row in rows if row]
    return {
        "reply_markup": json.dumps(
            {"inline_keyboard": keyboard}, ensure_ascii=False, separators=(",", ":")
        )
    }
