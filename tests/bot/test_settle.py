"""The playground's "settled" after a tap means the bot has finished reacting to it, however
long its board takes to draw: the in-process bot tells the emulator which updates it is still
handling, so no fixed quiet window decides (one of 0.3 s ran out at load 15–20 here)."""

from __future__ import annotations

import time
from typing import Any

import pytest

from bot import pictures
from tests.bot.helpers import buttons, message, version, wait_message
from tests.fixtures.playground import ScenarioClient

SLOW = 1.0  # seconds a board takes to draw: more than three quiet windows without a request


async def test_a_tap_settles_once_its_slowly_drawn_board_is_shown(
    pg: ScenarioClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    await pg.set_limits(enabled=False)
    alice, bob = await pg.user("alice"), await pg.user("bob")
    group = await pg.group("Club", members=[alice, bob])
    await alice.send("/new", group)
    for label in ("Dots", "Small 10×10", "Next »", "👥 Players in this chat"):
        await alice.press(label, chat=group)
    lobby = await group.last_with_buttons()
    await bob.press("Join", await message(group, lobby.message_id), group)
    board = await wait_message(group, lobby.message_id, lambda m: bool(buttons(m, "p")))
    draw = pictures.board_png

    def slowly(*args: Any) -> bytes:
        time.sleep(SLOW)  # in the drawing thread, as on a machine this busy
        return draw(*args)

    monkeypatch.setattr(pictures, "board_png", slowly)
    v = version(board)
    r, c = buttons(board, "p")[0]
    popup = await alice.press_button(r, c, board, group)  # answered at once, then drawn
    assert popup is not None and not popup.text
    shown = await message(group, board.message_id)
    assert version(shown) == (v or 0) + 1, "settled before the board was shown"
