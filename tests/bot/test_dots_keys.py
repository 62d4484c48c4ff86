"""The Dots keyboard through the playground, in both languages: the picture frames the
keyboard's window, the 🗺 map sends a picture of the board in numbered parts with a button per
part, a part chosen is framed, the bot's move leaves the window where it is, and map taps from
a closed map or naming a window the map never offered are refused and change nothing."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.i18n import t
from bot.match.ui.dots import H, W, map_cells, map_windows
from playground.client import MessageView
from render import dots
from tests.bot.helpers import buttons, stored_match, version, wait_message
from tests.fixtures.playground import ScenarioClient
from tests.render.helpers import count

PICTURES = Path("/tmp/tetrad-keys-pictures")  # the boards and maps, to look at


async def _png(pg: ScenarioClient, m: MessageView, name: str) -> Image.Image:
    assert m.media is not None
    data = await pg.png(m.media)
    PICTURES.mkdir(exist_ok=True)
    (PICTURES / f"{name}.png").write_bytes(data)
    return Image.open(io.BytesIO(data)).convert("RGB")


def _frame_above(img: Image.Image, game: Any, x0: int, y0: int) -> int:
    """FRAME pixels in the strip just above the top row of the window at (x0, y0)."""
    lay = dots.layout(game, {})
    assert img.size == (lay.width, lay.height)
    ax, ay = lay.xy(x0, y0)
    bx = lay.xy(x0 + W - 1, y0)[0]
    return count(img, dots.FRAME, (ax, ay - lay.step, bx, ay))


def _framed_at(img: Image.Image, game: Any, window: tuple[int, int]) -> None:
    """The picture frames ``window``, and nothing is framed a board's half to its side."""
    lay = dots.layout(game, {})
    assert _frame_above(img, game, *window) > lay.step * lay.frame_width // 2
    far = ((window[0] + game.width // 2) % (game.width - W), window[1])
    assert _frame_above(img, game, *far) == 0


def _in_window(m: MessageView, window: tuple[int, int]) -> bool:
    """Every point button of ``m`` lies in ``window``."""
    codes = [(b.callback_data or "").rsplit(":", 1)[-1] for row in m.buttons for b in row]
    points = [tuple(map(int, c.split("."))) for c in codes if c.count(".") == 1]
    x0, y0 = window
    return bool(points) and all(x0 <= x < x0 + W and y0 <= y < y0 + H for x, y in points)


def _number_buttons(m: MessageView) -> list[str]:
    return [b.text for row in m.buttons for b in row if b.text.isdigit()]


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_map_window_frame_and_a_pinned_window(pg: ScenarioClient, lang: str) -> None:
    await pg.set_limits(enabled=False)
    alice = await pg.user("alice", lang=lang)
    await alice.send("/new")
    for label in ("game.dots", "menu.dots_t", "btn.next", "menu.vs_easy"):
        await alice.press(t(lang, label))
    first = await alice.private.last_message()
    board = await wait_message(alice.private, first.message_id, lambda m: bool(buttons(m, "p")))
    match = await stored_match(pg._settings.redis_url, board)
    game: Any = match.game
    assert (game.width, game.height) == (38, 31)
    # The first window is the first-move zone's middle, and the picture frames it.
    zone = game.zone
    start = (zone.x + zone.width // 2 - W // 2, zone.y + zone.height // 2 - H // 2)
    _framed_at(await _png(pg, board, f"start-{lang}"), game, start)

    # 🗺: 25 numbered windows as buttons, the map picture and a line saying what to do.
    shown_before = board.media
    await alice.press("🗺", board)
    board = await wait_message(alice.private, board.message_id, lambda m: bool(_number_buttons(m)))
    assert _number_buttons(board) == [str(k) for k in range(1, 26)]
    assert [len(row) for row in board.buttons[:5]] == [5] * 5
    assert t(lang, "dots.map_hint") in (board.caption or "")
    assert board.media != shown_before
    img = await _png(pg, board, f"map-{lang}")
    lay = dots.layout(game, {})
    for x, y, w, h in map_cells(38, 31)[:4]:  # the line right of parts 1–4
        edge = lay.xy(x + w - 1, y)[0] + lay.step // 2
        column = (
            edge - lay.frame_width,
            lay.xy(0, y + 1)[1],
            edge + lay.frame_width,
            lay.xy(0, y + h - 1)[1],
        )
        assert count(img, dots.FRAME, column) > lay.step, (x, y)
    map_board = board

    # Window 13 (the middle, in the first-move zone): its points on the keys, framed.
    await alice.press("13", board)
    board = await wait_message(alice.private, board.message_id, lambda m: bool(buttons(m, "p")))
    chosen = map_windows(38, 31)[12][:2]
    assert chosen == (15, 12)
    match = await stored_match(pg._settings.redis_url, board)
    assert match.places[0].cursor["w"] == list(chosen)
    assert t(lang, "dots.map_hint") not in (board.caption or "")
    _framed_at(await _png(pg, board, f"window-{lang}"), game, chosen)
    assert _in_window(board, chosen)

    # A point in it; the bot answers somewhere on the board; the window stays.
    v = version(board) or 0
    r, c = buttons(board, "p")[10]
    await alice.press_button(r, c, board, settle=False)
    board = await wait_message(
        alice.private, board.message_id, lambda m: (version(m) or 0) >= v + 2
    )
    match = await stored_match(pg._settings.redis_url, board)
    assert match.game.ply == 2
    assert match.places[0].cursor["w"] == list(chosen)
    assert _in_window(board, chosen)
    _framed_at(await _png(pg, board, f"after-bot-{lang}"), game, chosen)

    # A tap on the map that was closed meanwhile: a popup, nothing changes.
    stale = next(b.callback_data for row in map_board.buttons for b in row if b.text == "1")
    assert stale is not None
    before = await stored_match(pg._settings.redis_url, board)
    popup = await alice.forge(
        board, stale.replace(f":{version(map_board)}:", f":{version(board)}:")
    )
    assert popup is not None and popup.text == t(lang, "info.map_closed")
    after = await stored_match(pg._settings.redis_url, board)
    assert after.places[0].cursor == before.places[0].cursor
    assert after.version == before.version

    # The map again, and a forged window it never offered: refused, the map stays open.
    await alice.press("🗺", board)
    board = await wait_message(alice.private, board.message_id, lambda m: bool(_number_buttons(m)))
    data = next(b.callback_data for row in board.buttons for b in row if b.text == "1")
    assert data is not None
    before = await stored_match(pg._settings.redis_url, board)
    popup = await alice.forge(board, data.rsplit(":", 1)[0] + ":g3.3")
    assert popup is not None and popup.text == t(lang, "err.bad_button")
    after = await stored_match(pg._settings.redis_url, board)
    assert after.places[0].cursor == before.places[0].cursor
    assert after.places[0].cursor.get("map")
