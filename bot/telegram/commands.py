"""Commands: /start, /help, /new, /record, /stats, /top (/rules: rules.py, /lang: language.py)."""

from __future__ import annotations

import html
import logging
from typing import Any

from telegram import Update
from telegram.constants import ChatType
from telegram.error import TelegramError

import storage
from bot.i18n import Text, t
from bot.match import menus, records
from bot.telegram import challenge, games, stored
from bot.telegram.common import Context, asker, reply
from bot.telegram.keyboards import markup
from bot.telegram.services import Services
from engine.lessons import GAMES as LESSON_GAMES
from engine.lessons import course
from engine.puzzles import GAMES as PUZZLE_GAMES

log = logging.getLogger(__name__)


async def start(update: Update, context: Context) -> None:
    if context.args:  # a deep link: t.me/<bot>?start=<payload> or ?startgroup=<payload>
        await challenge.start_payload(update, context, context.args[0])
        return
    a = await asker(update, context)
    if a is None:
        return
    name = html.escape(a.user.first_name)
    rows = menus.root(a.user.id).keyboard
    await reply(
        update.effective_message,
        t(a.lang, "start.greeting", name=name),
        reply_markup=markup(rows, a.lang),
    )


async def help_command(update: Update, context: Context) -> None:
    a = await asker(update, context)
    if a is None:
        return
    await reply(update.effective_message, t(a.lang, "help.text"))


async def new(update: Update, context: Context) -> None:
    a = await asker(update, context)
    if a is None:
        return
    screen = menus.root(a.user.id)
    if await games.unfinished(a, update.effective_message, screen.keyboard):
        return
    await reply(
        update.effective_message,
        t(a.lang, screen.text),
        reply_markup=markup(screen.keyboard, a.lang),
    )


async def send_record(svc: Services, bot: Any, match_id: str, chat_id: int, lang: str) -> None:
    """The move record as a file, only to a chat that shows the match or to a player's own
    chat: a match id from elsewhere (typed, or forged into a button) reveals nothing."""
    record = await svc.store.matches.get(match_id)
    match = stored.load(record, svc) if record is not None else None
    try:
        if match is None or (chat_id not in match.chats() and chat_id not in match.humans):
            await bot.send_message(chat_id, t(lang, "err.no_match"))
        elif not match.has_game or match.status == "lobby":
            await bot.send_message(chat_id, t(lang, "record.none"))
        else:
            name, data = records.record_file(match)
            caption = t(lang, "end.record_caption")
            await bot.send_document(chat_id, data, filename=name, caption=caption)
    except TelegramError as e:  # the chat is gone or blocked the bot: nobody to tell
        log.info("record of match %s not sent to %s: %s", match_id, chat_id, e)


async def record_command(update: Update, context: Context) -> None:
    """`/record`: the move record of the last finished match here (or of a match id)."""
    a = await asker(update, context)
    if a is None:
        return
    typed = context.args[0] if context.args else None
    match_id = typed or (await a.svc.store.chats.get(a.chat.id)).get("last_match")
    if not match_id or not storage_id(match_id):
        await reply(update.effective_message, t(a.lang, "record.none"))
        return
    await send_record(a.svc, context.bot, match_id, a.chat.id, a.lang)


def storage_id(text: str) -> bool:
    return text.isalnum() and len(text) <= 24


async def stats_command(update: Update, context: Context) -> None:
    a = await asker(update, context)
    if a is None:
        return
    profile = await a.svc.store.users.profile(a.user.id)
    lines = [t(a.lang, "stats.title", name=html.escape(a.user.full_name))]
    if not profile.games:
        lines.append(t(a.lang, "stats.none"))
    provisional = False
    for kind in ("dots", "boxes", "sprouts"):
        if kind in profile.games:
            stats = profile.stats(kind)
            lines.append(stats_line(a.lang, kind, stats))
            provisional = provisional or bool(stats.rating and stats.rating.provisional)
    for kind in PUZZLE_GAMES:
        puzzles = await a.svc.store.puzzles.state(a.user.id, kind)
        if puzzles.rating.games or puzzles.solved:
            rating = rating_text(puzzles.rating.rating, provisional=puzzles.rating.provisional)
            lines.append(
                t(
                    a.lang,
                    "stats.puzzles",
                    game=Text(f"game.{kind}"),
                    solved=puzzles.solved,
                    rating=rating,
                    streak=puzzles.best_streak,
                )
            )
            provisional = provisional or puzzles.rating.provisional
    done = await a.svc.store.lessons.done_counts(a.user.id, LESSON_GAMES)
    for kind in LESSON_GAMES:
        if done[kind]:
            total = len(course(kind))
            game = Text(f"game.{kind}")
            lines.append(t(a.lang, "stats.lessons", game=game, done=done[kind], total=total))
    if provisional:  # what "(provisional)" means, once
        lines.append(t(a.lang, "stats.provisional"))
    await reply(update.effective_message, "\n\n".join(lines))


async def top_command(update: Update, context: Context) -> None:
    a = await asker(update, context)
    if a is None:
        return
    lines: list[str] = []
    scopes: list[tuple[int | None, str]] = (
        [(a.chat.id, "top.chat")] if a.chat.type != ChatType.PRIVATE else []
    )
    scopes.append((None, "top.global"))
    for chat_id, title in scopes:
        lines.append(t(a.lang, title))
        for kind in ("dots", "boxes", "sprouts"):
            top = await a.svc.store.ratings.top(kind, chat_id=chat_id, n=5)
            lines.append(f"<b>{t(a.lang, f'game.{kind}')}</b>")
            if not top:
                lines.append(t(a.lang, "top.empty"))
            for i, row in enumerate(top, 1):
                name = html.escape(await display_name(a.svc, row.user_id))
                lines.append(
                    t(
                        a.lang,
                        "top.row",
                        n=i,
                        name=name,
                        rating=rating_text(row.rating, provisional=row.provisional),
                        games=Text("count.games", n=row.games),
                    )
                )
    await reply(update.effective_message, "\n".join(lines))


async def display_name(svc: Services, user_id: int) -> str:
    prefs = await svc.store.users.get(user_id)
    return str(prefs.get("name") or user_id)


def rating_text(rating: float, *, provisional: bool) -> Text | int:
    """A rating as /stats and /top show it: "1662 (provisional)" until it settles."""
    return Text("rating.provisional", rating=round(rating)) if provisional else round(rating)


def stats_line(lang: str, kind: str, s: storage.GameStats) -> str:
    """One game's line of /stats: games against people (with rating and best win) and
    games against the bot per level."""
    parts = [f"<b>{t(lang, f'game.{kind}')}</b>"]
    tally = s.tally
    parts.append(
        t(
            lang,
            "stats.people",
            games=Text("count.games", n=tally.played),
            wins=Text("count.wins", n=tally.won),
            draws=Text("count.draws", n=tally.drawn),
        )
    )
    if s.rating is not None:
        rating = rating_text(s.rating.rating, provisional=s.rating.provisional)
        parts.append(t(lang, "stats.rating", rating=rating))
    if s.best_win is not None:
        parts.append(t(lang, "stats.best_win", rating=round(s.best_win.rating)))
    for level, lv in sorted(s.vs_ai.items()):
        parts.append(
            t(lang, "stats.vs_bot", level=t(lang, f"level.{level}"), n=lv.won, played=lv.played)
        )
    return "\n".join(parts)
