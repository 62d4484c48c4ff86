"""What every SVG picture shares: the root's attributes, the two themes, a stylesheet that
styles only the picture, and a class rule for every class a shape uses."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

import engine
import render
from render.palette import DARK, LIGHT
from render.svg import colours, hex_of
from tests.render.svg_raster import parse, with_preview

# Classes that are hooks for the page (hit targets, state), not looks.
HOOKS = {"tetrad", "dark", "free", "pv"}


def games() -> list[Any]:
    out = []
    for kind, opts in (("dots", {"preset": "quick"}), ("boxes", {}), ("sprouts", {"spots": 4})):
        g = engine.new(kind, **opts)
        engine.random_playout(g, random.Random(5), max_moves=8)
        out.append(g)
    return out


@pytest.mark.parametrize("g", games(), ids=lambda g: g.kind)
def test_root_names_the_game_and_both_themes(g: Any) -> None:
    svg = render.board_svg(g)
    root = parse(svg)
    assert root.get("data-game") == g.kind
    assert len(root.attrib["viewBox"].split()) == 4
    assert root.get("class") == "tetrad"
    assert parse(render.board_svg(g, {"theme": "dark"})).get("class") == "tetrad dark"
    assert parse(render.board_svg(g, {"theme": "blue"})).get("class") == "tetrad"
    for theme in (LIGHT, DARK):
        for name, rgb in colours(theme).items():
            assert f"--{name}:{hex_of(rgb)}" in svg
    assert "width=" not in svg.split(">", 1)[0]  # the page sizes it


@pytest.mark.parametrize("g", games(), ids=lambda g: g.kind)
def test_every_rule_is_scoped_and_every_class_styled(g: Any) -> None:
    move = g.legal_moves()[0]
    svg = with_preview(render.board_svg(g), render.preview_svg(g, move))
    sheet = re.search(r"<style>(.*)</style>", svg, re.S)
    assert sheet is not None
    selectors = [
        s.strip() for block in re.findall(r"([^{}]+)\{", sheet.group(1)) for s in block.split(",")
    ]
    assert selectors and all(s.startswith(".tetrad") for s in selectors), selectors
    styled = set(re.findall(r"\.([a-z][\w-]*)", sheet.group(1)))
    used = {c for el in parse(svg).iter() for c in el.get("class", "").split()}
    assert used - styled - HOOKS == set()


def test_an_unknown_game_is_refused() -> None:
    class Chess:
        kind = "chess"

    with pytest.raises(render.UnknownGame):
        render.board_svg(Chess())  # type: ignore[arg-type]
    with pytest.raises(render.UnknownGame):
        render.preview_svg(Chess(), "e4")  # type: ignore[arg-type]
