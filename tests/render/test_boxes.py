"""Точки и квадраты pictures: random positions on every kind of board, and the colours of
lines, taken boxes and the last turn where a player looks for them."""

from __future__ import annotations

import random
from typing import Any

import pytest

import engine
import render
from render import boxes
from render.common import PAPER, PLAYER, mix
from render.view import View
from tests.render.helpers import at, count, decode

CONFIGS: list[dict[str, Any]] = [
    {"rows": 1, "cols": 1},
    {"preset": "quick"},
    {"preset": "classic"},
    {"rows": 12, "cols": 12, "players": 4},
    {"rows": 2, "cols": 9, "players": 3},
    {"shape": "heart", "players": 4},
    {"mask": ["#.#", "###"]},
]


def _played(options: dict[str, Any], seed: int, moves: int | None) -> Any:
    g = engine.new("boxes", **options)
    return engine.random_playout(g, random.Random(seed), max_moves=moves)


@pytest.mark.parametrize(
    "options", CONFIGS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items())
)
@pytest.mark.parametrize("moves", [0, 5, 30, None])
def test_random_positions_render(options: dict[str, Any], moves: int | None) -> None:
    g = _played(options, 7, moves)
    names = ["Анна", "Андрей", "Вера", "Глеб"][: g.players]
    views: list[View] = [{}, {"lang": "ru", "players": names, "labels": True}]
    for view in views:
        img = decode(render.board_png(g, view))
        lay = boxes.layout(g, view)
        assert img.size == (lay.width, lay.height)
        assert img.width >= 960  # room for the header at full size


def _box_point(lay: Any, r: int, c: int) -> tuple[float, float]:
    """A point inside box (r, c) away from its letter, marker and the paper's grid lines."""
    x0, y0 = lay.xy(r, c)
    return (x0 + 0.75 * lay.cell, y0 + 0.75 * lay.cell)


def test_taken_boxes_have_their_owners_colour() -> None:
    g = _played({"rows": 5, "cols": 5, "players": 3}, 2, None)
    taken = g.taken_boxes()
    assert len(taken) == 25 and len(set(taken.values())) > 1
    lay = boxes.layout(g, {})
    img = decode(render.board_png(g, {}))
    for (r, c), owner in taken.items():
        assert at(img, *_box_point(lay, r, c)) == mix(PAPER, PLAYER[owner], boxes.BOX_ALPHA)


def test_open_boxes_stay_paper_and_lines_have_their_drawers_colour() -> None:
    g = _played({"preset": "classic"}, 4, 14)
    lay = boxes.layout(g, {})
    img = decode(render.board_png(g, {"last": False}))
    for r, c in g.all_boxes():
        if g.box_owner(r, c) is None:
            assert at(img, *_box_point(lay, r, c)) == PAPER
    for m, owner in g.drawn_lines().items():
        (x0, y0), (x1, y1) = boxes.line_ends(lay, m)
        # A third of the way along: clear of the dots and of the paper's grid crossings.
        assert at(img, x0 + (x1 - x0) / 3, y0 + (y1 - y0) / 3) == PLAYER[owner]
    for m in g.all_lines():
        if g.line_owner(m) is None:
            (x0, y0), (x1, y1) = boxes.line_ends(lay, m)
            assert at(img, x0 + (x1 - x0) / 3, y0 + (y1 - y0) / 3) != PLAYER[0]


def test_every_line_of_the_last_turn_is_highlighted() -> None:
    # Find a position whose last turn drew several lines (a capture gives another move).
    for seed in range(100):
        g = engine.new("boxes", preset="quick")
        rng = random.Random(seed)
        while not g.over:
            g.play(g.legal_moves()[rng.randrange(len(g.legal_moves()))])
            if len(g.last_turn) >= 2 and not g.over:
                break
        if len(g.last_turn) >= 2 and not g.over:
            break
    else:
        raise AssertionError("no random game with a two-line turn")
    assert _haloed(g, {}) == set(g.last_turn)
    assert _haloed(g, {"last": False}) == set()


def _haloed(g: Any, view: View) -> set[Any]:
    """The lines drawn with the halo (looked for just beside each line, where the halo is
    wider than the line)."""
    lay = boxes.layout(g, view)
    img = decode(render.board_png(g, view))
    width = lay.line_width
    highlighted = set()
    for m in g.all_lines():
        (x0, y0), (x1, y1) = boxes.line_ends(lay, m)
        mx, my = x0 + (x1 - x0) / 3, y0 + (y1 - y0) / 3
        side = (0, 1.1 * width) if m.orient == "h" else (1.1 * width, 0)
        if at(img, mx + side[0], my + side[1]) == boxes.HALO:
            highlighted.add(m)
    return highlighted


def test_marks_replace_the_last_turn_and_may_be_free_lines() -> None:
    """A lesson page marks the lines it is about, drawn or not; a name that is no line of
    the board is left out."""
    g = engine.new("boxes", rows=2, cols=3)
    for m in ("a3-b3", "a2-b2", "c1-c2"):
        g.play(g.parse_move(m))
    marks = ["a2-a3", "a3-b3", "zz", "a1-c1"]
    assert _haloed(g, {"marks": marks}) == {g.parse_move("a2-a3"), g.parse_move("a3-b3")}
    assert _haloed(g, {"marks": []}) == set()
    assert _haloed(g, {}) == set(g.last_turn)


def test_labels_show_the_free_lines() -> None:
    g = _played({"preset": "classic"}, 4, 20)
    lay = boxes.layout(g, {})
    guide = mix(PAPER, boxes.MUTED, 0.55)
    board = (lay.ox, lay.oy, lay.ox + lay.cols * lay.cell, lay.oy + lay.rows * lay.cell)
    assert count(decode(render.board_png(g, {})), guide, board) == 0
    assert count(decode(render.board_png(g, {"labels": True})), guide, board) > 100


def test_initials_fall_back_to_seat_numbers_when_they_clash() -> None:
    assert boxes.initials(["anna", "Boris"]) == ["A", "B"]
    assert boxes.initials(["Анна", "Андрей", "Вера"]) == ["1", "2", "3"]
    assert boxes.initials(["", "🙂 Bob"]) == ["?", "B"]
    assert boxes.initials(["Bob", "Вера"]) == ["1", "2"]  # Latin B and Cyrillic В look alike
