"""The shared parts: colours, palette, fonts, header words, dispatch."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from PIL import Image, ImageFont

import engine
import render
from render import common, strings
from render import dots as render_dots
from render.common import PALETTE, PLAYER
from tests.render.fakes import random_sprouts
from tests.render.helpers import decode

# The seat colours the bot's captions promise (🟠 🔵 🟢 🟣): Okabe–Ito.
OKABE_ITO = ["#E69F00", "#0072B2", "#009E73", "#CC79A7"]


def test_player_colours_are_okabe_ito() -> None:
    assert ["#{:02X}{:02X}{:02X}".format(*c) for c in PLAYER] == OKABE_ITO
    # The darker line colours keep the hue: the same channel is the largest.
    for light, dark in zip(common.PLAYER, common.PLAYER_DARK, strict=True):
        assert light.index(max(light)) == dark.index(max(dark))
        assert sum(dark) < sum(light)
    assert len(set(common.MARKERS)) == 4


def test_every_picture_fits_the_palette() -> None:
    """Draw one of everything; the shared palette must never run out of its 256 entries."""
    games: list[Any] = [
        engine.random_playout(engine.new("dots", preset="quick"), random.Random(1)),
        engine.random_playout(engine.new("boxes", rows=4, cols=4, players=4), random.Random(1)),
        random_sprouts(6, 12, seed=1),
    ]
    for g in games:
        for lang in strings.LANGS:
            render.board_png(g, {"lang": lang, "labels": True, "window": [0, 0, 8, 7]})
    assert len(PALETTE) <= 256
    with pytest.raises(common.PaletteFull):
        full = common.Palette()
        for i in range(257):
            full.add((i % 256, i // 256, 0))


def test_both_languages_have_the_same_words() -> None:
    assert set(strings.WORDS["ru"]) == set(strings.WORDS["en"])
    assert strings.lang_of({"lang": "de"}) == "en"
    assert strings.say("ru", "move", n=3) == "Ход 3"


def test_counted_words_take_the_plural_form_of_their_count() -> None:
    said = {
        lang: [strings.say(lang, "spots", n=n) for n in (1, 2, 5, 21)] for lang in strings.LANGS
    }
    assert said["ru"] == ["1 точка", "2 точки", "5 точек", "21 точка"]
    assert said["en"] == ["1 spot", "2 spots", "5 spots", "21 spots"]
    assert strings.say("ru", "spots", n="?") == "? точек"  # no count known: the general form


@pytest.mark.parametrize("reason", ["end", "resign", "time", "agreement", "stop", "ground"])
def test_result_line_says_how_the_game_ended(reason: engine.EndReason) -> None:
    r = engine.GameResult((3, 1), 0, reason, loser=1 if reason in ("resign", "time") else None)
    for lang in strings.LANGS:
        text = common.result_text(r, ["Ann", "Ben"], lang, with_score=True)
        assert "Ann" in text and "3 : 1" in text
        assert strings.say(lang, f"how.{reason}", loser="Ben") in text
    draw = engine.GameResult((2, 2), None, "end")
    assert common.result_text(draw, ["Ann", "Ben"], "en", True).startswith("Draw")


def test_result_line_names_joint_winners() -> None:
    names = ["Ann", "Ben", "Cid", "Dan"]
    r = engine.GameResult.by_scores((3, 3, 0, 0))
    assert common.result_text(r, names, "en", True) == "Ann and Ben win · 3 : 3 : 0 : 0 · game over"
    assert common.result_text(r, names, "ru", False) == "Победа: Ann и Ben · игра окончена"
    r = engine.GameResult.by_scores((2, 2, 2, 1))
    assert common.result_text(r, names, "en", False).startswith("Ann, Ben and Cid win")


def test_header_uses_the_views_title_names_and_status() -> None:
    g = engine.new("boxes", rows=2, cols=2, players=3)
    h = common.make_header(
        g,
        {"players": ["Ann"], "title": "T", "status": "waiting"},
        "en",
        title="default",
        scores=True,
        last=None,
        width=960,
        u=1.0,
    )
    assert h.title == "T" and h.status == "waiting"
    assert [s.name for s in h.seats] == ["Ann", "Player 2", "Player 3"]
    assert h.turn == 0 and not h.final


def test_names_lose_what_the_font_cannot_show() -> None:
    assert common.printable("🙂 Вера ✨") == "Вера"
    assert common.printable("Bob👍🏽") == "Bob"
    assert common.printable("Анна-Мария  О'Нил") == "Анна-Мария О'Нил"
    # a None among the names on purpose: views may come from stored records
    names = common.player_names({"players": ["🙂🙂", None, "Ann"]}, "ru", 4)  # type: ignore[list-item]
    assert names == ["Игрок 1", "Игрок 2", "Ann", "Игрок 4"]


def test_fit_shortens_with_an_ellipsis() -> None:
    f = common.font(30)
    assert common.fit("short", f, 1000) == "short"
    cut = common.fit("a rather long player name indeed", f, 150)
    assert cut.endswith("…") and common.text_width(cut, f) <= 150


def test_fonts_fall_back_when_dejavu_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(common, "FONT_DIRS", ())
    real = ImageFont.truetype

    def no_system_fonts(name: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(name, str) and name.startswith("DejaVu"):
            raise OSError("not installed")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(ImageFont, "truetype", no_system_fonts)
    common.font.cache_clear()
    try:
        f = common.font(23)
        assert f.getlength("Move 1") > 0
    finally:
        common.font.cache_clear()


def test_dispatch_and_view_defaults() -> None:
    g = engine.new("boxes", rows=2, cols=2)
    odd = {"unknown": 1, "lang": "xx"}  # a key no renderer reads, a language it does not know
    assert render.board_png(g, None) == render.board_png(g, odd)  # type: ignore[arg-type]
    small = decode(render.board_png(g, {"size": 640}))
    assert max(small.size) <= 640
    huge = Image.open(io.BytesIO(render.board_png(g, {"size": 10**6})))
    assert max(huge.size) <= common.MAX_SIZE

    class Chess:
        kind = "chess"

    with pytest.raises(render.UnknownGame):
        render.board_png(Chess(), {})  # type: ignore[arg-type]  # not a game on purpose


def test_fast_png_matches_pillows(monkeypatch: pytest.MonkeyPatch) -> None:
    g = engine.random_playout(engine.new("dots", preset="quick"), random.Random(4))
    img = render_dots.board_image(g, {})
    fast = common.png(img)
    monkeypatch.setattr(common, "_fast_zlib", None)
    slow = common.png(img)
    assert fast != slow  # two encoders really ran
    assert decode(fast).tobytes() == decode(slow).tobytes()


def test_the_counter_gives_the_title_its_room_and_the_status_shortens_names() -> None:
    g = engine.new("boxes", rows=3, cols=3)
    h = common.make_header(
        g,
        {"players": ["Ann " * 20, "Ben"]},
        "en",
        title="Точки и квадраты · Сердце · 4",
        scores=True,
        last="c3-d3 (+2)",
        width=960,
        u=1.0,
    )
    words = common.header_text(h, 960, 1.0)
    assert words.title == h.title and words.counter == "Move 0" == h.move_only
    assert words.names[0].endswith("…") and words.names[1] == "Ben"
    assert words.status.endswith("… to move") and words.status.startswith("Ann Ann")
    wide = common.header_text(h, 1600, 1.0)
    assert wide.counter == "Move 0 · c3-d3 (+2)"  # room for both: the last move stays
