"""The Рассада course through the playground, as a person takes it, in en and ru: /learn →
Рассада → lesson 1's pages (the first one's picture shows its move as the keyboard's preview)
→ its task on the real Рассада keyboard (spot, spot, the curves' previews): the tempting
loop with its reason, the hint, the right curve and its words; the lesson ✓ in the list."""

from __future__ import annotations

import pytest

import engine.lessons
from bot import pictures
from bot.i18n import Text
from bot.match import lesson as flow
from bot.telegram.lessons import page_png
from engine.lessons import Lesson
from tests.bot.test_learn import plain
from tests.bot.test_puzzles import board_now as now
from tests.bot.test_puzzles_sprouts import play_curve
from tests.fixtures.playground import ScenarioClient


def _first() -> Lesson:
    lessons = engine.lessons.course("sprouts")
    assert len(lessons) >= 6 and lessons[0].id == "s1"
    return lessons[0]


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_a_sprouts_lesson_with_a_wrong_answer_a_hint_and_the_right_one(
    pg: ScenarioClient, lang: str
) -> None:
    await pg.set_limits(enabled=False)
    lesson = _first()
    (task,) = lesson.tasks
    alice = await pg.user("alice", lang=lang)
    await alice.send("/learn")
    picker = await alice.private.last_with_buttons()
    await alice.press(plain(lang, Text("learn.pick", game=Text("game.sprouts"))), picker)
    listing = await now(alice, picker)
    titles = [b.text for row in listing.buttons[:-1] for b in row]
    assert len(titles) == len(engine.lessons.course("sprouts"))
    assert titles[0] == plain(lang, Text("learn.item", n=1, title=Text(lesson.title)))

    await alice.press(titles[0], listing)
    page = await alice.private.last_with_buttons()
    assert plain(lang, lesson.pages[0].text) in (page.caption or "")
    # the first page is about the move 1-2: its picture is drawn with that move's preview
    assert lesson.pages[0].marks == ("1-2",)
    assert await alice.private.photo(page) == await page_png(lesson, 0, lang)
    match = flow.page_stand_in(lesson, 0, ("A", "B"), lang)
    previewed = pictures.board_png(match, {"lang": lang, "marks": ["1-2"]})
    assert previewed != pictures.board_png(match, {"lang": lang, "marks": []})
    for n in range(1, len(lesson.pages)):
        await alice.press(plain(lang, "learn.btn.next"), page)
        page = await now(alice, page)
        assert plain(lang, lesson.pages[n].text) in (page.caption or "")
    await alice.press(plain(lang, "learn.btn.task"), page)

    board = await now(alice, page)
    assert plain(lang, task.goal) in (board.caption or "")
    tempting = task.wrong[0]
    popup = await play_curve(alice, board, task, tempting.move, lang, "yc")
    assert popup.text == plain(lang, "learn.popup.wrong")
    board = await now(alice, board)
    caption = board.caption or ""
    assert plain(lang, tempting.reason) in caption and plain(lang, "learn.retry") in caption
    hint = await alice.press(plain(lang, "learn.btn.hint"), board)
    assert hint is not None and hint.show_alert and hint.text == plain(lang, task.hint)

    popup = await play_curve(alice, board, task, task.answers[0], lang, "yc")
    assert popup.text == plain(lang, "learn.popup.right")
    solved = await now(alice, board)
    caption = solved.caption or ""
    assert plain(lang, task.right) in caption
    assert plain(lang, Text("learn.done", title=plain(lang, lesson.title))) in caption
    await alice.press(plain(lang, "learn.btn.lessons"), solved)
    after = await alice.private.last_with_buttons()
    marked = [b.text for row in after.buttons for b in row if b.text.startswith("✓")]
    assert marked == [plain(lang, Text("learn.item.done", n=1, title=Text(lesson.title)))]
