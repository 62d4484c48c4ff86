"""A Точки lesson on the playground page in a real headless Chromium at phone size: lesson
11's second page (the double threat, its points ringed), and its task on the Точки keyboard
after the tempting wrong move (the reason under the board). SCREENS=docs/screens keeps the
screenshots (the README shows them)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import engine.lessons
from bot.i18n import Text, t
from tests.bot.test_learn_dots import play
from tests.bot.test_puzzles import board_now as now
from tests.fixtures.playground import ScenarioClient
from tests.playground.browser import chromium_missing, keep_screens, phone_chat
from tests.playground.test_browser import cut_buttons

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(chromium_missing() is not None, reason=str(chromium_missing())),
]


def shown(lang: str, key: str) -> str:
    """The words of a text after its bold heading, as the page shows them."""
    return re.sub(r"^<b>.*?</b>\s*", "", t(lang, key))


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_a_dots_lesson_on_a_phone(pg: ScenarioClient, tmp_path: Path, lang: str) -> None:
    await pg.set_limits(enabled=False)
    lesson = engine.lessons.lesson("d11")
    assert lesson is not None
    (task,) = lesson.tasks
    n = engine.lessons.course("dots").index(lesson)
    alice = await pg.user("alice", lang, "Алиса" if lang == "ru" else "Alice")
    async with phone_chat(pg.url, "alice", tmp_path / "failure.png") as page:
        await page.send("/learn dots")
        await page.wait_for_bot(t(lang, Text("learn.list.how")))
        listing = await alice.private.last_with_buttons()
        await alice.press(listing.buttons[n][0].text, listing)
        first = await alice.private.last_with_buttons()
        await alice.press(t(lang, "learn.btn.next"), first)
        await page.wait_for_bot(shown(lang, lesson.pages[1].text))
        await page.page.wait_for_timeout(300)  # the picture has loaded
        shots = [tmp_path / f"learn-dots-{lang}.png", tmp_path / f"learn-dots-task-{lang}.png"]
        await page.screenshot(shots[0])
        assert await cut_buttons(page) == []
        await alice.press(t(lang, "learn.btn.task"), await now(alice, first))
        await play(alice, await now(alice, first), task, task.wrong[0].move)
        await page.wait_for_bot(t(lang, task.wrong[0].reason))
        await page.page.wait_for_timeout(300)
        await page.screenshot(shots[1])
        assert await cut_buttons(page) == []
        keep_screens(shots)
