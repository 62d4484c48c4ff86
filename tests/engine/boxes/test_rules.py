"""Rules, options, notation, numbering, shapes, records and the read-only views."""

from __future__ import annotations

import json
import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine import BadNotation, BadOptions, BadRecord, GameOver, IllegalMove
from engine.boxes import ILLEGAL_CODES, SHAPES, Game, Move

from .helpers import position

# -- boards and options ------------------------------------------------------------------------


def test_defaults_and_presets() -> None:
    g = Game()
    assert (g.rows, g.cols, g.players, g.turn, g.scores) == (3, 3, 2, 0, (0, 0))
    assert len(g.legal_moves()) == 24
    sizes = {name: (Game.preset(name).rows, Game.preset(name).cols) for name in Game.PRESETS}
    assert sizes == {"quick": (3, 3), "classic": (5, 5), "big": (8, 8)}
    assert len(Game.preset("classic").legal_moves()) == 60  # 6×6 dots
    assert engine.new("boxes", preset="big").rows == 8
    with pytest.raises(BadOptions):
        Game.preset("huge")


@pytest.mark.parametrize(("rows", "cols"), [(1, 1), (1, 12), (12, 1), (12, 12), (4, 7)])
def test_rectangle_line_count(rows: int, cols: int) -> None:
    g = Game(rows, cols)
    assert len(g.legal_moves()) == (rows + 1) * cols + rows * (cols + 1)
    assert len(g.all_boxes()) == rows * cols


@pytest.mark.parametrize(
    "options",
    [
        {"rows": 0},
        {"cols": 13},
        {"rows": "3"},
        {"players": 1},
        {"players": 5},
        {"shape": "moon"},
        {"mask": []},
        {"mask": ["...", "..."]},
        {"mask": ["##", "#"]},
        {"mask": ["#?"]},
        {"mask": ["##"], "shape": "cross"},
        {"mask": ["##", "##"], "rows": 3},
        {"mask": ["#" * 13]},
    ],
)
def test_bad_options(options: dict) -> None:
    with pytest.raises(BadOptions):
        Game(**options)


def test_options_restart_the_same_game() -> None:
    for g in (Game(2, 5, players=3), Game(shape="heart"), Game(mask=["#.#", "###"])):
        fresh = Game(**g.options)
        assert fresh.mask == g.mask and fresh.players == g.players
        assert fresh.to_json() == g.to_json()
    assert Game(mask=[[1, 1], [1, 1]]).options == {"rows": 2, "cols": 2, "players": 2}


# -- the rules ------------------------------------------------------------------------------------


def test_box_scores_and_gives_exactly_one_extra_move() -> None:
    g = Game(1, 1)
    for m in (Move("h", 0, 0), Move("h", 1, 0), Move("v", 0, 0)):
        g.play(m)
    assert g.turn == 1  # three lines by players 0, 1, 0: player 1 draws the fourth
    g.play(Move("v", 0, 1))
    assert g.scores == (0, 1) and g.over
    assert g.result is not None and g.result.winner == 1 and g.legal_moves() == []


def test_two_boxes_with_one_line_still_one_extra_move() -> None:
    g = position(Game(1, 2), [Move("v", 0, 1)])
    mover = g.turn
    g.play(Move("v", 0, 1))
    assert g.scores[mover] == 2 and g.over  # both boxes, the game ends


def test_completing_is_optional() -> None:
    g = position(Game(1, 3), [Move("v", 0, 0), Move("v", 0, 3), Move("h", 0, 2)])
    assert g.box_sides(0, 0) == 3 and g.is_legal(Move("v", 0, 0))
    mover, before = g.turn, g.scores
    g.play(Move("h", 0, 2))  # declines the box at the left end: legal, scores nothing
    assert g.scores == before and g.turn != mover and g.box_sides(0, 0) == 3


@pytest.mark.parametrize("players", [3, 4])
def test_turn_order_with_extra_moves(players: int) -> None:
    g = Game(2, 2, players=players)
    turns = []
    rng = random.Random(players)
    while not g.over:
        before, mover = g.scores, g.turn
        turns.append(mover)
        g.play(rng.choice(g.legal_moves()))
        gained = g.scores[mover] - before[mover]
        assert 0 <= gained <= 2
        if not g.over:
            assert g.turn == (mover if gained else (mover + 1) % players)
    assert sum(g.scores) == 4
    assert set(turns) <= set(range(players))


