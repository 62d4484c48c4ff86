"""The web page in a real headless Chromium: a person talks to the bot by clicking."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.i18n import t
from tests.bot.helpers import message, wait_message
from tests.fixtures.playground import ScenarioClient
from tests.playground.browser import (
    PHONE,
    PHONE_TALL,
    ChatPage,
    chromium,
    chromium_missing,
    keep_screens,
)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(chromium_missing() is not None, reason=str(chromium_missing())),
]


async def test_start_with_the_real_bot(pg: ScenarioClient, tmp_path: Path) -> None:
    await pg.user("alice", lang="ru")
    async with chromium() as browser:
        page = await ChatPage.open(browser, pg.url, "alice")
        try:
            await page.open_chat("Tetrad")
            await page.page.locator("#start-bot").click()  # the Start button of a new chat
            answer = await page.wait_for_bot("Тетрадь")
            assert "Точки" in await answer.inner_text()
            await page.send("/start")
            await page.bot_messages().nth(1).wait_for()
        except BaseException:
            await page.screenshot(tmp_path / "failure.png")
            raise


async def test_buttons_photos_and_popups(mini: ScenarioClient, tmp_path: Path) -> None:
    """With the test-only mini bot: a picture with a keyboard, edited in place; toast; alert."""
    await mini.user("bob")
    async with chromium() as browser:
        page = await ChatPage.open(browser, mini.url, "bob", viewport=PHONE)
        try:
            await page.open_chat("Tetrad")
            await page.send("/board")
            board = await page.wait_for_bot("Board: red")
            src = await board.locator("img.photo").get_attribute("src")
            await page.press("Blue")
            assert await page.toast() == "You chose Blue"
            edited = await page.wait_for_bot("Board: blue")
            assert await edited.locator("img.photo").get_attribute("src") != src
            assert await page.bot_messages().count() == 1  # edited in place, not re-sent
            await page.press("Alert")
            assert await page.alert() == "This is an alert"
        except BaseException:
            await page.screenshot(tmp_path / "failure.png")
            raise


async def test_inline_mode_and_deep_link_from_the_page(
    mini: ScenarioClient, tmp_path: Path
) -> None:
    alice, bob = await mini.user("alice"), await mini.user("bob")
    await alice.dialog(bob)
    async with chromium() as browser:
        page = await ChatPage.open(browser, mini.url, "alice")
        try:
            await page.open_chat("Bob")
            await page.page.locator("#composer-input").fill(f"@{mini.bot_username} dots")
            await page.page.locator(".inline-result", has_text="Play dots").click()
            posted = page.page.locator("#messages .msg", has_text="Let's play dots!")
            assert "via @" in await posted.inner_text()
            await page.press("Red")
            await (
                page.page.locator("#messages .msg", has_text="Алиса chose Red")
                .or_(page.page.locator("#messages .msg", has_text="Alice chose Red"))
                .wait_for()
            )
            # a deep link typed into the link box opens the chat with the bot and starts it
            await page.page.locator("#open-link").click()
            await page.page.locator("#modal-body input").fill(
                f"https://t.me/{mini.bot_username}?start=from_page"
            )
            await page.page.locator("#modal-buttons button", has_text="Open").click()
            await page.wait_for_bot("Mini bot here: from_page")
        except BaseException:
            await page.screenshot(tmp_path / "failure.png")
            raise


async def test_a_short_game_to_the_end_in_the_browser(pg: ScenarioClient, tmp_path: Path) -> None:
    """A person plays Dots and Boxes against the bot to the end by clicking in the page."""
    await pg.set_limits(enabled=False)
    await pg.user("alice", lang="en")
    async with chromium() as browser:
        page = await ChatPage.open(browser, pg.url, "alice", PHONE)
        try:
            await page.open_chat("Tetrad")
            await page.page.locator("#start-bot").click()
            await page.wait_for_bot("Pick a game")
            await page.press("⚡ Boxes vs bot")
            board = page.page.locator("#messages .msg:has(.kb)").last
            for _ in range(40):
                await board.locator(".kb button").first.wait_for()
                if await board.locator(".kb button", has_text="Rematch").count():
                    break
                before = await board.inner_text()
                await board.locator(".kb button", has_text=re.compile("^[━┃]$")).first.click()
                await page.page.wait_for_function(
                    "([el, before]) => el.innerText !== before",
                    arg=[await board.element_handle(), before],
                )
            caption = await board.inner_text()
            assert "wins" in caption or "Draw" in caption, caption
        except BaseException:
            await page.screenshot(tmp_path / "failure.png")
            raise


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_a_reply_to_the_board_moves_in_a_group(
    pg: ScenarioClient, tmp_path: Path, lang: str
) -> None:
    """Under privacy mode a group's plain text reaches the bot only as a reply to its message:
    bob taps the board, picks Reply, types his move, and the quoted reply plays it. The
    screenshot (412×915) is the README's picture of it: SCREENS=docs/screens keeps it."""
    await pg.set_limits(enabled=False)
    ru = lang == "ru"
    alice = await pg.user("alice", lang, "Алиса" if ru else "Alice")
    bob = await pg.user("bob", lang, "Борис" if ru else "Bob")
    group = await pg.group("Друзья" if ru else "Friends", members=[alice, bob])
    await alice.send("/new", group)
    for key in ("game.dots", "menu.dots_s", "btn.next", "menu.vs_group"):
        await alice.press(t(lang, key), chat=group)
    lobby = await group.last_with_buttons()
    await bob.press(t(lang, "btn.join"), lobby, group)
    await alice.send("/m e5", group)
    moved = t(lang, "caption.last", n=1, move="e5")
    await wait_message(group, lobby.message_id, lambda m: moved in (m.caption or ""))
    async with chromium() as browser:
        page = await ChatPage.open(browser, pg.url, "bob", PHONE_TALL)
        try:
            await page.open_chat(group.title)
            board = page.page.locator(f'#messages .msg[data-id="{lobby.message_id}"]')
            await board.locator(".bubble .text").click()
            await page.page.locator("#msg-menu button", has_text="Reply").click()
            assert await page.page.locator("#reply-bar").is_visible()
            await page.page.locator("#composer-input").fill("f6")
            shots = [tmp_path / f"group-reply-{step}-{lang}.png" for step in ("typing", "played")]
            await page.screenshot(shots[0])
            await page.page.locator("#composer-input").press("Enter")
            assert await page.page.locator("#reply-bar").is_hidden()  # sent: the bar goes
            mine = page.page.locator("#messages .msg.mine").last
            quote = mine.locator(".reply-quote")
            assert await quote.locator(".quote-name").inner_text() == pg.emulator.world.bot_name
            assert await quote.locator("img").count() == 1  # the board's thumbnail
            played = t(lang, "caption.last", n=2, move="f6")
            await board.filter(has_text=played).wait_for()
            await page.page.wait_for_timeout(300)  # the picture's new file has loaded
            await page.screenshot(shots[1])
            keep_screens(shots)
        except BaseException:
            await page.screenshot(tmp_path / "failure.png")
            raise
    after = await message(group, lobby.message_id)
    assert played in (after.caption or "")
    sent = [m for m in await group.messages() if m.text == "f6"]
    assert [m.reply_to for m in sent] == [lobby.message_id]  # the reply reached the bot as one


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_start_and_clock_keyboards_are_not_cut_on_a_phone(
    pg: ScenarioClient, tmp_path: Path, lang: str
) -> None:
    """At 412 px no button of the start keyboard or the clock screen is shortened with an
    ellipsis (the page's buttons cut their text as Telegram's do)."""
    await pg.user("alice", lang, "Алиса" if lang == "ru" else "Alice")
    async with chromium() as browser:
        page = await ChatPage.open(browser, pg.url, "alice", PHONE_TALL)
        try:
            await page.open_chat("Tetrad")
            await page.page.locator("#start-bot").click()
            await page.wait_for_bot(t(lang, "game.sprouts"))
            shots = [tmp_path / f"start-{lang}.png"]
            await page.screenshot(shots[0])
            assert await cut_buttons(page) == []
            await page.send("/new")
            await page.bot_messages().nth(1).wait_for()  # the menu under /new
            for key in ("game.dots", "menu.dots_s", "btn.next"):
                await page.press(t(lang, key))
                await page.page.wait_for_timeout(200)
            await page.press("⏱")
            await page.wait_for_bot(t(lang, "menu.no_clock"))
            await page.page.wait_for_timeout(200)
            shots.append(tmp_path / f"clock-{lang}.png")
            await page.screenshot(shots[1])
            assert await cut_buttons(page) == []
            keep_screens(shots)
        except BaseException:
            await page.screenshot(tmp_path / "failure.png")
            raise


async def cut_buttons(page: ChatPage) -> list[str]:
    """The texts of the newest keyboard's buttons that do not fit their button."""
    keyboard = page.page.locator("#messages .msg:has(.kb)").last
    found: list[str] = await keyboard.evaluate(
        "kb => [...kb.querySelectorAll('.kb button')]"
        ".filter(b => b.scrollWidth > b.clientWidth).map(b => b.textContent)"
    )
    return found
