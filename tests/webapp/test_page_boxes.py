"""A group Dots and Boxes game played to its end in the Mini App page in two browsers: a
tap near a free line highlights it (with the boxes it would close), a second tap or the
main button draws it; a capture keeps the turn, and every move shows on the other page."""

from __future__ import annotations

import random
from pathlib import Path

import aiohttp
import pytest

from tests.bot.helpers import stored_match, version, wait_message
from tests.fixtures.playground import ScenarioClient
from tests.playground.browser import chromium, chromium_missing
from tests.webapp.conftest import BOXES, in_group, mini_client
from tests.webapp.page import line_xy, open_page, page_url, sent, telegram_says, version_shown

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(chromium_missing() is not None, reason=str(chromium_missing())),
]


async def test_a_group_boxes_game_to_the_end(
    mpg: ScenarioClient, http: aiohttp.ClientSession, redis_url: str, tmp_path: Path
) -> None:
    alice, bob, group, board, ref = await in_group(mpg, BOXES, "alice", "bob")
    clients = [mini_client(mpg, http, u.id) for u in (alice, bob)]
    rng = random.Random(7)
    async with chromium() as browser:
        pages = [await open_page(browser, page_url(c, ref)) for c in clients]
        try:
            v = version(board)
            assert v is not None
            kept_turn = 0
            for i in range(100):
                match = await stored_match(redis_url, board)
                if match.status == "finished":
                    break
                turn = match.game.turn
                mover, other = pages[turn], pages[1 - turn]
                move = match.game.format_move(rng.choice(match.game.legal_moves()))
                x, y = await line_xy(mover, move)
                await mover.mouse.click(x, y)
                await mover.wait_for_selector(f"#ghost-layer[data-move='{move}']", state="attached")
                main = (await sent(mover, "web_app_setup_main_button"))[-1]
                assert main["is_visible"] and main["text"] == "Draw this line"
                if i % 2:
                    await telegram_says(mover, "main_button_pressed")
                else:
                    await mover.mouse.click(x, y)
                v += 1
                await version_shown(mover, v)
                await version_shown(other, v)
                state = await mover.evaluate("window.tetrad.state")
                kept_turn += state["turn"] == turn and not state["over"]
            else:
                raise AssertionError("the game did not end in 100 moves")
            final = await stored_match(redis_url, board)
            assert final.status == "finished" and final.game.over
            assert kept_turn > 0  # a capture gave an extra move, taken in the page
            for page in pages:
                await page.wait_for_function("window.tetrad.state && window.tetrad.state.over")
                assert await page.locator("nav button").count() == 0
            await wait_message(
                group, board.message_id, lambda m: version(m) == v or "Rematch" in str(m.raw)
            )
        except BaseException:
            for i, page in enumerate(pages):
                await page.screenshot(path=str(tmp_path / f"failure-{i}.png"))
            raise
