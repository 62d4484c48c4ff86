"""What every handler shares: the services, the reader's language, who is acting, replies,
and the last line of defence against errors."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from telegram import Chat, Message, Update, User
from telegram.constants import ParseMode
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from bot import i18n
from bot.i18n import Text, t
from bot.match.actions import Actor
from bot.telegram.services import Services

log = logging.getLogger(__name__)
Context = ContextTypes.DEFAULT_TYPE


def svc_of(context: Context) -> Services:
    return context.application.bot_data["svc"]  # type: ignore[no-any-return]


async def language(svc: Services, user: User | None, chat_id: int | None = None) -> str:
    """The chat's setting in groups, else the user's setting, else their Telegram language:
    what a message in that chat is written in. Popups use :func:`languages`' second."""
    return (await languages(svc, user, chat_id)).here


@dataclass(frozen=True)
class Langs:
    """The language of the chat a message goes to, and the reader's own one (a popup's)."""

    here: str
    own: str


async def languages(svc: Services, user: User | None, chat_id: int | None = None) -> Langs:
    """The language of the chat (see :func:`language`) and the user's own one, read in one
    round trip. Reading the settings is where the bot meets the user: see :func:`met`."""
    if user is None:
        return Langs(svc.settings.default_language, svc.settings.default_language)
    if chat_id is not None and chat_id != user.id:
        chat, prefs = await svc.store.chats.get_with(chat_id, svc.store.users, user.id)
    else:
        chat, prefs = None, await svc.store.users.get(user.id)
    await met(svc, user, prefs, private=chat_id == user.id)
    return Langs(language_of(svc, user, chat, prefs), language_of(svc, user, None, prefs))


async def met(svc: Services, user: User, prefs: dict[str, Any], *, private: bool) -> None:
    """What an update teaches about its user, written only when it is news: the name that
    leaderboards show, and (from their private chat) that pings can reach them there."""
    patch: dict[str, Any] = {}
    if prefs.get("name") != user.full_name[:64]:
        patch["name"] = user.full_name[:64]
    if private and prefs.get("dm") is not True:
        patch["dm"] = True
    if patch:
        await svc.store.users.patch(user.id, patch)


def language_of(
    svc: Services, user: User, chat: dict[str, Any] | None, prefs: dict[str, Any]
) -> str:
    """:func:`language` from settings already read (``chat`` None outside groups, or for
    the user's own language: a popup's)."""
    if chat is not None and chat.get("language") in i18n.LANGUAGES:
        return str(chat["language"])
    if prefs.get("language") in i18n.LANGUAGES:
        return str(prefs["language"])
    return i18n.normalize(user.language_code, svc.settings.default_language)


@dataclass(frozen=True)
class Asker:
    """Who sent a command, where, and in which language to answer."""

    svc: Services
    user: User
    chat: Chat
    lang: str


async def asker(update: Update, context: Context) -> Asker | None:
    user, chat = update.effective_user, update.effective_chat
    if user is None or chat is None:
        return None
    svc = svc_of(context)
    return Asker(svc, user, chat, await language(svc, user, chat.id))


def actor_of(user: User, lang: str) -> Actor:
    return Actor(user.id, user.full_name or user.first_name or str(user.id), lang)


async def reply(message: Message | None, text: str, **kwargs: Any) -> None:
    if message is None:
        return
    try:
        await message.reply_text(text, parse_mode=ParseMode.HTML, **kwargs)
    except TelegramError as e:
        log.info("reply failed: %s", e)


async def error_handler(update: object, context: Context) -> None:
    """Last line of defence: log, and tell the user something went wrong (never crash)."""
    log.error("handler failed for update %r", update, exc_info=context.error)
    if isinstance(update, Update):
        query = update.callback_query
        try:
            if query is not None:
                await query.answer(t("en", Text("err.internal")))
        except TelegramError:
            pass
