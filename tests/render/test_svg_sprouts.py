"""Рассада as SVG: the PNG's fit and smoothed curves, the spots and the units the Mini App
reads, the preview fragment, and what Chromium draws of it."""

from __future__ import annotations

import io
import json
import random
import re

import pytest
from PIL import Image

import engine
import render
from engine.core import IllegalMove
from engine.sprouts import Game
from render import sprouts as png_sprouts
from render.sprouts import Room, smooth_curves
from tests.playground.browser import chromium_missing
from tests.render.svg_raster import SVG, assert_like_png, parse, rasterise, with_preview

browser = pytest.mark.skipif(chromium_missing() is not None, reason=str(chromium_missing()))


def game(spots: int = 5, moves: int = 6, seed: int = 3) -> Game:
    g = engine.new("sprouts", spots=spots)
    engine.random_playout(g, random.Random(seed), max_moves=moves)
    return g


def _spots(svg: str) -> dict[int, tuple[float, float, int, str]]:
    root = parse(svg)
    return {
        int(c.attrib["data-spot"]): (
            float(c.attrib["cx"]),
            float(c.attrib["cy"]),
            int(c.attrib["data-lives"]),
            c.attrib["class"],
        )
        for c in root.iter(f"{SVG}circle")
        if "spot" in c.attrib.get("class", "").split()
    }


def _paths(svg: str, cls: str) -> list[list[tuple[float, float]]]:
    out = []
    for p in parse(svg).iter(f"{SVG}path"):
        if p.get("class") == cls:
            for sub in p.attrib["d"].split("M")[1:]:
                out.append(
                    [(float(a), float(b)) for a, b in re.findall(r"([\d.-]+) ([\d.-]+)", sub)]
                )
    return out


def test_spots_and_units_are_the_pngs() -> None:
    g = game()
    svg = render.board_svg(g)
    assert parse(svg).get("data-game") == "sprouts"
    _, fit = png_sprouts.layout(g, {})
    units = json.loads(parse(svg).attrib["data-units"])
    spots = _spots(svg)
    assert sorted(spots) == sorted(s.number for s in g.drawing.spots)
    for s in g.drawing.spots:
        cx, cy, lives, cls = spots[s.number]
        px, py = fit((s.x, s.y))
        assert abs(cx - px) <= 0.05 and abs(cy - py) <= 0.05
        assert abs(s.x * units["scale"] + units["dx"] - cx) <= 0.06
        assert abs(s.y * units["scale"] + units["dy"] - cy) <= 0.06
        assert lives == s.lives and (("dead" in cls) == (s.lives == 0))


def test_curves_are_the_pngs_smoothed_curves() -> None:
    g = game()
    svg = render.board_svg(g, {"last": False})
    lay, fit = png_sprouts.layout(g, {})
    want = [fit.array(c).tolist() for c in smooth_curves(g.drawing, Room.of(lay, fit.k))]
    got = _paths(svg, "cv")
    assert len(got) == len(want) == len(g.drawing.curves)
    for a, b in zip(got, want, strict=True):
        assert len(a) == len(b)
        assert max(max(abs(p - q), abs(r - s)) for (p, r), (q, s) in zip(a, b, strict=True)) <= 0.05


def test_the_newest_curve_and_spot_are_marked_in_the_movers_colour() -> None:
    g = game()
    svg = render.board_svg(g)
    mover = (g.ply - 1) % 2
    assert _paths(svg, f"nw{mover}") and not _paths(svg, f"nw{1 - mover}")
    rings = [c for c in parse(svg).iter(f"{SVG}circle") if c.get("class") == f"nr{mover}"]
    newest = max(g.drawing.spots, key=lambda s: s.number)
    cx, cy, _, _ = _spots(svg)[newest.number]
    assert [(float(r.attrib["cx"]), float(r.attrib["cy"])) for r in rings] == [(cx, cy)]


