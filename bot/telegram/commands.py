"""Commands: /start, /help, /rules, /new, /lang, /record, /stats, /top."""

from __future__ import annotations

import asyncio
import html
import logging
from typing import Any

from telegram import Update
from telegram.constants import ChatType, ParseMode
from telegram.error import TelegramError

import storage
from bot import examples
from bot.i18n import t
from bot.match import menus, records
from bot.match.ui import Button
from bot.telegram import act
from bot.telegram.common import Context, language, reply, svc_of
from bot.telegram.keyboards import markup
from bot.telegram.services import Services

log = logging.getLogger(__name__)


async def start(update: Update, context: Context) -> None:
    if context.args:  # a deep link: t.me/<bot>?start=<payload> or ?startgroup=<payload>
        from bot.telegram import challenge

        await challenge.start_payload(update, context, context.args[0])
        return
    svc = svc_of(context)
    user, chat = update.effective_user, update.effective_chat
    lang = await language(svc, user, chat.id if chat else None)
    name = html.escape(user.first_name if user else "")
    rows = menus.root(user.id if user else 0).keyboard
    await reply(
        update.effective_message,
        t(lang, "start.greeting", name=name),
        reply_markup=markup(rows, lang),
    )


async def help_command(update: Update, context: Context) -> None:
    svc = svc_of(context)
    chat = update.effective_chat
    lang = await language(svc, update.effective_user, chat.id if chat else None)
    await reply(update.effective_message, t(lang, "help.text"))


async def rules(update: Update, context: Context) -> None:
    svc = svc_of(context)
    chat = update.effective_chat
    lang = await language(svc, update.effective_user, chat.id if chat else None)
    wanted = (context.args or [""])[0].lower()
    kinds = [k for k in ("dots", "boxes", "sprouts") if not wanted or k.startswith(wanted[:3])]
    message = update.effective_message
    for kind in kinds or ["dots", "boxes", "sprouts"]:
        png = await asyncio.to_thread(examples.picture, kind, lang)
        if png is None or message is None:
            await reply(message, t(lang, f"rules.{kind}"))
            continue
        try:
            await message.reply_photo(
                png, caption=t(lang, f"rules.{kind}"), parse_mode=ParseMode.HTML
            )
        except TelegramError as e:
            log.info("rules picture failed: %s", e)


async def new(update: Update, context: Context) -> None:
    svc = svc_of(context)
    user, chat = update.effective_user, update.effective_chat
    if user is None or chat is None:
        return
    lang = await language(svc, user, chat.id)
    screen = menus.root(user.id)
    await reply(
        update.effective_message, t(lang, screen.text), reply_markup=markup(screen.keyboard, lang)
    )


async def lang_command(update: Update, context: Context) -> None:
    svc = svc_of(context)
    user, chat = update.effective_user, update.effective_chat
    if user is None or chat is None:
        return
    lang = await language(svc, user, chat.id)
    rows = [
        [
            Button("English", f"L:{user.id}:0:en"),
            Button("Русский", f"L:{user.id}:0:ru"),
        ]
    ]
    await reply(update.effective_message, t(lang, "lang.choose"), reply_markup=markup(rows, lang))


async def send_record(svc: Services, bot: Any, match_id: str, chat_id: int, lang: str) -> None:
    record = await svc.store.matches.get(match_id)
    if record is None:
        await bot.send_message(chat_id, t(lang, "err.no_match"))
        return
    match = act.load(record, svc)
    if not match.has_game or match.status == "lobby":
        await bot.send_message(chat_id, t(lang, "record.none"))
        return
    name, data = records.record_file(match)
    await bot.send_document(chat_id, data, filename=name, caption=t(lang, "end.record_caption"))


async def record_command(update: Update, context: Context) -> None:
    """`/record`: the move record of the last finished match here (or of a match id)."""
    svc = svc_of(context)
    user, chat = update.effective_user, update.effective_chat
    if chat is None:
        return
    lang = await language(svc, user, chat.id)
    match_id = (context.args or [None])[0] or (await svc.store.chats.get(chat.id)).get("last_match")
    if not match_id or not storage_id(match_id):
        await reply(update.effective_message, t(lang, "record.none"))
        return
    await send_record(svc, context.bot, match_id, chat.id, lang)


def storage_id(text: str) -> bool:
    return text.isalnum() and len(text) <= 24


async def stats_command(update: Update, context: Context) -> None:
    svc = svc_of(context)
    user, chat = update.effective_user, update.effective_chat
    if user is None or chat is None:
        return
    lang = await language(svc, user, chat.id)
    profile = await svc.store.users.profile(user.id)
    lines = [t(lang, "stats.title", name=html.escape(user.full_name))]
    if not profile.games:
        lines.append(t(lang, "stats.none"))
    for kind in ("dots", "boxes", "sprouts"):
        if kind in profile.games:
            lines.append(stats_line(lang, kind, profile.stats(kind)))
    await reply(update.effective_message, "\n\n".join(lines))


async def top_command(update: Update, context: Context) -> None:
    svc = svc_of(context)
    user, chat = update.effective_user, update.effective_chat
    if chat is None:
        return
    lang = await language(svc, user, chat.id)
    lines: list[str] = []
    scopes = [(chat.id, "top.chat")] if chat.type != ChatType.PRIVATE else []
    scopes.append((None, "top.global"))
    for chat_id, title in scopes:
        lines.append(t(lang, title))
        for kind in ("dots", "boxes", "sprouts"):
            top = await svc.store.ratings.top(kind, chat_id=chat_id, n=5)
            lines.append(f"<b>{t(lang, f'game.{kind}')}</b>")
            if not top:
                lines.append(t(lang, "top.empty"))
            for i, row in enumerate(top, 1):
                name = html.escape(await display_name(svc, row.user_id))
                lines.append(
                    t(lang, "top.row", n=i, name=name, rating=round(row.rating), games=row.games)
                )
    await reply(update.effective_message, "\n".join(lines))


async def display_name(svc: Services, user_id: int) -> str:
    prefs = await svc.store.users.get(user_id)
    return str(prefs.get("name") or user_id)


def stats_line(lang: str, kind: str, s: storage.GameStats) -> str:
    """One game's line of /stats: games against people (with rating and best win) and
    games against the bot per level."""
    parts = [f"<b>{t(lang, f'game.{kind}')}</b>"]
    tally = s.tally
    parts.append(t(lang, "stats.people", played=tally.played, won=tally.won, drawn=tally.drawn))
    if s.rating is not None:
        mark = "?" if s.rating.provisional else ""
        parts.append(t(lang, "stats.rating", rating=f"{round(s.rating.rating)}{mark}"))
    if s.best_win is not None:
        parts.append(t(lang, "stats.best_win", rating=round(s.best_win.rating)))
    for level, lv in sorted(s.vs_ai.items()):
        parts.append(
            t(lang, "stats.vs_bot", level=t(lang, f"level.{level}"), won=lv.won, played=lv.played)
        )
    return "\n".join(parts)
