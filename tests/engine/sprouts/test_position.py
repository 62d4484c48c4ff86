"""Positions: GLOP parsing and printing, the move generator, and random-play properties."""

from __future__ import annotations

import random
from itertools import pairwise

import pytest

from engine.sprouts.position import BadPosition, Move, Position

from .facts import START_CHILDREN, START_MOVES, random_game

ROUND_TRIPS = [
    "",
    "0",
    "0*2",
    "0*7",
    "0.AB|AB",
    "1a1a",
    "0*2.AB|0.AB",
    "12.AB|AB+0.2ABC|0.1ab1bc2ca.ACB",
    "2AB|AB",
    "0.A|A.BC|BC",
    "1aAa.BC|0*3.AB|C",
    "0*3.1a2a+0.AB|AB+1",
]


@pytest.mark.parametrize("text", ROUND_TRIPS)
def test_parse_print_round_trip(text: str) -> None:
    p = Position.parse(text)
    assert str(p) == text
    assert Position.parse(str(p)) == p


@pytest.mark.parametrize("text", ["0.0.0", "0*3"])
def test_repeat_abbreviation(text: str) -> None:
    p = Position.parse(text)
    assert str(p) == "0*3" and p.lives == 9 and len(p.regions[0]) == 3


@pytest.mark.parametrize(
    "text",
    ["A", "0A", "a", "aa|a", "AB|AB|AB", "0*0", "x", "0..0", "|", "0+", "a.a", "A|A.A", 5],
)
def test_bad_notation(text: object) -> None:
    with pytest.raises(BadPosition):
        Position.parse(text)  # type: ignore[arg-type]


def test_lives_and_spots() -> None:
    p = Position.parse("1a1a")
    assert p.lives == 5
    assert sorted(p.spots.values()) == [1, 2, 2]
    assert p.next_spot == 4


def test_explicit_regions_from_a_drawing() -> None:
    # Spots 1 and 2 joined through spot 3: the example of the package docstring.
    p = Position([[[1, 3, 2, 3]]], {1: 2, 2: 2, 3: 1})
    assert str(p) == "1a1a"
    assert p.canonical() == Position.parse("1a1a").canonical()
    # Dead spots may stay in the walks; printing leaves them out.
    q = Position([[[1, 9, 3, 9]], [[9]]], {1: 2, 3: 2, 9: 0})
    assert str(q) == "11"
    with pytest.raises(BadPosition):
        Position([[[1, 2]]], {1: 3, 2: 3})  # a 3-life spot must stand alone
    with pytest.raises(BadPosition):
        Position([[[1]]], {})


def test_start_children_on_paper_and_up_to_equivalence() -> None:
    for n, (moves, distinct) in enumerate(zip(START_MOVES, START_CHILDREN, strict=True), 1):
        children = Position.start(n).children()
        assert len(children) == moves
        assert len({c.canonical() for c in children}) == distinct


def test_two_spot_children() -> None:
    keys = {c.canonical() for c in Position.parse("0*2").children()}
    assert keys == {"0.AB|AB", "1a1a"}


def test_play_describes_the_split() -> None:
    p = Position.start(3)
    # Loop at spot 1 with spot 2 inside it: the first part is the loop's inside.
    loop = Move(0, (0, 0), (0, 0), frozenset({1}))
    child = p.play(loop)
    assert p.spots_of(loop) == (1, 1)
    assert child.regions == (((1, 4), (2,)), ((1, 4), (3,)))
    assert child.lives == 8
    join = Move(0, (0, 0), (2, 0))
    assert p.play(join).regions == (((1, 4, 3, 4), (2,)),)


def test_illegal_moves_raise() -> None:
    p = Position.parse("1a1a")
    for bad in [
        Move(0, (0, 1), (0, 3)),  # the two corners of one 1-life spot
        Move(0, (0, 1), (0, 1)),  # a loop at a 1-life spot
        Move(1, (0, 0), (0, 2)),  # no such region
        Move(0, (0, 0), (0, 9)),  # no such corner
        Move(0, (0, 0), (0, 2), frozenset({5})),  # no such boundary
    ]:
        with pytest.raises(BadPosition):
            p.play(bad)


def test_distinct_moves_give_the_same_children() -> None:
    rng = random.Random(7)
    for n in range(1, 7):
        for p in random_game(n, rng):
            every = {c.canonical() for c in p.children()}
            distinct = {p.play(m).canonical() for m in p.moves(distinct=True)}
            assert every == distinct


@pytest.mark.parametrize("n", range(1, 8))
def test_random_games_lose_one_life_per_move(n: int) -> None:
    rng = random.Random(n)
    for _ in range(4):
        game = random_game(n, rng)
        assert 2 * n <= len(game) - 1 <= 3 * n - 1
        for before, after in pairwise(game):
            assert after.lives == before.lives - 1
            Position(after.regions, after.spots)  # every child is a valid position
        assert not any(True for _ in game[-1].moves())
        assert game[-1].canonical() == ""
