"""Точки и квадраты as SVG: the PNG's geometry and colours, the free lines the Mini App hits,
the preview fragment, and what Chromium draws of it."""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image

import engine
import render
from engine.boxes import Game, Move
from engine.core import IllegalMove
from render import svg_boxes
from render.boxes import layout as png_layout
from render.boxes import line_ends
from render.palette import BOX_ALPHA, LIGHT, PAPER, PLAYER, mix
from render.svg import colours
from tests.playground.browser import chromium_missing
from tests.render.svg_raster import SVG, assert_like_png, parse, rasterise, with_preview

browser = pytest.mark.skipif(chromium_missing() is not None, reason=str(chromium_missing()))

# Three sides of the bottom-left box (a1-b2) by players 0, 1, 0; player 1 closes it.
LINES = ["a1-b1", "a2-b2", "a1-a2"]
CLOSING = "b1-b2"


def game(closed: bool = True) -> Game:
    g = engine.new("boxes", rows=3, cols=3)
    for t in LINES + ([CLOSING] if closed else []):
        g.play(g.parse_move(t))
    return g


def _free(svg: str) -> dict[str, tuple[int, ...]]:
    return {
        ln.attrib["data-move"]: tuple(int(ln.attrib[k]) for k in ("x1", "y1", "x2", "y2"))
        for ln in parse(svg).iter(f"{SVG}line")
        if ln.get("class") == "free"
    }


def test_free_lines_are_the_engines_moves_at_the_pngs_places() -> None:
    g = game()
    svg = render.board_svg(g)
    lay = png_layout(g, {})
    assert svg_boxes.layout(g) == lay
    assert parse(svg).get("data-game") == "boxes"
    free = _free(svg)
    drawn = g.drawn_lines()
    assert len(free) == len(g.all_lines()) - len(drawn) == 24 - 4
    for notation, ends in free.items():
        mv = g.parse_move(notation)
        assert mv not in drawn and g.format_move(mv) == notation
        (ax, ay), (bx, by) = line_ends(lay, mv)
        assert ends == (ax, ay, bx, by)
    assert parse(svg).get("data-last") == CLOSING  # player 1's turn so far: one line
    dots = re.findall(
        r"M(\d+) (\d+)h0",
        next(p.attrib["d"] for p in parse(svg).iter(f"{SVG}path") if p.get("class") == "dt"),
    )
    assert sorted((int(x), int(y)) for x, y in dots) == sorted(
        lay.xy(r, c) for r in range(4) for c in range(4)
    )
    (box,) = [r for r in parse(svg).iter(f"{SVG}rect") if r.get("class") == "t1"]
    (x0, y0), (x1, _y1) = lay.xy(2, 0), lay.xy(3, 1)  # box a1-b2: the bottom-left one
    assert (int(box.attrib["x"]), int(box.attrib["y"]), int(box.attrib["width"])) == (
        x0,
        y0,
        x1 - x0,
    )


def test_palochki_outline_is_drawn_and_not_free() -> None:
    g = engine.new("boxes", rows=3, cols=3, border=True)
    svg = render.board_svg(g)
    assert len(_free(svg)) == 24 - 12
    assert any(p.get("class") == "ol" for p in parse(svg).iter(f"{SVG}path"))


def test_taken_box_tint_is_the_pngs() -> None:
    assert colours(LIGHT)["box1"] == mix(PAPER, PLAYER[1], BOX_ALPHA)
    g = game()
    png = Image.open(io.BytesIO(render.board_png(g, {}))).convert("RGB")
    lay = png_layout(g, {})
    (x0, y0), (x1, _) = lay.xy(2, 0), lay.xy(3, 1)
    spot = ((x0 + x1) // 2 + lay.cell // 3, y0 + lay.cell // 8)  # off the letter and marker
    assert png.getpixel(spot) == colours(LIGHT)["box1"]


def test_preview_highlights_the_line_and_the_box_it_closes() -> None:
    g = game(closed=False)
    frag = render.preview_svg(g, CLOSING)
    assert frag == render.preview_svg(g, g.parse_move(CLOSING))
    root = parse(f'<svg xmlns="http://www.w3.org/2000/svg">{frag}</svg>')[0]
    assert root.get("data-move") == CLOSING
    assert [r.get("class") for r in root.iter(f"{SVG}rect")] == ["t1"]
    assert g.ply == 3 and not g.taken_boxes()
    quiet = render.preview_svg(g, "c1-d1")
    assert "<rect" not in quiet and 'class="l1"' in quiet


@pytest.mark.parametrize("move", ["a1-b1", "a1-c1", Move("h", 9, 9), "zz"])
def test_preview_refuses_an_illegal_move(move: object) -> None:
    with pytest.raises(IllegalMove):
        render.preview_svg(game(closed=False), move)


@browser
async def test_chromium_draws_what_the_png_shows() -> None:
    g = game()
    png = Image.open(io.BytesIO(render.board_png(g, {}))).convert("RGB")
    lay = png_layout(g, {})
    svg = render.board_svg(g)
    (ax, ay), (bx, _by) = line_ends(lay, g.parse_move("a1-b1"))
    (cx, cy), _ = line_ends(lay, g.parse_move("c2-d2"))
    (x0, y0), (x1, _) = lay.xy(2, 0), lay.xy(3, 1)
    probes = [
        ((ax + bx) // 2, ay),  # a drawn line, player 0's
        lay.xy(1, 1),  # a dot
        (cx + lay.cell // 4, cy + lay.cell // 4),  # paper
        ((x0 + x1) // 2 + lay.cell // 3, y0 + lay.cell // 8),  # the taken box's tint
    ]
    (light,) = await rasterise([svg])
    assert_like_png(png, light, svg, probes)


@browser
async def test_chromium_draws_the_preview() -> None:
    g = game(closed=False)
    svg = render.board_svg(g)
    plain, shown = await rasterise([svg, with_preview(svg, render.preview_svg(g, CLOSING))])
    assert plain.tobytes() != shown.tobytes()
