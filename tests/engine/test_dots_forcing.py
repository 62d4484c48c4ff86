"""The Точки forcing-sequence prover on hand-made positions (captures in 1, 2 and 3, an edge
ladder and the same ladder with a breaker, a double threat, a save), its lines replayed in the
referee, and its reply set checked against searches that try every reply on small boards."""

from __future__ import annotations

import random

import numpy as np
import pytest

from engine.dots import Game, Move
from engine.dots.fastboard import FastBoard
from engine.dots.forcing import Goal, _Search, prove_capture, prove_save

from .dots.helpers import _filler, board, play

Point = tuple[int, int]
NO_GROUP = np.zeros(0, dtype=np.int32)

# Player 0 (A) walls row 5 and stops at (7, 6); player 1 (B) has two dots in row 6, above the
# bottom edge (row 7). A plays (4, 7) threatening (5, 6); B fills it; A plays (5, 7)
# threatening (6, 6); B fills it; A's (6, 7) closes the ring against the stopper: 4 dots.
WALL = [(x, 5) for x in range(2, 8)] + [(2, 6), (3, 7), (7, 6)]
CHAIN = [(3, 6), (4, 6)]


def _position(a: list[Point], b: list[Point], width: int = 10, height: int = 8) -> Game:
    """A's and B's dots (fillers far right), A to move."""
    g = play(board(width, height), a, b)
    if g.turn != 0:
        g.play(Move(*_filler(g, 1)))
    return g


def _replay(g: Game, line: tuple[Move, ...]) -> Game:
    """The line played in the referee (a copy): every move legal, in turn."""
    g = g.copy()
    for m in line:
        assert g.is_legal(m), m
        g.play(m)
    return g


def test_a_capture_in_one() -> None:
    g = _position([(1, 2), (2, 1), (3, 2)], [(2, 2)])
    proof = prove_capture(g, 1)
    assert proof is not None and proof.moves == (Move(2, 3),) and proof.depth == 1
    assert _replay(g, proof.line).scores == (1, 0)
    assert prove_capture(g, 1, k=2) is None


def test_an_edge_ladder_that_works() -> None:
    g = _position(WALL, CHAIN)
    assert prove_capture(g, 2) is None  # one chase step too few
    proof = prove_capture(g, 3)
    assert proof is not None
    assert proof.moves == (Move(4, 7),)  # the only first move: the chase along the edge
    assert proof.line == tuple(Move(*p) for p in ((4, 7), (5, 6), (5, 7), (6, 6), (6, 7)))
    assert proof.depth == 3
    after = _replay(g, proof.line)  # the referee agrees: the whole chain is caught
    assert after.scores == (4, 0)
    assert prove_capture(g, 3, group=[(3, 6), (4, 6)]) is not None  # the named group too


@pytest.mark.parametrize("breaker", [(6, 7), (5, 7)])
def test_a_breaker_on_the_edge_stops_the_ladder(breaker: Point) -> None:
    g = _position(WALL, [*CHAIN, breaker])
    assert prove_capture(g, 3) is None
    # and B, to move in the ladder, finds that very breaker among its saves
    ladder = _position(WALL, CHAIN)
    ladder.play(Move(*_filler(ladder, 0)))  # B to move
    save = prove_save(ladder, 3)
    assert Move(*breaker) in save.moves and save.complete
    assert Move(0, 0) in save.refuted  # a move far away lets the chase run
    assert _replay(ladder, (Move(0, 0), *save.refuted[Move(0, 0)])).scores[0] >= 1


def test_a_capture_in_two_at_a_nearer_stopper() -> None:
    g = _position([*WALL[:-1], (6, 6)], CHAIN)
    proof = prove_capture(g, 2)
    assert proof is not None and proof.moves == (Move(4, 7),) and proof.depth == 2
    assert _replay(g, proof.line).scores == (3, 0)


