"""/puzzle in a private chat: the next puzzle at the person's level as a board picture with
the game's own keyboard; a right move → "solved", the rating change and Next; a wrong one →
the reason, and the board stays to try again; Hint and Skip.

Every tap names the puzzle and the person's attempt (:mod:`bot.match.buttons`); a tap on any
other board than the puzzle in hand gets a popup and changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random

from telegram import Bot, CallbackQuery, InputMediaPhoto, Update
from telegram.constants import ChatType, ParseMode
from telegram.error import TelegramError

import engine.puzzles
from bot import pictures
from bot import rules as pages
from bot.i18n import Text, t
from bot.match import puzzle as flow
from bot.match.actions import Refused
from bot.match.buttons import PUZZLE_HINT, PUZZLE_NEXT, PUZZLE_PLAY, Tap
from bot.match.model import Match
from bot.telegram.common import Context, Langs, asker, reply, svc_of
from bot.telegram.keyboards import markup
from bot.telegram.services import Services
from engine.puzzles import Puzzle
from storage.puzzles import Stale

log = logging.getLogger(__name__)
DEFAULT_GAME = "boxes"
# The games whose puzzles the bot serves: a bank may ship before its game's puzzle board
# does (Рассада's, engine/puzzles/data/sprouts.json.gz, waits for its keyboard here).
SERVED = ("boxes",)


async def command(update: Update, context: Context) -> None:
    """``/puzzle`` (or ``/puzzle boxes``): the next puzzle, in the private chat only."""
    a = await asker(update, context)
    message = update.effective_message
    if a is None or message is None:
        return
    if a.chat.type != ChatType.PRIVATE:
        await reply(message, t(a.lang, "puzzle.private_only"))
        return
    words = " ".join(context.args or [])
    game = pages.kind_of(words) if words else DEFAULT_GAME
    if game not in SERVED or not engine.puzzles.load(game):
        await reply(message, t(a.lang, "puzzle.no_bank"))
        return
    await serve(a.svc, context.bot, a.user.id, a.user.full_name, game, a.lang)


async def serve(
    svc: Services, bot: Bot, user: int, name: str, game: str, lang: str, after: int | None = None
) -> None:
    """Put the next puzzle in the person's hand and post its board in their private chat.
    ``after``: the attempt the tap that asked for it was drawn for (a second tap on the same
    Next button is stale and posts nothing)."""
    store = svc.store.puzzles
    state = await store.state(user, game)
    live = await store.ratings(game)
    solved = await store.solved_ids(user, game)
    chosen = flow.choose(
        engine.puzzles.load(game), live, solved, state.rating.rating, random.Random(), state.puzzle
    )
    if chosen is None:
        await bot.send_message(user, t(lang, "puzzle.no_bank"))
        return
    state = await store.begin(user, game, chosen.id, after=after)
    match = _stand_in(chosen, user, name, lang)
    caption = _lines(lang, [*flow.task(chosen, live.get(chosen.id, chosen.rating))])
    png = await _picture(match, lang, chosen)
    try:
        await bot.send_photo(
            user,
            png,
            caption=caption,
            parse_mode=ParseMode.HTML,
            reply_markup=markup(flow.board_keyboard(match, state.attempt), lang),
        )
    except TelegramError as e:
        log.info("puzzle %s not shown to %s: %s", chosen.id, user, e)


async def tap(update: Update, context: Context, tap: Tap, langs: Langs) -> None:
    """A puzzle button: a move, Hint, or Next/Skip."""
    query = update.callback_query
    if query is None:
        return
    svc = svc_of(context)
    user = query.from_user
    found = engine.puzzles.find(tap.subject)
    state = None if found is None else await svc.store.puzzles.state(user.id, found.game)
    in_hand = (
        found is not None
        and state is not None
        and state.puzzle == found.id
        and state.attempt == tap.version
    )
    if found is None or not in_hand or state is None:
        await _popup(query, langs.own, Text("puzzle.stale"))
        return
    if tap.kind is PUZZLE_NEXT:
        await _popup(query, langs.own, None)
        with contextlib.suppress(TelegramError):
            await query.edit_message_reply_markup(None)
        with contextlib.suppress(Stale):  # another tap on this button served the next one
            await serve(
                svc, context.bot, user.id, user.full_name, found.game, langs.here, tap.version
            )
        return
    if state.done:
        await _popup(query, langs.own, Text("puzzle.stale"))
    elif tap.kind is PUZZLE_HINT:
        await _hint(svc, query, found, tap, langs)
    elif tap.kind is PUZZLE_PLAY:
        await _answer(svc, query, found, tap, langs)


async def _hint(svc: Services, query: CallbackQuery, p: Puzzle, tap: Tap, langs: Langs) -> None:
    try:
        await svc.store.puzzles.hint(query.from_user.id, p.game, p.id, tap.version)
    except Stale:
        await _popup(query, langs.own, Text("puzzle.stale"))
        return
    text = t(langs.own, f"puzzle.hint.{p.hint}") + "\n" + t(langs.own, "puzzle.hint.unrated")
    with contextlib.suppress(TelegramError):
        await query.answer(text, show_alert=True)


async def _answer(svc: Services, query: CallbackQuery, p: Puzzle, tap: Tap, langs: Langs) -> None:
    user, lang = query.from_user, langs.here
    match = _stand_in(p, user.id, user.full_name, lang)
    try:
        move = flow.read_move(match, tap.value)
    except Refused as r:
        await _popup(query, langs.own, r.text)
        return
    verdict = p.judge(move)
    if verdict is None:
        await _popup(query, langs.own, Text("err.bad_button"))
        return
    start = p.rating
    try:
        answer = await svc.store.puzzles.answer(
            user.id, p.game, p.id, tap.version, solved=verdict.solved, start_rating=start
        )
    except Stale:
        await _popup(query, langs.own, Text("puzzle.stale"))
        return
    rating = flow.rating_line(answer.before.rating, answer.after.rating, answer.rated)
    title = flow.task(p, start)[0]
    if verdict.solved:
        await _popup(query, langs.own, Text("puzzle.popup.solved"))
        match.game.play(match.game.parse_move(move))
        caption = _lines(lang, [title, *flow.solved(move, verdict.best, answer.state.streak)])
        caption += "\n" + t(lang, rating)
        png = await _picture(match, lang, p, solved=True)
        keyboard = markup(flow.next_keyboard(p.id, tap.version), lang)
        with contextlib.suppress(TelegramError):
            await query.edit_message_media(
                InputMediaPhoto(png, caption=caption, parse_mode=ParseMode.HTML),
                reply_markup=keyboard,
            )
        return
    await _popup(query, langs.own, Text("puzzle.popup.wrong"))
    lines = [title, flow.wrong(move, verdict.got, verdict.best), rating, Text("puzzle.retry")]
    with contextlib.suppress(TelegramError):
        await query.edit_message_caption(
            _lines(lang, lines),
            parse_mode=ParseMode.HTML,
            reply_markup=markup(flow.board_keyboard(match, tap.version), lang),
        )


def _stand_in(p: Puzzle, user: int, name: str, lang: str) -> Match:
    return flow.stand_in(p, user, name, t(lang, "puzzle.opponent"), lang)


async def _picture(match: Match, lang: str, p: Puzzle, *, solved: bool = False) -> bytes:
    status = t(lang, "puzzle.picture.solved" if solved else "puzzle.picture", id=p.id)
    return await asyncio.to_thread(pictures.board_png, match, {"lang": lang, "status": status})


def _lines(lang: str, texts: list[Text]) -> str:
    return "\n".join(t(lang, x) for x in texts)


async def _popup(query: CallbackQuery, lang: str, text: Text | None) -> None:
    with contextlib.suppress(TelegramError):
        await query.answer(None if text is None else t(lang, text))
