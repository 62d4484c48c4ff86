"""Палочки (the outline drawn from the start) through the bot: the menu, the board's buttons
and picture, and whole games against every level, in both languages."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from engine.boxes import Game as BoxesGame
from render import boxes as render_boxes
from render.common import INK
from tests.bot.helpers import (
    buttons,
    endings,
    play_to_end,
    stored_match,
    texts,
    wait_message,
)
from tests.fixtures.playground import ScenarioClient

MENU = {
    "en": ("Dots and Boxes", "☐ Палочки (border drawn)", "Next »", "Палочки (border drawn)"),
    "ru": ("Точки и квадраты", "☐ Палочки: рамка нарисована", "Далее »", "Палочки"),
}
LEVEL_NAMES = {
    "en": {"easy": "Easy", "medium": "Medium", "hard": "Hard"},
    "ru": {"easy": "Лёгкий", "medium": "Средний", "hard": "Сильный"},
}
# Rows × cols: lines the players draw (every line inside the outline), boxes.
SIZES = {"3×5": (22, 15), "5×5": (40, 25)}


async def _start(pg: ScenarioClient, lang: str, size: str, level: str):  # type: ignore[no-untyped-def]
    await pg.set_limits(enabled=False)
    alice = await pg.user("alice", lang=lang)
    await alice.send("/new")
    game, flag, nxt, _ = MENU[lang]
    await alice.press(game)
    await alice.press(size)
    await alice.press(flag)
    menu = await alice.private.last_with_buttons()
    assert flag.replace("☐", "☑") in texts(menu), texts(menu)
    await alice.press(nxt)
    await alice.press(f"🤖 {LEVEL_NAMES[lang][level]}")
    first = await alice.private.last_message()
    board = await wait_message(alice.private, first.message_id, lambda m: bool(m.buttons))
    return alice, board


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
@pytest.mark.parametrize("size", sorted(SIZES))
async def test_palochki_game_to_the_end_against_each_level(
    pg: ScenarioClient, size: str, level: str
) -> None:
    lang = "ru" if level == "medium" else "en"  # both languages over the set
    alice, board = await _start(pg, lang, size, level)
    title = MENU[lang][3]
    assert f"{title} · {size}" in (board.caption or ""), board.caption
    lines, boxes = SIZES[size]
    match = await stored_match(pg._settings.redis_url, board)
    game = match.game
    assert isinstance(game, BoxesGame)
    assert game.border and match.options.get("border") is True
    # Alice moves first: every line inside the outline is a button, none of the outline.
    assert len(buttons(board, "p")) == lines
    final = await play_to_end({alice.id: alice}, alice.private, board.message_id, random.Random(4))
    caption = final.caption or ""
    assert any(w in caption for w in ("wins", "Draw", "Победа", "Ничья", "побед")), caption
    done = await stored_match(pg._settings.redis_url, final)
    assert done.game.over and sum(done.game.scores) == boxes
    assert done.game.ply == lines  # only the players' lines are moves
    if level == "easy":  # a rematch is Палочки again
        await endings(alice.private)
        await alice.press("🔁 Rematch", final)
        new = await alice.private.last_with_buttons()
        assert new.message_id != final.message_id
        assert f"{title} · {size}" in (new.caption or ""), new.caption
        again = (await stored_match(pg._settings.redis_url, new)).game
        assert isinstance(again, BoxesGame) and again.border


async def test_the_outline_reads_as_drawn_and_cannot_be_played(pg: ScenarioClient) -> None:
    alice, board = await _start(pg, "en", "3×5", "easy")
    # The corner's outline buttons are drawn lines: tapping one explains and changes nothing.
    top_left = board.buttons[0][0]
    assert top_left.text == "·" and (top_left.callback_data or "").endswith(":drawn")
    popup = await alice.press_button(0, 0, board)
    assert popup is not None and popup.text == "This line is already drawn."
    # A typed outline line is refused in words.
    await alice.send("/m a4-b4")
    reply = await alice.private.last_message()
    assert "outline" in reply.body, reply.body
    game = (await stored_match(pg._settings.redis_url, board)).game
    assert isinstance(game, BoxesGame) and game.ply == 0
    # The picture draws the outline in the dots' ink: a point on the top edge between two
    # dots is ink, not paper.
    png = await alice.private.last_photo()
    with Image.open(io.BytesIO(png)) as im:
        rgb = im.convert("RGB")
        lay = render_boxes.layout(game, {})
        assert rgb.size == (lay.width, lay.height)
        (x0, y0), (x1, _) = lay.xy(0, 0), lay.xy(0, 1)
        assert rgb.getpixel(((x0 + x1) // 2, y0)) == INK
        (xa, ya), (_, yb) = lay.xy(1, 1), lay.xy(2, 1)
        assert rgb.getpixel((xa, (ya + yb) // 2)) != INK  # an inner line is not drawn yet
        assert rgb.getpixel((xa + lay.cell // 4, (ya + yb) // 2)) != INK


def test_the_menu_offers_the_school_sizes_and_keeps_the_flag_with_the_players() -> None:
    from bot.match import menus
    from bot.match.actions import Refused

    sizes = menus.screen(1, "b", private=True)
    assert isinstance(sizes, menus.Screen)
    assert [b.text for b in sizes.keyboard[0]] == ["3×3", "3×5", "5×5", "8×8"]
    variants = menus.screen(1, "b.35.3p", private=True)
    assert isinstance(variants, menus.Screen)
    players, flag = variants.keyboard[0], variants.keyboard[1][0]
    assert [b.data.rsplit(":", 1)[1] for b in players] == ["b.35.2p", "b.35.3p", "b.35.4p"]
    assert flag.data.endswith(":b.35.3")  # unticking keeps three players
    assert flag.text.params["mark"] == "☑"  # type: ignore[union-attr]
    choice = menus.screen(1, "b.35.3p.ah", private=True)
    assert choice == menus.Choice(
        "boxes", {"rows": 3, "cols": 5, "players": 3, "border": True}, "hard"
    )
    plain = menus.screen(1, "b.x.2.ae", private=True)
    assert plain == menus.Choice("boxes", {"shape": "cross", "players": 2}, "easy")
    for bad in ("b.35.5p.ae", "b.35.pp.ae", "b.35.2q.ae", "b.7.2.ae"):
        with pytest.raises(Refused):
            menus.screen(1, bad, private=True)
