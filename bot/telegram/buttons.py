"""Inline buttons: a tap → its kind (the table in bot.match.buttons) → a match action or the
handler of its kind (the /new menu, rematch, the record, language, info popups)."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable

from telegram import Update
from telegram.constants import ChatType, ParseMode
from telegram.error import TelegramError

import storage
from bot.i18n import t
from bot.match import buttons, lobby, menus
from bot.match.actions import Refused
from bot.match.buttons import Tap
from bot.match.callback import BadCallback
from bot.match.effects import Refresh
from bot.match.model import Match
from bot.telegram import (
    act,
    boards,
    challenge,
    games,
    inline,
    language,
    lessons,
    puzzles,
    rules,
    stored,
)
from bot.telegram.commands import send_record
from bot.telegram.common import Context, Langs, actor_of, language_of, languages, met, svc_of
from bot.telegram.create import create_match
from bot.telegram.keyboards import markup

log = logging.getLogger(__name__)


async def callback(update: Update, context: Context) -> None:
    """Every button tap: decoded by the table in :mod:`bot.match.buttons`, then a match
    action (applied through :func:`act.act`) or the handler of its kind (:data:`ROUTES`)."""
    svc = svc_of(context)
    query = update.callback_query
    if query is None:
        return
    user = query.from_user
    chat_id = query.message.chat.id if query.message is not None else None
    try:
        tap = buttons.decode(query.data)
    except BadCallback:
        own = (await languages(svc, user, chat_id)).own
        await act.answer(query, own, act.Outcome(refused=Refused("err.bad_button")))
        return
    route = ROUTES.get(tap.kind)
    if route is not None:
        await route(update, context, tap, await languages(svc, user, chat_id))
    else:
        await _act(update, context, tap)


async def _act(update: Update, context: Context, tap: Tap) -> None:
    """A tap on a match's button: read the settings and the match in one round trip, apply
    the action at the button's version, answer the tap, show what changed."""
    svc = svc_of(context)
    query = update.callback_query
    assert query is not None
    user, message = query.from_user, query.message
    chat_id = message.chat.id if message is not None else None
    group = chat_id if chat_id is not None and chat_id != user.id else None
    chat, prefs, first = await svc.store.settings_and_match(user.id, group, tap.subject)
    await met(svc, user, prefs, private=chat_id == user.id)
    lang = language_of(svc, user, chat, prefs)
    own = language_of(svc, user, None, prefs)  # a popup is read by the tapper alone
    if tap.kind is buttons.JOIN and tap.value and query.inline_message_id:
        # Join under a fresh inline game: the match may not be there yet
        if await inline.not_ready(update, context, tap.subject, lang):
            return
        first = None  # it may have just written the match
    at: act.Where | None = None  # a detached button's tap names its match at no place
    if query.inline_message_id:
        at = (None, None, query.inline_message_id)
    elif not tap.kind.detached:
        at = (chat_id, message.message_id if message else None, None)
    outcome = await act.act(
        svc,
        tap.subject,
        actor_of(user, lang),
        tap.action(),
        version=tap.version,
        at=at,
        request=query.id,
        first=first,
    )
    await act.answer(query, own, outcome)
    if outcome.refused is None and tap.kind.detached:
        await games.chosen(query, tap, lang, outcome.match)
    await act.perform(svc, context.bot, outcome)
    if outcome.refused is not None and outcome.refused.text.key == "err.not_your_turn":
        await act.kick_ai(svc, context.bot, tap.subject)
    if outcome.refused is not None and outcome.refused.text.key == "err.stale" and at:
        await boards.heal(svc, context.bot, tap.subject, at)


async def _info(update: Update, context: Context, tap: Tap, langs: Langs) -> None:
    """A button that only explains (a drawn line, a taken point…)."""
    info = tap.value if tap.value in buttons.INFO_TOPICS else "none"
    refused = Refused(f"info.{info}")
    await act.answer(update.callback_query, langs.own, act.Outcome(refused=refused))


async def _record(update: Update, context: Context, tap: Tap, langs: Langs) -> None:
    query = update.callback_query
    assert query is not None
    await act.answer(query, langs.own, act.Outcome())
    chat_id = query.message.chat.id if query.message else query.from_user.id
    await send_record(svc_of(context), context.bot, tap.subject, chat_id, langs.here)


async def _rematch_tap(update: Update, context: Context, tap: Tap, langs: Langs) -> None:
    await _rematch(update, context, tap.subject, langs)


async def _menu_tap(update: Update, context: Context, tap: Tap, langs: Langs) -> None:
    await _menu(update, context, tap.subject, tap.value, langs)