def test_three_players_scripted() -> None:
    g = Game(1, 2, players=3)
    order = []
    for m in [Move("h", 0, 0), Move("h", 1, 0), Move("v", 0, 0), Move("v", 0, 1)]:
        order.append(g.turn)
        g.play(m)
    # P0, P1, P2 draw three sides; P0 closes box (0,0) and moves again.
    assert order == [0, 1, 2, 0] and g.turn == 0 and g.scores == (1, 0, 0)
    g.play(Move("h", 0, 1))
    assert g.turn == 1
    g.play(Move("h", 1, 1))
    assert g.turn == 2
    g.play(Move("v", 0, 2))
    assert g.scores == (1, 0, 1) and g.result is not None  # over
    assert g.result.winner is None  # a tie of the top two


def test_illegal_moves_change_nothing() -> None:
    g = Game(2, 2)
    g.play(Move("h", 0, 0))
    before = g.to_json()
    cases = {
        "drawn": Move("h", 0, 0),
        "off_board": Move("h", 3, 0),
        "not_a_move": "h00",
    }
    for code, move in cases.items():
        with pytest.raises(IllegalMove) as e:
            g.play(move)  # type: ignore[arg-type]
        assert e.value.code == code
        assert code in ILLEGAL_CODES
    for bad in (Move("v", 0, 3), Move("d", 0, 0), Move("h", -1, 0), Move("h", 0, True)):
        assert not g.is_legal(bad)
    assert g.to_json() == before
    shaped = Game(mask=["#.", "##"])
    with pytest.raises(IllegalMove) as e:
        shaped.play(Move("h", 0, 1))
    assert e.value.code == "no_line"
    g.resign(0)
    with pytest.raises(GameOver):
        g.play(Move("h", 0, 1))


def test_every_raised_code_has_a_message() -> None:
    for code, text in ILLEGAL_CODES.items():
        assert code and text
    assert {"drawn", "off_board", "no_line", "not_a_move", "bad_notation"} <= set(ILLEGAL_CODES)


# -- notation and numbering ----------------------------------------------------------------------


def test_notation_examples() -> None:
    g = Game(3, 3)  # dots a..d, rows 1..4 from the bottom
    assert g.format_move(Move("h", 0, 0)) == "a4-b4"  # top-left line
    assert g.format_move(Move("v", 2, 0)) == "a1-a2"  # bottom-left line
    assert g.parse_move("b3-c3") == Move("h", 1, 1)
    for text in ("c3-b3", "B3C3", " b3 – c3 ", "b3 c3", "b3—c3", "c3:b3"):
        assert g.parse_move(text) == Move("h", 1, 1)
    assert g.parse_move("d1-d2") == Move("v", 2, 3)
    for bad in ("b3-d3", "b3-c4", "b3-b3", "e1-e2", "a0-b0", "a5-b5", "b3", "h 0 0", ""):
        with pytest.raises(BadNotation):
            g.parse_move(bad)


@pytest.mark.parametrize(
    "options", [{"rows": 1, "cols": 1}, {"rows": 12, "cols": 12}, {"shape": "heart"}]
)
def test_notation_round_trip(options: dict) -> None:
    g = Game(**options)
    texts = set()
    for m in g.all_lines():
        text = g.format_move(m)
        assert g.parse_move(text) == m
        a, b = text.split("-")
        assert g.parse_move(f"{b}-{a}") == m
        texts.add(text)
    assert len(texts) == len(g.all_lines())


def test_openspiel_numbering() -> None:
    R, C = 2, 3
    g = Game(R, C)
    assert g.to_action(Move("h", 0, 0)) == 0
    assert g.to_action(Move("h", 2, 2)) == 2 * C + 2
    assert g.to_action(Move("v", 0, 0)) == (R + 1) * C
    assert g.to_action(Move("v", 1, 3)) == (R + 1) * C + 1 * (C + 1) + 3
    numbers = sorted(g.to_action(m) for m in g.all_lines())
    assert numbers == list(range((R + 1) * C + R * (C + 1)))
    for n in numbers:
        assert g.to_action(g.from_action(n)) == n
    with pytest.raises(IllegalMove):
        g.from_action(len(numbers))
    with pytest.raises(BadOptions):
        Game(shape="cross").to_action(Move("h", 0, 2))


# -- shapes ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_shapes_lines_border_boxes(name: str) -> None:
    g = Game(shape=name)
    boxes = set(g.all_boxes())
    assert len(boxes) == sum(row.count("#") for row in SHAPES[name])
    for m in g.all_lines():
        above_left = (m.r - 1, m.c) if m.orient == "h" else (m.r, m.c - 1)
        touching = {above_left, (m.r, m.c)}
        assert touching & boxes, f"{m} borders no box"
    expected = sum(
        1
        for o, rr, cc in [("h", r, c) for r in range(g.rows + 1) for c in range(g.cols)]
        + [("v", r, c) for r in range(g.rows) for c in range(g.cols + 1)]
        if g.has_line(Move(o, rr, cc))
    )
    assert expected == len(g.all_lines())
    engine.random_playout(g, random.Random(1))
    assert sum(g.scores) == len(boxes)


