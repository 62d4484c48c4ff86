"""Рассада puzzles through the playground, as a person solves them: spot → spot → the curve's
previews (◀/▶ wrap around) → play, on the keyboard matches use; a wrong curve gets the
reason and a retry, the right one moves on, the rating moving; stale, forged and typed input
changes nothing."""

from __future__ import annotations

import io
import re
from collections.abc import Callable

import pytest
from PIL import Image, ImageChops

from bot.i18n import Text, t
from bot.match.ui.sprouts import spoken
from engine.lessons import Task
from engine.puzzles import Puzzle
from engine.sprouts import Game
from playground.client import MessageView, Popup, UserHandle
from tests.bot.test_puzzles import WORDS, board_now, puzzle_board
from tests.fixtures.playground import ScenarioClient


def sprouts_game(p: Puzzle | Task) -> Game:
    game = p.start()
    assert isinstance(game, Game)
    return game


def spot_button(board: MessageView, spot: int, step: str = "zc") -> tuple[int, int]:
    """The row and column of the button of ``spot`` (its number, then a dot per life) on a
    board whose step buttons are ``step`` (a puzzle's; a lesson task's are ``yc``)."""
    label = re.compile(rf"^{spot}•*$")
    for row in board.buttons:
        for b in row:
            if label.match(b.text) and (b.callback_data or "").startswith(f"{step}:"):
                return b.row, b.col
    raise AssertionError(f"no button for spot {spot} on {board.button_texts}")


async def step(user: UserHandle, board: MessageView, at: tuple[int, int]) -> MessageView:
    popup = await user.press_button(*at, board)
    assert popup is not None and popup.text == "", popup  # a step: no popup, the board redrawn
    return await board_now(user, board)


async def play_curve(
    user: UserHandle,
    board: MessageView,
    p: Puzzle | Task,
    notation: str,
    lang: str,
    step_kind: str = "zc",
) -> Popup:
    """Choose ``notation`` on the puzzle's (or lesson task's) keyboard: its two spots, then
    (when several curves join them) flip back with ◀ to it, which wraps from the first to the
    last, and play it."""
    game = sprouts_game(p)
    move = game.parse_move(notation)
    curves = [game.format_move(m) for m in game.moves_between(move.a, move.b)]
    k, n = curves.index(notation), len(curves)
    board = await step(user, board, spot_button(board, move.a, step_kind))
    assert t(lang, Text("sprouts.pick_second", a=move.a)) in (board.caption or "")
    if n == 1:  # one curve only: the second spot is the answer
        popup = await user.press_button(*spot_button(board, move.b, step_kind), board)
        assert popup is not None
        return popup
    before = await user.private.photo(board)
    board = await step(user, board, spot_button(board, move.b, step_kind))
    assert "1/" + str(n) in _labels(board)
    assert ImageChops.difference(
        Image.open(io.BytesIO(before)).convert("RGB"),
        Image.open(io.BytesIO(await user.private.photo(board))).convert("RGB"),
    ).getbbox(), "the first curve's preview is drawn on the picture"
    for i in range(n - k):
        board = await step(user, board, _find(board, "◀"))
        assert f"{(-1 - i) % n + 1}/{n}" in _labels(board), "◀ wraps around"
    said = t(lang, spoken(move))
    assert said in (board.caption or ""), (said, board.caption)
    popup = await user.press_button(*_find(board, t(lang, "btn.play_curve")), board)
    assert popup is not None
    return popup


def curves(p: Puzzle, notation: str) -> int:
    """How many curves join the two spots of ``notation``."""
    game = sprouts_game(p)
    move = game.parse_move(notation)
    return len(game.moves_between(move.a, move.b))


async def served(
    user: UserHandle, lang: str, want: Callable[[Puzzle], bool]
) -> tuple[MessageView, Puzzle, int]:
    """The newest puzzle board, skipped until its puzzle is one ``want`` picks."""
    for _ in range(12):
        board, p, attempt = await puzzle_board(user)
        if want(p):
            return board, p, attempt
        await user.press(t(lang, "puzzle.btn.skip"), board)
    raise AssertionError("no such puzzle served")


def _labels(board: MessageView) -> list[str]:
    return [text for row in board.button_texts for text in row]


def _find(board: MessageView, text: str) -> tuple[int, int]:
    b = board.find_button(text)
    return b.row, b.col


