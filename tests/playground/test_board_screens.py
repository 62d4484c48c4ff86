"""The chat boards of issue #29 on the playground page in a real headless Chromium at phone size
(412×915), in both languages: a Точки 38×31 board with its keyboard's window framed, the 🗺 map
of numbered windows, and a Рассада curve preview. SCREENS=docs/screens keeps the screenshots."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.i18n import t
from tests.bot.helpers import buttons, message, quick_game, wait_message
from tests.fixtures.playground import ScenarioClient
from tests.playground.browser import ChatPage, chromium_missing, keep_screens, phone_chat
from tests.playground.test_browser import cut_buttons

CURVE_1 = {"en": "Curve 1 of", "ru": "Линия 1 из"}  # sprouts.choose_curve for the first curve

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(chromium_missing() is not None, reason=str(chromium_missing())),
]


async def _shot(page: ChatPage, path: Path, caption: str | None = None) -> None:
    """Once the page shows ``caption`` and its picture has loaded; no button label is cut."""
    if caption is not None:
        await page.wait_for_bot(caption)
    await page.page.wait_for_timeout(400)
    await page.screenshot(path)
    assert await cut_buttons(page) == []


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_dots_window_and_map_on_a_phone(
    pg: ScenarioClient, tmp_path: Path, lang: str
) -> None:
    await pg.set_limits(enabled=False)
    alice = await pg.user("alice", lang, "Алиса" if lang == "ru" else "Alice")
    async with phone_chat(pg.url, "alice", tmp_path / "failure.png") as page:
        await alice.send("/new")
        for label in ("game.dots", "menu.dots_t", "btn.next", "menu.vs_easy"):
            await alice.press(t(lang, label))
        first = await alice.private.last_message()
        board = await wait_message(alice.private, first.message_id, lambda m: bool(buttons(m, "p")))
        await alice.press("🗺", board)
        hint = t(lang, "dots.map_hint")
        board = await wait_message(
            alice.private,
            board.message_id,
            lambda m: hint in (m.caption or ""),
        )
        shots = [tmp_path / f"dots-map-{lang}.png", tmp_path / f"dots-window-{lang}.png"]
        await _shot(page, shots[0], hint)
        await alice.press("13", board)
        board = await wait_message(alice.private, board.message_id, lambda m: bool(buttons(m, "p")))
        await page.page.wait_for_function(
            "hint => !document.body.innerText.includes(hint)", arg=hint
        )
        await _shot(page, shots[1])
        keep_screens(shots)


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_sprouts_preview_on_a_phone(pg: ScenarioClient, tmp_path: Path, lang: str) -> None:
    await pg.set_limits(enabled=False)
    alice = await pg.user("alice", lang, "Алиса" if lang == "ru" else "Alice")
    async with phone_chat(pg.url, "alice", tmp_path / "failure.png") as page:
        board = await quick_game(alice, t(lang, "menu.quick_sprouts"))
        # A loop from spot 1 to itself: several curves, the first one previewed.
        await alice.press("1•••", board)
        board = await message(alice.private, board.message_id)
        await alice.press("1•••", board)
        board = await wait_message(
            alice.private, board.message_id, lambda m: CURVE_1[lang] in (m.caption or "")
        )
        caption = CURVE_1[lang]
        shot = tmp_path / f"sprouts-preview-{lang}.png"
        await _shot(page, shot, caption)
        keep_screens([shot])
