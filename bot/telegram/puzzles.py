"""/puzzle in a private chat: the next puzzle at the person's level as a board picture with
the game's own keyboard (a Рассада move is chosen in steps, spot → spot → curve, each step
drawing the board again); a right move → "solved", the rating change and Next; a wrong one →
the reason, and the board stays to try again; Hint and Skip.

Every tap names the puzzle and the person's attempt (:mod:`bot.match.buttons`); a tap on any
other board than the puzzle in hand gets a popup and changes nothing.
"""

from __future__ import annotations

import contextlib
import logging
import random

from telegram import Bot, CallbackQuery, InputMediaPhoto, Update
from telegram.constants import ChatType, ParseMode
from telegram.error import TelegramError

import engine.puzzles
from bot import rules as pages
from bot.i18n import Text, t
from bot.match import dotspuzzle
from bot.match import puzzle as flow
from bot.match.actions import Refused
from bot.match.buttons import PUZZLE_HINT, PUZZLE_NEXT, PUZZLE_PLAY, PUZZLE_STEP, Tap
from bot.match.model import Match
from bot.telegram import daily
from bot.telegram import puzzleboard as board
from bot.telegram.common import Context, Langs, asker, reply, svc_of
from bot.telegram.keyboards import markup
from bot.telegram.services import Services
from engine.puzzles import Puzzle
from storage.puzzles import Stale

log = logging.getLogger(__name__)
DEFAULT_GAME = "boxes"
# The games whose puzzles the bot serves (a bank may ship before its game's puzzle board).
SERVED = ("boxes", "sprouts", "dots")


async def command(update: Update, context: Context) -> None:
    """``/puzzle`` (or ``/puzzle boxes``): the next puzzle, in the private chat only."""
    a = await asker(update, context)
    message = update.effective_message
    if a is None or message is None:
        return
    words = " ".join(context.args or [])
    game = pages.kind_of(words) if words else DEFAULT_GAME
    if game not in SERVED or not engine.puzzles.load(game):
        await reply(message, t(a.lang, "puzzle.no_bank"))
        return
    if a.chat.type != ChatType.PRIVATE:
        await daily.command(a.svc, context.bot, a.chat.id, a.user.id, game, a.lang)
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
    match = board.stand_in(chosen, user, name, lang)
    caption = board.lines(lang, [*flow.task(chosen, live.get(chosen.id, chosen.rating))])
    png = await board.picture(match, lang, chosen)
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


async def in_hand(svc: Services, user: int) -> Puzzle | None:
    """The puzzle the person is solving now, if any (a typed move is pointed to its board)."""
    for game in SERVED:
        state = await svc.store.puzzles.state(user, game)
        found = None if state.puzzle is None or state.done else engine.puzzles.find(state.puzzle)
        if found is not None:
            return found
    return None


async def tap(update: Update, context: Context, tap: Tap, langs: Langs) -> None:
    """A puzzle button: a move, Hint, or Next/Skip."""
    query = update.callback_query
    if query is None:
        return
    svc = svc_of(context)
    user = query.from_user
    found = engine.puzzles.find(tap.subject)
    where = query.message.chat if query.message is not None else None
    if where is not None and where.type != ChatType.PRIVATE:
        await daily.tap(svc, query, where.id, found, tap, langs)
        return
    state = None if found is None else await svc.store.puzzles.state(user.id, found.game)
    in_hand = (
        found is not None
        and state is not None
        and state.puzzle == found.id
        and state.attempt == tap.version
    )
    if found is None or not in_hand or state is None:
        await board.popup(query, langs.own, Text("puzzle.stale"))
        return
    if tap.kind is PUZZLE_NEXT:
        await board.popup(query, langs.own, None)
        with contextlib.suppress(TelegramError):
            await query.edit_message_reply_markup(None)
        with contextlib.suppress(Stale):  # another tap on this button served the next one
            await serve(
                svc, context.bot, user.id, user.full_name, found.game, langs.here, tap.version
            )
        return
    if state.done:
        await board.popup(query, langs.own, Text("puzzle.stale"))
    elif tap.kind is PUZZLE_HINT:
        await _hint(svc, query, found, tap, langs)
    elif tap.kind is PUZZLE_STEP:
        await _step(svc, query, found, tap, langs)
    elif tap.kind is PUZZLE_PLAY:
        try:
            path, code = flow.split_path(tap.value)
            match = board.stand_in(found, user.id, user.full_name, langs.here, path=path)
            move = flow.read_move(match, code)
        except Refused as r:
            await board.popup(query, langs.own, r.text)
            return
        await _answer(svc, query, found, tap, langs, move, path)


