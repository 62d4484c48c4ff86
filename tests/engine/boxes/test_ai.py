"""The AI levels: legal, deterministic for a seed, perfect where the issue asks for it, and the
chain-rule behaviour of each level."""

from __future__ import annotations

import gc
import random

import pytest

from engine.boxes import Game, Move
from engine.boxes.ai import (
    COST_PER_SECOND,
    DEFAULT_TIME_LIMIT,
    LEVELS,
    Position,
    UnknownLevel,
    choose_move,
    hard_budget,
)
from engine.boxes.solver import COST_ANALYSE, COST_NODE, OutOfBudget, value

from .helpers import position
from .test_solver import loop_opened_with_chain, two_chains_opened


def exact_after(game: Game, move: Move) -> int:
    """Exact value of ``move`` for the player making it."""
    child = game.copy()
    mover = game.turn
    child.play(move)
    k = child.scores[mover] - game.scores[mover]
    if child.over:
        return k
    v = value(child, time_limit=30)
    assert v is not None
    return k + v if child.turn == mover else -v


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize(
    "options",
    [
        {"rows": 2, "cols": 2},
        {"shape": "diamond", "players": 3},
        {"rows": 3, "cols": 4, "players": 4},
    ],
)
def test_levels_play_legal_games(level: str, options: dict) -> None:
    g = Game(**options)
    rng = random.Random(0)
    while not g.over:
        if g.turn == 0:
            m = choose_move(g, level, seed=g.ply, time_limit=0.2)
        else:
            m = rng.choice(g.legal_moves())
        assert g.is_legal(m)
        g.play(m)
    assert sum(g.scores) == len(g.all_boxes())


@pytest.mark.parametrize("level", LEVELS)
def test_deterministic_for_a_seed(level: str) -> None:
    g = Game(4, 4, players=2 if level != "hard" else 3)
    rng = random.Random(5)
    for _ in range(14):
        g.play(rng.choice(g.legal_moves()))
    before = g.to_json()
    moves = {choose_move(g, level, seed=11, time_limit=0.3) for _ in range(3)}
    assert len(moves) == 1 and g.to_json() == before


def test_bad_calls() -> None:
    with pytest.raises(UnknownLevel):
        choose_move(Game(), "grandmaster")
    g = Game(1, 1)
    for m in g.legal_moves():
        g.play(m)
    with pytest.raises(ValueError):
        choose_move(g, "easy")


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_takes_a_free_box(level: str) -> None:
    g = Game(3, 3)
    for m in [Move("h", 0, 0), Move("h", 1, 0), Move("v", 0, 0), Move("h", 3, 2)]:
        g.play(m)  # box (0,0) has three sides; its fourth side is free to take
    assert choose_move(g, level, seed=1) == Move("v", 0, 1)


def test_easy_gives_away_the_smallest_chain() -> None:
    # A chain of three on top, a single box below it: every line gives something away.
    undrawn = [Move("v", 0, c) for c in range(4)] + [Move("v", 1, 0), Move("v", 1, 1)]
    g = position(Game(mask=["###", "#.."]), undrawn)
    pos = Position(g)
    assert not pos.safe_lines()
    assert pos.giveaway(g.line_number(Move("v", 0, 0))) == 3
    for seed in range(5):
        assert choose_move(g, "easy", seed=seed) in (Move("v", 1, 0), Move("v", 1, 1))


def test_medium_and_hard_hand_back_the_last_two() -> None:
    g = two_chains_opened()
    g.play(Move("v", 0, 1))  # took the first box; two left in the chain, another chain waits
    assert choose_move(g, "easy", seed=0) == Move("v", 0, 2)  # greedy: takes them
    assert choose_move(g, "medium", seed=0) == Move("v", 0, 3)
    assert choose_move(g, "hard", seed=0) == Move("v", 0, 3)


def test_hard_declines_the_last_four_of_a_loop() -> None:
    assert choose_move(loop_opened_with_chain(), "hard", seed=0) == Move("v", 1, 1)


def test_long_chain_rule_parity() -> None:
    # The first player wants dots + long chains even: on rectangles the dots are (R+1)(C+1).
    for rows, cols in [(1, 1), (2, 2), (2, 3), (3, 3), (4, 4), (5, 5), (4, 6)]:
        g = Game(rows, cols)
        assert Position(g).wants_even_chains() == ((rows + 1) * (cols + 1) % 2 == 0)
        g.play(g.legal_moves()[0])
        assert Position(g).wants_even_chains() != ((rows + 1) * (cols + 1) % 2 == 0)


