"""/learn on the playground page in a real headless Chromium at phone size (412×915), one
lesson of each course: a page with its picture, and the lesson's task after its tempting
wrong move (the reason and the retry under the board). SCREENS=docs/screens keeps the
screenshots (the README shows them)."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

import engine.lessons
from bot.i18n import Text, t
from engine.lessons import Task
from playground.client import MessageView, UserHandle
from tests.bot import test_learn, test_learn_dots
from tests.bot.test_puzzles import board_now as now
from tests.bot.test_puzzles_sprouts import play_curve
from tests.fixtures.playground import ScenarioClient
from tests.playground.browser import chromium_missing, keep_screens, phone_chat
from tests.playground.test_browser import cut_buttons

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(chromium_missing() is not None, reason=str(chromium_missing())),
]

Play = Callable[[UserHandle, MessageView, Task, str, str], Awaitable[object]]


async def _boxes(user: UserHandle, board: MessageView, task: Task, move: str, _: str) -> object:
    return await test_learn.play(user, board, task, move)


async def _dots(user: UserHandle, board: MessageView, task: Task, move: str, _: str) -> object:
    return await test_learn_dots.play(user, board, task, move)


async def _sprouts(
    user: UserHandle, board: MessageView, task: Task, move: str, lang: str
) -> object:
    return await play_curve(user, board, task, move, lang, "yc")


# game: the lesson shown, which of its pages is shot, /learn's word for the game in each
# language, and how a move is played on its task's keyboard
LESSONS: dict[str, tuple[str, int, dict[str, str], Play]] = {
    "boxes": ("b6", 0, {"en": "boxes", "ru": "boxes"}, _boxes),
    "dots": ("d11", 1, {"en": "dots", "ru": "dots"}, _dots),
    "sprouts": ("s5", 0, {"en": "sprouts", "ru": "рассада"}, _sprouts),
}


def shown(lang: str, key: str | Text) -> str:
    """The words of a text after its bold heading, as the page shows them."""
    return re.sub(r"^<b>.*?</b>\s*", "", t(lang, key))


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("game", list(LESSONS))
async def test_a_lesson_on_a_phone(
    pg: ScenarioClient, tmp_path: Path, game: str, lang: str
) -> None:
    key, shot_page, word, play = LESSONS[game]
    await pg.set_limits(enabled=False)
    lesson = engine.lessons.lesson(key)
    assert lesson is not None
    task = lesson.tasks[0]
    alice = await pg.user("alice", lang, "Алиса" if lang == "ru" else "Alice")
    async with phone_chat(pg.url, "alice", tmp_path / "failure.png") as page:
        await page.send(f"/learn {word[lang]}")
        await page.wait_for_bot(t(lang, Text("learn.list.how")))
        listing = await alice.private.last_with_buttons()
        await alice.press(
            listing.buttons[engine.lessons.course(game).index(lesson)][0].text, listing
        )
        board = await alice.private.last_with_buttons()
        shots = [tmp_path / f"learn-{game}-{lang}.png", tmp_path / f"learn-{game}-task-{lang}.png"]
        for i in range(len(lesson.pages)):
            if i == shot_page:
                await page.wait_for_bot(shown(lang, lesson.pages[i].text))
                await page.page.wait_for_timeout(300)  # the picture has loaded
                await page.screenshot(shots[0])
                assert await cut_buttons(page) == []
            if i + 1 < len(lesson.pages):
                await alice.press(t(lang, "learn.btn.next"), board)
                board = await now(alice, board)
        await alice.press(t(lang, "learn.btn.task"), board)
        await play(alice, await now(alice, board), task, task.wrong[0].move, lang)
        await page.wait_for_bot(t(lang, task.wrong[0].reason))
        await page.page.wait_for_timeout(300)
        await page.screenshot(shots[1])
        assert await cut_buttons(page) == []
        keep_screens(shots)
