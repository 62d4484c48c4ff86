"""Pings: a short message to a player who has not moved (or a clock reminder, a draw offer).

Privately when the player has a chat with the bot; a player who never opened one (Telegram
answers 403 "bot can't initiate conversation") is remembered in their settings (``dm``:
false) and not tried again until they write to the bot privately. Otherwise the ping is a
mention in the chat where the board is, as a reply to the board message. A game played in an
inline message has no chat the bot may post in: its players get the private ping when they
have a chat with the bot, and otherwise only the board's caption, which names the player to
move.
"""

from __future__ import annotations

import html
import logging

from telegram import Bot, ReplyParameters
from telegram.constants import ParseMode
from telegram.error import BadRequest, Forbidden, TelegramError

import storage
from bot.i18n import t
from bot.match.effects import Notify
from bot.match.model import Match
from bot.telegram.services import Services

log = logging.getLogger(__name__)


def _board_in(match: Match, chat: int) -> int | None:
    """The message id of the match's board in ``chat`` (None when it has none there)."""
    return next((p.msg for p in match.places if p.chat == chat and p.msg), None)


def _reply_to(message_id: int | None) -> ReplyParameters | None:
    if message_id is None:
        return None
    return ReplyParameters(message_id=message_id, allow_sending_without_reply=True)


async def notify(svc: Services, bot: Bot, effect: Notify, match: Match) -> None:
    user = effect.user
    prefs = await svc.store.users.get(user)
    lang = prefs.get("language") or match.lang
    text = t(lang, effect.text)
    if prefs.get("dm") is not False:
        try:
            await bot.send_message(
                user,
                text,
                parse_mode=ParseMode.HTML,
                reply_parameters=_reply_to(_board_in(match, user)),
            )
            return
        except Forbidden:  # never opened a chat with the bot, or blocked it: remember
            try:
                await svc.store.users.patch(user, {"dm": False})
            except storage.StorageError as e:
                log.info("could not remember that %s has no chat with the bot: %s", user, e)
        except BadRequest:
            pass
        except TelegramError as e:
            log.info("notification to %s failed: %s", user, e)
            return
    if match.chat is None or match.chat == user:
        return  # an inline game (or their own chat): the caption names them
    seat = match.seat_of(user)
    name = html.escape(match.seats[seat].name) if seat is not None else ""
    mention = f'<a href="tg://user?id={user}">{name}</a>'
    try:
        await bot.send_message(
            match.chat,
            f"{mention}: {text}",
            parse_mode=ParseMode.HTML,
            reply_parameters=_reply_to(_board_in(match, match.chat)),
        )
    except TelegramError as e:
        log.info("notification in chat %s failed: %s", match.chat, e)