def test_preview_is_the_drawing_after_the_move_in_the_same_box() -> None:
    g = game()
    move = g.legal_moves()[0]
    frag = render.preview_svg(g, move)
    assert frag == render.preview_svg(g, g.format_move(move))
    root = parse(f'<svg xmlns="http://www.w3.org/2000/svg">{frag}</svg>')[0]
    assert root.get("data-move") == g.format_move(move)
    trial = g.copy()
    trial.play(move)
    units = json.loads(root.attrib["data-units"])
    spots = _spots(f'<svg xmlns="http://www.w3.org/2000/svg">{frag}</svg>')
    assert sorted(spots) == sorted(s.number for s in trial.drawing.spots)
    shown = trial.drawing.sketch  # the candidate as routed over the drawing as it is
    assert shown is not None
    assert [(s.x, s.y) for s in shown.spots[:-1]] == [(s.x, s.y) for s in g.drawing.spots]
    for s in shown.spots:
        cx, cy, _, _ = spots[s.number]
        assert abs(s.x * units["scale"] + units["dx"] - cx) <= 0.06
        assert abs(s.y * units["scale"] + units["dy"] - cy) <= 0.06
    assert "stroke-dasharray" in frag and g.ply == trial.ply - 1


def test_previews_of_one_position_keep_its_spots_and_curves_where_they_are() -> None:
    """Flipping between previews moves nothing that is there: only the candidate differs."""
    g = game(spots=3, moves=2, seed=3)
    frags = [render.preview_svg(g, m) for m in g.legal_moves()[:4]]
    wrap = [f'<svg xmlns="http://www.w3.org/2000/svg">{f}</svg>' for f in frags]
    old = {n for n in range(1, len(g.drawing.spots) + 1)}
    first = {n: xy[:2] for n, xy in _spots(wrap[0]).items() if n in old}
    assert len(first) == len(old)
    for svg in wrap[1:]:
        assert {n: xy[:2] for n, xy in _spots(svg).items() if n in old} == first
        assert _paths(svg, "cv") == _paths(wrap[0], "cv")  # the old curves, in ink
    assert len({json.dumps(_paths(svg, f"nw{g.turn}")) for svg in wrap}) == len(wrap)


def test_preview_refuses_an_illegal_move() -> None:
    g = game(spots=2, moves=20)  # played out: no move is legal
    assert g.over
    with pytest.raises(IllegalMove):
        render.preview_svg(g, "1-2")
    with pytest.raises(IllegalMove):
        render.preview_svg(game(), "nonsense")


def test_a_late_12_spot_game_stays_small() -> None:
    g = game(spots=12, moves=25, seed=1)
    assert len(render.board_svg(g).encode()) <= 150 * 1024


@browser
async def test_chromium_draws_what_the_png_shows() -> None:
    g = game()
    png = Image.open(io.BytesIO(render.board_png(g, {}))).convert("RGB")
    lay, fit = png_sprouts.layout(g, {})
    svg = render.board_svg(g)
    r = lay.spot_radius
    probes = []
    for s in g.drawing.spots:
        x, y = fit((s.x, s.y))
        probes.append((round(x + 0.62 * r), round(y)))  # the spot's body, off its number
    x0, y0, _, _ = lay.box
    probes.append((x0 + 7, y0 + 9))  # paper
    newest = _paths(svg, f"nw{(g.ply - 1) % 2}")[0]
    mx, my = newest[len(newest) // 2]
    probes.append((round(mx), round(my)))  # on the newest curve
    light, dark = await rasterise([svg, render.board_svg(g, {"theme": "dark"})])
    assert_like_png(png, light, svg, probes, tol=12)
    assert light.tobytes() != dark.tobytes()


@browser
async def test_chromium_draws_the_preview_over_the_board() -> None:
    g = game()
    svg = render.board_svg(g)
    move = g.legal_moves()[0]
    plain, shown = await rasterise([svg, with_preview(svg, render.preview_svg(g, move))])
    assert plain.size == shown.size and plain.tobytes() != shown.tobytes()
