"""/learn on the playground page in a real headless Chromium at phone size (412×915): a
lesson's first page with its picture, and its task after a tempting wrong move (the reason
and the retry under the board). SCREENS=docs/screens keeps the screenshots (the README
shows them)."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine.lessons
from bot.i18n import Text, t
from tests.bot.test_learn import now, play
from tests.fixtures.playground import ScenarioClient
from tests.playground.browser import chromium_missing, keep_screens, phone_chat
from tests.playground.test_browser import cut_buttons

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(chromium_missing() is not None, reason=str(chromium_missing())),
]


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_a_lesson_on_a_phone(pg: ScenarioClient, tmp_path: Path, lang: str) -> None:
    await pg.set_limits(enabled=False)
    lesson = engine.lessons.lesson("b6")
    assert lesson is not None
    task = lesson.tasks[0]
    alice = await pg.user("alice", lang, "Алиса" if lang == "ru" else "Alice")
    async with phone_chat(pg.url, "alice", tmp_path / "failure.png") as page:
        await page.send("/learn boxes")
        await page.wait_for_bot(t(lang, Text("learn.list.how")))
        listing = await alice.private.last_with_buttons()
        await alice.press(listing.buttons[5][0].text, listing)
        await page.wait_for_bot(t(lang, lesson.pages[0].text))
        await page.page.wait_for_timeout(300)  # the picture has loaded
        shots = [tmp_path / f"learn-boxes-{lang}.png", tmp_path / f"learn-boxes-task-{lang}.png"]
        await page.screenshot(shots[0])
        assert await cut_buttons(page) == []
        board = await alice.private.last_with_buttons()
        await alice.press(t(lang, "learn.btn.next"), board)
        await alice.press(t(lang, "learn.btn.task"), await now(alice, board))
        await play(alice, await now(alice, board), task, task.wrong[0].move)
        await page.wait_for_bot(t(lang, task.wrong[0].reason))
        await page.page.wait_for_timeout(300)
        await page.screenshot(shots[1])
        assert await cut_buttons(page) == []
        keep_screens(shots)
