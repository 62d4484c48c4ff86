"""Точки puzzles through the playground, as a person solves one of two moves: the board opens
its keyboard's window on the action, a wrong first move gets the reason and a retry, the right
one is answered by the bot's best defence and the person goes on to the capture; a forged
path changes nothing; a group's daily Точки puzzle."""

from __future__ import annotations

import io
import json
import re

import pytest
import redis.asyncio as aioredis
from PIL import Image, ImageChops

from bot.i18n import Text, t
from bot.match import dotspuzzle, ui
from bot.match.buttons import PuzzleOn
from bot.match.puzzle import pack, stand_in
from engine.dots import Game
from engine.puzzles import Puzzle, load
from playground.client import MessageView, Popup, UserHandle
from tests.bot.test_puzzles import WORDS, board_now, puzzle_board
from tests.bot.test_puzzles_group import group_board
from tests.fixtures.playground import ScenarioClient


def _two_moves(p: Puzzle) -> bool:
    """A capture in two whose moves the keyboard's window shows: the first move and the
    tempting one near the action, the last near the bot's reply."""
    if p.plan["kind"] != "capture" or p.plan["n"] != 2:
        return False
    game = p.start()
    assert isinstance(game, Game)
    step = p.plan["node"]["ok"][p.accepted[0]]
    last = sorted(step["n"]["ok"])[0]
    reply, final = game.parse_move(step["r"]), game.parse_move(last)
    return max(abs(reply.x - final.x), abs(reply.y - final.y)) <= 2


async def only_two_move_puzzles_near(redis_url: str) -> list[Puzzle]:
    """Rate every other Точки puzzle far above a newcomer (the storage's layout: ``t:pz:dots``
    holds live puzzle ratings), so the puzzles served next are captures in two."""
    chosen = [p for p in load("dots") if _two_moves(p)]
    assert len(chosen) >= 5
    far = json.dumps({"r": 3000.0, "rd": 60.0, "s": 0.06})
    r = aioredis.from_url(redis_url)
    try:
        others: dict[str | bytes, str | bytes] = {
            p.id: far for p in load("dots") if p not in chosen
        }
        await r.hset("t:pz:dots", mapping=others)  # type: ignore[arg-type,misc]
    finally:
        await r.aclose()
    return chosen


async def play_point(user: UserHandle, board: MessageView, p: Puzzle, notation: str) -> Popup:
    """Tap the point ``notation`` on the board's window (the button's data ends in x.y)."""
    game = p.start()
    m = game.parse_move(notation)
    for row in board.buttons:
        for b in row:
            data = b.callback_data or ""
            if data.startswith("z:") and re.search(rf"[:!]{m.x}\.{m.y}$", data):
                assert b.text == notation  # the point is labelled as captions name it
                popup = await user.press_button(b.row, b.col, board)
                assert popup is not None
                return popup
    raise AssertionError(f"{notation} is not in the window: {board.button_texts}")


def _plain(html: str) -> str:
    """A caption as the chat shows it (its HTML tags rendered)."""
    return re.sub(r"<[^>]+>", "", html)


def _png(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_a_two_move_capture_after_a_wrong_try(
    pg: ScenarioClient, redis_url: str, lang: str
) -> None:
    await pg.set_limits(enabled=False)
    words = WORDS[lang]
    chosen = await only_two_move_puzzles_near(redis_url)
    alice = await pg.user("alice", lang=lang)
    await alice.send("/puzzle dots" if lang == "en" else "/puzzle точки")
    board, p, attempt = await puzzle_board(alice)
    assert p in chosen and p.game == "dots"
    caption = board.caption or ""
    assert t(lang, "game.dots") in caption
    assert t(lang, dotspuzzle.goal(p)) in caption
    first = await alice.private.photo(board)
    assert _png(first).size[0] >= 600  # drawn for a phone

    # A wrong first move: the reason, the rating drops, the same board to try again.
    popup = await play_point(alice, board, p, p.wrong)
    assert words["popup_wrong"] in popup.text
    after = await board_now(alice, board)
    caption = after.caption or ""
    assert p.wrong in caption and t(lang, "puzzle.retry") in caption
    before, now = map(int, re.findall(words["rating"], caption)[0])
    assert now < before == 1500

    # The right first move: the bot answers with the plan's defence, the board goes on.
    step = p.plan["node"]["ok"][p.accepted[0]]
    popup = await play_point(alice, after, p, p.accepted[0])
    assert t(lang, "puzzle.popup.going_on") in popup.text
    going = await board_now(alice, board)
    caption = going.caption or ""
    assert _plain(t(lang, dotspuzzle.going_on(p.accepted[0], step["r"], 1))) in caption
    assert ImageChops.difference(_png(first), _png(await alice.private.photo(going))).getbbox()
    datas = [b.callback_data or "" for row in going.buttons for b in row]
    assert any(d.startswith(f"z:{p.id}:{attempt}:0!") for d in datas)  # the path goes along

    # A forged path (no board carries it) is refused and changes nothing.
    stale = await alice.forge(going, f"z:{p.id}:{attempt}:9!0.0")
    assert stale is not None and t(lang, "err.bad_button") in stale.text
    assert (await board_now(alice, going)).caption == going.caption

    # The capture: solved, not rated (the first answer was wrong), the dots counted.
    last = sorted(step["n"]["ok"])[0]
    popup = await play_point(alice, going, p, last)
    assert words["solved"] in popup.text
    solved = await board_now(alice, board)
    caption = solved.caption or ""
    assert words["solved"] in caption and words["unrated"] in caption
    assert last in caption
    assert solved.button_texts == [[words["next"]]]
    game = p.start()
    for m in (p.accepted[0], step["r"], last):
        game.play(game.parse_move(m))
    got = game.scores[p.turn] - p.start().scores[p.turn]
    assert t(lang, Text("count.dots", n=got)) in caption


def test_every_board_opens_its_window_on_the_answer_and_the_trap() -> None:
    """The first keyboard of each shipped puzzle shows the right move and the tempting one
    (a tap each, no arrow first)."""
    for p in load("dots"):
        match = stand_in(p, 1, "Alice", "Opponent", "en")
        on = PuzzleOn(p.id, 1, pack(match.places[0].cursor))
        rows = ui.get("dots").move_rows(match, match.places[0], on)
        labels = {b.text for row in rows for b in row}
        assert {p.accepted[0], p.wrong} <= labels, p.id


async def test_a_groups_daily_dots_puzzle_is_answered_by_its_first_move(
    pg: ScenarioClient,
) -> None:
    """In a group each person has one try, judged on the first move (the one the puzzle
    makes unique): Bob's wrong one is said, Alice's right one named first."""
    await pg.set_limits(enabled=False)
    alice = await pg.user("alice", "en", "Alice")
    bob = await pg.user("bob", "en", "Bob")
    group = await pg.group("Dots club", [alice, bob])
    await alice.send("/puzzle dots", group)
    board, p, _ = await group_board(group)
    assert p.game == "dots" and t("en", dotspuzzle.goal(p)) in (board.caption or "")
    popup = await play_point(bob, board, p, p.wrong)
    assert WORDS["en"]["popup_wrong"] in popup.text
    said = await group.last_message()
    assert "Bob" in said.body and p.wrong in said.body and p.accepted[0] not in said.body
    popup = await play_point(alice, board, p, p.accepted[0])
    assert WORDS["en"]["solved"] in popup.text
    assert t("en", Text("puzzle.group.first", name="Alice")) in (await group.last_message()).body