def test_a_double_threat() -> None:
    # B's (2, 2) and (4, 2) each lack two A dots; A's (3, 2) makes both rings one dot short.
    g = _position([(1, 2), (2, 1), (4, 1), (5, 2)], [(2, 2), (4, 2)])
    assert prove_capture(g, 1) is None
    proof = prove_capture(g, 2)
    assert proof is not None and Move(3, 2) in proof.moves
    line = proof.lines[Move(3, 2)]
    assert line[1] in (Move(2, 3), Move(4, 3))  # B fills one; A closes the other
    assert _replay(g, line).scores == (1, 0)
    assert prove_capture(g, 2, k=2) is None  # each ring holds one dot: not two


def test_a_save() -> None:
    g = _position([(1, 2), (2, 1), (3, 2)], [(2, 2)])
    g.play(Move(*_filler(g, 0)))  # B to move, its dot one A dot from capture
    save = prove_save(g, 1)
    assert save.moves == (Move(2, 3),) and save.complete
    for move, line in save.refuted.items():
        assert _replay(g, (move, *line)).scores[0] == 1
    cut = prove_save(g, 1, most=0)  # the search stops at the first save past ``most``
    assert not cut.complete and cut.moves == (Move(2, 3),)


def _all_replies(fb: FastBoard, a: int, left: int, goal: Goal, quiet: bool) -> bool:
    """Whether ``a`` (to move) reaches the goal within ``left`` against every legal reply:
    the attacker's moves the prover's (or, with ``quiet``, every legal move)."""
    s = _Search(fb, a, goal)
    if not quiet:
        if s.met() or s._goal_points(1):
            return True
        if left <= 1:
            return False
    cands = fb.legal_indices() if quiet else s.threats()
    return any(_wins_after(fb, a, m, left, goal, quiet) for m in cands)


def _wins_after(fb: FastBoard, a: int, m: int, left: int, goal: Goal, quiet: bool) -> bool:
    mark = fb.mark()
    fb.place(m)
    try:
        if _Search(fb, a, goal).met():
            return True
        if left <= 1 or fb.free == 0:
            return False
        for r in fb.legal_indices():
            mark2 = fb.mark()
            fb.place(r)
            held = not _all_replies(fb, a, left - 1, goal, quiet)
            fb.undo(mark2)
            if held:
                return False
        return True
    finally:
        fb.undo(mark)


def _random_positions(seed: int, count: int) -> list[Game]:
    rng = random.Random(seed)
    out: list[Game] = []
    while len(out) < count:
        g = Game(6, 6)
        for _ in range(rng.randrange(12, 30)):
            g.play(rng.choice(g.legal_moves()))
            if g.over:
                break
        if not g.over:
            out.append(g)
    return out


def _first_moves(g: Game, depth: int) -> set[Point]:
    proof = prove_capture(g, depth)
    return set() if proof is None else {(m.x, m.y) for m in proof.moves}


def test_depth_two_agrees_with_trying_every_move_of_both_sides() -> None:
    """Every first move and every reply of both players tried: the same winning first moves
    (the reply set is complete, and no quiet move wins in two on these boards)."""
    found = 0
    for g in _random_positions(5, 150):
        fb = FastBoard.from_game(g)
        a = fb.turn
        goal = Goal(fb.caught[a], 1, NO_GROUP)
        every = {fb.xy(m) for m in fb.legal_indices() if _wins_after(fb, a, m, 2, goal, True)}
        mine = _first_moves(g, 2)
        assert mine == every, g.to_json()
        found += bool(mine)
    assert found >= 20  # the positions hold captures to find


def test_depth_three_agrees_with_every_reply() -> None:
    """The prover's attacking moves, every legal reply of the defender: the same first moves."""
    found = 0
    for g in _random_positions(7, 60):
        fb = FastBoard.from_game(g)
        a = fb.turn
        goal = Goal(fb.caught[a], 1, NO_GROUP)
        s = _Search(fb, a, goal)
        now = set(s._goal_points(fb.n))
        every = {fb.xy(m) for m in now}
        for m in s.threats(anywhere=bool(now)):
            if _wins_after(fb, a, m, 3, goal, False):
                every.add(fb.xy(m))
        mine = _first_moves(g, 3)
        assert mine == every, g.to_json()
        found += bool(mine)
    assert found >= 10