def _ratings(lang: str, caption: str) -> tuple[int, int]:
    before, after = re.findall(WORDS[lang]["rating"], caption)[0]
    return int(before), int(after)


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_a_sprouts_puzzle_solved_after_a_wrong_curve(pg: ScenarioClient, lang: str) -> None:
    await pg.set_limits(enabled=False)
    words = WORDS[lang]
    alice = await pg.user("alice", lang=lang)
    await alice.send("/puzzle sprouts" if lang == "en" else "/puzzle рассада")
    # a wrong curve among several: it is chosen by its preview
    board, p, attempt = await served(alice, lang, lambda p: curves(p, p.wrong) > 1)
    assert p.game == "sprouts" and t(lang, "game.sprouts") in (board.caption or "")
    assert t(lang, Text("puzzle.goal.sprouts", net=Text("puzzle.win"))) in (board.caption or "")

    popup = await play_curve(alice, board, p, p.wrong, lang)
    assert words["popup_wrong"] in popup.text
    after = await board_now(alice, board)
    caption = after.caption or ""
    assert t(lang, Text("puzzle.loss")) in caption and t(lang, spoken_of(p, p.wrong)) in caption
    before, now = _ratings(lang, caption)
    assert now < before == 1500, caption  # the first answer is rated: the puzzle won
    assert t(lang, Text("puzzle.retry")) in caption
    first = sprouts_game(p)
    spots = [s.number for s in first.drawing.spots if s.lives and first.joinable(s.number)]
    for spot in spots:  # the keyboard is back at its first step
        spot_button(after, spot)

    popup = await play_curve(alice, after, p, p.accepted[0], lang)
    assert words["solved"] in popup.text
    solved = await board_now(alice, board)
    caption = solved.caption or ""
    assert words["solved"] in caption and words["unrated"] in caption  # a retry is not rated
    assert t(lang, Text("puzzle.win")) in caption
    assert solved.button_texts == [[words["next"]]]

    # The next puzzle: solved at the first try, the rating goes up again.
    await alice.press(words["next"], solved)
    fresh, q, _ = await puzzle_board(alice)
    assert q.game == "sprouts" and q.id != p.id
    stale = await alice.forge(fresh, f"zc:{p.id}:{attempt}:=s{spots[0]}")
    assert stale is not None and words["stale"] in stale.text
    assert (await board_now(alice, fresh)).caption == fresh.caption
    popup = await play_curve(alice, fresh, q, q.accepted[0], lang)
    assert words["solved"] in popup.text
    up, higher = _ratings(lang, (await board_now(alice, fresh)).caption or "")
    assert up == now and higher > now
    await alice.send("/stats")
    assert str(higher) in (await alice.private.last_message()).body


def spoken_of(p: Puzzle, notation: str) -> Text:
    return spoken(sprouts_game(p).parse_move(notation))


async def test_bad_steps_and_typed_text_change_nothing(pg: ScenarioClient) -> None:
    alice = await pg.user("alice", lang="en")
    await alice.send("/puzzle chess")  # no game of ours: the answer names those with puzzles
    assert "/puzzle sprouts" in (await alice.private.last_message()).body
    await alice.send("/puzzle sprouts")
    # the only curve between two spots: the second spot's button is the answer
    board, p, attempt = await served(alice, "en", lambda p: curves(p, p.accepted[0]) == 1)
    game = sprouts_game(p)
    a = game.parse_move(p.accepted[0]).a
    dead = next((s.number for s in game.drawing.spots if not s.lives), 99)
    for data, says in (
        (f"zc:{p.id}:{attempt}:junk", "does not work"),  # no selection=step shape
        (f"zc:{p.id}:{attempt}:a1,zz=s1", "does not work"),
        (f"zc:{p.id}:{attempt}:=n", "does not work"),  # ▶ with no curves to flip through
        (f"zc:{p.id}:{attempt}:=s{dead}", f"Spot {dead} cannot start"),
        (f"zc:{p.id}:{attempt + 1}:=s{a}", "closed"),  # another attempt's board
        (f"zc:s9999:{attempt}:=s{a}", "closed"),  # no such puzzle
        (f"z:{p.id}:{attempt}:{a}.{a}.99", "does not work"),  # no such curve
        (f"z:{p.id}:{attempt}:1-2", "does not work"),  # not a keyboard code
    ):
        popup = await alice.forge(board, data)
        assert popup is not None and says in popup.text, (data, popup)
    await alice.send("1-2 [3")
    said = await alice.private.last_message()
    assert f"Puzzle {p.id} is answered with the buttons under its board" in said.body
    now = await board_now(alice, board)
    assert now.caption == board.caption and now.button_texts == board.button_texts
    assert now.media == board.media, "the picture was not drawn again"
    popup = await play_curve(alice, now, p, p.accepted[0], "en")
    assert "Solved" in popup.text and "1500 →" in ((await board_now(alice, board)).caption or "")