async def _step(svc: Services, query: CallbackQuery, p: Puzzle, tap: Tap, langs: Langs) -> None:
    """A keyboard step: the board drawn again at the new selection, or, when the selection
    leaves one move only, that move as the answer."""
    user, lang = query.from_user, langs.here
    try:
        path, value = flow.split_path(tap.value)
        cursor, op = flow.unpack(value)
        match = board.stand_in(p, user.id, user.full_name, lang, cursor, path)
        shown = flow.picture_view(match)
        move = flow.step(match, op)
    except Refused as r:
        await board.popup(query, langs.own, r.text)
        return
    if move is not None:
        await _answer(svc, query, p, tap, langs, move, path)
        return
    await board.popup(query, langs.own, None)
    task = flow.task(p, await board.rating_of(svc, p))
    if path:  # the goal with the moves left, as the board said it after the bot's reply
        task = [task[0], dotspuzzle.goal(p, dotspuzzle.walk(p, path).left)]
    caption = board.lines(lang, [*task, *flow.selection_line(match)])
    keyboard = markup(flow.board_keyboard(match, tap.version, path), lang)
    await board.redraw(query, match, p, shown, caption, keyboard)


async def _hint(svc: Services, query: CallbackQuery, p: Puzzle, tap: Tap, langs: Langs) -> None:
    try:
        await svc.store.puzzles.hint(query.from_user.id, p.game, p.id, tap.version)
    except Stale:
        await board.popup(query, langs.own, Text("puzzle.stale"))
        return
    text = t(langs.own, f"puzzle.hint.{p.hint}") + "\n" + t(langs.own, "puzzle.hint.unrated")
    with contextlib.suppress(TelegramError):
        await query.answer(text, show_alert=True)


async def _answer(
    svc: Services,
    query: CallbackQuery,
    p: Puzzle,
    tap: Tap,
    langs: Langs,
    move: str,
    path: str = "",
) -> None:
    """A move (engine notation) given as the answer: solved, or the reason and a retry; in a
    puzzle of several moves a right move before the last is answered by the bot's defence."""
    user, lang = query.from_user, langs.here
    reason: Text | None = None
    got = 0
    if dotspuzzle.multi(p):
        step = dotspuzzle.play(p, path, move)
        if step.reply is not None:
            await _going_on(svc, query, p, tap, langs, move, step)
            return
        solved, reason = step.solved, step.reason
    else:
        verdict = p.judge(move)
        if verdict is None:
            await board.popup(query, langs.own, Text("err.bad_button"))
            return
        solved, got = verdict.solved, verdict.got
    start, shown = p.rating, await board.rating_of(svc, p)
    try:
        answer = await svc.store.puzzles.answer(
            user.id, p.game, p.id, tap.version, solved=solved, start_rating=start
        )
    except Stale:
        await board.popup(query, langs.own, Text("puzzle.stale"))
        return
    match = board.stand_in(p, user.id, user.full_name, lang, path=path)
    said = flow.said(match, move)
    rating = flow.rating_line(answer.before.rating, answer.after.rating, answer.rated)
    title = flow.task(p, shown)[0]
    if solved:
        await board.popup(query, langs.own, Text("puzzle.popup.solved"))
        if dotspuzzle.multi(p):
            streak = Text("puzzle.streak", n=answer.state.streak)
            done = [dotspuzzle.solved_line(p, move, _taken(p, match, move)), streak]
        else:
            done = flow.solved(p, said, answer.state.streak)
        caption = board.lines(lang, [title, *done, rating])
        png = await board.picture(match, lang, p, played=move)
        keyboard = markup(flow.next_keyboard(p.id, tap.version), lang)
    else:
        await board.popup(query, langs.own, Text("puzzle.popup.wrong"))
        why = reason if reason is not None else flow.wrong(p, said, got)
        caption = board.lines(lang, [title, why, rating, Text("puzzle.retry")])
        png = await board.picture(match, lang, p)  # the board as it was: no curve's preview left
        keyboard = markup(flow.board_keyboard(match, tap.version, path), lang)
    with contextlib.suppress(TelegramError):
        await query.edit_message_media(
            InputMediaPhoto(png, caption=caption, parse_mode=ParseMode.HTML),
            reply_markup=keyboard,
        )


def _taken(p: Puzzle, match: Match, move: str) -> int:
    """The dots the person's line has captured once ``move`` is played."""
    game = match.game.copy()
    game.play(game.parse_move(move))
    return int(game.scores[p.turn] - p.start().scores[p.turn])


async def _going_on(
    svc: Services,
    query: CallbackQuery,
    p: Puzzle,
    tap: Tap,
    langs: Langs,
    move: str,
    step: dotspuzzle.Step,
) -> None:
    """A right move before the last: the board after it and the bot's defence, the person to
    go on (nothing is stored: the new board's buttons carry the path)."""
    user, lang = query.from_user, langs.here
    assert step.reply is not None
    await board.popup(query, langs.own, Text("puzzle.popup.going_on"))
    match = board.stand_in(p, user.id, user.full_name, lang, path=step.path)
    left = dotspuzzle.walk(p, step.path).left
    title = flow.task(p, await board.rating_of(svc, p))[0]
    caption = board.lines(lang, [title, dotspuzzle.going_on(move, step.reply, left)])
    png = await board.picture(match, lang, p)
    keyboard = markup(flow.board_keyboard(match, tap.version, step.path), lang)
    with contextlib.suppress(TelegramError):
        await query.edit_message_media(
            InputMediaPhoto(png, caption=caption, parse_mode=ParseMode.HTML),
            reply_markup=keyboard,
        )
