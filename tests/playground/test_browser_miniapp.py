"""The page's Mini App panel in a real headless Chromium: a web_app button, a direct link and
the menu button open a test Mini App served here, which echoes its launch parameters and drives
every event of the web protocol round trip (main button, back button, haptics, theme, close)."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

import pytest
from aiohttp import web
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, MenuButtonWebApp, WebAppInfo

from playground.server import Emulator
from tests.playground.browser import ChatPage, chromium, chromium_missing
from tests.playground.conftest import started
from tests.playground.test_miniapp import telegram_check

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(chromium_missing() is not None, reason=str(chromium_missing())),
]

PHONE_TALL = {"width": 412, "height": 915}
WAIT_MS = 10_000

# A Mini App of the test's own: it shows who it was opened for, echoes the hash, lists what the
# panel sends it and posts the protocol's methods when its buttons are clicked.
ECHO_APP = """<!doctype html>
<html><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body { margin: 0; padding: 14px; font: 15px system-ui, sans-serif;
       background: var(--bg); color: var(--text); }
.row { display: flex; flex-wrap: wrap; gap: 6px; margin: 10px 0; }
button { border: 0; border-radius: 8px; padding: 8px 10px; font: inherit;
         background: var(--button); color: var(--button-text); }
.card { background: var(--card); border-radius: 10px; padding: 10px; margin: 8px 0; }
pre { white-space: pre-wrap; word-break: break-all; font-size: 11px; margin: 0; }
.hint { color: var(--hint); font-size: 13px; }
</style></head><body>
<h3 id="hello"></h3>
<div class="hint" id="start"></div>
<div class="row">
  <button id="main-show">Main: show</button><button id="main-hide">Main: hide</button>
  <button id="back-show">Back: show</button><button id="haptic">Haptic</button>
  <button id="theme">Ask theme</button><button id="popup">Popup</button>
  <button id="close">Close</button>
</div>
<div class="card"><b>Got</b><ol id="got"></ol></div>
<div class="card"><pre id="params"></pre></div>
<script>
const launch = Object.fromEntries(new URLSearchParams(location.hash.slice(1)));
const init = Object.fromEntries(new URLSearchParams(launch.tgWebAppData || ""));
window.launch = launch; window.got = [];
const post = (eventType, eventData) =>
  window.parent.postMessage(JSON.stringify({eventType, eventData}), "*");
function paint(t) {
  const s = document.body.style;
  s.setProperty("--bg", t.bg_color); s.setProperty("--text", t.text_color);
  s.setProperty("--button", t.button_color); s.setProperty("--button-text", t.button_text_color);
  s.setProperty("--card", t.secondary_bg_color); s.setProperty("--hint", t.hint_color);
}
paint(JSON.parse(launch.tgWebAppThemeParams));
document.getElementById("hello").textContent = "Hello, " + JSON.parse(init.user).first_name;
document.getElementById("start").textContent =
  "start: " + (launch.tgWebAppStartParam || "none") + " · " + launch.tgWebAppPlatform +
  " " + launch.tgWebAppVersion;
document.getElementById("params").textContent = location.hash.slice(0, 400) + "…";
window.addEventListener("message", (ev) => {
  const m = JSON.parse(ev.data);
  window.got.push(m);
  const li = document.createElement("li");
  li.textContent = m.eventType;
  document.getElementById("got").append(li);
  if (m.eventType === "theme_changed") paint(m.eventData.theme_params);
});
const on = (id, fn) => { document.getElementById(id).onclick = fn; };
on("main-show", () => post("web_app_setup_main_button", {
  is_visible: true, is_active: true, text: "Place here", color: "#2481cc", text_color: "#ffffff",
}));
on("main-hide", () => post("web_app_setup_main_button", {is_visible: false}));
on("back-show", () => post("web_app_setup_back_button", {is_visible: true}));
on("haptic", () => post("web_app_trigger_haptic_feedback",
  {type: "impact", impact_style: "medium"}));
on("theme", () => post("web_app_request_theme"));
on("popup", () => post("web_app_open_popup", {title: "Resign?", message: "The game ends.",
  buttons: [{id: "yes", type: "destructive", text: "Resign"}, {type: "cancel"}]}));
