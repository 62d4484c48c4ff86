"""Точки as SVG: the same geometry and colours as the PNG, the hit-target grid the Mini App
reads, the preview fragment, the size limit, and what Chromium draws of it."""

from __future__ import annotations

import io
import random
import re

import pytest
from PIL import Image

import engine
import render
from engine.core import IllegalMove
from engine.dots import Game, Move
from render import svg_dots
from render.dots import layout as png_layout
from render.palette import DARK, LIGHT, PAPER, PLAYER, PLAYER_DARK
from render.svg import colours, hex_of
from tests.playground.browser import chromium_missing
from tests.render.svg_raster import (
    SVG,
    assert_like_png,
    parse,
    rasterise,
    view_box,
    with_preview,
)

LIMIT = 150 * 1024  # the Mini App's budget for a late 38×31 board, uncompressed
browser = pytest.mark.skipif(chromium_missing() is not None, reason=str(chromium_missing()))


def random_game(width: int, height: int, plies: int, seed: int) -> Game:
    g = engine.new("dots", width=width, height=height)
    rnd = random.Random(seed)
    for _ in range(plies):
        moves = g.legal_moves()
        if g.over or not moves:
            break
        g.play(rnd.choice(moves))
    return g


# Player 0 rings player 1's dot at (7, 7); player 1's other dots stay live.
CAPTURE = [(7, 6), (7, 7), (6, 7), (10, 10), (8, 7), (12, 12)]
CLOSING = Move(7, 8)


def capture_game(closed: bool = True) -> Game:
    g = engine.new("dots", width=15, height=15)
    for x, y in CAPTURE:
        g.play(Move(x, y))
    if closed:
        g.play(CLOSING)
    return g


def _dot_centres(svg: str, cls: str) -> list[tuple[int, int]]:
    (path,) = [p for p in parse(svg).iter(f"{SVG}path") if p.get("class") == cls]
    return [(int(x), int(y)) for x, y in re.findall(r"M(\d+) (\d+)h0", path.attrib["d"])]


def test_the_svg_uses_the_png_geometry() -> None:
    """Dot centres, ring vertices, the last move and the grid: the PNG layout's pixels at
    the default size are the SVG's user units."""
    g = capture_game()
    g.play(Move(2, 2))
    svg = render.board_svg(g)
    lay = png_layout(g, {})
    assert svg_dots.layout(g) == lay
    root = parse(svg)
    assert root.get("data-game") == "dots"
    grid = __import__("json").loads(root.attrib["data-grid"])
    assert grid == {
        "cols": 15,
        "rows": 15,
        "x0": lay.xy(0, 0)[0],
        "y0": lay.xy(0, 0)[1],
        "step": lay.step,
    }
    live0 = sorted(lay.xy(x, y) for x, y in [(7, 6), (6, 7), (8, 7), (7, 8)])
    assert sorted(_dot_centres(svg, "o0")) == live0 and sorted(_dot_centres(svg, "i0")) == live0
    assert sorted(_dot_centres(svg, "o1")) == sorted(
        lay.xy(*p) for p in [(10, 10), (12, 12), (2, 2)]
    )
    assert _dot_centres(svg, "go1") == [lay.xy(7, 7)]
    (ring,) = [p for p in root.iter(f"{SVG}polygon") if p.get("class") == "r0"]
    vertices = [tuple(int(v) for v in pt.split(",")) for pt in ring.attrib["points"].split()]
    assert vertices == [lay.xy(*p) for p in g.captures[0].ring]
    (last,) = [c for c in root.iter(f"{SVG}circle") if c.get("class") == "lm"]
    assert (int(last.attrib["cx"]), int(last.attrib["cy"])) == lay.xy(2, 2)
    assert float(last.attrib["r"]) == lay.last_ring[0]
    # The viewBox holds the board and its labels, not the PNG's header strip.
    x, y, w, h = view_box(svg)
    x0, y0, x1, y1 = lay.board_box
    assert x < x0 - lay.band and x1 + lay.band < x + w and y < y0 - lay.band < y0
    assert y1 + lay.band < y + h <= lay.height


def test_the_light_palette_is_the_pngs() -> None:
    """The stylesheet's light colours are the ones the PNG draws with, captured dots included."""
    named = colours(LIGHT)
    assert named["pa"] == PAPER and named["p0"] == PLAYER[0] and named["d1"] == PLAYER_DARK[1]
    g = capture_game()
    img = Image.open(io.BytesIO(render.board_png(g, {"last": False}))).convert("RGB")
    lay = png_layout(g, {})
    assert img.getpixel(lay.xy(7, 7)) == named["gf1"]  # the captured dot's inside
    assert img.getpixel(lay.xy(7, 6)) == named["p0"]
    svg = render.board_svg(g)
    assert f"--gf1:{hex_of(named['gf1'])}" in svg and f"--pa:{hex_of(DARK.paper)}" in svg


