"""Палочки (``border=True``): the outline drawn from the start; rules, records, the solver
against plain minimax, and every AI level."""

from __future__ import annotations

import json
import pickle
import random

import pytest

import engine
from engine import BadOptions, BadRecord, IllegalMove
from engine.boxes import Game, Move
from engine.boxes.ai import LEVELS, choose_move
from engine.boxes.board import board_for
from engine.boxes.solver import Searcher, value
from engine.boxes.tables import lookup

from .helpers import brute_force, solve

# Values of the empty Палочки board (first player's boxes minus second's, perfect play),
# computed by the exact solver and by a brute force over every set of inner lines
# (``python -m bench.boxes_border``: numba minimax from first principles, no shared code);
# the small ones are checked by this file's brute force again below.
BORDER_SOLVED = {
    (1, 2): 2,
    (1, 3): 3,
    (1, 4): 4,
    (2, 2): -4,
    (2, 3): 6,
    (2, 4): 0,
    (2, 5): 2,
    (3, 3): 7,
    (3, 4): 4,
    (3, 5): 5,
    (4, 4): 0,
}


# -- rules ------------------------------------------------------------------------------------


def test_three_by_five_has_22_first_moves_not_38() -> None:
    assert len(Game(3, 5).legal_moves()) == 38
    g = Game(3, 5, border=True)
    assert len(g.legal_moves()) == 22
    assert g.border and not Game(3, 5).border
    outline = set(g.outline_lines())
    assert len(outline) == 16 and not outline & set(g.legal_moves())
    assert all(m.r in (0, 3) for m in outline if m.orient == "h")
    assert all(m.c in (0, 5) for m in outline if m.orient == "v")
    assert Game(3, 5).outline_lines() == []


def test_a_corner_box_closes_with_two_drawn_lines() -> None:
    g = Game(3, 5, border=True)
    assert g.box_sides(0, 0) == 2  # top and left are the outline
    g.play(Move("h", 1, 0))  # its bottom
    assert (g.turn, g.scores, g.box_sides(0, 0)) == (1, (0, 0), 3)
    g.play(Move("v", 0, 1))  # its right: closed by the second player, who moves again
    assert g.box_owner(0, 0) == 1
    assert (g.turn, g.scores) == (1, (0, 1))
    assert g.moves == [Move("h", 1, 0), Move("v", 0, 1)]
    assert list(g.drawn_lines()) == g.moves  # the outline is nobody's line
    assert g.line_owner(Move("h", 0, 0)) is None and g.is_outline(Move("h", 0, 0))
    assert not g.is_outline(Move("h", 1, 0))


def test_a_middle_box_still_needs_four() -> None:
    g = Game(3, 3, border=True)
    assert g.box_sides(1, 1) == 0 and g.box_sides(0, 1) == 1
    for m in (Move("h", 1, 1), Move("h", 2, 1), Move("v", 1, 1)):
        g.play(m)
    assert g.scores == (0, 0)
    g.play(Move("v", 1, 2))  # the fourth line, by the second player
    assert g.box_owner(1, 1) == 1 and g.scores == (0, 1)


def test_outline_lines_are_refused_with_their_own_code() -> None:
    g = Game(3, 3, border=True)
    with pytest.raises(IllegalMove) as e:
        g.play(g.parse_move("a4-b4"))
    assert e.value.code == "outline" and e.value.params == {"line": "a4-b4"}
    assert not g.is_legal(Move("v", 2, 3))
    assert g.ply == 0


def test_shapes_and_masks_draw_their_outline_holes_included() -> None:
    frame = Game(shape="frame", border=True)
    # 24 lines: the 12 of the edge and the 4 round the hole are drawn, 8 are left.
    assert len(frame.legal_moves()) == 8
    assert all(frame.box_sides(r, c) == 2 for r, c in frame.all_boxes() if (r, c) != (1, 1))
    g = Game(mask=["##", "#."], border=True)
    assert len(g.legal_moves()) == 2
    g.play(Move("v", 0, 1))  # closes (0, 1) at once: three of its sides are the outline
    assert g.scores == (1, 0) and g.turn == 0
    for name in ("cross", "ring", "diamond", "heart"):
        s = Game(shape=name, border=True)
        assert len(s.legal_moves()) == len(s.all_lines()) - len(s.outline_lines())


@pytest.mark.parametrize("options", [{"rows": 1, "cols": 1}, {"mask": ["#.", ".#"]}])
def test_a_box_with_only_outline_sides_is_refused(options: dict) -> None:
    Game(**options)  # fine without the outline
    with pytest.raises(BadOptions):
        Game(**options, border=True)


@pytest.mark.parametrize("bad", ["yes", 1, None])
def test_border_is_a_boolean(bad: object) -> None:
    with pytest.raises(BadOptions):
        Game(3, 3, border=bad)  # type: ignore[arg-type]


def test_three_players_play_palochki_to_the_end() -> None:
    g = engine.random_playout(Game(3, 4, players=3, border=True), random.Random(5))
    assert g.over and sum(g.scores) == 12
    assert g.ply == 17


# -- records ------------------------------------------------------------------------------


