"""The Mini App inside the playground's page, as a person meets it: the group board's
"🖐 Open board" direct link opens the panel over the chat with launch data the emulator
signed; a Dots move made there (tap, tap again) edits the chat's board."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bot.helpers import version, wait_message
from tests.fixtures.playground import ScenarioClient
from tests.playground.browser import PHONE, ChatPage, chromium, chromium_missing
from tests.webapp.conftest import dots_in_group

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(chromium_missing() is not None, reason=str(chromium_missing())),
]
POINT = """(n) => {
  const svg = document.querySelector('#board svg'), vb = svg.viewBox.baseVal;
  const g = JSON.parse(svg.dataset.grid), r = svg.getBoundingClientRect();
  const c = 'abcdefghij'.indexOf(n[0]), row = g.rows - parseInt(n.slice(1), 10);
  return [r.left + (g.x0 + c * g.step - vb.x) * r.width / vb.width,
          r.top + (g.y0 + row * g.step - vb.y) * r.height / vb.height];
}"""


async def test_open_board_in_the_playground_and_move(mpg: ScenarioClient, tmp_path: Path) -> None:
    _alice, _bob, group, board, ref = await dots_in_group(mpg, "alice", "bob")
    v = version(board)
    assert v is not None
    async with chromium() as browser:
        page = await ChatPage.open(browser, mpg.url, "alice", viewport=PHONE)
        try:
            await page.open_chat("Friends")
            await page.press("🖐 Open board")
            frame = await page.mini_app()
            await frame.wait_for_selector("body[data-ready='1']")
            state = await frame.evaluate("window.tetrad.state")
            assert state["id"] == ref and state["seat"] == 0
            box = await page.page.locator("#ma-frame").bounding_box()
            x, y = await frame.evaluate(POINT, "e5")
            await page.page.mouse.click(box["x"] + x, box["y"] + y)
            await frame.wait_for_selector("#ghost-layer[data-move='e5']", state="attached")
            await page.page.mouse.click(box["x"] + x, box["y"] + y)
            await frame.wait_for_selector(f"body[data-version='{v + 1}']")
            edited = await wait_message(group, board.message_id, lambda m: version(m) == v + 1)
            assert "e5" in (edited.caption or "")
        except BaseException:
            await page.screenshot(tmp_path / "failure.png")
            raise
