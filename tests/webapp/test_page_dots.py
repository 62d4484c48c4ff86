"""A group Dots game played in the Mini App page by two people in two browsers: taps place
a ghost (the server's preview) and the second tap or Telegram's main button plays it; each
move shows on the other's page (the live channel) and on the chat board; the game ends by
the end-by-agreement offer from the page's buttons. Haptics, the main and back buttons go
out through the documented web protocol."""

from __future__ import annotations

import random

import aiohttp
import pytest

from tests.bot.helpers import stored_match, version, wait_message
from tests.fixtures.playground import ScenarioClient
from tests.playground.browser import chromium, chromium_missing
from tests.webapp.conftest import dots_in_group, mini_client
from tests.webapp.page import open_page, page_url, point_xy, sent, telegram_says, version_shown

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(chromium_missing() is not None, reason=str(chromium_missing())),
]
MOVES = 12
SUCCESSES = """(n) => (window.__out || []).filter(e =>
  e.eventType === "web_app_trigger_haptic_feedback" && e.eventData.type === "notification"
  && e.eventData.notification_type === "success").length >= n"""


async def test_a_group_dots_game_in_two_browsers(
    mpg: ScenarioClient, http: aiohttp.ClientSession, redis_url: str, tmp_path
) -> None:
    alice, bob, group, board, ref = await dots_in_group(mpg, "alice", "bob")
    clients = [mini_client(mpg, http, u.id) for u in (alice, bob)]
    rng = random.Random(5)
    async with chromium() as browser:
        pages = [await open_page(browser, page_url(c, ref)) for c in clients]
        try:
            for page in pages:
                assert "web_app_ready" in [
                    e["eventType"] for e in await page.evaluate("window.__out")
                ]
            v = version(board)
            assert v is not None
            placed: dict[object, int] = {}
            for i in range(MOVES):
                match = await stored_match(redis_url, board)
                mover, other = pages[match.game.turn], pages[1 - match.game.turn]
                move = match.game.format_move(rng.choice(match.game.legal_moves()))
                x, y = await point_xy(mover, move)
                await mover.mouse.click(x, y)
                await mover.wait_for_selector(f"#ghost-layer[data-move='{move}']", state="attached")
                main = (await sent(mover, "web_app_setup_main_button"))[-1]
                assert main["is_visible"] and main["text"] == "Place here"
                assert (await sent(mover, "web_app_setup_back_button"))[-1]["is_visible"]
                if i % 2:
                    await telegram_says(mover, "main_button_pressed")
                else:
                    await mover.mouse.click(x, y)  # the same point again
                v += 1
                await version_shown(mover, v)
                await version_shown(other, v)  # live, through the other's stream
                assert (await mover.evaluate("window.tetrad.state.last")) == move
                placed[mover] = placed.get(mover, 0) + 1  # its answer may come after the stream's
                await mover.wait_for_function(SUCCESSES, arg=placed[mover])
                assert not (await sent(mover, "web_app_setup_main_button"))[-1]["is_visible"]
            await wait_message(group, board.message_id, lambda m: version(m) == v)

            # A tap while it is not your turn does nothing.
            match = await stored_match(redis_url, board)
            idle = pages[1 - match.game.turn]
            x, y = await point_xy(idle, match.game.format_move(match.game.legal_moves()[0]))
            await idle.mouse.click(x, y)
            assert await idle.evaluate("window.tetrad.ghost") is None

            # End by agreement from the page's buttons: one offers, the other accepts.
            await pages[0].click("nav button[data-action='end_here']")
            v += 1
            await version_shown(pages[1], v)
            await pages[1].click("nav button[data-action='accept']")
            for page in pages:
                await page.wait_for_function("window.tetrad.state && window.tetrad.state.over")
            final = await stored_match(redis_url, board)
            assert final.status == "finished" and len(final.game.moves) == MOVES
            assert await pages[0].locator("nav button").count() == 0
            await wait_message(group, board.message_id, lambda m: "Rematch" in str(m.raw))
        except BaseException:
            for i, page in enumerate(pages):
                await page.screenshot(path=str(tmp_path / f"failure-{i}.png"))
            raise


async def test_resign_asks_first_and_back_cancels(
    mpg: ScenarioClient, http: aiohttp.ClientSession, redis_url: str
) -> None:
    _alice, bob, _group, board, ref = await dots_in_group(mpg, "alice", "bob")
    async with chromium() as browser:
        page = await open_page(browser, page_url(mini_client(mpg, http, bob.id), ref))
        await page.click("nav button[data-action='resign']")
        await page.wait_for_selector("#dialog:not([hidden])")
        await telegram_says(page, "back_button_pressed")  # Telegram's back: no
        await page.wait_for_selector("#dialog", state="hidden")
        assert (await stored_match(redis_url, board)).status == "active"
        await page.click("nav button[data-action='resign']")
        await page.click("#dialog-yes")
        await page.wait_for_function("window.tetrad.state && window.tetrad.state.over")
        assert "Alice" in await page.inner_text("#line")
        result = (await stored_match(redis_url, board)).game.result
        assert result is not None and result.reason == "resign"


async def test_without_launch_data_the_page_says_why(mpg: ScenarioClient) -> None:
    async with chromium() as browser:
        context = await browser.new_context()
        page = await context.new_page()
        await page.goto(f"http://127.0.0.1:{mpg._settings.port}/app/?m=abcdEFGH")
        await page.wait_for_selector("body[data-ready='error']")
        assert "Open this board" in await page.inner_text("#line")


async def test_stop_from_the_page_shows_its_timer(
    mpg: ScenarioClient, http: aiohttp.ClientSession, redis_url: str
) -> None:
    alice, bob, _group, board, ref = await dots_in_group(mpg, "alice", "bob")
    async with chromium() as browser:
        pages = [
            await open_page(browser, page_url(mini_client(mpg, http, u.id), ref))
            for u in (alice, bob)
        ]
        assert await pages[0].inner_text("#clock") == ""
        await pages[0].click("nav button[data-action='stop']")
        for page in pages:  # the caller's answer, and the other's live stream
            await page.wait_for_function(
                "document.getElementById('clock').textContent.startsWith('✋ ')"
            )
        stopped = await stored_match(redis_url, board)
        assert stopped.game.stopped_by == 0  # type: ignore[attr-defined]
        # Bob moves alone now; his page offers Done.
        await pages[1].wait_for_selector("nav button[data-action='done']")
