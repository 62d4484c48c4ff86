"""Private games against the bot, driven through the playground as a user sees them."""

from __future__ import annotations

import asyncio
import dataclasses
import io
import random
import time

import pytest
from PIL import Image

from tests.bot.helpers import buttons, message, play_to_end, quick_game, version, wait_message
from tests.fixtures.playground import ScenarioClient


async def test_quick_dots_against_the_bot_is_two_taps(pg: ScenarioClient) -> None:
    alice = await pg.user("alice", lang="en")
    board = await quick_game(alice, "⚡ Dots vs bot")
    assert board.media is not None, "the board is a picture"
    assert "Dots" in (board.caption or "") and "To move: Alice" in (board.caption or "")
    png = await alice.private.last_photo()
    with Image.open(io.BytesIO(png)) as im:
        assert max(im.size) >= 640


MENUS = {
    "dots": ["Dots", "Small 10×10", "Next »"],
    "boxes": ["Dots and Boxes", "3×3", "Next »"],
    "sprouts": ["Sprouts", "3", "Next »"],
}


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
@pytest.mark.parametrize("kind", sorted(MENUS))
async def test_full_private_game_against_each_level(
    pg: ScenarioClient, kind: str, level: str
) -> None:
    await pg.set_limits(enabled=False)
    alice = await pg.user("alice", lang="en")
    await alice.send("/new")
    for label in MENUS[kind]:
        await alice.press(label)
    await alice.press(f"🤖 {level.capitalize()}")
    first = await alice.private.last_message()
    board = await wait_message(alice.private, first.message_id, lambda m: bool(m.buttons))
    final = await play_to_end({alice.id: alice}, alice.private, board.message_id, random.Random(1))
    assert "wins" in (final.caption or "") or "Draw" in (final.caption or ""), final.caption


async def test_big_boxes_board_picks_a_box_then_a_side(pg: ScenarioClient) -> None:
    await pg.set_limits(enabled=False)
    alice = await pg.user("alice", lang="en")
    await alice.send("/new")
    for label in ("Dots and Boxes", "8×8", "Next »", "🤖 Easy"):
        await alice.press(label)
    first = await alice.private.last_message()
    board = await wait_message(alice.private, first.message_id, lambda m: bool(m.buttons))
    rng = random.Random(2)
    for _ in range(4):
        v = version(board)
        assert not buttons(board, "p"), "a big board shows boxes first, not every line"
        boxes = [
            (r, c)
            for r, c in buttons(board, "c")
            if (board.buttons[r][c].callback_data or "").split(":")[-1].startswith("b")
        ]
        r, c = rng.choice(boxes)
        await alice.press_button(r, c, board)
        board = await message(alice.private, board.message_id)
        sides = buttons(board, "p")
        assert 1 <= len(sides) <= 4, board.button_texts
        r, c = rng.choice(sides)
        await alice.press_button(r, c, board, settle=False)
        board = await wait_message(
            alice.private, board.message_id, lambda m, v=v: version(m) != v and bool(m.buttons)
        )
    assert "Move " in (board.caption or "")


async def test_a_long_think_shows_the_persons_move_first(pg: ScenarioClient) -> None:
    """While the bot thinks long, the board already shows the person's move and that it is
    the bot's turn, instead of the old board; the bot's move follows in a second edit.
    The long think: the bot's first, on a pool of its own, waits for its workers to start
    (on the tests' shared pool a 3×3 move is thought faster than the board is looked at)."""
    pg._settings = dataclasses.replace(pg._settings, ai_show_after=0.0)
    pg.own_ai = True
    await pg.restart_bot()
    await pg.set_limits(enabled=False)
    alice = await pg.user("alice", lang="en")
    board = await quick_game(alice, "⚡ Boxes vs bot")
    seen: list[str] = []
    v = version(board)
    assert v is not None
    r, c = buttons(board, "p")[0]
    await alice.press_button(r, c, board, settle=False)
    deadline = time.monotonic() + 60  # a busy machine starts the workers slowly
    while time.monotonic() < deadline:
        m = await message(alice.private, board.message_id)
        if not seen or seen[-1] != (m.caption or ""):
            seen.append(m.caption or "")
        if version(m) not in (v, v + 1) and "To move: Alice" in (m.caption or ""):
            break
        await asyncio.sleep(0.01)
    assert any("Move 1:" in c and "To move: Tetrad" in c for c in seen), seen
    assert "Move 2:" in seen[-1] and "To move: Alice" in seen[-1], seen


async def test_dots_offers_the_expert_bot(pg: ScenarioClient) -> None:
    # Точки's fourth level: chosen in the menu, it answers moves (a few: the suite's time).
    alice = await pg.user("alice", lang="en")
    await alice.send("/new")
    for label in MENUS["dots"]:
        await alice.press(label)
    await alice.press("🤖 Expert")
    first = await alice.private.last_message()
    board = await wait_message(alice.private, first.message_id, lambda m: bool(m.buttons))
    assert "expert" in (board.caption or ""), board.caption
    after = await play_to_end({alice.id: alice}, alice.private, board.message_id,
                              random.Random(3), moves=3)  # fmt: skip
    assert "Move " in (after.caption or "") and version(after) != version(board), after.caption