def test_grid_maps_points_to_the_engines_notation() -> None:
    """The rule the module docstring gives a page, checked against the engine on 38×31."""
    g = engine.new("dots", width=38, height=31)
    lay = svg_dots.layout(g)
    grid = __import__("json").loads(parse(render.board_svg(g)).attrib["data-grid"])
    letters = "abcdefghijklmnopqrstuvwxyz"
    for col, row in [(0, 0), (0, 30), (25, 3), (26, 17), (37, 30)]:
        name = (letters[col] if col < 26 else "a" + letters[col - 26]) + str(grid["rows"] - row)
        assert name == g.format_move(Move(col, row))
        # A tap a little off the point still rounds to it.
        tx, ty = grid["x0"] + col * grid["step"] + 7, grid["y0"] + row * grid["step"] - 9
        assert (
            round((tx - grid["x0"]) / grid["step"]),
            round((ty - grid["y0"]) / grid["step"]),
        ) == (col, row)
        assert lay.xy(col, row) == (
            grid["x0"] + col * grid["step"],
            grid["y0"] + row * grid["step"],
        )


def test_a_late_38x31_board_fits_the_budget() -> None:
    g = random_game(38, 31, 700, seed=7)
    assert g.ply == 700
    svg = render.board_svg(g, {"theme": "dark"})
    assert len(svg.encode()) <= LIMIT, len(svg.encode())
    assert parse(svg).get("class") == "tetrad dark"
    assert parse(render.board_svg(g)).get("class") == "tetrad"


def test_preview_shows_the_ghost_and_the_capture_it_would_make() -> None:
    g = capture_game(closed=False)
    frag = render.preview_svg(g, CLOSING)
    assert frag == render.preview_svg(g, g.format_move(CLOSING))  # a move or its notation
    g_elem = parse(f'<svg xmlns="http://www.w3.org/2000/svg">{frag}</svg>')[0]
    assert g_elem.get("data-move") == g.format_move(CLOSING)
    lay = svg_dots.layout(g)
    (ring,) = [p for p in g_elem.iter(f"{SVG}polygon") if p.get("class") == "r0"]
    assert ring.get("stroke-dasharray")
    vertices = {tuple(int(v) for v in pt.split(",")) for pt in ring.attrib["points"].split()}
    assert vertices == {lay.xy(*p) for p in [(7, 6), (6, 7), (8, 7), (7, 8)]}
    assert any(p.get("class") == "a0" for p in g_elem.iter(f"{SVG}polygon"))
    assert _dot_centres(f'<svg xmlns="http://www.w3.org/2000/svg">{frag}</svg>', "i0") == [
        lay.xy(CLOSING.x, CLOSING.y)
    ]
    # Nothing was played on the game itself.
    assert g.ply == len(CAPTURE) and not g.captures
    quiet = parse(
        f'<svg xmlns="http://www.w3.org/2000/svg">{render.preview_svg(g, Move(0, 0))}</svg>'
    )
    assert not list(quiet.iter(f"{SVG}polygon"))


@pytest.mark.parametrize("move", [Move(7, 7), Move(40, 2), "zz99", "b"])
def test_preview_refuses_an_illegal_move(move: object) -> None:
    g = capture_game()
    with pytest.raises(IllegalMove):
        render.preview_svg(g, move)


@browser
async def test_chromium_draws_what_the_png_shows() -> None:
    """Rasterised one pixel per user unit, the SVG has the PNG's colours at the dots, inside
    the captured area and on the ring; in the dark theme the paper is the dark paper."""
    g = capture_game()
    png = Image.open(io.BytesIO(render.board_png(g, {}))).convert("RGB")
    lay = png_layout(g, {})
    svg = render.board_svg(g)
    x0, y0, _, _ = view_box(svg)
    light, dark = await rasterise([svg, render.board_svg(g, {"theme": "dark"})])
    h = lay.step // 2
    probes = [lay.xy(7, 6), lay.xy(7, 7), lay.xy(10, 10), lay.xy(7, 8)]
    probes += [(lay.xy(7, 7)[0] + h // 2, lay.xy(7, 7)[1] + h // 2)]  # in the area, off the grid
    probes.append((lay.xy(7, 8)[0] + round(lay.last_ring[0]), lay.xy(7, 8)[1]))  # the last move
    (ax, ay), (bx, by) = lay.xy(7, 6), lay.xy(8, 7)
    probes.append(((ax + bx) // 2, (ay + by) // 2))  # on the ring, between two dots
    probes.append((lay.xy(1, 1)[0] + h // 2, lay.xy(1, 1)[1] + h // 2))  # plain paper
    assert_like_png(png, light, svg, probes)
    px, py = probes[-1]
    assert dark.getpixel((round(px - x0), round(py - y0))) == DARK.paper


@browser
async def test_chromium_draws_a_preview_inside_the_board() -> None:
    g = capture_game(closed=False)
    svg = render.board_svg(g)
    x0, y0, _, _ = view_box(svg)
    lay = svg_dots.layout(g)
    plain, previewed = await rasterise([svg, with_preview(svg, render.preview_svg(g, CLOSING))])
    cx, cy = lay.xy(7, 8)
    at = (round(cx - x0), round(cy - y0))
    assert plain.getpixel(at) != previewed.getpixel(at)  # the ghost dot
    inside = (
        round(lay.xy(7, 7)[0] - x0 + lay.step // 4),
        round(lay.xy(7, 7)[1] - y0 + lay.step // 2),
    )
    assert plain.getpixel(inside) != previewed.getpixel(inside)  # the area it would capture
