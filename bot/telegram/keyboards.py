"""Our plain keyboards (lists of Button) as python-telegram-bot markup."""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.i18n import Text, t
from bot.match.ui import Keyboard


def markup(rows: Keyboard, lang: str) -> InlineKeyboardMarkup | None:
    if not rows:
        return None
    return InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(
                    t(lang, b.text) if isinstance(b.text, Text) else b.text, callback_data=b.data
                )
                for b in row
            ]
            for row in rows
            if row
        ]
    )
