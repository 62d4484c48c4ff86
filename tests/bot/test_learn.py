"""/learn through the playground, as a person sees it, in en and ru: the game picker (the
games without a course say so), the Точки и квадраты lessons, a lesson's pages with their
pictures, its two tasks on the real keyboard — a tempting wrong move with its reason, a hint,
the right moves — the lesson ✓ in the list and in /stats; stale and forged buttons refused
with nothing changed."""

from __future__ import annotations

import io

import pytest
from PIL import Image

import engine.lessons
from bot.i18n import Text, t
from bot.match import lesson as flow
from bot.match import puzzle as posed
from bot.telegram.lessons import page_png
from engine.lessons import Lesson, Task
from playground.client import MessageView, Popup, UserHandle
from tests.bot.test_puzzles import board_now as now
from tests.fixtures.playground import ScenarioClient


def _lesson(lesson_id: str) -> Lesson:
    found = engine.lessons.lesson(lesson_id)
    assert found is not None
    return found


def code(task: Task, notation: str) -> str:
    m = task.start().parse_move(notation)
    return f"{m.orient}{m.r}.{m.c}"


def attempt_of(board: MessageView) -> int:
    return next(
        int(b.callback_data.split(":")[2])
        for row in board.buttons
        for b in row
        if b.callback_data and b.callback_data.split(":")[0] in ("yz", "yh")
    )


async def play(user: UserHandle, board: MessageView, task: Task, notation: str) -> Popup:
    want = f"yz:{task.id}:{attempt_of(board)}:{code(task, notation)}"
    for row in board.buttons:
        for b in row:
            if b.callback_data == want:
                popup = await user.press_button(b.row, b.col, board)
                assert popup is not None
                return popup
    raise AssertionError(f"no button {want} on {board.button_texts}")


async def png_of(user: UserHandle, message: MessageView) -> Image.Image:
    image = Image.open(io.BytesIO(await user.private.photo(message)))
    image.load()
    return image


def plain(lang: str, key: str | Text) -> str:
    return t(lang, key)


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_a_boxes_lesson_with_a_wrong_answer_a_hint_and_the_right_one(
    pg: ScenarioClient, lang: str
) -> None:
    await pg.set_limits(enabled=False)
    lesson = _lesson("b6")
    first, second = lesson.tasks
    alice = await pg.user("alice", lang=lang)
    await alice.send("/learn")
    picker = await alice.private.last_with_buttons()
    games = [plain(lang, Text(f"game.{g}")) for g in ("dots", "boxes", "sprouts")]
    assert [len(row) for row in picker.buttons] == [1, 1, 1]
    assert [row[0].text for row in picker.buttons] == [
        plain(lang, Text("learn.pick", game=Text(f"game.{g}")))
        for g in ("dots", "boxes", "sprouts")
    ]  # every game has its course
    await alice.press(plain(lang, Text("learn.pick", game=Text("game.boxes"))), picker)
    listing = await now(alice, picker)
    assert games[1] in listing.body and "0" in listing.body
    titles = [b.text for row in listing.buttons[:-1] for b in row]
    assert len(titles) == len(engine.lessons.course("boxes")) >= 8
    assert not any(x.startswith("✓") for x in titles)

    await alice.press(titles[5], listing)  # lesson 6: all but two
    page = await alice.private.last_with_buttons()
    assert page.message_id != listing.message_id and page.media is not None
    assert plain(lang, lesson.pages[0].text) in (page.caption or "")
    image = await png_of(alice, page)
    assert image.width <= 1280 and image.height > 300
    await alice.press(plain(lang, "learn.btn.next"), page)
    page2 = await now(alice, page)
    assert plain(lang, lesson.pages[1].text) in (page2.caption or "")
    assert await alice.private.photo(page2) != await alice.private.photo(page)
    await alice.press(plain(lang, "learn.btn.task"), page2)

    board = await now(alice, page2)
    assert plain(lang, first.goal) in (board.caption or "")
    await alice.send(first.answers[0])  # typed, not tapped: pointed to the board
    assert (await alice.private.last_message()).body == plain(lang, "learn.typed")
    assert (await now(alice, board)).caption == board.caption
    popup = await play(alice, board, first, first.wrong[0].move)
    assert popup.text == plain(lang, "learn.popup.wrong")
    board = await now(alice, board)
    caption = board.caption or ""
    assert plain(lang, first.wrong[0].reason) in caption and plain(lang, "learn.retry") in caption
    hint = await alice.press(plain(lang, "learn.btn.hint"), board)
    assert hint is not None and hint.show_alert and hint.text == plain(lang, first.hint)
    stale_attempt = attempt_of(board)
    popup = await play(alice, board, first, first.answers[0])
    assert popup.text == plain(lang, "learn.popup.right")
    solved = await now(alice, board)
    assert plain(lang, first.right) in (solved.caption or "")
    assert solved.button_texts[0] == [plain(lang, "learn.btn.next_task")]
    # the solved board's old buttons change nothing
    again = await alice.forge(
        solved, f"yz:{first.id}:{stale_attempt}:{code(first, first.answers[0])}"
    )
    assert again is not None and again.text == plain(lang, "learn.stale")
    assert (await now(alice, solved)).caption == solved.caption

    await alice.press(plain(lang, "learn.btn.next_task"), solved)
    board = await now(alice, solved)
    assert plain(lang, second.goal) in (board.caption or "")
    await play(alice, board, second, second.answers[0])
    done = await now(alice, board)
    title = plain(lang, lesson.title)
    assert plain(lang, Text("learn.done", title=title)) in (done.caption or "")
    assert done.button_texts == [
        [plain(lang, "learn.btn.next_lesson")],
        [plain(lang, "learn.btn.lessons")],
    ]
    await alice.press(plain(lang, "learn.btn.lessons"), done)
    after = await alice.private.last_with_buttons()
    marked = [b.text for row in after.buttons for b in row if b.text.startswith("✓")]
    assert marked == [plain(lang, Text("learn.item.done", n=6, title=Text(lesson.title)))]
    total = len(engine.lessons.course("boxes"))
    head = plain(lang, Text("learn.list", game=Text("game.boxes"), done=1, total=total))
    assert head.replace("<b>", "").replace("</b>", "") in after.body

    await alice.send("/stats")
    stats = await alice.private.last_message()
    line = plain(lang, Text("stats.lessons", game=Text("game.boxes"), done=1, total=total))
    assert line in stats.body


