"""Moves on paper: counts from the start, children, the notation and its round trips."""

from __future__ import annotations

import gc
import random

import pytest

from engine import BadNotation
from engine.sprouts import Game
from engine.sprouts.game import _table
from engine.sprouts.moves import Move, MoveTable
from engine.sprouts.position import Position

# Facts copied from the project reference (Sprouts section), n = 1..6.
START_MOVES = [1, 5, 15, 38, 90, 207]  # n * 2^(n-1) + n(n-1)/2
START_CHILDREN = [1, 2, 3, 3, 4, 4]  # distinct children up to equivalence


@pytest.mark.parametrize("n", range(1, 7))
def test_start_moves_on_paper(n: int) -> None:
    g = Game(n)
    moves = g.legal_moves()
    assert len(moves) == START_MOVES[n - 1] == n * 2 ** (n - 1) + n * (n - 1) // 2
    assert len(set(moves)) == len(moves)
    texts = [g.format_move(m) for m in moves]
    assert len(set(texts)) == len(texts)


@pytest.mark.parametrize("n", range(1, 7))
def test_start_children_match_the_position_model(n: int) -> None:
    g = Game(n)
    table = _table(g.drawing)
    p = g.position
    paper = {p.play(table.choices[m].pmove).canonical() for m in g.legal_moves()}
    model = {c.canonical() for c in Position.start(n).children()}
    assert paper == model
    assert len(paper) == START_CHILDREN[n - 1]


@pytest.mark.parametrize(("n", "seed"), [(3, 0), (5, 1), (7, 2), (9, 3)])
def test_pairs_named_one_at_a_time_agree_with_the_whole_table(n: int, seed: int) -> None:
    """A tap names one pair's moves (from the position's moves between those two spots);
    the whole table names them all from one pass: same moves, order, names and choices."""
    rng = random.Random(seed)
    g = Game(n)
    while not g.over:
        whole = MoveTable(g.drawing)
        every = whole.moves
        lazy = MoveTable(g.drawing)
        assert lazy.pairs == {(m.a, m.b) for m in every}  # no pair without a move
        pairs = sorted(lazy.pairs)
        rng.shuffle(pairs)
        by_pair = {p: lazy.between(*p) for p in pairs}
        assert [m for p in sorted(by_pair) for m in by_pair[p]] == every
        assert all(lazy.choice(m) == whole.choices[m] for m in every)
        assert lazy.between(n + 99, n + 99) == [] and lazy.choice(Move(1, n + 99)) is None
        g.play(rng.choice(every))


def test_three_spot_start_notation() -> None:
    g = Game(3)
    texts = [g.format_move(m) for m in g.legal_moves()]
    assert texts[:5] == ["1-1", "1-1 [2]", "1-1 [3]", "1-1 [2,3]", "1-2"]
    assert "2-3" in texts and "3-3 [1,2]" in texts


def _played(n: int, seed: int, plies: int) -> Game:
    rng = random.Random(seed)
    g = Game(n)
    while not g.over and g.ply < plies:
        g.play(rng.choice(g.legal_moves()))
    return g


@pytest.mark.parametrize(("n", "seed", "plies"), [(3, 1, 3), (4, 2, 5), (5, 3, 6), (6, 5, 9)])
def test_every_move_round_trips_through_text(n: int, seed: int, plies: int) -> None:
    g = _played(n, seed, plies)
    moves = g.legal_moves()
    for m in moves:
        text = g.format_move(m)
        assert g.parse_move(text) == m
        assert Move.from_json(m.to_json()) == m
        # the order of the two spots does not matter
        if m.a != m.b and m.corner_a is None and m.corner_b is None:
            swapped = text.replace(f"{m.a}-{m.b}", f"{m.b}-{m.a}", 1)
            assert g.parse_move(swapped) == m


def test_qualifiers_tell_apart_moves_that_share_spots() -> None:
    # after a loop round nothing, its spot and the new spot share two regions; outside,
    # the curve may go round the loop either way (mirror pictures, both on paper)
    g = Game(1)
    g.play(g.parse_move("1-1"))
    texts = sorted(g.format_move(m) for m in g.legal_moves())
    assert texts == ["1-2 @in", "1-2 @out ccw", "1-2 @out cw"]
    assert {g.describe(m).face for m in g.legal_moves()} == {0, 1}


def test_parse_is_lenient_about_spacing_dashes_and_partial_lists() -> None:
    g = Game(4)
    m = g.parse_move("1-1 [2,3]")
    assert g.parse_move(" 1 – 1  [ 3 , 2 ] ") == m
    assert g.parse_move("2-1") == g.parse_move("1-2")


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", "bad_notation"),
        ("1", "bad_notation"),
        ("1-9", "no_such_spot"),
        ("1-1 [7]", "no_such_spot"),
        ("1-2 @9", "no_such_move"),
        ("1-2 [3]", "no_such_move"),
    ],
)
def test_bad_text(text: str, code: str) -> None:
    g = Game(4)
    with pytest.raises(BadNotation) as e:
        g.parse_move(text)
    assert e.value.code == code


def test_dead_spots_and_unjoinable_pairs_are_named() -> None:
    g = Game(2)
    g.play(g.parse_move("1-1"))  # 1 keeps one life, 3 is new with one
    g.play(g.parse_move("1-3 @in"))  # 1 and 3 are now dead
    with pytest.raises(BadNotation) as e:
        g.parse_move("1-2")
    assert e.value.code == "dead_spot"


def test_playing_leaves_no_reference_cycles() -> None:
    """A drawing keeps its move table: a table that kept its drawing made each dropped
    drawing, with its thousands of moves, garbage that only the cyclic collector frees (a
    full collection in a long game took up to 170 ms, inside a move)."""
    gc.collect()
    gc.disable()
    try:
        rng = random.Random(4)
        g = Game(6)
        for _ in range(8):
            a, b = rng.choice(sorted(_table(g.drawing).pairs))
            g.moves_between(a, b)
            g = g.copy()
            g.play(rng.choice(g.legal_moves()))
        del g
        assert gc.collect() == 0
    finally:
        gc.enable()
