"""/puzzle in a group: the chat's daily puzzle (the same one all UTC day, chosen from the bank
by the chat and the day), posted once; a later /puzzle that day points to its board.

Anyone in the group answers on that board, once each: a wrong answer gets a short reply
naming the person, the first right one is named on the board and in a reply, later right
ones are acknowledged; each answer counts toward the person's puzzle rating as in private
(once per person per puzzle, :meth:`storage.puzzles.Puzzles.answer_once`).

A Рассада move is chosen in steps (spot → spot → curve): the selection is **shared on the
board** (each step button carries it, as in private), and the answer is the person's whose
tap completes the move. Someone who has had their try cannot move the selection.
"""

from __future__ import annotations

import html
import logging

from telegram import Bot, CallbackQuery, ReplyParameters
from telegram.constants import ParseMode
from telegram.error import TelegramError

import engine.puzzles
from bot.i18n import Text, t
from bot.match import puzzle as flow
from bot.match.actions import Refused
from bot.match.buttons import PUZZLE_PLAY, PUZZLE_STEP, Tap
from bot.match.model import Cursor, Match
from bot.match.ui import PictureView
from bot.telegram import puzzleboard as board
from bot.telegram.common import Langs
from bot.telegram.keyboards import markup
from bot.telegram.services import Services
from engine.puzzles import Puzzle
from storage.daily import Daily, Tried

log = logging.getLogger(__name__)


async def command(svc: Services, bot: Bot, chat: int, user: int, game: str, lang: str) -> None:
    """Post the chat's puzzle of today, or point to its board if it is posted already."""
    day = flow.day_of(svc.clock())
    p = flow.daily(engine.puzzles.load(game), chat, day)
    if p is None:
        await bot.send_message(chat, t(lang, "puzzle.no_bank"))
        return
    stored = await svc.store.daily.get(chat, game, day)
    if stored.message is not None:
        try:
            await bot.send_message(
                chat,
                board.lines(lang, [Text("puzzle.group.above"), *_standing(stored)]),
                parse_mode=ParseMode.HTML,
                reply_parameters=ReplyParameters(stored.message),
            )
            return
        except TelegramError as e:  # the board is gone (deleted): post it again
            log.info("daily puzzle %s of %s not pointed to: %s", p.id, chat, e)
    match = _stand_in(p, user, lang)
    png = await board.picture(match, lang, p)
    try:
        sent = await bot.send_photo(
            chat,
            png,
            caption=await _caption(svc, p, match, stored),
            parse_mode=ParseMode.HTML,
            reply_markup=markup(flow.move_rows(match, day), lang),
        )
    except TelegramError as e:
        log.info("daily puzzle %s not posted in %s: %s", p.id, chat, e)
        return
    await svc.store.daily.post(chat, game, day, p.id, sent.message_id)


async def tap(
    svc: Services, query: CallbackQuery, chat: int, p: Puzzle | None, tap: Tap, langs: Langs
) -> None:
    """A tap on a daily puzzle's board: a step of the selection, or an answer."""
    day = flow.day_of(svc.clock())
    if p is None or tap.kind not in (PUZZLE_PLAY, PUZZLE_STEP):
        await board.popup(query, langs.own, Text("puzzle.group.stale"))
        return
    if tap.version != day:
        await board.popup(query, langs.own, Text("puzzle.group.old_day"))
        return
    if flow.daily(engine.puzzles.load(p.game), chat, day) != p:
        await board.popup(query, langs.own, Text("puzzle.group.stale"))
        return
    stored = await svc.store.daily.get(chat, p.game, day)
    if query.from_user.id in stored.tried:
        await board.popup(query, langs.own, Text("puzzle.group.tried"))
        return
    try:
        if tap.kind is PUZZLE_PLAY:
            match = _stand_in(p, query.from_user.id, langs.here)
            shown = flow.picture_view(match)
            move: str | None = flow.read_move(match, tap.value)
        else:
            cursor, op = flow.unpack(tap.value)
            match = _stand_in(p, query.from_user.id, langs.here, cursor)
            shown = flow.picture_view(match)
            move = flow.step(match, op)
    except Refused as r:
        await board.popup(query, langs.own, r.text)
        return
    if move is not None:
        await _answer(svc, query, chat, p, day, langs, move, shown)
        return
    await board.popup(query, langs.own, None)
    caption = await _caption(svc, p, match, stored)
    keyboard = markup(flow.move_rows(match, day), langs.here)
    await board.redraw(query, match, p, shown, caption, keyboard)


async def _answer(
    svc: Services,
    query: CallbackQuery,
    chat: int,
    p: Puzzle,
    day: int,
    langs: Langs,
    move: str,
    shown: PictureView,
) -> None:
    """The person's one try: recorded, rated, said in the group; the board back at no
    selection, naming the first solver."""
    user, lang = query.from_user, langs.here
    verdict = p.judge(move)
    if verdict is None:
        await board.popup(query, langs.own, Text("err.bad_button"))
        return
    name = user.full_name or str(user.id)
    try:
        got = await svc.store.daily.answer(chat, p.game, day, user.id, name, solved=verdict.solved)
    except Tried:
        await board.popup(query, langs.own, Text("puzzle.group.tried"))
        return
    rated = await svc.store.puzzles.answer_once(
        user.id, p.game, p.id, solved=verdict.solved, start_rating=p.rating
    )
    popup = "puzzle.popup.solved" if verdict.solved else "puzzle.popup.wrong"
    await board.popup(query, langs.own, Text(popup))
    match = _stand_in(p, user.id, lang)
    who = html.escape(name)
    if not verdict.solved:
        said = Text("puzzle.group.wrong", name=who, move=flow.said(match, move))
    elif got.first:
        said = Text("puzzle.group.first", name=who)
    else:
        said = Text("puzzle.group.also", name=who, first=html.escape(got.winner or ""))
    rating = flow.rating_line(rated.before.rating, rated.after.rating, rated.rated)
    if query.message is not None:
        try:
            await query.get_bot().send_message(
                chat,
                board.lines(lang, [said, rating]),
                parse_mode=ParseMode.HTML,
                reply_parameters=ReplyParameters(
                    query.message.message_id, allow_sending_without_reply=True
                ),
            )
        except TelegramError as e:
            log.info("daily puzzle answer not said in %s: %s", chat, e)
    stored = await svc.store.daily.get(chat, p.game, day)
    caption = await _caption(svc, p, match, stored)
    keyboard = markup(flow.move_rows(match, day), lang)
    await board.redraw(query, match, p, shown, caption, keyboard)


def _stand_in(p: Puzzle, user: int, lang: str, cursor: Cursor | None = None) -> Match:
    """The puzzle's board for the group: the seat to move is the group's ("You")."""
    return flow.stand_in(
        p, user, t(lang, "puzzle.group.seat"), t(lang, "puzzle.opponent"), lang, cursor
    )


async def _caption(svc: Services, p: Puzzle, match: Match, stored: Daily) -> str:
    """What it is, the group's rules, the first solver so far, and the selection's step."""
    texts = [
        *flow.task(p, await board.rating_of(svc, p)),
        Text("puzzle.group.rules"),
        *_standing(stored),
        *flow.selection_line(match),
    ]
    return board.lines(match.lang, texts)


def _standing(stored: Daily) -> list[Text]:
    if stored.winner is None:
        return [Text("puzzle.group.unsolved", n=len(stored.tried))]
    return [Text("puzzle.group.winner", name=html.escape(stored.winner), n=len(stored.tried))]
