"""/puzzle on the playground page in a real headless Chromium at phone size (412×915): the
fresh puzzle and the board after a wrong answer; a Рассада puzzle with a curve previewed; a
Точки capture in two after the right first move (in both languages); a group's daily
puzzle after one wrong and one right answer.
SCREENS=docs/screens keeps the screenshots (the README shows them)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.i18n import Text, t
from bot.match import dotspuzzle
from bot.match.puzzle import margin
from tests.bot.test_puzzles import play_move, puzzle_board
from tests.bot.test_puzzles_dots import only_two_move_puzzles_near, play_point
from tests.bot.test_puzzles_group import answer, group_board
from tests.bot.test_puzzles_sprouts import curves, served, spot_button, step
from tests.fixtures.playground import ScenarioClient
from tests.playground.browser import chromium_missing, keep_screens, phone_chat
from tests.playground.test_browser import cut_buttons

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(chromium_missing() is not None, reason=str(chromium_missing())),
]


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_puzzle_on_a_phone(pg: ScenarioClient, tmp_path: Path, lang: str) -> None:
    await pg.set_limits(enabled=False)
    alice = await pg.user("alice", lang, "Алиса" if lang == "ru" else "Alice")
    async with phone_chat(pg.url, "alice", tmp_path / "failure.png") as page:
        await page.send("/puzzle")
        await page.wait_for_bot(t(lang, "puzzle.btn.hint"))
        board, p, _ = await puzzle_board(alice)
        await page.page.wait_for_timeout(300)  # the picture has loaded
        shots = [tmp_path / f"puzzle-{lang}.png", tmp_path / f"puzzle-wrong-{lang}.png"]
        await page.screenshot(shots[0])
        assert await cut_buttons(page) == []
        await play_move(alice, board, p, p.wrong)
        got = t(lang, margin(p.values[p.wrong]))
        await page.wait_for_bot(got)
        await page.page.wait_for_timeout(300)
        await page.screenshot(shots[1])
        assert t(lang, Text("puzzle.retry")) in await page.bot_messages().last.inner_text()
        keep_screens(shots)


async def test_sprouts_puzzle_on_a_phone(pg: ScenarioClient, tmp_path: Path) -> None:
    """Its two spots chosen, the second of several curves dashed on the picture."""
    await pg.set_limits(enabled=False)
    alice = await pg.user("alice", "en", "Alice")
    async with phone_chat(pg.url, "alice", tmp_path / "failure.png") as page:
        await page.send("/puzzle sprouts")
        await page.wait_for_bot(t("en", "puzzle.btn.hint"))
        board, p, _ = await served(alice, "en", lambda p: curves(p, p.wrong) > 2)
        move = p.start().parse_move(p.wrong)
        board = await step(alice, board, spot_button(board, move.a))
        board = await step(alice, board, spot_button(board, move.b))
        await step(alice, board, (board.find_button("▶").row, board.find_button("▶").col))
        await page.wait_for_bot(f"Curve 2 of {curves(p, p.wrong)}")
        await page.page.wait_for_timeout(300)  # the picture has loaded
        shot = tmp_path / "puzzle-sprouts-en.png"
        await page.screenshot(shot)
        assert await cut_buttons(page) == []
        keep_screens([shot])


async def test_group_puzzle_on_a_phone(pg: ScenarioClient, tmp_path: Path) -> None:
    """The daily puzzle in a group as Alice sees it: Bob's wrong try, then hers, named first."""
    await pg.set_limits(enabled=False)
    alice = await pg.user("alice", "en", "Alice")
    bob = await pg.user("bob", "en", "Bob")
    group = await pg.group("Puzzle club", [alice, bob])
    async with phone_chat(pg.url, "alice", tmp_path / "failure.png", "Puzzle club") as page:
        await page.send("/puzzle")
        await page.wait_for_bot(t("en", Text("puzzle.group.rules")))
        board, p, _ = await group_board(group)
        await answer(bob, board, p, p.wrong)
        await page.wait_for_bot("is not it")
        await answer(alice, board, p, p.accepted[0])
        await page.wait_for_bot(t("en", Text("puzzle.group.first", name="Alice")))
        await page.page.wait_for_timeout(300)  # the picture has loaded
        shot = tmp_path / "puzzle-group-en.png"
        await page.screenshot(shot)
        assert await cut_buttons(page) == []
        keep_screens([shot])


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_dots_puzzle_on_a_phone(
    pg: ScenarioClient, redis_url: str, tmp_path: Path, lang: str
) -> None:
    """A capture in two after the right first move: the bot's defence on the board, the
    window on the action, "go on"."""
    await pg.set_limits(enabled=False)
    await only_two_move_puzzles_near(redis_url)
    alice = await pg.user("alice", lang, "Алиса" if lang == "ru" else "Alice")
    async with phone_chat(pg.url, "alice", tmp_path / "failure.png") as page:
        await page.send("/puzzle dots" if lang == "en" else "/puzzle точки")
        await page.wait_for_bot(t(lang, "puzzle.btn.hint"))
        board, p, _ = await puzzle_board(alice)
        right = p.accepted[0]
        await play_point(alice, board, p, right)
        going_on = dotspuzzle.going_on(right, p.plan["node"]["ok"][right]["r"], 1)
        await page.wait_for_bot(re.sub(r"<[^>]+>", "", t(lang, going_on)))
        await page.page.wait_for_timeout(300)  # the picture has loaded
        shot = tmp_path / f"puzzle-dots-{lang}.png"
        await page.screenshot(shot)
        assert await cut_buttons(page) == []
        keep_screens([shot])
