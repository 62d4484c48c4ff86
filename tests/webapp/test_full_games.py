"""A whole game of each kind played to its end in the Mini App inside the playground's page,
as a person meets it: the private board's "🖐 Open board" web_app button opens the panel over
the chat (launch data the emulator signed), each of the person's moves is made in the panel
(Точки: tap, tap again; Точки и квадраты: tap near a line, then the panel's main button;
Рассада: the curve drawn with the finger), the bot's answers arrive over the live stream, the
chat's board message is edited as the game goes, and both show the same result at the end."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

import storage
from bot.match.model import Match
from playground.client import MessageView
from tests.bot.helpers import version
from tests.fixtures.playground import ScenarioClient
from tests.playground.browser import PHONE_TALL, ChatPage, chromium, chromium_missing
from tests.webapp.conftest import BOXES, DOTS
from tests.webapp.page import Panel, draw, line_xy, point_xy, routed_path, to_screen

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(chromium_missing() is not None, reason=str(chromium_missing())),
]
SPROUTS = ("Sprouts", "2", "Next »")
OPEN = "🖐 Open board"
WAIT_MS = 60_000  # the bot thinks and draws on a busy machine
MINE_OR_OVER = """(v) => { const s = window.tetrad.state;
  return !!s && s.version > v && (s.over || s.turn === s.seat); }"""
Mover = Callable[[Panel, Match, random.Random], Awaitable[None]]


async def _match(redis_url: str, ref: str) -> Match:
    store = await storage.connect(redis_url)
    try:
        record = await store.matches.get(ref)
    finally:
        await store.close()
    assert record is not None
    return Match.from_json(record)


def _has_open(m: MessageView) -> bool:
    return any(OPEN in b.text for row in m.buttons for b in row)


async def dot(panel: Panel, match: Match, rng: random.Random) -> None:
    """Tap a free point, see its ghost, tap it again."""
    move = match.game.format_move(rng.choice(match.game.legal_moves()))
    xy = await point_xy(panel, move)
    await panel.mouse.click(*xy)
    await panel.wait_for_selector(f"#ghost-layer[data-move='{move}']", state="attached")
    await panel.mouse.click(*xy)


async def line(panel: Panel, match: Match, rng: random.Random) -> None:
    """Tap near a free line, see it highlighted, press the main button under the panel."""
    move = match.game.format_move(rng.choice(match.game.legal_moves()))
    await panel.mouse.click(*await line_xy(panel, move))
    await panel.wait_for_selector(f"#ghost-layer[data-move='{move}']", state="attached")
    await panel.chat.locator("#ma-main-button", has_text="Draw this line").click()


async def curve(panel: Panel, match: Match, rng: random.Random) -> None:
    """Draw with the finger the curve the engine would route for a legal move."""
    _move, _start, path = routed_path(match.game)
    await draw(panel, await to_screen(panel, path))


async def play_in_the_panel(
    pg: ScenarioClient,
    redis_url: str,
    tmp_path: Path,
    menu: tuple[str, ...],
    mover: Mover,
    *,
    stop_after: int | None = None,
) -> tuple[Match, MessageView, str, int]:
    """The person plays the easy bot (the /new ``menu`` path) in the panel to the end, or
    ``stop_after`` moves in calls STOP there. The final match, the chat's board, the panel's
    line and how many moves the person made."""
    await pg.set_limits(enabled=False)
    alice = await pg.user("alice", lang="en")
    await alice.send("/new")
    for label in (*menu, "🤖 Easy"):
        await alice.press(label)
    board = await pg.wait_for(_has_open, chat=alice.private)
    ref = next((b.callback_data or ":").split(":")[1] for r in board.buttons for b in r)
    started = version(board)
    assert started is not None
    rng = random.Random(3)
    async with chromium() as browser:
        chat = await ChatPage.open(browser, pg.url, "alice", viewport=PHONE_TALL)
        try:
            await chat.open_chat("Tetrad")
            await chat.press(OPEN)
            panel = await Panel.of(chat)
            state = await panel.evaluate("window.tetrad.state")
            assert state["id"] == ref and state["seat"] == 0
            await panel.wait_for_function(MINE_OR_OVER, arg=-1, timeout=WAIT_MS)
            moves = 0
            while not (state := await panel.evaluate("window.tetrad.state"))["over"]:
                if moves == stop_after:
                    await panel.click("nav button[data-action='stop']")
                    await panel.wait_for_function("window.tetrad.state.over", timeout=WAIT_MS)
                    break
                match = await _match(redis_url, ref)
                assert match.version == state["version"], (match.version, state)
                await mover(panel, match, rng)
                moves += 1
                assert moves < 60, "the game does not end"
                await panel.wait_for_function(MINE_OR_OVER, arg=state["version"], timeout=WAIT_MS)
            shown = await panel.inner_text("#line")
            assert await panel.locator("nav button").count() == 0  # nothing left to do
            final = await _match(redis_url, ref)
            assert final.status == "finished" and final.version > started
            edited = await pg.wait_for(
                lambda m: m.message_id == board.message_id and "Rematch" in str(m.raw),
                chat=alice.private,
            )
            return final, edited, shown, moves
        except BaseException:
            await chat.screenshot(tmp_path / "failure.png")
            raise


def _same_result(edited: MessageView, shown: str) -> None:
    result = shown.split(" · ")[0]
    assert result and result in (edited.caption or ""), (result, edited.caption)


async def test_dots_to_the_end_by_stop(mpg: ScenarioClient, redis_url: str, tmp_path: Path) -> None:
    final, edited, shown, moves = await play_in_the_panel(
        mpg, redis_url, tmp_path, DOTS, dot, stop_after=6
    )
    assert final.game.result is not None and final.game.result.reason == "stop"
    assert moves == 6 and len(final.game.moves) >= 11
    _same_result(edited, shown)


async def test_boxes_to_the_last_box(mpg: ScenarioClient, redis_url: str, tmp_path: Path) -> None:
    final, edited, shown, moves = await play_in_the_panel(mpg, redis_url, tmp_path, BOXES, line)
    assert moves >= 4
    assert final.game.over and sum(final.game.scores) == 9  # every box of 3×3 is taken
    _same_result(edited, shown)


async def test_sprouts_drawn_to_the_end(
    mpg: ScenarioClient, redis_url: str, tmp_path: Path
) -> None:
    final, edited, shown, moves = await play_in_the_panel(mpg, redis_url, tmp_path, SPROUTS, curve)
    assert final.game.over and final.game.result is not None and moves >= 1
    assert 4 <= len(final.game.moves) <= 5  # n spots: 2n to 3n - 1 moves
    _same_result(edited, shown)
