"""Inline buttons: callback data → match actions, the /new menu, rematch, language."""

from __future__ import annotations

import contextlib
import logging
from typing import Any

from telegram import Update
from telegram.constants import ChatType, ParseMode
from telegram.error import TelegramError

import storage
from bot import i18n
from bot.i18n import t
from bot.match import lobby, menus
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
from bot.telegram import act, boards
from bot.telegram.commands import send_record
from bot.telegram.common import Context, actor_of, language, language_of, svc_of
from bot.telegram.keyboards import markup
from bot.telegram.services import Services

log = logging.getLogger(__name__)

# ``n:<id>:<version>:<what>``: buttons that only explain (a drawn line, a taken point…).
INFO = ("none", "drawn", "taken", "dead", "taken_box", "edge", "no_moves")
LOBBY_OPS: dict[str, Action] = {"j": Join(), "l": Leave(), "s": Start(), "x": Cancel()}
# ``a:<id>:<version>:<arg>``: ways to end a match.
END_OPS: dict[str, Action] = {
    "r": Resign(False),
    "R": Resign(True),
    "d": OfferDraw(),
    "e": OfferDraw(scores=True),
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
    try:
        cb = parse(query.data)
    except BadCallback:
        lang = await language(svc, user, chat_id)
        await act.answer(query, lang, act.Outcome(refused=Refused("err.bad_button")))
        return
    first: tuple[str, dict[str, Any]] | None = None
    if _acts(cb.op, cb.arg):
        # A tap on a match's button reads the settings and the match in one round trip.
        group = chat_id if chat_id is not None and chat_id != user.id else None
        chat, prefs, first = await svc.store.settings_and_match(user.id, group, cb.match)
        lang = await language_of(svc, user, chat, prefs)
    else:
        lang = await language(svc, user, chat_id)
    if cb.op == menus.OP:
        await _menu(update, context, cb.match, cb.arg, lang)
        return
    if cb.op == "L":
        await _set_language(update, context, cb.match, cb.arg)
        return
    if cb.op == "j" and cb.arg and query.inline_message_id:  # Join under a fresh inline game
        from bot.telegram import inline

        if await inline.not_ready(update, context, cb, lang):
            return
        first = None  # it may have just written the match
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
        info = cb.arg if cb.arg in INFO else "none"
        await act.answer(query, lang, act.Outcome(refused=Refused(f"info.{info}")))
        return
    else:
        await act.answer(query, lang, act.Outcome(refused=Refused("err.bad_button")))
        return
    message = query.message
    at = (
        (None, None, query.inline_message_id)
        if query.inline_message_id
        else (message.chat.id if message else None, message.message_id if message else None, None)
    )
    outcome = await act.act(
        svc,
        cb.match,
        actor_of(user, lang),
        action,
        version=cb.version,
        at=at,
        request=query.id,
        first=first,
    )
    await act.answer(query, lang, outcome)
    await act.perform(svc, context.bot, outcome)
    if outcome.refused is not None and outcome.refused.text.key == "err.not_your_turn":
        await act.kick_ai(svc, context.bot, cb.match)
    if outcome.refused is not None and outcome.refused.text.key == "err.stale":
        await boards.heal(svc, context.bot, cb.match, at)


def _acts(op: str, arg: str) -> bool:
    """Whether the button is an action on its match (applied through ``act.act``)."""
    return op in LOBBY_OPS or op in ("b", "p", "c") or (op == "a" and arg in END_OPS)


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
    if private and result.ai_level is None:  # a friend: challenge them by link
        from bot.telegram import challenge

        await act.answer(query, lang, act.Outcome())
        with contextlib.suppress(TelegramError):
            await query.delete_message()
        base = path.rsplit(".", 1)[0]
        await challenge.create(svc, context.bot, actor_of(user, lang), result, base, chat.id, lang)
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
    return await act.create(svc, match, effects or [Refresh()])


async def _rematch(update: Update, context: Context, match_id: str, lang: str) -> None:
    """The new match is stored first, with the deadlines that show it (and start the bot's
    move), then the old one learns it: a crash in between leaves a rematch that goes on by
    itself, never an old match that names a rematch nobody stored."""
    svc = svc_of(context)
    query = update.callback_query
    assert query is not None
    actor = actor_of(query.from_user, lang)
    new_id = storage.new_match_id()
    now = svc.clock()
    record = await svc.store.matches.get(match_id)
    try:
        if record is None:
            raise Refused("err.no_match")
        match = lobby.rematch(act.load(record), actor, new_id, now)
    except Refused as r:
        await act.answer(query, lang, act.Outcome(refused=r))
        return
    effects = lobby.start(match, now)
    outcome = await act.create(svc, match, [Refresh(), *effects])

    def fn(record: dict[str, Any]) -> dict[str, Any]:
        old = act.load(record)
        lobby.rematch(old, actor, new_id, now)
        return old.to_json()

    def due(_: dict[str, Any]) -> dict[str, float | None]:
        return {boards.SHOW_KIND: now + boards.SHOW_GUARD}

    try:
        await svc.store.matches.update(match_id, fn, due=due)
    except (Refused, storage.MatchNotFound) as e:  # someone else's rematch came first
        await svc.store.matches.delete(new_id)
        refused = e if isinstance(e, Refused) else Refused("err.no_match")
        await act.answer(query, lang, act.Outcome(refused=refused))
        return
    await act.answer(query, lang, act.Outcome())
    await boards.refresh(svc, context.bot, match_id)
    await act.perform(svc, context.bot, outcome)


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
