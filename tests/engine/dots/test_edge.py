"""The edge variant: ``edge="safe"`` (the default, tournament rule: dots on the edge are never
surrounded) and ``edge="capturable"`` (the field's edge counts as a wall of the surrounding
player's ring: of the parts a chain of dots cuts off, the smaller is enclosed)."""

from __future__ import annotations

import random

import pytest

from engine import BadOptions
from engine.dots import Game, Move
from engine.dots.rings import FRAME, Board

from .helpers import moves


def test_two_dots_take_a_corner() -> None:
    g = moves(Game(5, 5, edge="capturable"), [(0, 1), (0, 0), (1, 0)])
    assert g.scores == (1, 0) and g.cell(0, 0).captured
    (cap,) = g.captures
    assert cap.area == {(0, 0)} and cap.owner == 0
    assert cap.ring == ((1, 0), (0, 0), (0, 1))  # the outline runs along the edge
    safe = moves(Game(5, 5), [(0, 1), (0, 0), (1, 0)])
    assert safe.scores == (0, 0) and safe.edge == "safe" and "edge" not in safe.options


def test_a_chain_against_the_edge_encloses_the_smaller_side() -> None:
    # A: (0,1),(1,1),(2,1),(3,0); B: (1,0),(2,0) on the top edge.
    g = moves(
        Game(6, 6, edge="capturable"),
        [(0, 1), (1, 0), (1, 1), (2, 0), (2, 1), (5, 5), (3, 0)],
    )
    assert g.scores == (2, 0)
    (cap,) = g.captures
    assert cap.area == {(0, 0), (1, 0), (2, 0)}
    assert g.cell(5, 5).dot == 1 and not g.cell(5, 5).captured  # the big side stays open
    assert not g.is_legal(Move(0, 0))  # the enclosed corner is dead


def test_a_cut_into_equal_halves_encloses_neither() -> None:
    # A's column x = 2 cuts a 5×5 field into two 10-point halves, B's dots on both sides.
    a = [(2, y) for y in range(5)]
    b = [(0, 0), (4, 4), (0, 4), (4, 0)]
    points = [p for pair in zip(a, b, strict=False) for p in pair] + [a[-1]]
    g = moves(Game(5, 5, edge="capturable"), points)
    assert g.scores == (0, 0) and not g.captures


def test_an_empty_edge_pocket_is_a_base_that_catches_an_intruder() -> None:
    g = moves(Game(5, 5, edge="capturable"), [(0, 1), (4, 4), (1, 0)])
    assert g.scores == (0, 0) and len(g.bases) == 1 and g.bases[0].area == {(0, 0)}
    g.play(Move(0, 0))  # B steps into A's empty corner
    assert g.scores == (1, 0) and g.cell(0, 0).captured


def test_edge_rings_and_ordinary_rings_together() -> None:
    # An ordinary diamond capture still works in the variant.
    g = moves(
        Game(5, 5, edge="capturable"),
        [(2, 1), (2, 2), (1, 2), (4, 4), (3, 2), (4, 3), (2, 3)],
    )
    assert g.scores == (1, 0) and g.cell(2, 2).captured


def test_records_keep_the_variant() -> None:
    g = moves(Game(6, 6, edge="capturable"), [(0, 1), (1, 0), (1, 1), (2, 0), (2, 1), (5, 5)])
    g.play(Move(3, 0))
    sgf = g.to_sgf()
    assert "edge=capturable" in sgf
    back = Game.from_sgf(sgf)
    assert back.edge == "capturable" and back.scores == (2, 0)
    assert Game.from_json(g.to_json()).scores == (2, 0)
    assert [s.scores for s in g.replay()][-1] == (2, 0)
    plain = Game.from_sgf(sgf.replace(";edge=capturable", ""))  # a reader that ignores it
    assert plain.edge == "safe" and plain.scores == (0, 0)
    with pytest.raises(BadOptions):
        Game(5, 5, edge="open")  # type: ignore[arg-type]  # not an edge rule, on purpose


def _whole_parts(self: Board, p: int, w: bytearray) -> list[tuple[list[int], bool]] | None:
    """Each part flooded whole, one after another: what the side-by-side growth shortens."""
    s, dot = self.stride, self.dot
    seen: set[int] = set()
    parts = []
    for q in (p - s, p + 1, p + s, p - 1):
        if dot[q] == FRAME or w[q] or q in seen:
            continue
        part, stack = [q], [q]
        seen.add(q)
        while stack:
            c = stack.pop()
            for r in (c - s, c + 1, c + s, c - 1):
                if r not in seen and dot[r] != FRAME and not w[r]:
                    seen.add(r)
                    part.append(r)
                    stack.append(r)
        parts.append((part, any(self._on_edge(c) for c in part)))
    return parts if len(parts) > 1 else None


def test_growing_the_parts_side_by_side_finds_what_whole_floods_find(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    games = []
    for seed in range(25):
        rng = random.Random(seed)
        g = Game(rng.randint(5, 12), rng.randint(5, 12), edge="capturable")
        while not g.over:
            g.play(rng.choice(g.legal_moves()))
        games.append(g)
    monkeypatch.setattr(Board, "_parts_round", _whole_parts)
    for g in games:
        again = Game(g.width, g.height, edge="capturable")
        for m in g.moves:
            again.play(m)
        assert again.scores == g.scores and again.captures == g.captures
