"""The bot's STOP play (engine.dots.solo) on hand-made positions: alone it places only dots
that capture now or let the next dot capture, then stops; and it calls STOP only when the
opponent's solo phase cannot change the result."""

from __future__ import annotations

import random

from engine.dots import Game, Move
from engine.dots.solo import calls_stop, exposed, solo_move, stop_wins

from .helpers import board, moves, play


def _alone(game: Game) -> list[Move]:
    """Let the player moving alone play until solo_move says Done."""
    placed = []
    while (m := solo_move(game)) is not None:
        game.play(m)
        placed.append(m)
        assert len(placed) < 50, "the solo phase does not end"
    return placed


def test_closes_a_ring_one_dot_short_then_stops() -> None:
    g = play(board(9, 9), a=[(3, 4), (5, 4), (4, 5)], b=[(4, 4)])
    g.stop(1, now=0.0)  # B stops; A moves alone
    assert _alone(g) == [Move(4, 3)]
    assert g.scores == (1, 0) and g.cell(4, 4).captured


def test_closes_a_ring_two_dots_short() -> None:
    g = play(board(9, 9), a=[(3, 4), (5, 4)], b=[(4, 4)])
    g.stop(1, now=0.0)
    assert set(_alone(g)) == {Move(4, 3), Move(4, 5)}
    assert g.scores == (1, 0)


def test_places_nothing_where_no_capture_is_two_dots_away() -> None:
    g = play(board(9, 9), a=[(3, 4)], b=[(4, 4)])  # three dots short
    g.stop(1, now=0.0)
    assert solo_move(g) is None
    g = play(board(9, 9), a=[(2, 2), (6, 6)], b=[(4, 4)])
    g.stop(0, now=0.0)  # B alone has nothing to surround: Done at once
    assert solo_move(g) is None


def test_takes_the_bigger_capture_first() -> None:
    # A pocket holding one B dot and one holding two, each one A dot short of closing.
    small = [(1, 2), (3, 2), (2, 3)]  # round (2, 2), missing (2, 1)
    big = [(4, 5), (5, 4), (6, 4), (7, 5), (5, 6)]  # round (5, 5), (6, 5), missing (6, 6)
    g = play(board(9, 9), a=small + big, b=[(2, 2), (5, 5), (6, 5)])
    g.stop(1, now=0.0)
    first = solo_move(g)
    assert first is not None
    g.play(first)
    assert g.scores == (2, 0)
    g.play(solo_move(g) or Move(0, 0))
    assert g.scores == (3, 0) and solo_move(g) is None


def test_only_outside_a_stop_phase_is_nothing_played() -> None:
    g = play(board(9, 9), a=[(3, 4), (5, 4), (4, 5)], b=[(4, 4)])
    assert solo_move(g) is None  # nobody called STOP


def test_every_solo_dot_gains_now_or_at_the_next_dot() -> None:
    for seed in range(12):
        rng = random.Random(seed)
        g = Game(12, 12)
        for _ in range(60):
            g.play(rng.choice(g.legal_moves()))
        g.stop(rng.randrange(2), now=0.0)
        me = g.turn
        margins = [g.scores[me] - g.scores[1 - me]]
        while (m := solo_move(g)) is not None:
            g.play(m)
            margins.append(g.scores[me] - g.scores[1 - me])
        for k in range(len(margins) - 1):  # dot k + 1 gains, or the one after it does
            assert margins[k + 1] > margins[k] or margins[k + 2] > margins[k], margins
        # Nothing is left that two more dots could capture.
        assert solo_move(g) is None and len(margins) < 30


def test_exposed_counts_what_the_opponent_could_still_enclose() -> None:
    g = Game(7, 7)
    moves(g, [(3, 3), (0, 0)])  # A's dot in the open; B's corner dot
    assert exposed(g, 0) == 1 and exposed(g, 1) == 0  # edge dots are never captured
    # A's dot joined to the edge by vertical steps is safe; a diagonal link is not.
    g = moves(Game(7, 7), [(3, 1), (6, 6), (3, 0), (6, 5)])
    assert exposed(g, 0) == 0
    g = moves(Game(7, 7), [(2, 1), (6, 6), (3, 0), (6, 5)])
    assert exposed(g, 0) == 1


def test_exposed_counts_captured_dots_behind_an_open_ring() -> None:
    # Scenario 1 of the reference: A's diamond catches B's intruder at (2, 2).
    g = moves(Game(5, 5), [(2, 1), (0, 0), (1, 2), (4, 4), (3, 2), (0, 4), (2, 3), (2, 2)])
    assert g.scores == (1, 0)
    # (2, 1), (1, 2), (3, 2), (2, 3) sit off the edge: B could enclose the ring and free
    # its dot: 4 live dots and 1 captured one.
    assert exposed(g, 0) == 5


def test_stop_wins_only_when_the_lead_is_out_of_reach() -> None:
    # A's ring (1,0),(0,1),(2,1),(1,2) catches B's (1, 1); the ring and its area join the
    # edge (through (1, 0) and (0, 1)), so B could enclose none of it. A's (3, 2) stands in
    # the open: a lead of 1 with 1 dot exposed does not win for sure.
    start = [(1, 0), (1, 1), (0, 1), (4, 4), (2, 1), (4, 3), (1, 2), (4, 2), (3, 2)]
    g = moves(Game(5, 5), start)
    assert g.scores == (1, 0) and g.turn == 1
    assert exposed(g, 0) == 1 and not stop_wins(g, 0)
    assert exposed(moves(Game(5, 5), start[:7]), 0) == 0
    moves(g, [(0, 4), (3, 1)])  # (3, 1) joins (3, 2) to the grounded ring
    assert exposed(g, 0) == 0 and stop_wins(g, 0) and not stop_wins(g, 1)
    assert calls_stop(g, 0, "hard") and calls_stop(g, 0, "medium")
    assert not calls_stop(g, 0, "easy")
    g.stop(0, now=0.0)
    assert not stop_wins(g, 0)  # once is enough
    t = moves(Game(5, 5, scoring="territory"), [*start, (0, 4), (3, 1)])
    assert not stop_wins(t, 0)  # territory could still grow in empty land


def test_with_the_edge_as_a_wall_the_solo_phase_takes_edge_captures() -> None:
    g = moves(Game(6, 6, edge="capturable"), [(0, 1), (1, 0), (1, 1), (2, 0), (2, 1), (5, 5)])
    g.stop(1, now=0.0)
    assert solo_move(g) == Move(3, 0)  # closes the chain against the top edge: 2 dots
    g.play(Move(3, 0))
    assert g.scores == (2, 0)
    won = moves(Game(5, 5, edge="capturable"), [(0, 1), (0, 0), (1, 0), (4, 4)])
    assert won.scores == (1, 0) and not stop_wins(won, 0)  # no safety against the edge
