"""The exact solver against published values, against plain minimax, and on hand-built chain
and loop endgames (the shipped opening tables: test_tables.py)."""

from __future__ import annotations

import random

import pytest

from engine.boxes import Game, Move
from engine.boxes.ai import Position
from engine.boxes.board import board_for
from engine.boxes.solver import Searcher, loony_value, value

from .helpers import brute_force, position, solve

# Solved values of the empty board, first player's boxes minus second's, perfect play
# (Barker & Korf, "Solving Dots-And-Boxes", AAAI 2012, and earlier work they cite).
SOLVED = {
    (1, 1): -1,
    (1, 2): 0,
    (1, 3): -1,
    (2, 2): 2,
    (2, 3): -2,
    (2, 4): 2,
    (2, 5): -2,
    (3, 3): -3,
    (3, 4): 0,
    (3, 5): -1,
    (4, 4): 0,
    (4, 5): 0,
}


@pytest.mark.parametrize("size", [(1, 1), (1, 2), (1, 3), (2, 2), (2, 3), (2, 4)])
def test_search_matches_published_values(size: tuple[int, int]) -> None:
    rows, cols = size
    assert solve(Game(rows, cols)) == SOLVED[size]
    if rows != cols and rows * cols <= 6:
        assert solve(Game(cols, rows)) == SOLVED[size]


def test_three_by_three_from_the_shipped_table() -> None:
    g = Game(3, 3)
    assert value(g) == SOLVED[(3, 3)]
    for m in g.all_lines():  # every first move loses by 3
        child = g.copy()
        child.play(m)
        assert value(child) == -SOLVED[(3, 3)] == 3


def test_value_is_none_when_out_of_budget() -> None:
    assert value(Game(4, 4), node_limit=500) is None
    assert value(Game(4, 4), time_limit=0.05) is None


def test_value_rejects_more_players() -> None:
    with pytest.raises(ValueError):
        value(Game(2, 2, players=3))


@pytest.mark.parametrize("mask", [("##", "##"), ("#.", "##"), ("##", "#."), ("###",)])
def test_search_equals_plain_minimax_on_every_position(mask: tuple[str, ...]) -> None:
    board = board_for(mask)
    exact = brute_force(board)
    searcher = Searcher(board)
    for drawn in range(1 << board.nlines):
        if drawn & ~board.full:
            continue
        searcher.set_position(drawn)
        assert searcher.value() == exact(drawn), bin(drawn)


@pytest.mark.parametrize(
    "options",
    [
        {"rows": 2, "cols": 3},
        {"mask": ["#.#", "###"]},
        {"mask": ["##.", "###"]},
        {"rows": 1, "cols": 5},
    ],
)
def test_search_equals_plain_minimax_on_random_positions(options: dict) -> None:
    rng = random.Random(7)
    g0 = Game(**options)
    exact = brute_force(g0.board)
    searcher = Searcher(g0.board)
    for _ in range(150):
        g = Game(**options)
        for _ in range(rng.randrange(len(g.all_lines()))):
            g.play(rng.choice(g.legal_moves()))
        searcher.set_position(g.drawn_mask)
        v = searcher.value()
        assert v == exact(g.drawn_mask)
        best, lines = searcher.best_lines()
        assert best == v and lines
        for n in lines:  # every line it calls best is best
            after = g.copy()
            mover = after.turn
            after.play(after.line_move(n))
            k = after.scores[mover] - g.scores[mover]
            assert (k + exact(after.drawn_mask) if k else -exact(after.drawn_mask)) == v