def test_ring_hole_is_framed_but_not_a_box() -> None:
    g = Game(shape="ring")
    assert not g.has_box(2, 2) and g.has_box(1, 2)
    assert g.has_line(Move("h", 2, 2))  # the hole's top edge belongs to the box above
    assert not g.has_line(Move("v", 2, 3))  # between the two hole cells: no line
    engine.random_playout(g, random.Random(2))
    assert g.box_owner(2, 2) is None and sum(g.scores) == 32


# -- views for the renderer -----------------------------------------------------------------------


def test_owners_and_last_turn() -> None:
    g = Game(1, 3)
    for m in [Move("h", 0, 0), Move("h", 1, 0), Move("v", 0, 0)]:
        g.play(m)  # P0, P1, P0: box (0,0) has three sides
    assert g.last_turn == [Move("v", 0, 0)] and g.last_player == 0
    g.play(Move("v", 0, 1))  # P1 takes it and moves again
    assert g.turn == 1 and g.last_turn == [Move("v", 0, 1)]
    g.play(Move("h", 0, 1))  # P1's turn ends
    assert g.turn == 0 and g.last_turn == [Move("v", 0, 1), Move("h", 0, 1)]
    assert g.last_player == 1 and g.taken_boxes() == {(0, 0): 1}
    for m in [Move("h", 0, 2), Move("h", 1, 2), Move("v", 0, 3), Move("h", 1, 1)]:
        g.play(m)  # P0, P1, P0, P1
    g.play(Move("v", 0, 2))  # P0 closes two boxes with one line: the last line
    assert g.over and g.last_turn == [Move("v", 0, 2)] and g.scores == (2, 1)
    assert g.taken_boxes() == {(0, 0): 1, (0, 1): 0, (0, 2): 0}
    assert g.box_owner(0, 1) == 0 and g.box_owner(0, 0) == 1 and g.box_sides(0, 1) == 4
    assert g.line_owner(Move("h", 0, 0)) == 0 and g.line_owner(Move("v", 0, 1)) == 1
    assert list(g.drawn_lines().values()) == [0, 1, 0, 1, 1, 0, 1, 0, 1, 0]
    assert Game(1, 3).line_owner(Move("h", 0, 0)) is None and Game().last_turn == []


# -- records --------------------------------------------------------------------------------------


def test_json_round_trip_and_bad_records() -> None:
    g = Game(shape="diamond", players=3)
    engine.random_playout(g, random.Random(3), max_moves=20)
    d = json.loads(json.dumps(g.to_json()))
    g2 = engine.load(d)
    assert isinstance(g2, Game)
    assert g2.to_json() == g.to_json() and g2.scores == g.scores and g2.turn == g.turn
    assert g2.drawn_lines() == g.drawn_lines()
    bad = [
        {**d, "lines": [0, 0]},
        {**d, "lines": [9999]},
        {**d, "lines": "x"},
        {**d, "shape": "moon"},
        {**d, "players": 9},
        {**d, "v": 2},
    ]
    for record in bad:
        with pytest.raises(BadRecord):
            Game.from_json(record)


def test_pickles_as_its_record() -> None:
    g = Game(shape="heart", players=3)
    engine.random_playout(g, random.Random(5), max_moves=15)
    data = pickle.dumps(g)
    assert len(data) < 1000  # the record, not the board's tables
    assert pickle.loads(data).to_json() == g.to_json()


def test_copy_is_independent() -> None:
    g = Game(2, 2)
    c = g.copy()
    c.play(Move("h", 0, 0))
    assert g.ply == 0 and g.legal_moves() != c.legal_moves()


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 4), st.integers(1, 4), st.integers(2, 4), st.randoms(use_true_random=False))
def test_random_games_keep_invariants(rows: int, cols: int, players: int, rng) -> None:
    g = Game(rows, cols, players=players)
    while not g.over:
        m = rng.choice(g.legal_moves())
        mover, before = g.turn, sum(g.scores)
        g.play(m)
        assert sum(g.scores) == len(g.taken_boxes())
        assert sum(g.scores) - before in (0, 1, 2)
        assert (g.turn == mover) == (sum(g.scores) > before) or g.over
    assert sum(g.scores) == rows * cols