on("close", () => post("web_app_close"));
post("web_app_ready");
post("web_app_expand");
</script></body></html>
"""


@asynccontextmanager
async def echo_app() -> AsyncIterator[str]:
    """Serve the echo Mini App on this machine; yields its URL."""

    async def page(request: web.Request) -> web.Response:
        return web.Response(text=ECHO_APP, content_type="text/html")

    app = web.Application()
    app.router.add_get("/app/", page)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    try:
        yield f"http://127.0.0.1:{runner.addresses[0][1]}/app/"
    finally:
        await runner.cleanup()


async def got(frame: Any, event: str) -> dict[str, Any]:
    """The newest message ``event`` the app received from the panel (waits for it)."""
    await frame.wait_for_function(
        "e => window.got.some(m => m.eventType === e)", arg=event, timeout=WAIT_MS
    )
    found: dict[str, Any] = await frame.evaluate(
        "e => window.got.filter(m => m.eventType === e).pop()", event
    )
    return found


async def recorded(emulator: Emulator, session: str, until: str) -> list[str]:
    """The session's World events, once ``until`` has been recorded."""
    world = emulator.world
    for _ in range(100):
        names = [
            e["event"] for e in world.events if e["type"] == "miniapp" and e["session"] == session
        ]
        if until in names:
            return names
        await world.changed(0.1)
    raise AssertionError(f"{until} never recorded: {names}")


async def test_web_app_button_round_trip(emulator: Emulator, tg: Bot, tmp_path: Path) -> None:
    world = emulator.world
    alice = started(world, "alice")
    async with echo_app() as app_url, chromium() as browser:
        button = InlineKeyboardButton("Open board", web_app=WebAppInfo(app_url + "?m=1"))
        await tg.send_message(alice.id, "Your board", reply_markup=InlineKeyboardMarkup([[button]]))
        page = await ChatPage.open(browser, emulator.url, "alice", viewport=PHONE_TALL)
        try:
            await page.open_chat(world.bot_name)
            await page.press("Open board")
            frame = await page.mini_app()
            p = page.page
            session = await p.get_attribute("#miniapp", "data-session")
            assert session is not None

            launch = await frame.evaluate("window.launch")
            assert launch["tgWebAppPlatform"] == "web" and launch["tgWebAppVersion"]
            assert json.loads(launch["tgWebAppThemeParams"])["bg_color"] == "#ffffff"
            init = telegram_check(launch["tgWebAppData"], world.token)
            assert init is not None and "query_id" in init
            assert json.loads(init["user"])["id"] == alice.id
            assert "tgWebAppStartParam" not in launch
            assert await frame.evaluate("location.search") == "?m=1"
            assert await p.inner_text("#ma-title") == world.bot_name

            # main button: the app shows it, the panel draws it, a tap goes back to the app
            assert await p.locator("#ma-main").is_hidden()
            await frame.click("#main-show")
            main = p.locator("#ma-main-button")
            await main.wait_for()
            assert await main.inner_text() == "Place here"
            colour = await main.evaluate("b => getComputedStyle(b).backgroundColor")
            assert colour == "rgb(36, 129, 204)"
            await main.click()
            await got(frame, "main_button_pressed")

            # back button takes the close button's place; a tap is sent to the app
            await frame.click("#back-show")
            await p.locator("#ma-back").wait_for()
            assert await p.locator("#ma-close").is_hidden()
            await p.click("#ma-back")
            await got(frame, "back_button_pressed")

            # haptics: a flash on the panel and a World event
            await frame.click("#haptic")
            await p.wait_for_selector("#miniapp[data-haptics='1']")
            assert "impact" in await p.inner_text("#ma-haptic")
            await p.wait_for_selector("#ma-haptic", state="hidden")
            await page.screenshot(tmp_path / "miniapp-light.png")

            # a popup: the person picks a button, the app learns which
            await frame.click("#popup")
            await p.locator("#modal").wait_for(state="visible")
            assert "The game ends." in await p.inner_text("#modal-body")
            await p.locator("#modal-buttons button", has_text="Resign").click()
            closed = await got(frame, "popup_closed")
            assert closed["eventData"] == {"button_id": "yes"}

            # theme: asked for, and toggled by the person
            await frame.click("#theme")
            asked = await got(frame, "theme_changed")
            assert asked["eventData"]["theme_params"]["bg_color"] == "#ffffff"
            await frame.evaluate("window.got = []")
            await p.click("#ma-theme")
            dark = await got(frame, "theme_changed")
            assert dark["eventData"]["theme_params"]["bg_color"] == "#17212b"
            body = await frame.evaluate("getComputedStyle(document.body).backgroundColor")
            assert body == "rgb(23, 33, 43)"
            head = await p.locator(".ma-head").evaluate("h => getComputedStyle(h).backgroundColor")
            assert head == "rgb(23, 33, 43)"
            await page.screenshot(tmp_path / "miniapp-dark.png")

            await frame.click("#close")
            await p.wait_for_selector("#miniapp", state="hidden")
            names = await recorded(emulator, session, "close")
            expected = [
                "open",
                "web_app_ready",
                "web_app_expand",
                "web_app_setup_main_button",
                "main_button_pressed",
                "web_app_setup_back_button",
                "back_button_pressed",
                "web_app_trigger_haptic_feedback",
                "web_app_open_popup",
                "popup_closed",
                "web_app_request_theme",
                "theme_changed",
                "theme_changed",
                "web_app_close",
                "close",
            ]
            assert names == expected
            haptic = next(
                e
                for e in world.events
                if e["type"] == "miniapp" and e["event"] == "web_app_trigger_haptic_feedback"
            )
            assert haptic["data"] == {"type": "impact", "impact_style": "medium"}
            assert haptic["user"] == alice.id
            assert world.launches[session].main_button["text"] == "Place here"
        except BaseException:
            await page.screenshot(tmp_path / "failure.png")
            raise


