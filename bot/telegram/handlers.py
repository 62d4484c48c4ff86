"""Small async handlers: parse an update into a match action, run it, show the effects.

Nothing a user sends may escape as an exception: bad input gets a popup or a reply.
"""

from __future__ import annotations

import contextlib
import html
import logging
from typing import Any

from telegram import Message, Update, User
from telegram.constants import ChatType, ParseMode
from telegram.error import TelegramError
from telegram.ext import ContextTypes

import storage
from bot import i18n
from bot.i18n import Text, t
from bot.match import lobby, menus, records
from bot.match.actions import (
    Action,
    Actor,
    AddBot,
    AnswerDraw,
    Cancel,
    ClaimTime,
    Cursor,
    Done,
    Ground,
    Join,
    Leave,
    OfferDraw,
    Play,
    Refused,
    Resign,
    Start,
    Stop,
)
from bot.match.callback import BadCallback, parse
from bot.match.effects import Refresh
from bot.match.model import Match
from bot.telegram import act
from bot.telegram.keyboards import markup
from bot.telegram.services import Services

log = logging.getLogger(__name__)
Context = ContextTypes.DEFAULT_TYPE


def svc_of(context: Context) -> Services:
    return context.application.bot_data["svc"]  # type: ignore[no-any-return]


async def language(svc: Services, user: User | None, chat_id: int | None = None) -> str:
    """The chat's setting in groups, else the user's setting, else their Telegram language."""
    if chat_id is not None and user is not None and chat_id != user.id:
        chat = await svc.store.chats.get(chat_id)
        if chat.get("language") in i18n.LANGUAGES:
            return str(chat["language"])
    if user is not None:
        prefs = await svc.store.users.get(user.id)
        if prefs.get("name") != user.full_name:  # leaderboards show names
            await svc.store.users.patch(user.id, {"name": user.full_name[:64]})
        if prefs.get("language") in i18n.LANGUAGES:
            return str(prefs["language"])
        return i18n.normalize(user.language_code, svc.settings.default_language)
    return svc.settings.default_language


def actor_of(user: User, lang: str) -> Actor:
    return Actor(user.id, user.full_name or user.first_name or str(user.id), lang)


async def _reply(message: Message | None, text: str, **kwargs: Any) -> None:
    if message is None:
        return
    try:
        await message.reply_text(text, parse_mode=ParseMode.HTML, **kwargs)
    except TelegramError as e:
        log.info("reply failed: %s", e)


# -- commands ------------------------------------------------------------------------------


async def start(update: Update, context: Context) -> None:
    svc = svc_of(context)
    user, chat = update.effective_user, update.effective_chat
    lang = await language(svc, user, chat.id if chat else None)
    name = html.escape(user.first_name if user else "")
    rows = menus.root(user.id if user else 0).keyboard
    await _reply(
        update.effective_message,
        t(lang, "start.greeting", name=name),
        reply_markup=markup(rows, lang),
    )


async def help_command(update: Update, context: Context) -> None:
    svc = svc_of(context)
    chat = update.effective_chat
    lang = await language(svc, update.effective_user, chat.id if chat else None)
    await _reply(update.effective_message, t(lang, "help.text"))


async def rules(update: Update, context: Context) -> None:
    svc = svc_of(context)
    chat = update.effective_chat
    lang = await language(svc, update.effective_user, chat.id if chat else None)
    wanted = (context.args or [""])[0].lower()
    kinds = [k for k in ("dots", "boxes", "sprouts") if not wanted or k.startswith(wanted[:3])]
    for kind in kinds or ["dots", "boxes", "sprouts"]:
        await _reply(update.effective_message, t(lang, f"rules.{kind}"))


async def new(update: Update, context: Context) -> None:
    svc = svc_of(context)
    user, chat = update.effective_user, update.effective_chat
    if user is None or chat is None:
        return
    lang = await language(svc, user, chat.id)
    screen = menus.root(user.id)
    await _reply(
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
            act_button("English", f"L:{user.id}:0:en"),
            act_button("Русский", f"L:{user.id}:0:ru"),
        ]
    ]
    await _reply(update.effective_message, t(lang, "lang.choose"), reply_markup=markup(rows, lang))


