"""Solver: outcomes and nimbers against the published tables, with and without the shipped
table, and the AI's winning children."""

from __future__ import annotations

import random

import pytest

from engine.sprouts import solver, tables
from engine.sprouts.position import Position
from engine.sprouts.solver import Solver, key_lives, lands_of

from .facts import MISERE, NORMAL, START_NIMBERS, random_game


@pytest.mark.parametrize("n", range(1, 12))
def test_normal_outcome_from_the_start(n: int) -> None:
    """Up to 7 the shipped table settles the start; 8 to 11 take the search (about a
    second in all): 11 is a win only through 0*5.AB|0*5.AB, the last child in key order."""
    assert solver.outcome(Position.start(n)) == (NORMAL[n - 1] == "W")


@pytest.mark.parametrize("n", range(1, 7))
def test_misere_outcome_from_the_start(n: int) -> None:
    assert solver.outcome(f"0*{n}", misere=True) == (MISERE[n - 1] == "W")


@pytest.mark.parametrize("n", range(1, 8))
def test_start_nimbers(n: int) -> None:
    assert solver.nimber(f"0*{n}") == START_NIMBERS[n - 1]


def test_search_without_the_table() -> None:
    """The search alone (no shipped table) agrees with the published results."""
    fresh = Solver(use_table=False)
    for n in range(1, 5):
        start = lands_of(Position.start(n))
        assert fresh.wins(start) == (NORMAL[n - 1] == "W")
        assert fresh.nimber(start[0]) == START_NIMBERS[n - 1]
        assert fresh.wins(start, misere=True) == (MISERE[n - 1] == "W")


def test_search_agrees_with_the_table() -> None:
    """The proof search alone (its cost estimates only order the work) finds the shipped
    nimbers and misère outcomes of a random sample of the table's entries with up to 10
    lives (bigger ones cost minutes without the table)."""
    shipped = tables.load()
    fresh = Solver(use_table=False)
    rng = random.Random(19)
    small = sorted(key for key in shipped.nimbers if key_lives(key) <= 10)
    for key in rng.sample(small, 30):
        assert fresh.nimber(key) == shipped.nimbers[key], key
    wholes = sorted(key for key in shipped.misere if key_lives(key) <= 10)
    for key in rng.sample(wholes, 200):
        lands = tuple(key.split("+")) if key else ()
        assert fresh.misere_wins(lands) == shipped.misere[key], key


def test_seven_spots_by_search() -> None:
    """The 7-spot start searched with only the land nimbers of smaller games (the shipped
    table also holds its outcome outright)."""
    fresh = Solver(tables.Tables(nimbers=tables.load().nimbers))
    assert fresh.wins(lands_of(Position.start(7))) is False


def test_sums_of_lands() -> None:
    # 0*3 and 0*4 both have nimber 1: their sum is a second-player win.
    assert solver.nimber("0*3+0*4") == 0
    assert solver.outcome("0*3+0*4") is False
    assert solver.outcome("0*3+0*6") is True
    assert solver.outcome("") is False  # no move: the player to move loses
    assert solver.outcome("", misere=True) is True  # … and wins at misère


def test_nimbers_follow_the_mex_rule() -> None:
    """Along random games, each land's nimber is the mex of its children's nimbers."""
    rng = random.Random(11)
    for n in (3, 4, 5):
        for p in random_game(n, rng)[2:]:
            for key in lands_of(p):
                options = set()
                for child in solver.SOLVER.land_children(key):
                    x = 0
                    for land in child:
                        x ^= solver.SOLVER.nimber(land)
                    options.add(x)
                expected = min(set(range(len(options) + 1)) - options)
                assert solver.SOLVER.nimber(key) == expected


@pytest.mark.parametrize("misere", [False, True])
def test_winning_children(misere: bool) -> None:
    rng = random.Random(3)
    for n in (3, 4, 5):
        for p in random_game(n, rng)[1:-1]:  # the last has no move at all
            wins = solver.winning_children(p, misere)
            moves = solver.winning_moves(p, misere)
            assert [p.play(m) for m in moves] == wins
            one = solver.winning_move(p, misere)
            assert (one is None) == (not moves) and (one is None or one in moves)
            assert bool(wins) == solver.outcome(p, misere)
            for child in wins:
                assert not solver.outcome(child, misere)
            losing = {c.canonical() for c in p.children()} - {c.canonical() for c in wins}
            for key in losing:
                assert solver.outcome(key, misere)


def test_key_lives() -> None:
    for text in ["0*3.AB|AB", "0", "0*12", "1a1a", "2AB|AB", "0*2.AB|0*3.AB+1"]:
        assert key_lives(text) == Position.parse(text).lives
