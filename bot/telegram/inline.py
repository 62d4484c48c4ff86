"""Inline mode: ``@<bot>`` in any chat offers the games; the chosen one becomes a lobby that
lives in that inline message (edited by inline_message_id), with no need to add the bot.

Each offered result already carries a fresh match id in its Join button. The match is created
when Telegram reports the choice (``chosen_inline_result``: inline feedback must be on in
@BotFather); a Join tap that comes first is asked to tap again.
"""

from __future__ import annotations

import logging

from telegram import InlineQueryResultCachedPhoto, InlineQueryResultsButton, Update
from telegram.constants import ParseMode
from telegram.error import TelegramError

import engine
import storage
from bot import pictures
from bot.i18n import Text, t
from bot.match import links, menus
from bot.match.actions import Actor, Refused
from bot.match.buttons import JOIN
from bot.match.effects import Refresh
from bot.match.model import Match
from bot.match.ui import Button
from bot.telegram import act, media
from bot.telegram.common import Context, actor_of, language, svc_of
from bot.telegram.keyboards import markup
from bot.telegram.services import Services

log = logging.getLogger(__name__)


def _offered() -> list[tuple[str, str, str]]:
    """(code, kind, menu path) of the games on offer: each game's quick preset."""
    out = []
    for code, kind in menus.KINDS.items():
        if kind in engine.GAMES:
            out.append((code, kind, menus.QUICK[code].rsplit(".", 1)[0]))
    return out


def _options(code: str, path: str) -> dict[str, object]:
    parts = path.split(".")
    return menus.build_options(menus.KINDS[code], code, parts[1], parts[2])


async def _preset_photo(svc: Services, bot: object, code: str, path: str, lang: str) -> str:
    """The file_id of a game's lobby picture (uploaded to the storage chat once)."""
    key = ("preset", code, path, lang)
    file_id = svc.file_ids.get(key)
    if file_id is not None:
        return file_id
    kind = menus.KINDS[code]
    sample = Match(id="preset", kind=kind, options=_options(code, path), players=2, lang=lang)
    png = pictures.board_png(sample, {"lang": lang})
    return await media.upload(svc, bot, key, png)  # type: ignore[arg-type]


async def inline_query(update: Update, context: Context) -> None:
    svc = svc_of(context)
    query = update.inline_query
    if query is None:
        return
    lang = await language(svc, query.from_user)
    if not svc.settings.storage_chats:
        log.warning("inline query answered with nothing: STORAGE_CHAT_ID is not set")
        button = InlineQueryResultsButton(t(lang, "inline.unavailable"), start_parameter="inline")
        try:
            await query.answer([], cache_time=0, is_personal=True, button=button)
        except TelegramError as e:  # too late: Telegram forgot the query
            log.info("inline answer failed: %s", e)
        return
    results = []
    for code, kind, path in _offered():
        game = t(lang, f"game.{kind}")
        match_id = storage.new_match_id()
        join = JOIN.data(match_id, 0, path)
        results.append(
            InlineQueryResultCachedPhoto(
                id=f"{code}:{match_id}",
                photo_file_id=await _preset_photo(svc, context.bot, code, path, lang),
                title=game,
                description=t(lang, "inline.description"),
                caption=t(lang, "inline.posted", game=f"<b>{game}</b>"),
                parse_mode=ParseMode.HTML,
                reply_markup=markup([[Button(Text("btn.join"), join)]], lang),
            )
        )
    try:
        # Personal and never cached: every result holds a match id of its own.
        await query.answer(results, cache_time=0, is_personal=True)
    except TelegramError as e:
        log.info("inline answer failed: %s", e)


async def chosen(update: Update, context: Context) -> None:
    """A game was posted via the bot: create its lobby in that inline message."""
    svc = svc_of(context)
    result = update.chosen_inline_result
    if result is None or not result.inline_message_id:
        return
    code, _, match_id = result.result_id.partition(":")
    path = next((p for c, _, p in _offered() if c == code), None)
    if path is None:
        return
    lang = await language(svc, result.from_user)
    outcome = await _create(
        svc, match_id, code, path, actor_of(result.from_user, lang), result.inline_message_id, lang
    )
    if outcome is not None:
        await act.perform(svc, context.bot, outcome)


async def not_ready(update: Update, context: Context, match_id: str, lang: str) -> bool:
    """A Join tap under an inline game whose choice Telegram has not reported (yet): say so.
    The tap never creates the match itself, or forged data could tie a second match to
    someone else's message. False: the match exists, join the usual way."""
    svc = svc_of(context)
    query = update.callback_query
    if query is None or not query.inline_message_id:
        return False
    if await svc.store.matches.get(match_id) is not None:
        return False
    await act.answer(query, lang, act.Outcome(refused=Refused("inline.not_ready")))
    return True


async def _create(
    svc: Services,
    match_id: str,
    code: str,
    path: str,
    actor: Actor,
    inline_message_id: str,
    lang: str,
) -> act.Outcome | None:
    """Create the lobby; None when this inline message has its match already."""
    for _ in range(3):
        match = links.new_inline(
            match_id=match_id,
            kind=menus.KINDS[code],
            options=_options(code, path),
            creator=actor,
            inline_message_id=inline_message_id,
            lang=lang,
            now=svc.clock(),
        )
        try:
            outcome = await act.create(svc, match, [Refresh()])
        except storage.MatchExists:
            record = await svc.store.matches.get(match_id)
            places = (record or {}).get("places", [])
            if any(p.get("i") == inline_message_id for p in places):
                return None
            match_id = storage.new_match_id()  # the id was taken elsewhere: the edit fixes it
            continue
        return outcome
    raise storage.Contention(f"no free match id for inline message {inline_message_id}")
