"""Double-tap zooms to the action: two quick taps (touch, then the mouse's pointer events)
anywhere on the board zoom in on the last move, which is then on screen and larger; two more
go back to the whole board. Neither pair places a ghost or plays."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import aiohttp
import pytest

from tests.bot.helpers import stored_match, version
from tests.fixtures.playground import ScenarioClient
from tests.playground.browser import chromium, chromium_missing
from tests.webapp.conftest import BOXES, in_group, mini_client
from tests.webapp.page import open_page, page_url

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(chromium_missing() is not None, reason=str(chromium_missing())),
]
QUICK_DOTS = ("Dots", "Quick 15×15", "Next »")
# The last move's marks (as app.js finds them) and the board, in screen pixels.
RECTS = """(sel) => {
  const r = (el) => { const b = el.getBoundingClientRect();
    return {x0: b.left, y0: b.top, x1: b.right, y1: b.bottom}; };
  const marks = Array.from(document.querySelectorAll(sel)).map(r);
  const last = {x0: Math.min(...marks.map(m => m.x0)), y0: Math.min(...marks.map(m => m.y0)),
    x1: Math.max(...marks.map(m => m.x1)), y1: Math.max(...marks.map(m => m.y1))};
  return {last, view: r(document.getElementById('view')),
    board: r(document.querySelector('#board svg'))};
}"""


def _inside(a: dict[str, float], b: dict[str, float]) -> bool:
    return b["x0"] <= a["x0"] and a["x1"] <= b["x1"] and b["y0"] <= a["y0"] and a["y1"] <= b["y1"]


def _width(r: dict[str, float]) -> float:
    return r["x1"] - r["x0"]


async def _settled(page: Any, sel: str) -> dict[str, Any]:
    """The rectangles once the zoom's short glide is over (two reads 100 ms apart agree)."""
    before = None
    while True:
        now = await page.evaluate(RECTS, sel)
        if now == before:
            return now
        before = now
        await page.wait_for_timeout(100)


async def _double_tap(page: Any, x: float, y: float, touch: bool) -> None:
    if touch:
        await page.touchscreen.tap(x, y)
        await page.touchscreen.tap(x, y)
    else:
        await page.mouse.dblclick(x, y)


@pytest.mark.parametrize(
    ("menu", "moves", "marks"),
    [(QUICK_DOTS, ["o15", "n14", "o14"], "circle.lm"), (BOXES, ["a4-b4"], "path.halo")],
    ids=["dots", "boxes"],
)
async def test_double_tap_zooms_to_the_last_move_and_back(
    mpg: ScenarioClient,
    http: aiohttp.ClientSession,
    redis_url: str,
    tmp_path: Path,
    menu: tuple[str, ...],
    moves: list[str],
    marks: str,
) -> None:
    alice, bob, _group, board, ref = await in_group(mpg, menu, "alice", "bob")
    clients = [mini_client(mpg, http, u.id) for u in (alice, bob)]
    v = version(board)
    assert v is not None
    for i, move in enumerate(moves):  # in a corner, away from where the taps land
        status, body = await clients[i % 2].post(ref, "move", {"version": v, "move": move})
        assert status == 200, body
        v = body["version"]
    async with chromium() as browser:
        page = await open_page(browser, page_url(clients[len(moves) % 2], ref))
        try:
            whole = await _settled(page, marks)
            assert _inside(whole["last"], whole["view"])
            # Taps at the board's middle, on its mover's own page: a tap there would play.
            b = whole["board"]
            x, y = (b["x0"] + b["x1"]) / 2, (b["y0"] + b["y1"]) / 2
            for touch in (True, False):
                await _double_tap(page, x, y, touch)
                await page.wait_for_function(
                    "document.getElementById('zoom').style.transform.includes('scale(1)') === false"
                )
                zoomed = await _settled(page, marks)
                assert _inside(zoomed["last"], zoomed["view"]), zoomed
                assert _width(zoomed["last"]) > 1.5 * _width(whole["last"]), (zoomed, whole)
                assert _width(zoomed["board"]) > 1.5 * _width(whole["board"])

                await _double_tap(page, x, y, touch)
                back = await _settled(page, marks)
                assert back == whole, (back, whole)
            await page.wait_for_timeout(400)  # past the double-tap window: nothing pending
            assert await page.evaluate("window.tetrad.ghost") is None
            assert await page.locator("#ghost-layer").count() == 0
            assert (await stored_match(redis_url, board)).version == v
        except BaseException:
            await page.screenshot(path=str(tmp_path / "failure.png"))
            raise