def test_records_carry_the_border_and_old_ones_load_without() -> None:
    g = Game(3, 5, border=True)
    engine.random_playout(g, random.Random(1), max_moves=9)
    record = g.to_json()
    assert record["border"] is True
    assert "border" not in Game(3, 5).to_json() and "border" not in Game(3, 5).options
    back = engine.load(json.loads(json.dumps(record)))
    assert isinstance(back, Game)
    assert back.border and back.drawn_mask == g.drawn_mask and back.scores == g.scores
    assert back.moves == g.moves
    old = {"kind": "boxes", "v": 1, "rows": 3, "cols": 5, "players": 2, "lines": [5, 21]}
    assert not Game.from_json(old).border
    with pytest.raises(BadRecord):
        Game.from_json({**old, "border": "yes"})
    # A Палочки record cannot draw an outline line as a move.
    with pytest.raises(BadRecord):
        Game.from_json({**old, "border": True, "lines": [0]})
    assert pickle.loads(pickle.dumps(g)).drawn_mask == g.drawn_mask
    assert g.copy().border
    text = engine.text_record(g)
    read = engine.read_text_record(text)
    assert isinstance(read, Game) and read.drawn_mask == g.drawn_mask
    steps = list(h.copy() for h in g.replay())
    assert steps[0].border and steps[0].ply == 0 and steps[-1].drawn_mask == g.drawn_mask
    rematch = Game(**g.options)
    assert rematch.border and rematch.ply == 0


def test_openspiel_numbers_stay_those_of_the_rectangle() -> None:
    g = Game(2, 2, border=True)
    assert g.to_action(Move("h", 1, 0)) == 2 == Game(2, 2).to_action(Move("h", 1, 0))
    assert g.from_action(0) == Move("h", 0, 0) and g.is_outline(g.from_action(0))


# -- solver ---------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [(1, 2), (1, 3), (1, 4), (2, 2), (2, 3), (2, 4), (3, 3)])
def test_empty_board_values_by_solver_and_brute_force(size: tuple[int, int]) -> None:
    rows, cols = size
    board = board_for(tuple("#" * cols for _ in range(rows)))
    assert brute_force(board)(board.outline) == BORDER_SOLVED[size]
    assert solve(Game(rows, cols, border=True)) == BORDER_SOLVED[size]
    assert solve(Game(cols, rows, border=True)) == BORDER_SOLVED[size]


@pytest.mark.parametrize("size", [(3, 4), (2, 5), (3, 5), (4, 4)])
def test_bigger_values_match_the_bench_brute_force(size: tuple[int, int]) -> None:
    assert solve(Game(*size, border=True)) == BORDER_SOLVED[size]


def test_border_changes_the_game() -> None:
    # Plain 2×3 is a loss by 2 for the first player (Barker & Korf); Палочки 2×3 a win by 6.
    assert solve(Game(2, 3)) == -2
    assert solve(Game(2, 3, border=True)) == 6


@pytest.mark.parametrize("mask", [("###", "###"), ("###", "#.#", "###"), ("##", "##", "##")])
def test_search_equals_minimax_on_every_palochki_position(mask: tuple[str, ...]) -> None:
    board = board_for(mask)
    exact = brute_force(board)
    inner = [n for n in board.lines if not board.outline >> n & 1]
    searcher = Searcher(board)
    for bits in range(1 << len(inner)):
        drawn = board.outline | sum(1 << n for i, n in enumerate(inner) if bits >> i & 1)
        searcher.set_position(drawn)
        assert searcher.value() == exact(drawn), bin(drawn)


def test_tables_never_answer_for_a_position_they_do_not_hold() -> None:
    # The shipped tables hold positions of at most 5 lines; 3×3's outline alone has 12, so
    # the table is silent and the search answers (the position means the same either way).
    g = Game(3, 3, border=True)
    assert lookup(g.board, g.drawn_mask) is None
    assert value(g) == BORDER_SOLVED[(3, 3)]


# -- AI ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize(
    "options",
    [{"rows": 3, "cols": 5}, {"rows": 5, "cols": 5}, {"shape": "frame"}, {"shape": "cross"}],
)
def test_every_level_plays_palochki_to_the_end(level: str, options: dict) -> None:
    g = Game(**options, border=True)
    while not g.over:
        g.play(choose_move(g, level, seed=g.ply, time_limit=0.3))
    assert sum(g.scores) == len(g.all_boxes())
    assert g.ply == len(g.all_lines()) - len(g.outline_lines())


@pytest.mark.parametrize("size", [(2, 3), (3, 3), (3, 4)])
def test_hard_plays_only_best_moves_with_the_border(size: tuple[int, int]) -> None:
    rng = random.Random(size[1])
    g = Game(*size, border=True)
    while not g.over:
        before = solve(g)
        if g.turn == 0:
            m = choose_move(g, "hard", seed=rng.randrange(1000), time_limit=2.0)
        else:
            m = rng.choice(g.legal_moves())
        mover, score = g.turn, g.scores[g.turn]
        g.play(m)
        gained = g.scores[mover] - score
        after = 0 if g.over else solve(g)
        got = gained + (after if g.turn == mover else -after)
        if mover == 0:
            assert got == before, (g.moves, m)
