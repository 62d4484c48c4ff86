"""/puzzle through the playground, as a person sees it: ten Точки и квадраты puzzles in a row
in each language (one wrong answer first), the rating moving; Рассада puzzles chosen spot →
spot → curve on the real keyboard; hints, stale and forged buttons, /stats (a group's daily
puzzle: test_puzzles_group)."""

from __future__ import annotations

import re

import pytest

from bot.i18n import t
from engine.puzzles import Puzzle, find
from playground.client import MessageView, Popup, UserHandle
from tests.fixtures.playground import ScenarioClient

WORDS = {
    "en": {
        "wrong": "is not it",
        "solved": "Solved!",
        "rating": r"Puzzle rating: (\d+) → (\d+)",
        "unrated": "Not rated",
        "popup_wrong": "Not this one",
        "stale": "This puzzle is closed",
        "hint": "💡 Hint",
        "next": "⏭ Next puzzle",
        "stats": "🧩 Puzzles",
    },
    "ru": {
        "wrong": "не то",
        "solved": "Решено!",
        "rating": r"Рейтинг в задачах: (\d+) → (\d+)",
        "unrated": "Без рейтинга",
        "popup_wrong": "Не этот",
        "stale": "Эта задача уже закрыта",
        "hint": "💡 Подсказка",
        "next": "⏭ Следующая задача",
        "stats": "🧩 Задачи",
    },
}


async def puzzle_board(user: UserHandle) -> tuple[MessageView, Puzzle, int]:
    """The newest puzzle board: the message, its puzzle and the attempt its buttons carry."""
    board = await user.private.last_with_buttons()
    found = re.search(r"\b([bsd]\d{4})\b", board.caption or "")
    assert found and board.media is not None, board.caption
    attempt = next(
        int(b.callback_data.split(":")[2])
        for row in board.buttons
        for b in row
        if b.callback_data and b.callback_data.split(":")[0] in ("z", "zc", "zh")
    )
    puzzle = find(found.group(1))
    assert puzzle is not None
    return board, puzzle, attempt


def move_code(p: Puzzle, notation: str) -> str:
    m = p.start().parse_move(notation)
    return f"{m.orient}{m.r}.{m.c}"


async def play_move(user: UserHandle, board: MessageView, p: Puzzle, notation: str) -> Popup:
    want = ":" + move_code(p, notation)
    for row in board.buttons:
        for b in row:
            if (
                b.callback_data
                and b.callback_data.startswith("z:")
                and b.callback_data.endswith(want)
            ):
                popup = await user.press_button(b.row, b.col, board)
                assert popup is not None
                return popup
    raise AssertionError(f"no button for {notation} on {board.button_texts}")


async def board_now(user: UserHandle, board: MessageView) -> MessageView:
    return next(m for m in await user.private.messages() if m.message_id == board.message_id)


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_ten_puzzles_in_a_row_move_the_rating(pg: ScenarioClient, lang: str) -> None:
    await pg.set_limits(enabled=False)
    words = WORDS[lang]
    alice = await pg.user("alice", lang=lang)
    await alice.send("/puzzle")
    ratings: list[int] = []
    seen: set[str] = set()
    for i in range(10):
        board, p, attempt = await puzzle_board(alice)
        assert p.id not in seen, "a solved puzzle is not served again"
        seen.add(p.id)
        png = await alice.private.photo(board)
        assert png[:4] == b"\x89PNG"
        if i == 3:  # a wrong answer first: the reason, the rating drops, the board stays
            popup = await play_move(alice, board, p, p.wrong)
            assert words["popup_wrong"] in popup.text
            after = await board_now(alice, board)
            assert words["wrong"] in (after.caption or "") and p.wrong in (after.caption or "")
            before, now = map(int, re.findall(words["rating"], after.caption or "")[0])
            assert now < before
            ratings.append(now)
            board = after
        popup = await play_move(alice, board, p, p.accepted[0])
        assert words["solved"] in popup.text
        solved = await board_now(alice, board)
        caption = solved.caption or ""
        assert words["solved"] in caption
        if i == 3:
            assert words["unrated"] in caption  # a retry is not rated
        else:
            before, now = map(int, re.findall(words["rating"], caption)[0])
            assert now > before
            ratings.append(now)
        assert solved.button_texts == [[words["next"]]]
        await alice.press(words["next"], solved)
        assert not (await board_now(alice, solved)).buttons
        fresh, _, _ = await puzzle_board(alice)  # the old board's buttons, sent from the new one
        stale = await alice.forge(fresh, f"z:{p.id}:{attempt}:{move_code(p, p.accepted[0])}")
        assert stale is not None and words["stale"] in stale.text
        assert (await board_now(alice, fresh)).caption == fresh.caption
    assert len(set(ratings)) > 5 and ratings[-1] > 1500, ratings
    await alice.send("/stats")
    stats = await alice.private.last_message()
    assert words["stats"] in stats.body and str(ratings[-1]) in stats.body


async def test_hint_unrates_the_attempt_and_bad_buttons_change_nothing(pg: ScenarioClient) -> None:
    alice = await pg.user("alice", lang="en")
    await alice.send("/puzzle")
    board, p, attempt = await puzzle_board(alice)
    hint = await alice.press("💡 Hint", board)
    assert hint is not None and hint.show_alert and "not rated" in hint.text
    for data in (
        f"z:{p.id}:{attempt + 5}:{move_code(p, p.accepted[0])}",  # another attempt's board
        f"z:b9999:{attempt}:h0.0",  # no such puzzle
        f"zh:{p.id}:0",
    ):
        popup = await alice.forge(board, data)
        assert popup is not None and "closed" in popup.text, data
    bad = await alice.forge(board, f"z:{p.id}:{attempt}:q1")
    assert bad is not None and bad.text  # a malformed move code: a popup
    assert (await board_now(alice, board)).caption == board.caption  # nothing changed
    await play_move(alice, board, p, p.accepted[0])
    caption = (await board_now(alice, board)).caption or ""
    assert "Solved!" in caption and "Not rated" in caption and "1500" in caption


async def test_puzzle_is_in_the_command_list_and_in_help(pg: ScenarioClient) -> None:
    dora = await pg.user("dora", lang="ru")
    commands = {c["command"]: c["description"] for c in await dora.private.commands(dora)}
    assert commands.get("puzzle") == t("ru", "cmd.puzzle")
    await dora.send("/help")
    assert "/puzzle" in (await dora.private.last_message()).body