async def _language_tap(update: Update, context: Context, tap: Tap, langs: Langs) -> None:
    await language.tap(update, context, tap.subject, tap.value, langs.own)


async def _menu(update: Update, context: Context, owner: str, path: str, langs: Langs) -> None:
    """A /new menu tap: the menu is edited in the chat's language, popups in the tapper's."""
    lang, own = langs.here, langs.own
    svc = svc_of(context)
    query = update.callback_query
    assert query is not None
    user = query.from_user
    if str(user.id) != owner:
        await act.answer(query, own, act.Outcome(refused=Refused("err.not_your_menu")))
        return
    message = query.message
    chat = message.chat if message is not None else None
    private = chat is not None and chat.type == ChatType.PRIVATE
    try:
        result = menus.screen(user.id, path, private=private)
    except Refused as r:
        await act.answer(query, own, act.Outcome(refused=r))
        return
    if isinstance(result, menus.Screen):
        await act.answer(query, own, act.Outcome())
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
        await act.answer(query, own, act.Outcome(refused=Refused("err.bad_button")))
        return
    if private and result.ai_level is None:  # a friend: challenge them by link
        await act.answer(query, own, act.Outcome())
        with contextlib.suppress(TelegramError):
            await query.delete_message()
        await challenge.create(svc, context.bot, actor_of(user, lang), result, chat.id, lang)
        return
    outcome = await create_match(svc, actor_of(user, lang), result, chat.id, not private, lang)
    await act.answer(query, own, outcome)
    if outcome.refused is None:
        with contextlib.suppress(TelegramError):
            await query.delete_message()
    await act.perform(svc, context.bot, outcome)


async def _rematch(update: Update, context: Context, match_id: str, langs: Langs) -> None:
    """The new match is stored first, with the deadlines that show it (and start the bot's
    move), then the old one learns it: a crash in between leaves a rematch that goes on by
    itself, never an old match that names a rematch nobody stored. The rematch's id follows
    from the old one's, so the tap again (redelivered, or a second press) finds the match the
    first try stored and only finishes the old one's write: never a second rematch."""
    svc = svc_of(context)
    query = update.callback_query
    assert query is not None
    lang, own = langs.here, langs.own
    actor = actor_of(query.from_user, lang)
    new_id = storage.rematch_id(match_id)
    now = svc.clock()
    record = await svc.store.matches.get(match_id)
    try:
        if record is None:
            raise Refused("err.no_match")
        match = lobby.rematch(stored.load(record), actor, new_id, now)
    except Refused as r:
        await act.answer(query, own, act.Outcome(refused=r))
        return
    try:
        outcome = await act.create(svc, match, [Refresh(), *lobby.start(match, now)])
    except storage.MatchExists:  # stored by an earlier try (its deadlines show it)
        outcome = act.Outcome()

    def name_it(old: Match) -> None:
        lobby.rematch(old, actor, new_id, now)

    try:
        await stored.change(svc, match_id, name_it, due={boards.SHOW_KIND: now + boards.SHOW_GUARD})
    except (Refused, storage.MatchNotFound) as e:  # the rematch is already named: the same one
        refused = e if isinstance(e, Refused) else Refused("err.no_match")
        await act.answer(query, own, act.Outcome(refused=refused))
        return
    await act.answer(query, own, act.Outcome())
    await boards.refresh(svc, context.bot, match_id)
    await act.perform(svc, context.bot, outcome)


Route = Callable[[Update, Context, Tap, Langs], Awaitable[None]]
# The handlers of the button kinds that are not match actions.
ROUTES: dict[buttons.Kind, Route] = {
    buttons.INFO: _info,
    buttons.RECORD: _record,
    buttons.REMATCH: _rematch_tap,
    buttons.MENU: _menu_tap,
    buttons.LANGUAGE: _language_tap,
    buttons.RULES: rules.button,
    buttons.BRING: games.bring,
    buttons.PUZZLE_PLAY: puzzles.tap,
    buttons.PUZZLE_STEP: puzzles.tap,
    buttons.PUZZLE_HINT: puzzles.tap,
    buttons.PUZZLE_NEXT: puzzles.tap,
    buttons.LEARN: lessons.tap,
    buttons.LEARN_PAGE: lessons.tap,
    buttons.LEARN_TASK: lessons.tap,
    buttons.LEARN_PLAY: lessons.tap,
    buttons.LEARN_STEP: lessons.tap,
    buttons.LEARN_HINT: lessons.tap,
}
