"""The Sprouts AI on paper: legal, deterministic, perfect when it can be, on time."""

from __future__ import annotations

import time

import pytest

from engine import GameOver
from engine.sprouts import Game, solver
from engine.sprouts.ai import LEVELS, choose_move
from engine.sprouts.game import _table
from engine.sprouts.moves import Move as PaperMove


def _child_wins_for_mover(g: Game, m: PaperMove) -> bool:
    child = g.position.play(_table(g.drawing).choices[m].pmove)
    return solver.outcome(child, misere=g.misere)


@pytest.mark.parametrize("level", LEVELS)
def test_legal_and_deterministic(level: str) -> None:
    g = Game(3)
    g.play(g.parse_move("1-2"))
    a = choose_move(g, level, seed=5, time_limit=5)
    assert a in g.legal_moves()
    assert choose_move(g, level, seed=5, time_limit=5) == a


@pytest.mark.parametrize(("n", "misere"), [(3, False), (4, False), (1, True), (5, True)])
def test_hard_takes_a_win_when_there_is_one(n: int, misere: bool) -> None:
    # first-player outcomes from the project reference: normal 3, 4 and misère 1, 5 are wins
    g = Game(n, misere=misere)
    m = choose_move(g, "hard", seed=1, time_limit=30)
    assert not _child_wins_for_mover(g, m)


def test_hard_wins_a_small_game_against_random_play() -> None:
    g = Game(3)
    k = 0
    while not g.over:
        if g.turn == 0:
            m = choose_move(g, "hard", seed=k, time_limit=30)
        else:
            m = choose_move(g, "easy", seed=k, time_limit=30)
        g.play(m)
        k += 1
    assert g.result is not None and g.result.winner == 0


def test_easy_blunders_sometimes() -> None:
    g = Game(3)
    verdicts = {_child_wins_for_mover(g, choose_move(g, "easy", seed=s)) for s in range(12)}
    assert verdicts == {True, False}


def test_time_limit_is_kept() -> None:
    g = Game(9)
    g.legal_moves()  # the move table is built once per drawing, before the clock matters
    t = time.monotonic()
    m = choose_move(g, "hard", seed=0, time_limit=0.3)
    assert time.monotonic() - t < 1.5
    assert m in g.legal_moves()


def test_errors() -> None:
    with pytest.raises(ValueError):
        choose_move(Game(2), "genius")
    g = Game(1)
    g.play(g.parse_move("1-1"))
    g.play(g.parse_move("1-2 @in"))
    with pytest.raises(GameOver):
        choose_move(g)
