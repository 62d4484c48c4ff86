"""Whole games on paper, every move checked from the outside.

After each move: the drawing passes the exact geometric check (no crossing, the minimum gaps,
the new spot on no other curve), every curve ends at its spots' places, and the position
derived from the drawing is the position model's child of the move. Choices come from
hypothesis; the long games (up to 10 spots) run with TETRAD_SLOW=1.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.sprouts import Game
from engine.sprouts.drawing import MIN_GAP, SPOT_GAP, check_geometry
from engine.sprouts.game import _table
from engine.sprouts.routing import RoutingError


def _check_drawing(g: Game) -> None:
    d = g.drawing
    check_geometry(d)  # every curve against every curve and spot
    places = {(s.x, s.y): s.number for s in d.spots}
    assert len(places) == len(d.spots)
    for c in d.curves:
        assert places[c.points[0]] == c.a and places[c.points[-1]] == c.b
        assert len(c.points) >= 3  # dense polylines, not chords
    lives = {s.number: s.lives for s in d.spots}
    assert all(0 <= v <= 3 for v in lives.values())


def _play_out(g: Game, data: st.DataObject) -> None:
    _check_drawing(g)
    while not g.over:
        moves = g.legal_moves()
        m = moves[data.draw(st.integers(0, len(moves) - 1), label="move")]
        before = g.position
        child = before.play(_table(g.drawing).choices[m].pmove)
        g.play(m)
        _check_drawing(g)
        assert g.position.canonical() == child.canonical()
        assert g.position.lives == before.lives - 1
    n = g.options["spots"]
    assert 2 * n <= g.ply <= 3 * n - 1  # every move costs one life of 3n
    assert g.result is not None and g.result.winner in (0, 1)


@settings(
    max_examples=8, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
@given(n=st.integers(1, 5), data=st.data())
def test_random_games_small(n: int, data: st.DataObject) -> None:
    _play_out(Game(n), data)


@settings(
    max_examples=1, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
@given(data=st.data())
def test_one_random_game_of_ten_spots(data: st.DataObject) -> None:
    """One long game in every run (the slow form plays a dozen of 6 to 10 spots)."""
    _play_out(Game(10), data)


@pytest.mark.slow  # several minutes
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(6, 10), data=st.data())
def test_random_games_up_to_ten_spots(n: int, data: st.DataObject) -> None:
    _play_out(Game(n), data)


def test_minimum_gaps_are_positive() -> None:
    assert 0 < MIN_GAP < SPOT_GAP


def _draw_every_move(n: int, seeds: range) -> list[str]:
    """Random games to the end; every legal move chosen must be drawn (a RoutingError
    fails the move, and the game stops there). Returns the moves that could not be drawn."""
    failed = []
    for seed in seeds:
        rng = random.Random(seed)
        g = Game(n)
        while not g.over:
            m = rng.choice(g.legal_moves())
            try:
                g.play(m)
            except RoutingError:
                failed.append(f"n={n} seed={seed} ply={g.ply} {g.format_move(m)}")
                break
    return failed


@pytest.mark.parametrize("n", [2, 4, 6])
def test_random_games_never_fail_to_draw(n: int) -> None:
    assert _draw_every_move(n, range(2)) == []


@pytest.mark.slow  # several minutes
@pytest.mark.parametrize("n", [3, 5, 7, 8, 9, 10, 11, 12])
def test_random_games_never_fail_to_draw_long(n: int) -> None:
    assert _draw_every_move(n, range(6)) == []