async def test_stale_and_forged_lesson_buttons_change_nothing(pg: ScenarioClient) -> None:
    lesson = _lesson("b6")
    bob = await pg.user("bob", lang="en")
    await bob.send("/learn boxes")
    listing = await bob.private.last_with_buttons()
    await bob.press(listing.buttons[5][0].text, listing)
    page = await bob.private.last_with_buttons()
    stale = plain("en", "learn.stale")
    for data in (
        "yp:zz:0",  # no such lesson
        "yp:b6:9",  # no such page
        "yt:b6:1",  # the second task before the first is solved
        "yt:b6:7",
        f"yz:{lesson.tasks[0].id}:1:h0.0",  # a task board never shown
        f"yh:{lesson.tasks[0].id}:0",
        "yz:nosuchtask:1:h0.0",
    ):
        popup = await bob.forge(page, data)
        assert popup is not None and popup.text == stale, data
        assert (await now(bob, page)).caption == page.caption
    bad = await bob.forge(page, "y:0:0:chess")
    assert bad is not None and bad.text and bad.text != stale

    await bob.press(plain("en", "learn.btn.next"), page)
    await bob.press(plain("en", "learn.btn.task"), await now(bob, page))
    board = await now(bob, page)
    task = lesson.tasks[0]
    attempt = attempt_of(board)
    for data in (
        f"yz:{task.id}:{attempt}:q1",  # a malformed move code
        f"yz:{task.id}:{attempt}:h0.0",  # a line already drawn
        f"yc:{task.id}:{attempt}:=x",  # a step this board has none of
        f"yz:{task.id}:{attempt + 1}:{code(task, task.answers[0])}",  # another attempt
    ):
        popup = await bob.forge(board, data)
        assert popup is not None and popup.text, data
        assert (await now(bob, board)).caption == board.caption, data
    await bob.send("/stats")
    assert "🎓" not in (await bob.private.last_message()).body  # nothing solved, nothing done


async def test_learn_in_a_group_points_to_the_private_chat(pg: ScenarioClient) -> None:
    carol = await pg.user("carol", lang="en")
    group = await pg.group("Learners", [carol])
    await carol.send("/learn", group)
    said = await group.last_message()
    assert said.body == plain("en", "learn.private") and not said.buttons
    commands = {c["command"]: c["description"] for c in await carol.private.commands(carol)}
    assert commands.get("learn") == plain("en", "cmd.learn")
    await carol.send("/help")
    assert "/learn" in (await carol.private.last_message()).body


def test_every_course_text_is_in_both_catalogs() -> None:
    """Each key a course names (titles, pages, goals, hints, reasons, right answers) has its
    own words in en and ru: a missing one would show the key itself."""
    keys = set()
    for lessons in engine.lessons.COURSES.values():
        for x in lessons:
            keys |= {x.title, *(p.text for p in x.pages)}
            for task in x.tasks:
                keys |= {task.goal, task.hint, task.right, *(w.reason for w in task.wrong)}
    keys.discard("")
    for lang in ("en", "ru"):
        missing = sorted(k for k in keys if t(lang, k) == k)
        assert not missing, (lang, missing)
    assert t("ru", "learn.boxes.b1.title") != t("en", "learn.boxes.b1.title")


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_every_page_picture_draws_at_phone_size(lang: str) -> None:
    for x in [x for lessons in engine.lessons.COURSES.values() for x in lessons]:
        for n in range(len(x.pages)):
            image = Image.open(io.BytesIO(await page_png(x, n, lang)))
            image.load()
            assert image.format == "PNG" and 300 < image.width <= 1280, (x.id, n)
            assert image.height > image.width / 2, (x.id, n)


def test_every_task_answer_and_trap_has_its_button() -> None:
    """Each task's board offers its answers and its tempting moves as buttons (a board too big
    for one button per line would need a box first)."""
    for x in engine.lessons.course("boxes"):
        for task in x.tasks:
            match = posed.stand_in(task, 7, "Ann", "Opponent", "en")
            keyboard = flow.task_keyboard(match, x, 3)
            datas = {b.data for row in keyboard for b in row}
            for m in [*task.answers, *(w.move for w in task.wrong)]:
                assert f"yz:{task.id}:3:{code(task, m)}" in datas, (task.id, m)
            assert all(len(d.encode()) <= 64 for d in datas)


def test_a_game_without_a_course_is_marked_soon_and_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A game offered before its course is written: "(soon)" in the picker, and its list
    says the course is to come (no lesson buttons, only the way back)."""
    monkeypatch.setitem(engine.lessons.COURSES, "sprouts", ())
    picker = flow.picker()
    assert picker.keyboard[2][0].text == Text("learn.pick.soon", game=Text("game.sprouts"))
    assert picker.keyboard[1][0].text == Text("learn.pick", game=Text("game.boxes"))
    listing = flow.listing("sprouts", set())
    assert listing.text == [Text("learn.none", game=Text("game.sprouts"))]
    assert len(listing.keyboard) == 1