@pytest.mark.parametrize("mask", [("###", "###", "###"), ("###", "#.#", "###"), ("####", "####")])
def test_search_equals_plain_minimax_when_only_sacrifices_are_left(mask: tuple[str, ...]) -> None:
    """Positions with no safe line and no capture, where one line stands for each run of
    boxes with two sides (a single box, a pair opened in the middle, one opening of a long
    chain or loop) and long openings are cut by their ceiling."""
    rng = random.Random(3)
    board = board_for(mask)
    exact = brute_force(board)
    searcher = Searcher(board)
    seen = 0
    while seen < 25:
        g = Game(mask=list(mask))
        while len(g.legal_moves()) > 12:
            pos = Position(g)
            g.play(g.line_move(rng.choice(pos.safe_lines() or pos.undrawn())))
        searcher.set_position(g.drawn_mask)
        if searcher.three or searcher.free_capture() is not None or Position(g).safe_lines():
            continue
        seen += 1
        best, lines = searcher.best_lines()
        assert best == exact(g.drawn_mask)
        for n in lines:
            after = g.drawn_mask | 1 << n
            k = sum(all(after >> m & 1 for m in board.box_lines[b]) for b in board.line_boxes[n])
            assert (k + exact(after) if k else -exact(after)) == best


@pytest.mark.parametrize(
    "mask",
    [("###", "###", "###"), ("####", "####"), ("###", "#.#", "###"), (".##", "###", "##.")],
)
def test_shape_keys_give_the_values_of_plain_minimax(mask: tuple[str, ...]) -> None:
    """Every position keyed by its strings-and-coins shape (``shape_from=0``), one table for
    all of them on a board, so positions that share a key meet: endgames of mixed play with
    11-13 lines left (chains, loops, junctions, boxes being eaten)."""
    rng = random.Random(11)
    board = board_for(mask)
    exact = brute_force(board)
    searcher = Searcher(board, shape_from=0)
    for _ in range(60):
        g = Game(mask=list(mask))
        left = rng.randrange(11, 14)
        while len(g.legal_moves()) > left:
            pos = Position(g)
            pick = pos.safe_lines() if rng.random() < 0.7 else []
            g.play(g.line_move(rng.choice(pick or pos.undrawn())))
        searcher.set_position(g.drawn_mask)
        assert searcher.value() == exact(g.drawn_mask), g.drawn_mask
    # Positions (drawn lines) searched, against their keys: some shared one.
    assert len({info[0] for info in searcher.info.values()}) < len(searcher.info)


def test_isomorphic_positions_share_a_shape_key() -> None:
    """2×3 split into two chains of three, as two rows or as two L shapes: one key; one
    chain of six through every box: another."""
    s = Searcher(board_for(("###", "###")), shape_from=0)

    def key(undrawn: list[Move]) -> object:
        s.set_position(position(Game(2, 3), undrawn).drawn_mask)
        return s.key()

    rows = [Move("v", r, c) for r in (0, 1) for c in range(4)]
    ells = [Move("h", 0, 0), Move("h", 1, 0), Move("v", 1, 1), Move("h", 2, 1)]
    ells += [Move("h", 0, 1), Move("v", 0, 2), Move("h", 1, 2), Move("h", 2, 2)]
    snake = [Move("v", 0, c) for c in range(3)] + [Move("h", 1, 2)]
    snake += [Move("v", 1, c) for c in range(3)]
    assert key(rows) == key(ells)
    assert key(rows) != key(snake)


def test_loony_values() -> None:
    assert loony_value((), ()) == 0
    assert loony_value((1,), ()) == -1
    assert loony_value((3,), ()) == -3
    assert loony_value((3, 3), ()) == -2  # the opponent keeps control: 1 - 2 + 3
    assert loony_value((1, 3), ()) == 2  # give the single box, get the chain
    assert loony_value((), (4,)) == -4
    # Open the loop; the opponent declines all four (we take 4) and we must open the chain.
    assert loony_value((5,), (4,)) == -1


# -- hand-built endgames: declining the last boxes is the only winning move ------------------------


def two_chains_opened() -> Game:
    """2×3: two horizontal chains of three; the top one opened at its left end."""
    undrawn = [Move("v", 0, c) for c in (1, 2, 3)] + [Move("v", 1, c) for c in range(4)]
    return position(Game(2, 3), undrawn)


