"""A group's daily puzzle through the playground, in each language: three people answer on
the board, one wrong, then two right; the first right one is named, the others' tries are
acknowledged, a second try is refused; another /puzzle that day points to the same board;
the next day its buttons are refused. A Рассада puzzle's shared selection (spot → spot)."""

from __future__ import annotations

import re

import pytest

import engine.puzzles
from bot.i18n import Text, t
from bot.match.puzzle import daily, day_of
from engine.puzzles import Puzzle, find
from playground.client import ChatHandle, MessageView, Popup, UserHandle
from tests.bot.test_puzzles import WORDS, move_code
from tests.bot.test_puzzles_sprouts import spot_button
from tests.fixtures.playground import ScenarioClient

NAMES = {"en": ("Alice", "Bob", "Carol"), "ru": ("Алиса", "Борис", "Вера")}


async def group_board(chat: ChatHandle) -> tuple[MessageView, Puzzle, int]:
    """The chat's puzzle board: the message, its puzzle and the day its buttons carry."""
    board = await chat.last_with_buttons()
    found = re.search(r"\b([bsd]\d{4})\b", board.caption or "")
    assert found and board.media is not None, board.caption
    day = int((board.buttons[0][0].callback_data or "").split(":")[2])
    puzzle = find(found.group(1))
    assert puzzle is not None
    return board, puzzle, day


async def now(chat: ChatHandle, board: MessageView) -> MessageView:
    return next(m for m in await chat.messages() if m.message_id == board.message_id)


async def answer(user: UserHandle, board: MessageView, p: Puzzle, notation: str) -> Popup | None:
    data = f":{move_code(p, notation)}"
    button = next(b for row in board.buttons for b in row if (b.callback_data or "").endswith(data))
    return await user.press_button(button.row, button.col, board)


def rating(lang: str, body: str) -> tuple[int, int]:
    before, after = map(int, re.findall(WORDS[lang]["rating"], body)[0])
    return before, after


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_two_answer_the_daily_puzzle_one_wrong_then_one_right(
    pg: ScenarioClient, lang: str
) -> None:
    await pg.set_limits(enabled=False)
    alice, bob, carol = [
        await pg.user(handle.lower(), lang, n)
        for handle, n in zip(NAMES["en"], NAMES[lang], strict=True)
    ]
    names = NAMES[lang]
    group = await pg.group("g", [alice, bob, carol])
    await alice.send("/puzzle", group)
    board, p, day = await group_board(group)
    assert p == daily(engine.puzzles.load("boxes"), group.id, day_of(pg.clock()))
    assert day == day_of(pg.clock())
    assert t(lang, Text("puzzle.group.rules")) in (board.caption or "")
    assert not any("zh:" in (b.callback_data or "") for row in board.buttons for b in row)

    wrong = await answer(bob, board, p, p.wrong)
    assert wrong is not None and WORDS[lang]["popup_wrong"] in wrong.text
    said = await group.last_message()
    assert said.reply_to == board.message_id and names[1] in said.body
    assert t(lang, Text("puzzle.group.wrong", name=names[1], move=p.wrong)) in said.body
    assert not any(a in said.body for a in p.accepted), "the reply does not give the answer"
    assert rating(lang, said.body)[1] < rating(lang, said.body)[0]

    again = await answer(bob, board, p, p.accepted[0])  # the wrong one's second try
    assert again is not None and again.text == t(lang, Text("puzzle.group.tried"))
    assert (await group.last_message()).message_id == said.message_id  # nothing said

    right = await answer(alice, board, p, p.accepted[0])
    assert right is not None and WORDS[lang]["solved"] in right.text
    first = await group.last_message()
    assert t(lang, Text("puzzle.group.first", name=names[0])) in first.body
    assert rating(lang, first.body)[1] > rating(lang, first.body)[0]
    caption = (await now(group, board)).caption or ""
    assert t(lang, Text("puzzle.group.winner", name=names[0], n=2)) in caption

    later = await answer(carol, board, p, p.accepted[-1])
    assert later is not None and WORDS[lang]["solved"] in later.text
    also = t(lang, Text("puzzle.group.also", name=names[2], first=names[0]))
    assert also in (await group.last_message()).body
    assert names[0] in ((await now(group, board)).caption or "")  # still the first solver

    await bob.send("/puzzle", group)  # the same day: points to the same board
    pointer = await group.last_message()
    assert pointer.reply_to == board.message_id and pointer.media is None
    assert t(lang, Text("puzzle.group.above")) in pointer.body and names[0] in pointer.body
    assert [m.message_id for m in await group.messages() if m.media] == [board.message_id]

    other = next(x for x in engine.puzzles.load("boxes") if x != p)
    forged = await bob.forge(board, f"z:{other.id}:{day}:{move_code(other, other.wrong)}")
    assert forged is not None and forged.text == t(lang, Text("puzzle.group.stale"))
    hint = await bob.forge(board, f"zh:{p.id}:{day}")
    assert hint is not None and hint.text == t(lang, Text("puzzle.group.stale"))

    pg.clock.advance(86400)  # the next day: yesterday's board is closed
    late = await answer(carol, board, p, p.accepted[0])
    assert late is not None and late.text == t(lang, Text("puzzle.group.old_day"))
    await carol.send("/puzzle", group)
    fresh, _, next_day = await group_board(group)
    assert fresh.message_id != board.message_id and next_day == day + 1


async def test_the_selection_is_shared_on_the_board(pg: ScenarioClient) -> None:
    """Рассада in a group: one person's first spot is on the board for everyone; whoever
    completes the move answers; someone who has tried cannot move the selection."""
    await pg.set_limits(enabled=False)
    alice, bob = await pg.user("alice", "en", "Alice"), await pg.user("bob", "en", "Bob")
    group = await pg.group("g", [alice, bob])
    await alice.send("/puzzle sprouts", group)
    board, p, _ = await group_board(group)
    move = p.start().parse_move(p.wrong)
    popup = await alice.press_button(*spot_button(board, move.a), board)
    assert popup is not None and popup.text == ""
    board = await now(group, board)
    assert t("en", Text("sprouts.pick_second", a=move.a)) in (board.caption or "")
    popup = await bob.press_button(*spot_button(board, move.b), board)  # Bob continues it
    assert popup is not None
    board = await now(group, board)
    play = [b for row in board.buttons for b in row if b.text == t("en", "btn.play_curve")]
    if play:  # several curves join the spots: Bob plays the first one
        popup = await bob.press_button(play[0].row, play[0].col, board)
        assert popup is not None
    said = await group.last_message()
    assert "Bob" in said.body and "Alice" not in said.body, said.body
    board = await now(group, board)
    assert t("en", Text("sprouts.pick_second", a=move.a)) not in (board.caption or "")
    refused = await bob.press_button(*spot_button(board, move.a), board)
    assert refused is not None and refused.text == t("en", Text("puzzle.group.tried"))


def test_the_daily_puzzle_is_fixed_for_a_chat_and_a_day_and_changes_with_them() -> None:
    bank = engine.puzzles.load("boxes")
    assert daily(bank, -100, 20426) == daily(tuple(reversed(bank)), -100, 20426)
    ids = [getattr(daily(bank, -100, d), "id", None) for d in range(20426, 20456)]
    assert len(set(ids)) > 20  # a month
    ids = [getattr(daily(bank, -c, 20426), "id", None) for c in range(100, 130)]
    assert len(set(ids)) > 20  # thirty chats
    assert day_of(86400 * 20426 - 0.5) == 20425 and day_of(86400 * 20426) == 20426
    assert daily((), -100, 20426) is None