BOTH = -1


@pytest.mark.parametrize(
    ("options", "seat"),
    [
        ({"rows": 3, "cols": 3}, 0),
        ({"rows": 3, "cols": 3}, 1),
        ({"rows": 3, "cols": 3}, BOTH),
        ({"rows": 2, "cols": 3}, 0),
        ({"rows": 3, "cols": 2}, 1),
        ({"rows": 1, "cols": 3}, BOTH),
        ({"shape": "frame"}, BOTH),
        ({"mask": ["##.", "###", "###"]}, BOTH),  # a turned 3×3 less a corner: its table
    ],
)
def test_hard_is_perfect_on_small_boards(options: dict, seat: int) -> None:
    """Every move hard makes keeps the exact value, from the very first move."""
    rng = random.Random(seat)
    g = Game(**options)
    while not g.over:
        if seat in (g.turn, BOTH):
            m = choose_move(g, "hard", seed=g.ply)
            best = value(g, time_limit=30)
            assert exact_after(g, m) == best, f"ply {g.ply}"
        else:
            m = rng.choice(g.legal_moves())
        g.play(m)


def test_hard_is_perfect_on_five_by_five_with_thirty_lines_left() -> None:
    rng = random.Random(9)
    g = Game(5, 5)
    while len(g.legal_moves()) > 30:  # a safe-move greedy game up to there
        pos = Position(g)
        n = pos.any_capture()
        if n is None:
            n = rng.choice(pos.safe_lines() or pos.undrawn())
        g.play(g.line_move(n))
    checked = 0
    while not g.over and checked < 4:
        m = choose_move(g, "hard", seed=g.ply)
        assert exact_after(g, m) == value(g, time_limit=30)
        g.play(m)
        checked += 1


def test_paranoid_search_for_four_players() -> None:
    g = Game(2, 2, players=4)
    # Player 0 draws; then a chain of two is open to player 1, who takes it.
    for m in [Move("h", 0, 0), Move("h", 0, 1), Move("v", 0, 0), Move("v", 0, 2), Move("h", 1, 0)]:
        g.play(m)
    mover = g.turn
    m = choose_move(g, "hard", seed=3, time_limit=0.3)
    assert g.is_legal(m)
    before = g.scores[mover]
    g.play(m)
    assert g.scores[mover] > before  # (0,0) had three sides: hard takes it


def mixed_five_by_five(left: int, seed: int) -> Game:
    """A 5×5 game played down to ``left`` lines left with safe lines (random among them),
    taking boxes, and a random line one time in three (odder positions, bigger searches)."""
    rng = random.Random(seed)
    g = Game(5, 5)
    while len(g.legal_moves()) > left:
        pos = Position(g)
        if rng.random() < 1 / 3:
            n = rng.choice(pos.undrawn())
        else:
            capture = pos.any_capture()
            n = rng.choice(pos.safe_lines() or pos.undrawn()) if capture is None else capture
        g.play(g.line_move(n))
    return g


def test_hard_budget_counts_nodes_and_fresh_analyses() -> None:
    g = mixed_five_by_five(28, 0)
    full = Position(g)
    best = full.best_lines()
    assert 0 < full.analyses < full.nodes
    assert full.cost() == full.nodes * COST_NODE + full.analyses * COST_ANALYSE
    assert gc.isenabled()  # the search holds off the collector only while it runs
    # The budget is a pure function of the position: the same cost again fits exactly...
    again = Position(g)
    again.cost_limit = full.cost()
    assert again.best_lines() == best
    assert again.cost() == full.cost()
    # ...and a search stops as soon as its cost passes the budget.
    short = Position(g)
    short.cost_limit = full.cost() // 2
    with pytest.raises(OutOfBudget):
        short.best_lines()
    assert full.cost() // 2 < short.cost() <= full.cost() // 2 + COST_NODE + COST_ANALYSE


def test_hard_budget_follows_the_time_limit() -> None:
    assert hard_budget(DEFAULT_TIME_LIMIT["hard"]) == int(1.8 * COST_PER_SECOND)
    assert hard_budget(0.9) < hard_budget(1.8)