def test_chain_endgame_all_but_two() -> None:
    g = two_chains_opened()
    assert solve(g) == 2
    # Take the first box …
    g.play(Move("v", 0, 1))
    s = Searcher(g.board)
    s.set_position(g.drawn_mask)
    n_take, n_decline = g.line_number(Move("v", 0, 2)), g.line_number(Move("v", 0, 3))
    values = s.move_values()
    # … then hand the last two back (+1); taking them too loses (−1); nothing else wins.
    assert values[n_decline] == 1 and values[n_take] == -1
    assert [n for n, v in values.items() if v > 0] == [n_decline]
    assert s.best_lines() == (1, [n_decline])
    assert brute_force(g.board)(g.drawn_mask) == 1


def loop_opened_with_chain() -> Game:
    """A 2×2 loop (opened by the opponent) above a chain of five."""
    g = Game(mask=["##...", "##...", "#####"])
    undrawn = [Move("h", 1, 0), Move("h", 1, 1), Move("v", 1, 1)]
    undrawn += [Move("v", 2, c) for c in range(6)]
    return position(g, undrawn)


def test_loop_endgame_all_but_four() -> None:
    g = loop_opened_with_chain()
    assert g.box_sides(0, 0) == 3 and g.box_sides(0, 1) == 3
    s = Searcher(g.board)
    s.set_position(g.drawn_mask)
    values = s.move_values()
    decline = g.line_number(Move("v", 1, 1))
    # Taking the loop (4) and opening the chain (−5) nets −1; declining all four nets +1.
    assert values[decline] == 1
    assert [n for n, v in values.items() if v > 0] == [decline]
    assert solve(g) == 1 == brute_force(g.board)(g.drawn_mask)


def test_shaped_board_values_agree_with_minimax() -> None:
    g = Game(mask=[".#.", "###", ".#."])
    assert solve(g) == brute_force(g.board)(0)
    h = Game(shape="frame")
    outer = [Move("h", 0, c) for c in range(3)] + [Move("v", r, 0) for r in range(3)]
    outer += [Move("h", 3, c) for c in range(3)] + [Move("v", 0, 3)]
    for m in outer:
        h.play(m)
    assert solve(h) == brute_force(h.board)(h.drawn_mask)


@pytest.mark.slow  # about 10 s
def test_search_solves_three_by_three_without_the_table() -> None:
    assert solve(Game(3, 3)) == -3


@pytest.mark.parametrize("mask", [("######",), ("####", "####"), ("###", "###", "###")])
def test_chains_being_eaten_against_plain_minimax(mask: tuple[str, ...]) -> None:
    """A capture :meth:`Searcher.settle_capture` takes without search (a free box, or a box
    of a chain with two more behind it) reaches the position's value, and where the mover
    owns a chain's last two (the search's lower bound of 0) the value is at least 0."""
    rng = random.Random(5)
    board = board_for(mask)
    exact = brute_force(board)
    searcher = Searcher(board)
    eaten = ends = 0
    for _ in range(120):
        g = Game(mask=list(mask))
        left = rng.randrange(2, 14)
        while len(g.legal_moves()) > left:  # mostly safe lines, so that long chains form
            pos = Position(g)
            pick = pos.safe_lines() if rng.random() < 0.8 else []
            g.play(g.line_move(rng.choice(pick or pos.undrawn())))
        searcher.set_position(g.drawn_mask)
        v = exact(g.drawn_mask)
        n = searcher.settle_capture()
        if n is not None:
            eaten += searcher.free_capture() is None
            after = g.drawn_mask | 1 << n
            k = sum(all(after >> m & 1 for m in board.box_lines[b]) for b in board.line_boxes[n])
            assert k and k + exact(after) == v, g.drawn_mask
        if searcher._chain_end():
            ends += 1
            assert v >= 0, g.drawn_mask
        assert searcher.value() == v
    assert eaten >= 3 and ends >= 5, (eaten, ends)  # both cases are met