def act_button(text: str, data: str) -> Any:
    from bot.match.ui import Button

    return Button(text, data)


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
        await _reply(message, t(lang, "move.usage"))
        return
    match_id = await _match_for_text(svc, chat.id, user.id, message)
    if match_id is None:
        if chat.type == ChatType.PRIVATE or message.reply_to_message is not None:
            await _reply(message, t(lang, "move.no_match"))
        return
    outcome = await act.act(svc, match_id, actor_of(user, lang), Play(text=text[:64]))
    if outcome.refused is not None:
        await _reply(message, t(lang, outcome.refused.text))
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
            match = act.load(record, svc)
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


# -- buttons -------------------------------------------------------------------------------

LOBBY_OPS = {"j": Join(), "l": Leave(), "s": Start(), "x": Cancel()}
# ``a:<id>:<version>:<arg>``: ways to end a match.
END_OPS: dict[str, Action] = {
    "r": Resign(False),
    "R": Resign(True),
    "d": OfferDraw(),
    "y": AnswerDraw(True),
    "n": AnswerDraw(False),
    "s": Stop(),
    "f": Done(),
    "g": Ground(),
    "t": ClaimTime(),
}


async def callback(update: Update, context: Context) -> None:
    svc = svc_of(context)
    query = update.callback_query
    if query is None:
        return
    user = query.from_user
    chat_id = query.message.chat.id if query.message is not None else None
    lang = await language(svc, user, chat_id)
    try:
        cb = parse(query.data)
    except BadCallback:
        await act.answer(query, lang, act.Outcome(refused=Refused("err.bad_button")))
        return
    if cb.op == menus.OP:
        await _menu(update, context, cb.match, cb.arg, lang)
        return
    if cb.op == "L":
        await _set_language(update, context, cb.match, cb.arg)
        return
    action: Action
    if cb.op in LOBBY_OPS:
        action = LOBBY_OPS[cb.op]
    elif cb.op == "b":
        action = AddBot(cb.arg)
    elif cb.op == "p":
        action = Play(code=cb.arg)
    elif cb.op == "c":
        action = Cursor(cb.arg)
    elif cb.op == "a" and cb.arg in END_OPS:
        action = END_OPS[cb.arg]
    elif cb.op == "a" and cb.arg == "x":
        await _rematch(update, context, cb.match, lang)
        return
    elif cb.op == "a" and cb.arg == "c":
        await act.answer(query, lang, act.Outcome())
        await send_record(
            svc, context.bot, cb.match, query.message.chat.id if query.message else user.id, lang
        )
        return
    elif cb.op == "n":
        await act.answer(query, lang, act.Outcome(refused=Refused(f"info.{cb.arg or 'none'}")))
        return
    else:
        await act.answer(query, lang, act.Outcome(refused=Refused("err.bad_button")))
        return
    place = await _place_index(svc, cb.match, query)
    outcome = await act.act(
        svc, cb.match, actor_of(user, lang), action, version=cb.version, place=place
    )
    await act.answer(query, lang, outcome)
    await act.perform(svc, context.bot, outcome)
    if outcome.refused is not None and outcome.refused.text.key == "err.not_your_turn":
        await act.kick_ai(svc, context.bot, cb.match)


async def _place_index(svc: Services, match_id: str, query: Any) -> int | None:
    try:
        record = await svc.store.matches.get(match_id)
    except storage.StorageError:
        return None
    if record is None:
        return None
    places = record.get("places") or []
    for i, p in enumerate(places):
        if query.inline_message_id and p.get("i") == query.inline_message_id:
            return i
        message = query.message
        if (
            message is not None
            and p.get("c") == message.chat.id
            and p.get("m") == message.message_id
        ):
            return i
    return None


