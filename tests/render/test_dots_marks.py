"""A lesson page's marks on a Точки picture: the points it names are ringed as the last move
is, in its place, free points too; a name that is no point of the board is left out."""

from __future__ import annotations

import render
from engine.dots import Game
from render import dots
from render.common import INK
from render.view import View
from tests.render.helpers import at, decode


def _ringed(view: View) -> set[str]:
    g = Game(7, 7)
    for name in ("d4", "d5", "c4"):
        g.play(g.parse_move(name))
    lay = dots.layout(g, view)
    img = decode(render.board_png(g, view))
    d = 0.5 * lay.step / 2**0.5  # on the ring, diagonally
    found = set()
    for m in g.legal_moves() + g.moves:
        cx, cy = lay.xy(m.x, m.y)
        if at(img, cx + d, cy + d) == INK:
            found.add(g.format_move(m))
    return found


def test_marks_replace_the_last_move_and_may_be_free_points() -> None:
    assert _ringed({}) == {"c4"}
    assert _ringed({"marks": ["d4", "d3", "zz9", "q1"]}) == {"d4", "d3"}
    assert _ringed({"marks": []}) == set()
