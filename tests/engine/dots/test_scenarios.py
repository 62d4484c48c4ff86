"""The agreed worked scenarios (coordinates (x, y) from the top-left; A = player 0 moves first,
B = player 1; the score is "captured by A : captured by B")."""

from __future__ import annotations

import pytest

from engine import IllegalMove
from engine.dots import Game, Move

from .helpers import moves


def test_1_intrusion_into_an_empty_ring_is_captured_at_once() -> None:
    g = moves(Game(5, 5), [(2, 1), (0, 0), (1, 2), (4, 4), (3, 2), (0, 4), (2, 3)])
    assert g.scores == (0, 0)
    assert [(b.owner, set(b.ring), b.area) for b in g.bases] == [
        (0, {(1, 2), (2, 3), (3, 2), (2, 1)}, frozenset({(2, 2)}))
    ]
    g.play(Move(2, 2))
    assert g.scores == (1, 0)
    (cap,) = g.captures
    assert cap.owner == 0 and set(cap.ring) == {(1, 2), (2, 3), (3, 2), (2, 1)}
    assert cap.area == frozenset({(2, 2)})
    # Tournament records credit the ring to its owner's next move.
    assert cap.ply == 7 and cap.credited == 8 and cap.intrusion
    assert g.cell(2, 2).captured and g.bases == ()


def test_2_the_intruder_completes_its_own_capture() -> None:
    g = moves(Game(5, 5), [(2, 1), (2, 0), (1, 2), (1, 1), (3, 2), (3, 1), (2, 3)])
    assert g.scores == (0, 0) and len(g.bases) == 1
    g.play(Move(2, 2))
    assert g.scores == (0, 1)
    (cap,) = g.captures
    assert cap.owner == 1 and set(cap.ring) == {(2, 2), (3, 1), (2, 0), (1, 1)}
    assert cap.area == frozenset({(2, 1)}) and not cap.intrusion
    assert g.cell(2, 2) == g.cell(2, 2).__class__(1, None)  # B's dot stands, live
    assert g.bases == ()  # A's empty ring dissolved


def test_3_liberation() -> None:
    g = moves(Game(7, 7), [(3, 3), (3, 2), (1, 1), (2, 3), (0, 3), (4, 3), (6, 6), (3, 4)])
    assert g.scores == (0, 1)
    moves(g, [(3, 1), (6, 0), (2, 2), (6, 1), (4, 2), (6, 2), (1, 3), (6, 3), (5, 3), (6, 5)])
    moves(g, [(2, 4), (5, 6), (4, 4), (0, 6), (3, 5)])
    assert g.scores == (4, 0)
    outer = g.captures[-1]
    ring = {(3, 5), (4, 4), (5, 3), (4, 2), (3, 1), (2, 2), (1, 3), (2, 4)}
    assert outer.owner == 0 and set(outer.ring) == ring
    assert g.cell(3, 3).dot == 0 and g.cell(3, 3).area == 0 and not g.cell(3, 3).captured
    for p in [(3, 2), (2, 3), (4, 3), (3, 4)]:
        assert g.cell(*p).captured and g.cell(*p).area == 0


def test_4_captured_points_are_dead() -> None:
    g = moves(Game(7, 5), [(2, 2), (2, 1), (6, 4), (1, 2), (6, 0), (3, 2), (0, 4), (2, 3)])
    assert g.scores == (0, 1)
    assert not g.is_legal(Move(2, 2))
    assert g.turn == 0
    with pytest.raises(IllegalMove) as e:
        g.play(Move(2, 2))
    assert e.value.code == "occupied"


def test_5_one_move_two_rings() -> None:
    g = moves(Game(5, 5), [(1, 2), (1, 1), (3, 2), (0, 2), (4, 4), (1, 3), (0, 0), (3, 1)])
    moves(g, [(0, 4), (4, 2), (4, 0), (3, 3), (2, 0), (2, 2)])
    assert g.scores == (0, 2)
    rings = sorted(sorted(c.ring) for c in g.captures)
    assert rings == [
        sorted([(2, 2), (1, 1), (0, 2), (1, 3)]),
        sorted([(2, 2), (3, 3), (4, 2), (3, 1)]),
    ]
    assert all(c.ply == 13 for c in g.captures)


def test_6_own_dot_inside_own_empty_ring() -> None:
    g = moves(Game(5, 5), [(2, 1), (0, 0), (1, 2), (4, 4), (3, 2), (0, 4), (2, 3), (4, 0)])
    g.play(Move(2, 2))
    assert g.scores == (0, 0) and g.captures == ()
    assert g.cell(2, 2).dot == 0 and not g.cell(2, 2).dead


def test_7_edge_dots_are_never_captured() -> None:
    # B on the left edge, in a corner and on the bottom edge, A all round on the board side.
    g = Game(6, 6)
    a = [(0, 1), (1, 1), (1, 2), (1, 3), (0, 3), (1, 0), (4, 5), (4, 4), (5, 4), (3, 5)]
    a += [(3, 4), (2, 4)]
    b = [(0, 2), (0, 0), (5, 5), (2, 5), (5, 0), (5, 1), (5, 2), (4, 0), (4, 1), (3, 0)]
    b += [(3, 1), (2, 0)]
    for pa, pb in zip(a, b, strict=True):
        g.play(Move(*pa))
        g.play(Move(*pb))
    assert g.scores == (0, 0)
    for p in [(0, 2), (0, 0), (5, 5), (2, 5)]:
        assert g.cell(*p).dot == 1 and not g.cell(*p).dead
