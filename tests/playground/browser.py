"""Drive the playground page in headless Chromium (Playwright, the system Chromium).

Helpers for browser scenarios: ``Browser.page(url, user=...)`` opens the page as a person;
``ChatPage`` clicks like a person (open a chat, type, press a button by its text, wait for a
bot message or an edit, reach the Mini App panel's frame). A game played to the end is a
loop of ``press`` and ``wait_for_bot``; the screenshot of a failing test lands in the test's
tmp dir."""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
PHONE_TALL = {"width": 412, "height": 915}  # the phone the screenshots in docs/screens show
TIMEOUT_MS = 30_000  # a busy machine draws slowly (as tests/webapp/page.py)


def chromium_missing() -> str | None:
    """Why the browser tests cannot run here, or None."""
    try:
        import playwright.async_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (pip install -e '.[test]')"
    if not CHROMIUM.exists():
        return f"no Chromium at {CHROMIUM} (make system-packages)"
    return None


@asynccontextmanager
async def chromium() -> AsyncIterator[Any]:
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        browser = await p.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield browser
        finally:
            await browser.close()


@asynccontextmanager
async def phone_chat(
    url: str, user: str, failure: Path, chat: str = "Tetrad"
) -> AsyncIterator[ChatPage]:
    """``user``'s page at phone size (412×915) with ``chat`` open (the bot's by default); a
    screenshot at ``failure`` when the test fails inside."""
    async with chromium() as browser:
        page = await ChatPage.open(browser, url, user, PHONE_TALL)
        try:
            await page.open_chat(chat)
            yield page
        except BaseException:
            await page.screenshot(failure)
            raise


class ChatPage:
    """The page as one person uses it."""

    def __init__(self, page: Any) -> None:
        self.page = page

    @classmethod
    async def open(
        cls, browser: Any, url: str, user: str, viewport: dict[str, int] = DESKTOP
    ) -> ChatPage:
        page = await browser.new_page(viewport=viewport)
        page.set_default_timeout(TIMEOUT_MS)
        await page.goto(f"{url}/?user={user}")
        await page.wait_for_selector("body[data-ready='1']")
        return cls(page)

    async def open_chat(self, title: str) -> None:
        name = self.page.locator(".name", has_text=re.compile(f"^{re.escape(title)}"))
        await self.page.locator(".chat-item").filter(has=name).first.click()
        await self.page.wait_for_selector("#composer-input:not([disabled])")

    async def send(self, text: str) -> None:
        box = self.page.locator("#composer-input")
        await box.fill(text)
        await box.press("Enter")

    def bot_messages(self) -> Any:
        return self.page.locator("#messages .msg.from-bot")

    async def wait_for_bot(self, text: str) -> Any:
        """The newest bot message containing ``text`` once it is on screen."""
        msg = self.bot_messages().filter(has_text=text).last
        await msg.wait_for()
        return msg

    async def press(self, text: str) -> None:
        """Press the button labelled ``text`` in the newest keyboard on screen."""
        keyboard = self.page.locator("#messages .msg:has(.kb)").last
        await keyboard.locator(".kb button", has_text=text).first.click()

    async def toast(self) -> str:
        toast = self.page.locator("#toast")
        await toast.wait_for(state="visible")
        return str(await toast.inner_text())

    async def alert(self) -> str:
        box = self.page.locator("#modal")
        await box.wait_for(state="visible")
        text = str(await self.page.locator("#modal-body").inner_text())
        await self.page.locator("#modal-buttons button", has_text="OK").click()
        return text

    async def mini_app(self) -> Any:
        """The Mini App panel's frame (a Playwright ``Frame``) once the app in it has posted
        ``web_app_ready``; open it first with ``press`` on a web_app or direct-link button."""
        await self.page.wait_for_selector("#miniapp[data-app-ready='1']")
        handle = await self.page.locator("#ma-frame").element_handle()
        return await handle.content_frame()

    async def screenshot(self, path: Path) -> None:
        await self.page.screenshot(path=str(path), full_page=False)


def keep_screens(shots: list[Path]) -> None:
    """Copy the screenshots to ``$SCREENS`` (``SCREENS=docs/screens`` refreshes the README's
    pictures); without it they stay in the test's tmp dir."""
    keep = os.environ.get("SCREENS")
    for shot in shots if keep else []:
        shutil.copy(shot, Path(keep or "."))