async def test_direct_link_and_menu_button(emulator: Emulator, tg: Bot, tmp_path: Path) -> None:
    world = emulator.world
    alice = started(world, "alice")
    bob = world.add_user("bob")
    group = world.create_group("Friends", alice, [bob], with_bot=True)
    async with echo_app() as app_url, chromium() as browser:
        world.set_mini_app(app_url, "board", "Tetrad board")
        link = f"https://t.me/{world.bot_username}/board?startapp=m_7"
        markup = InlineKeyboardMarkup([[InlineKeyboardButton("Open board", url=link)]])
        await tg.send_message(group.id, "Group board", reply_markup=markup)
        await tg.set_chat_menu_button(alice.id, MenuButtonWebApp("Play", WebAppInfo(app_url)))
        page = await ChatPage.open(browser, emulator.url, "alice")  # a desktop-sized page
        try:
            await page.open_chat("Friends")
            assert await page.page.locator("#menu-app").is_hidden()  # private chats only
            await page.press("Open board")
            frame = await page.mini_app()
            launch = await frame.evaluate("window.launch")
            assert launch["tgWebAppStartParam"] == "m_7"
            assert await frame.evaluate("location.search") == "?tgWebAppStartParam=m_7"
            init = dict(parse_qsl(launch["tgWebAppData"]))
            assert telegram_check(launch["tgWebAppData"], world.token) is not None
            assert init["start_param"] == "m_7" and init["chat_type"] == "group"
            assert init["chat_instance"] == group.instance and "query_id" not in init
            assert await page.page.inner_text("#ma-title") == "Tetrad board"
            assert re.search("Hello, Alice", await frame.inner_text("#hello"))
            box = await page.page.locator(".ma-phone").bounding_box()
            assert box is not None and box["width"] == 412 and box["height"] <= 800
            await page.screenshot(tmp_path / "miniapp-desktop.png")  # over the chat
            session = await page.page.get_attribute("#miniapp", "data-session")
            await page.page.click("#ma-close")  # the person closes it
            await page.page.wait_for_selector("#miniapp", state="hidden")
            assert session is not None
            assert (await recorded(emulator, session, "close"))[-1] == "close"

            await page.open_chat(world.bot_name)
            await page.page.click("#menu-app")
            frame = await page.mini_app()
            launch = await frame.evaluate("window.launch")
            init = dict(parse_qsl(launch["tgWebAppData"]))
            assert "query_id" in init and json.loads(init["user"])["id"] == alice.id
            assert await page.page.inner_text("#ma-title") == "Play"

            # openTelegramLink: the panel closes and the t.me link is followed in the chat
            await frame.evaluate(
                """path => window.parent.postMessage(JSON.stringify(
                    {eventType: "web_app_open_tg_link", eventData: {path_full: path}}), "*")""",
                f"/{world.bot_username}?start=from_app",
            )
            await page.page.wait_for_selector("#miniapp", state="hidden")
            mine = page.page.locator("#messages .msg.mine", has_text="/start from_app")
            await mine.wait_for()
        except BaseException:
            await page.screenshot(tmp_path / "failure.png")
            raise
