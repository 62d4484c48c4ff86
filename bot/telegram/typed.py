"""Typed moves: `/m h12` anywhere, plain text in a private chat, or a reply to a board."""

from __future__ import annotations

from telegram import Message, Update
from telegram.constants import ChatType

import storage
from bot.i18n import t
from bot.match.actions import Play
from bot.match.model import Match
from bot.telegram import act, stored
from bot.telegram.common import Context, actor_of, language, reply, svc_of
from bot.telegram.services import Services


async def move_command(update: Update, context: Context) -> None:
    """`/m h12`: a typed move, for groups where the bot sees only commands."""
    text = " ".join(context.args or [])
    await _typed_move(update, context, text)


async def text_message(update: Update, context: Context) -> None:
    """Plain text in a private chat, or a reply to a board message: a typed move."""
    message = update.effective_message
    if message is None or not message.text:
        return
    await _typed_move(update, context, message.text)


async def _typed_move(update: Update, context: Context, text: str) -> None:
    svc = svc_of(context)
    user, chat, message = update.effective_user, update.effective_chat, update.effective_message
    if user is None or chat is None or message is None:
        return
    lang = await language(svc, user, chat.id)
    if not text.strip():
        await reply(message, t(lang, "move.usage"))
        return
    match_id = await _match_for_text(svc, chat.id, user.id, message)
    if match_id is None:
        if chat.type == ChatType.PRIVATE or message.reply_to_message is not None:
            await reply(message, t(lang, "move.no_match"))
        return
    outcome = await act.act(
        svc,
        match_id,
        actor_of(user, lang),
        Play(text=text[:64]),
        request=f"{chat.id}:{message.message_id}",
    )
    if outcome.refused is not None:
        await reply(message, t(lang, outcome.refused.text))
        return
    await act.perform(svc, context.bot, outcome)


async def _match_for_text(
    svc: Services, chat_id: int, user_id: int, message: Message
) -> str | None:
    """The match a typed move is meant for: the replied-to board, else the one match in this
    chat where the user is to move (or seated)."""
    ids = await svc.store.matches.active_in_chat(chat_id)
    replied = message.reply_to_message
    candidates: list[Match] = []
    for match_id in ids:
        try:
            record = await svc.store.matches.get(match_id)
        except storage.StorageError:
            continue
        if record is None:
            continue
        try:
            match = stored.load(record, svc)
        except ValueError:
            continue
        if replied is not None:
            if any(p.chat == chat_id and p.msg == replied.message_id for p in match.places):
                return match.id
            continue
        if match.status == "active" and match.seat_of(user_id) is not None:
            candidates.append(match)
    to_move = [m for m in candidates if m.to_move is not None and m.to_move.user == user_id]
    if len(to_move) == 1:
        return to_move[0].id
    if len(candidates) == 1:
        return candidates[0].id
    return None
