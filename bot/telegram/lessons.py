"""/learn in a private chat: the game picker → the game's lessons (✓ on those done) → a
lesson's pages, each a picture drawn from its position with Next → its tasks on a real board
with the game's own keyboard: a wrong move gets its reason and the board stays to try again,
Hint on request, a right one moves on; the last task done marks the lesson ✓.

Screens edit the message tapped (a page turns in place; a lesson opened from the text list
is a new picture message). Every task board names the task and the person's attempt
(:mod:`storage.lessons`); a tap on any other board, or a forged one, gets a popup and
changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from telegram import CallbackQuery, InputMediaPhoto, Message, Update
from telegram.constants import ChatType, ParseMode
from telegram.error import TelegramError

import engine.lessons
from bot import pictures
from bot import rules as pages
from bot.i18n import Text, t
from bot.match import lesson as flow
from bot.match import puzzle as posed
from bot.match.actions import Refused
from bot.match.buttons import LEARN, LEARN_HINT, LEARN_PAGE, LEARN_PLAY, LEARN_STEP, Tap
from bot.match.model import Cursor, Match
from bot.match.ui import PictureView
from bot.telegram import puzzleboard as board
from bot.telegram.common import Context, Langs, asker, reply, svc_of
from bot.telegram.keyboards import markup
from bot.telegram.services import Services
from engine.lessons import Lesson, Task
from storage.lessons import LessonState, Stale

log = logging.getLogger(__name__)


async def command(update: Update, context: Context) -> None:
    """``/learn`` (or ``/learn boxes``): the game picker, or that game's lessons."""
    a = await asker(update, context)
    message = update.effective_message
    if a is None or message is None:
        return
    if a.chat.type != ChatType.PRIVATE:
        await reply(message, t(a.lang, "learn.private"))
        return
    words = " ".join(context.args or [])
    game = pages.kind_of(words) if words else None
    if game is None:
        screen = flow.picker()
    else:
        screen = flow.listing(game, set((await a.svc.store.lessons.state(a.user.id, game)).done))
    await reply(
        message, board.lines(a.lang, screen.text), reply_markup=markup(screen.keyboard, a.lang)
    )


async def tap(update: Update, context: Context, tap: Tap, langs: Langs) -> None:
    """A /learn button: the picker or a list, a page, a task's start, a move, a hint."""
    query = update.callback_query
    if query is None:
        return
    svc = svc_of(context)
    try:
        if tap.kind is LEARN:
            await _screen(svc, query, tap.value, langs)
        elif tap.kind is LEARN_PAGE:
            await _page(query, _lesson(tap.subject), tap.version, langs)
        elif tap.kind in (LEARN_PLAY, LEARN_STEP, LEARN_HINT):
            await _on_board(svc, query, tap, langs)
        else:
            await _begin(svc, query, _lesson(tap.subject), tap.version, langs)
    except Refused as r:
        await board.popup(query, langs.own, r.text)


async def in_hand(svc: Services, user: int) -> Task | None:
    """The lesson task the person is solving now, if any (a typed move is pointed to its
    board)."""
    for game in engine.lessons.COURSES:
        state = await svc.store.lessons.state(user, game)
        found = None if state.task is None or state.finished else engine.lessons.task(state.task)
        if found is not None:
            return found[0].tasks[found[1]]
    return None


def _lesson(lesson_id: str) -> Lesson:
    found = engine.lessons.lesson(lesson_id)
    if found is None:
        raise Refused("learn.stale")
    return found


def _photo(query: CallbackQuery) -> bool:
    """The tapped message is a picture (a page or a board), so it can turn in place."""
    return isinstance(query.message, Message) and bool(query.message.photo)


async def _screen(svc: Services, query: CallbackQuery, game: str, langs: Langs) -> None:
    """The picker (``game`` empty) or a game's lessons, in place of a text screen, or as a
    new message under a picture."""
    if game and game not in flow.GAMES:
        raise Refused("err.bad_button")
    user = query.from_user.id
    if game:
        screen = flow.listing(game, set((await svc.store.lessons.state(user, game)).done))
    else:
        screen = flow.picker()
    await board.popup(query, langs.own, None)
    text, keyboard = board.lines(langs.here, screen.text), markup(screen.keyboard, langs.here)
    with contextlib.suppress(TelegramError):
        if _photo(query) or not isinstance(query.message, Message):
            await query.get_bot().send_message(
                user, text, parse_mode=ParseMode.HTML, reply_markup=keyboard
            )
        else:
            await query.edit_message_text(text, parse_mode=ParseMode.HTML, reply_markup=keyboard)


def _names(lang: str) -> tuple[str, str]:
    return (t(lang, "rules.player", n=1), t(lang, "rules.player", n=2))


async def page_png(lesson: Lesson, n: int, lang: str) -> bytes:
    """Page ``n``'s picture: its position, the lines it is about marked."""
    match = flow.page_stand_in(lesson, n, _names(lang), lang)
    view: PictureView = {
        "lang": lang,
        "status": t(lang, flow.picture_status(lesson, None)),
        "marks": list(lesson.pages[n].marks),
    }
    return await asyncio.to_thread(pictures.board_png, match, view)


async def _page(query: CallbackQuery, lesson: Lesson, n: int, langs: Langs) -> None:
    if not 0 <= n < len(lesson.pages):
        raise Refused("learn.stale")
    await board.popup(query, langs.own, None)
    lang = langs.here
    screen = flow.page(lesson, n)
    png = await page_png(lesson, n, lang)
    await _show(query, png, board.lines(lang, screen.text), screen, lang)