async def _menu(update: Update, context: Context, owner: str, path: str, lang: str) -> None:
    svc = svc_of(context)
    query = update.callback_query
    assert query is not None
    user = query.from_user
    if str(user.id) != owner:
        await act.answer(query, lang, act.Outcome(refused=Refused("err.not_your_menu")))
        return
    message = query.message
    chat = message.chat if message is not None else None
    private = chat is not None and chat.type == ChatType.PRIVATE
    try:
        result = menus.screen(user.id, path, private=private)
    except Refused as r:
        await act.answer(query, lang, act.Outcome(refused=r))
        return
    if isinstance(result, menus.Screen):
        await act.answer(query, lang, act.Outcome())
        try:
            await query.edit_message_text(
                t(lang, result.text),
                parse_mode=ParseMode.HTML,
                reply_markup=markup(result.keyboard, lang),
            )
        except TelegramError as e:
            log.debug("menu edit failed: %s", e)
        return
    if chat is None:
        await act.answer(query, lang, act.Outcome(refused=Refused("err.bad_button")))
        return
    outcome = await create_match(svc, actor_of(user, lang), result, chat.id, not private, lang)
    await act.answer(query, lang, outcome)
    if outcome.refused is None:
        with contextlib.suppress(TelegramError):
            await query.delete_message()
    await act.perform(svc, context.bot, outcome)


async def create_match(
    svc: Services, actor: Actor, choice: menus.Choice, chat_id: int, group: bool, lang: str
) -> act.Outcome:
    try:
        match, effects = lobby.new_match(
            match_id=storage.new_match_id(),
            kind=choice.kind,
            options=choice.options,
            creator=actor,
            chat=chat_id,
            group=group,
            lang=lang,
            now=svc.clock(),
            ai_level=choice.ai_level,
            clock=choice.clock,
        )
    except Refused as r:
        return act.Outcome(refused=r)
    await svc.store.matches.create(match.to_json())
    from bot.match.effects import Refresh

    if not effects:
        effects = [Refresh()]
    return act.Outcome(match, effects)


async def _rematch(update: Update, context: Context, match_id: str, lang: str) -> None:
    svc = svc_of(context)
    query = update.callback_query
    assert query is not None
    actor = actor_of(query.from_user, lang)
    new_id = storage.new_match_id()
    box: dict[str, Match] = {}

    def fn(record: dict[str, Any]) -> dict[str, Any]:
        old = act.load(record)
        box["new"] = lobby.rematch(old, actor, new_id, svc.clock())
        return old.to_json()

    try:
        await svc.store.matches.update(match_id, fn)
    except Refused as r:
        await act.answer(query, lang, act.Outcome(refused=r))
        return
    except storage.MatchNotFound:
        await act.answer(query, lang, act.Outcome(refused=Refused("err.no_match")))
        return
    match = box["new"]
    effects = lobby.start(match, svc.clock())
    await svc.store.matches.create(match.to_json())
    await act.answer(query, lang, act.Outcome())
    await act.refresh(svc, context.bot, match_id)
    await act.perform(svc, context.bot, act.Outcome(match, [Refresh(), *effects]))


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
        await _reply(update.effective_message, t(lang, "record.none"))
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
    await _reply(update.effective_message, "\n\n".join(lines))


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
    await _reply(update.effective_message, "\n".join(lines))


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


async def _set_language(update: Update, context: Context, owner: str, lang: str) -> None:
    svc = svc_of(context)
    query = update.callback_query
    assert query is not None
    user = query.from_user
    if str(user.id) != owner or lang not in i18n.LANGUAGES:
        await act.answer(
            query,
            lang if lang in i18n.LANGUAGES else "en",
            act.Outcome(refused=Refused("err.bad_button")),
        )
        return
    message = query.message
    if message is not None and message.chat.type != ChatType.PRIVATE:
        await svc.store.chats.patch(message.chat.id, {"language": lang})
    else:
        await svc.store.users.patch(user.id, {"language": lang})
    await act.answer(query, lang, act.Outcome())
    with contextlib.suppress(TelegramError):
        await query.edit_message_text(t(lang, "lang.set"))


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
