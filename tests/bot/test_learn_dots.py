"""A Точки lesson through the playground, as a person sees it, in en and ru: the course in
the picker and its list, lesson 11's two pages with their pictures (the marked points
ringed), its task on the real Точки keyboard — the tempting wrong move with its reason, a
move the task names no reason for (the search's own verdict), the hint, the right move —
and the lesson ✓ in the list."""

from __future__ import annotations

import re

import pytest

import engine.lessons
from bot.i18n import Text, t
from bot.match import lesson as flow
from bot.match import puzzle as posed
from engine.lessons import Task
from playground.client import MessageView, Popup, UserHandle
from tests.bot.test_learn import _lesson, attempt_of, png_of
from tests.bot.test_puzzles import board_now as now
from tests.fixtures.playground import ScenarioClient


def code(task: Task, notation: str) -> str:
    """A point's code in a move button: x and y from the top left."""
    m = task.start().parse_move(notation)
    return f"{m.x}.{m.y}"


async def play(user: UserHandle, board: MessageView, task: Task, notation: str) -> Popup:
    """Tap the point on the task's keyboard: its button is labelled with its name and
    carries the task and the attempt."""
    button = board.find_button(notation)
    assert button.callback_data is not None
    assert button.callback_data.startswith(f"yz:{task.id}:{attempt_of(board)}:")
    popup = await user.press(notation, board)
    assert popup is not None
    return popup


def said(lang: str, key: str | Text) -> str:
    """A catalog text as a caption shows it (the bold is an entity, not tags)."""
    return re.sub(r"</?b>", "", t(lang, key))


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_a_dots_lesson_with_a_wrong_answer_a_hint_and_the_right_one(
    pg: ScenarioClient, lang: str
) -> None:
    await pg.set_limits(enabled=False)
    lesson = _lesson("d11")
    (task,) = lesson.tasks
    course = engine.lessons.course("dots")
    alice = await pg.user("alice", lang=lang)
    await alice.send("/learn")
    picker = await alice.private.last_with_buttons()
    assert picker.buttons[0][0].text == t(lang, Text("learn.pick", game=Text("game.dots")))
    await alice.press(picker.buttons[0][0].text, picker)
    listing = await now(alice, picker)
    titles = [b.text for row in listing.buttons[:-1] for b in row]
    assert len(titles) == len(course) >= 10
    n = course.index(lesson)
    assert titles[n] == t(lang, Text("learn.item", n=n + 1, title=Text(lesson.title)))

    await alice.press(titles[n], listing)
    page = await alice.private.last_with_buttons()
    assert said(lang, lesson.pages[0].text) in (page.caption or "")
    image = await png_of(alice, page)
    assert image.width <= 1280 and image.height > 300
    await alice.press(t(lang, "learn.btn.next"), page)
    page2 = await now(alice, page)
    assert said(lang, lesson.pages[1].text) in (page2.caption or "")
    assert await alice.private.photo(page2) != await alice.private.photo(page)
    await alice.press(t(lang, "learn.btn.task"), page2)

    board = await now(alice, page2)
    assert said(lang, task.goal) in (board.caption or "")
    before = await alice.private.photo(board)
    # The tempting wrong move: its own reason, and the board is as it was.
    popup = await play(alice, board, task, task.wrong[0].move)
    assert popup.text == t(lang, "learn.popup.wrong")
    board = await now(alice, board)
    caption = board.caption or ""
    assert said(lang, task.wrong[0].reason) in caption and t(lang, "learn.retry") in caption
    assert await alice.private.photo(board) == before
    # A move the task names no reason for: the search's verdict in words.
    popup = await play(alice, board, task, "a7")
    assert popup.text == t(lang, "learn.popup.wrong")
    board = await now(alice, board)
    missed = said(lang, Text("learn.wrong.dots", got=Text("learn.dots.missed")))
    assert missed in (board.caption or "")
    hint = await alice.press(t(lang, "learn.btn.hint"), board)
    assert hint is not None and hint.show_alert and hint.text == t(lang, task.hint)
    popup = await play(alice, board, task, task.answers[0])
    assert popup.text == t(lang, "learn.popup.right")
    done = await now(alice, board)
    assert said(lang, task.right) in (done.caption or "")
    title = t(lang, lesson.title)
    assert said(lang, Text("learn.done", title=title)) in (done.caption or "")
    await alice.press(t(lang, "learn.btn.lessons"), done)
    after = await alice.private.last_with_buttons()
    marked = [b.text for row in after.buttons for b in row if b.text.startswith("✓")]
    assert marked == [t(lang, Text("learn.item.done", n=n + 1, title=Text(lesson.title)))]


def test_every_dots_task_answer_and_trap_has_its_button() -> None:
    """Each Точки task's board shows every point at once (one keyboard window, no arrows),
    its answers and tempting moves among the buttons, named as the point is."""
    for x in engine.lessons.course("dots"):
        for task in x.tasks:
            match = posed.stand_in(task, 7, "Ann", "Opponent", "en")
            keyboard = flow.task_keyboard(match, x, 3)
            named = {b.text: b.data for row in keyboard for b in row}
            for m in [*task.answers, *(w.move for w in task.wrong)]:
                assert named.get(m) == f"yz:{task.id}:3:{code(task, m)}", (task.id, m)
            assert all(len(d.encode()) <= 64 for d in named.values())
            assert "◀" not in named  # no window to move