async def _show(
    query: CallbackQuery, png: bytes, caption: str, screen: flow.Screen, lang: str
) -> None:
    """A picture in place of the tapped one, or a new one under a text screen."""
    keyboard = markup(screen.keyboard, lang)
    with contextlib.suppress(TelegramError):
        if _photo(query):
            await query.edit_message_media(
                InputMediaPhoto(png, caption=caption, parse_mode=ParseMode.HTML),
                reply_markup=keyboard,
            )
        else:
            await query.get_bot().send_photo(
                query.from_user.id,
                png,
                caption=caption,
                parse_mode=ParseMode.HTML,
                reply_markup=keyboard,
            )


def _stand_in(task: Task, query: CallbackQuery, lang: str, cursor: Cursor | None = None) -> Match:
    user = query.from_user
    return board.stand_in(task, user.id, user.full_name, lang, cursor)


async def _task_png(
    match: Match, lesson: Lesson, i: int, lang: str, played: str | None = None
) -> bytes:
    status = t(lang, flow.picture_status(lesson, i))
    return await board.picture(match, lang, lesson.tasks[i], played=played, status=status)


async def _begin(svc: Services, query: CallbackQuery, lesson: Lesson, i: int, langs: Langs) -> None:
    """Task ``i`` of the lesson in the person's hand, its board in place of the page (a
    task after the first only once the one before it is solved)."""
    user = query.from_user.id
    if not 0 <= i < len(lesson.tasks):
        raise Refused("learn.stale")
    state = await svc.store.lessons.state(user, lesson.game)
    if i > 0 and lesson.tasks[i - 1].id not in state.solved:
        raise Refused("learn.stale")
    task = lesson.tasks[i]
    state = await svc.store.lessons.begin(user, lesson.game, task.id)
    await board.popup(query, langs.own, None)
    lang = langs.here
    match = _stand_in(task, query, lang)
    screen = flow.Screen(
        flow.task_lines(lesson, i), flow.task_keyboard(match, lesson, state.attempt)
    )
    png = await _task_png(match, lesson, i, lang)
    await _show(query, png, board.lines(lang, screen.text), screen, lang)


async def _on_board(svc: Services, query: CallbackQuery, tap: Tap, langs: Langs) -> None:
    """A tap on a task's board: only the person's task in hand, at its attempt."""
    found = engine.lessons.task(tap.subject)
    if found is None:
        raise Refused("learn.stale")
    lesson, i = found
    task = lesson.tasks[i]
    state = await svc.store.lessons.state(query.from_user.id, lesson.game)
    if not state.in_hand(task.id, tap.version):
        raise Refused("learn.stale")
    if tap.kind is LEARN_HINT:
        with contextlib.suppress(TelegramError):
            await query.answer(t(langs.own, task.hint), show_alert=True)
        return
    lang = langs.here
    if tap.kind is LEARN_PLAY:
        played = posed.read_move(_stand_in(task, query, lang), tap.value)
        await _answer(svc, query, lesson, i, state, played, langs)
        return
    cursor, op = posed.unpack(tap.value)
    match = _stand_in(task, query, lang, cursor)
    shown = posed.picture_view(match)
    move = posed.step(match, op)
    if move is not None:
        await _answer(svc, query, lesson, i, state, move, langs)
        return
    await board.popup(query, langs.own, None)
    caption = board.lines(lang, [*flow.task_lines(lesson, i), *posed.selection_line(match)])
    keyboard = markup(flow.task_keyboard(match, lesson, state.attempt), lang)
    status = t(lang, flow.picture_status(lesson, i))
    await board.redraw(query, match, task, shown, caption, keyboard, status)


async def _answer(
    svc: Services,
    query: CallbackQuery,
    lesson: Lesson,
    i: int,
    state: LessonState,
    move: str,
    langs: Langs,
) -> None:
    """A move (engine notation) as the answer: the engine's verdict, then the next step or
    the reason and a retry."""
    task, lang = lesson.tasks[i], langs.here
    # A Точки verdict is a search (milliseconds, but the process's first one loads the
    # compiled kernels): off the event loop, as pictures are drawn.
    verdict = await asyncio.to_thread(engine.lessons.judge, task, move)
    if verdict is None:
        raise Refused("err.bad_button")
    match = _stand_in(task, query, lang)
    said = posed.said(match, move)
    if verdict.solved:
        try:
            state = await svc.store.lessons.solve(
                query.from_user.id,
                lesson.game,
                task.id,
                state.attempt,
                lesson=lesson.id,
                tasks=[x.id for x in lesson.tasks],
            )
        except Stale as e:
            raise Refused("learn.stale") from e
        await board.popup(query, langs.own, Text("learn.popup.right"))
        screen = flow.solved(lesson, i, said, lesson.id in state.done)
        png = await _task_png(match, lesson, i, lang, played=move)
    else:
        await board.popup(query, langs.own, Text("learn.popup.wrong"))
        lines = [flow.task_head(lesson, i), *flow.wrong(task, said, verdict, move)]
        screen = flow.Screen(lines, flow.task_keyboard(match, lesson, state.attempt))
        png = await _task_png(match, lesson, i, lang)  # the board as it was, no preview left
    await _show(query, png, board.lines(lang, screen.text), screen, lang)
