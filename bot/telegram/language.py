"""/lang: a person's language, or in a group the language of the group's boards.

In a private chat /lang sets the person's language: their replies, their popups everywhere,
and the boards in that chat. In a group it sets the group's language for its boards and
messages; only an administrator may (asked through getChatMember and
getChatAdministrators), or anyone when the group shows no administrator. Popups stay in
each person's own language. A change reaches the running boards of that chat at their
next edit: their places are relabelled in the stored matches, not redrawn now.
"""

from __future__ import annotations

import contextlib
import logging

from telegram import Bot, Message, Update
from telegram.constants import ChatMemberStatus, ChatType
from telegram.error import TelegramError

import storage
from bot import i18n
from bot.i18n import t
from bot.match import buttons
from bot.match.actions import Refused
from bot.match.model import BadMatchRecord, Match
from bot.match.ui import Button
from bot.telegram import act, stored
from bot.telegram.common import Context, asker, reply, svc_of
from bot.telegram.keyboards import markup
from bot.telegram.services import Services

log = logging.getLogger(__name__)
_ADMIN = (ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR)


async def lang_command(update: Update, context: Context) -> None:
    a = await asker(update, context)
    if a is None:
        return
    message = update.effective_message
    group = a.chat.type != ChatType.PRIVATE
    if group and not await may_set(context.bot, a.chat.id, a.user.id, message):
        await reply(message, t(a.lang, "lang.admins_only"))
        return
    # An anonymous administrator's /lang comes from the group itself, while their tap comes
    # from their own account: the chooser is then the group's, for any administrator.
    owner = a.chat.id if _as_group(message, a.chat.id) else a.user.id
    rows = [
        [
            Button("English", buttons.language(owner, "en")),
            Button("Русский", buttons.language(owner, "ru")),
        ]
    ]
    key = "lang.choose_group" if group else "lang.choose"
    await reply(message, t(a.lang, key), reply_markup=markup(rows, a.lang))


async def may_set(bot: Bot, chat_id: int, user_id: int, message: Message | None) -> bool:
    """Whether this user may set the group's language: an owner or administrator, an
    anonymous administrator (a message sent as the group itself), or anyone when the group
    shows no human administrator (or Telegram will not say)."""
    if message is not None and message.sender_chat is not None:
        return _as_group(message, chat_id)
    try:
        member = await bot.get_chat_member(chat_id, user_id)
        if member.status in _ADMIN:
            return True
        admins = await bot.get_chat_administrators(chat_id)
    except TelegramError as e:
        log.info("administrators of %s not known (%s): anyone may set its language", chat_id, e)
        return True
    return not any(not m.user.is_bot for m in admins)


def _as_group(message: Message | None, chat_id: int) -> bool:
    """A message an anonymous administrator sent, signed by the group itself."""
    return (
        message is not None
        and message.sender_chat is not None
        and (message.sender_chat.id == chat_id)
    )


async def tap(update: Update, context: Context, owner: str, lang: str, own: str) -> None:
    """The tap on English / Русский under /lang (``own``: the tapper's own language, for
    the popup)."""
    svc = svc_of(context)
    query = update.callback_query
    assert query is not None
    user, message = query.from_user, query.message
    group = message is not None and message.chat.type != ChatType.PRIVATE
    groups = group and message is not None and owner == str(message.chat.id)
    if (str(user.id) != owner and not groups) or lang not in i18n.LANGUAGES:
        await act.answer(query, own, act.Outcome(refused=Refused("err.bad_button")))
        return
    if message is not None and group:
        if not await may_set(context.bot, message.chat.id, user.id, None):
            await act.answer(query, own, act.Outcome(refused=Refused("lang.admins_only")))
            return
        await svc.store.chats.patch(message.chat.id, {"language": lang})
        await relabel(svc, message.chat.id, lang)
    else:
        await svc.store.users.patch(user.id, {"language": lang})
        await relabel(svc, user.id, lang)
    await act.answer(query, lang if not group else own, act.Outcome())
    with contextlib.suppress(TelegramError):
        await query.edit_message_text(t(lang, "lang.set_group" if group else "lang.set"))


async def relabel(svc: Services, chat_id: int, lang: str) -> None:
    """Every running board in this chat speaks ``lang`` from its next edit on."""

    def edit(match: Match) -> None:
        for place in match.places:
            if place.chat == chat_id:
                place.lang = lang

    for record in await svc.store.matches.live_in_chat(chat_id):
        try:
            await stored.change(svc, str(record["id"]), edit)
        except (storage.MatchNotFound, BadMatchRecord, KeyError) as e:  # gone or unreadable
            log.info("board language of %s not changed: %s", record.get("id"), e)
