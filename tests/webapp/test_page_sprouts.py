"""Рассада in the Mini App page: a curve drawn with the finger (synthesised pointer events)
from a spot round another one and back is read by the server as the loop with that spot
inside and played (seen on the other player's page); a curve across it is refused with the
reason, marked where it crosses, and changes nothing."""

from __future__ import annotations

import math
from pathlib import Path

import aiohttp
import pytest

from tests.bot.helpers import stored_match, version, wait_message
from tests.fixtures.playground import ScenarioClient
from tests.playground.browser import chromium, chromium_missing
from tests.webapp.conftest import in_group, mini_client
from tests.webapp.page import draw, open_page, page_url, to_screen, version_shown

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(chromium_missing() is not None, reason=str(chromium_missing())),
]
SPROUTS = ("Sprouts", "3", "Next »")
RADIUS = 80.0  # drawing units: the loop's circle round the enclosed spot
SIDE = math.radians(25)  # where the legs from the start meet that circle


def _line(p: tuple[float, float], q: tuple[float, float], n: int = 30) -> list[tuple[float, float]]:
    return [(p[0] + (q[0] - p[0]) * k / n, p[1] + (q[1] - p[1]) * k / n) for k in range(n + 1)]


def _loop_round(a: tuple[float, float], b: tuple[float, float]) -> list[tuple[float, float]]:
    """From spot ``a`` out to a small circle round spot ``b``, all the way round it, and
    back to ``a`` on the other side: a loop at a with b inside."""
    back = math.atan2(a[1] - b[1], a[0] - b[0])  # from b towards a
    on = lambda t: (b[0] + RADIUS * math.cos(t), b[1] + RADIUS * math.sin(t))  # noqa: E731
    arc = [on(back + SIDE + (2 * math.pi - 2 * SIDE) * k / 90) for k in range(91)]
    return [*_line(a, arc[0]), *arc[1:], *_line(arc[-1], a)[1:]]


async def test_a_drawn_loop_round_a_spot_and_a_refused_crossing(
    mpg: ScenarioClient, http: aiohttp.ClientSession, redis_url: str, tmp_path: Path
) -> None:
    alice, bob, group, board, ref = await in_group(mpg, SPROUTS, "alice", "bob")
    clients = [mini_client(mpg, http, u.id) for u in (alice, bob)]
    async with chromium() as browser:
        pages = [await open_page(browser, page_url(c, ref)) for c in clients]
        try:
            match = await stored_match(redis_url, board)
            v = match.version
            drawing = match.game.to_json()["drawing"]
            spots = {i + 1: (x, y) for i, (x, y) in enumerate(drawing["spots"])}
            a, b = 1, 2
            mover = pages[match.game.turn]
            path = _loop_round(spots[a], spots[b])
            await draw(mover, await to_screen(mover, path))
            v += 1
            for page in pages:
                await version_shown(page, v)
            played = await stored_match(redis_url, board)
            last = played.game.moves[-1]
            assert (last.a, last.b, last.inside) == (a, a, (b,)), last
            await wait_message(group, board.message_id, lambda m: version(m) == v)

            # From the spot inside straight out to a spot outside: across the loop.
            outside = next(n for n in spots if n not in (a, b))
            mover = pages[played.game.turn]
            now = played.game.to_json()["drawing"]["spots"]  # the drawing may have moved them
            line = _line(now[b - 1], now[outside - 1], 40)
            await draw(mover, await to_screen(mover, line))
            refused = mover.locator("#drawn-layer[data-refused]")
            await refused.wait_for(state="attached")
            code = await refused.get_attribute("data-refused")
            assert code == "illegal.sprouts.crosses_curve", (code, await mover.inner_text("#toast"))
            assert await mover.locator("#drawn-layer .refused-at").count() == 1
            assert "crosses a curve" in await mover.inner_text("#toast")
            assert (await stored_match(redis_url, board)).version == v
        except BaseException:
            for i, page in enumerate(pages):
                await page.screenshot(path=str(tmp_path / f"failure-{i}.png"))
            raise
