"""The Mini App page in headless Chromium, opened as Telegram opens it: the page's URL with
the launch parameters in the hash (initData signed here, as Telegram documents; theme), its
outgoing events (main button, back button, haptics) recorded for the test to read."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

from engine.sprouts.game import _table
from engine.sprouts.mesh import route_mesh
from engine.sprouts.paper import request_for
from engine.sprouts.routing import _Fail
from tests.webapp.conftest import MiniClient

PHONE = {"width": 412, "height": 915}
LIGHT = {
    "bg_color": "#ffffff",
    "text_color": "#000000",
    "hint_color": "#707579",
    "link_color": "#3390ec",
    "button_color": "#3390ec",
    "button_text_color": "#ffffff",
    "secondary_bg_color": "#f4f4f5",
}
DARK = {
    "bg_color": "#212121",
    "text_color": "#ffffff",
    "hint_color": "#aaaaaa",
    "link_color": "#8774e1",
    "button_color": "#8774e1",
    "button_text_color": "#ffffff",
    "secondary_bg_color": "#181818",
}
RECORD = """document.addEventListener(
  "tg-out", e => (window.__out = window.__out || []).push(e.detail));"""
TIMEOUT_MS = 30_000  # a busy machine draws slowly


def page_url(c: MiniClient, ref: str, theme: dict[str, str] = LIGHT) -> str:
    launch = {
        "tgWebAppData": c.init_data,
        "tgWebAppVersion": "8.0",
        "tgWebAppPlatform": "web",
        "tgWebAppThemeParams": json.dumps(theme),
    }
    hash_ = "&".join(f"{k}={quote(v)}" for k, v in launch.items())
    return f"{c.base}/app/?m={ref}#{hash_}"


async def open_page(browser: Any, url: str) -> Any:
    context = await browser.new_context(viewport=PHONE, has_touch=True)
    page = await context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    await page.add_init_script(RECORD)
    await page.goto(url)
    await page.wait_for_selector("body[data-ready='1']")
    return page


async def point_xy(page: Any, notation: str) -> tuple[float, float]:
    """Where the Dots point named ``notation`` is on the screen (from the SVG's data-grid)."""
    return tuple(
        await page.evaluate(
            """(n) => {
              const svg = document.querySelector('#board svg');
              const g = JSON.parse(svg.dataset.grid), vb = svg.viewBox.baseVal;
              const r = svg.getBoundingClientRect();
              const m = /^([a-z]+)(\\d+)$/.exec(n);
              const L = 'abcdefghijklmnopqrstuvwxyz';
              const c = m[1].length === 1 ? L.indexOf(m[1]) : 26 + L.indexOf(m[1][1]);
              const row = g.rows - parseInt(m[2], 10);
              const x = g.x0 + c * g.step, y = g.y0 + row * g.step;
              return [r.left + (x - vb.x) * r.width / vb.width,
                      r.top + (y - vb.y) * r.height / vb.height];
            }""",
            notation,
        )
    )


async def sent(page: Any, event: str) -> list[Any]:
    """The data of each ``event`` the page sent to Telegram so far."""
    out = await page.evaluate("window.__out || []")
    return [e["eventData"] for e in out if e["eventType"] == event]


async def telegram_says(page: Any, event: str) -> None:
    """An incoming event as the web client posts it (main_button_pressed, …)."""
    await page.evaluate(
        "(t) => window.postMessage(JSON.stringify({eventType: t, eventData: {}}), '*')", event
    )


async def version_shown(page: Any, version: int) -> None:
    await page.wait_for_selector(f"body[data-version='{version}']")


async def line_xy(page: Any, move: str) -> tuple[float, float]:
    """Where the middle of the free Boxes line ``move`` is on the screen."""
    return tuple(
        await page.evaluate(
            """(m) => {
              const svg = document.querySelector('#board svg'), vb = svg.viewBox.baseVal;
              const l = svg.querySelector(`line.free[data-move="${m}"]`);
              const r = svg.getBoundingClientRect();
              const x = (l.x1.baseVal.value + l.x2.baseVal.value) / 2;
              const y = (l.y1.baseVal.value + l.y2.baseVal.value) / 2;
              return [r.left + (x - vb.x) * r.width / vb.width,
                      r.top + (y - vb.y) * r.height / vb.height];
            }""",
            move,
        )
    )


async def to_screen(page: Any, points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Рассада drawing units → screen pixels, through the SVG's data-units and viewBox."""
    return [
        tuple(p)
        for p in await page.evaluate(
            """(pts) => {
              const svg = document.querySelector('#board svg'), vb = svg.viewBox.baseVal;
              const u = JSON.parse(svg.dataset.units), r = svg.getBoundingClientRect();
              return pts.map(([x, y]) => [
                r.left + (x * u.scale + u.dx - vb.x) * r.width / vb.width,
                r.top + (y * u.scale + u.dy - vb.y) * r.height / vb.height]);
            }""",
            points,
        )
    ]


async def draw(page: Any, points: list[tuple[float, float]]) -> None:
    """A finger (the mouse's pointer events) drawing through ``points`` (screen pixels)."""
    await page.mouse.move(*points[0])
    await page.mouse.down()
    for x, y in points[1:]:
        await page.mouse.move(x, y)
    await page.mouse.up()


class Panel:
    """The Mini App in the playground's panel over the chat, used as the helpers here use a
    page: reads go to its frame (whose coordinates are its own viewport's), and ``mouse`` is
    the chat page's, shifted by where the frame sits on it."""

    def __init__(self, frame: Any, chat: Any, origin: tuple[float, float]) -> None:
        self.frame, self.chat = frame, chat  # the chat page's Playwright page
        self.mouse = _ShiftedMouse(chat.mouse, origin)

    @classmethod
    async def of(cls, chat: Any) -> Panel:
        """The panel of a :class:`tests.playground.browser.ChatPage` once its app is ready."""
        frame = await chat.mini_app()
        await frame.wait_for_selector("body[data-ready='1']", timeout=TIMEOUT_MS)
        box = await chat.page.locator("#ma-frame").bounding_box()
        return cls(frame, chat.page, (box["x"], box["y"]))

    def __getattr__(self, name: str) -> Any:
        return getattr(self.frame, name)


class _ShiftedMouse:
    def __init__(self, mouse: Any, origin: tuple[float, float]) -> None:
        self._mouse, (self._dx, self._dy) = mouse, origin

    async def move(self, x: float, y: float) -> None:
        await self._mouse.move(x + self._dx, y + self._dy)

    async def click(self, x: float, y: float) -> None:
        await self._mouse.click(x + self._dx, y + self._dy)

    async def down(self) -> None:
        await self._mouse.down()

    async def up(self) -> None:
        await self._mouse.up()


def routed_path(game: Any) -> tuple[Any, int, list[tuple[float, float]]]:
    """A legal Рассада move of ``game`` and a finger path for it: the curve the engine's own
    router draws for it on the drawing as it is (before tidying), from its first spot, in
    drawing units (as tests/engine/sprouts/test_path.py reads routes back)."""
    d = game.drawing
    for move in game.legal_moves():
        choice = _table(d).choice(move)
        assert choice is not None
        try:
            route = route_mesh(d, request_for(d, choice))
        except _Fail:
            continue
        line = [*route.first, *route.second[1:]]
        start = next(s.number for s in d.spots if (s.x, s.y) == tuple(line[0]))
        return move, start, [(float(x), float(y)) for x, y in line]
    raise AssertionError("no legal move the router draws on this drawing as it is")
