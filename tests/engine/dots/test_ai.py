"""The Dots AI: legal, pure, deterministic for a seed; takes captures; answers big threats."""

from __future__ import annotations

import random
import time

import pytest

from engine.dots import Game, Move
from engine.dots.ai import BENCH_LEVELS, LEVELS, _forcing, _shortlist, choose_move

from .helpers import board, moves, play


def _best_gain(game: Game, player: int) -> int:
    b = game._board
    return max((b.gain(i, player) for i in game.legal_indices()), default=0)


def _capture_on_offer() -> Game:
    # Three B dots in a row inside an A ring that lacks only (8, 4).
    g = board(12, 10)
    ring = [(4, 4), (5, 3), (6, 3), (7, 3), (7, 5), (6, 5), (5, 5)]
    play(g, a=ring, b=[(5, 4), (6, 4), (7, 4), (1, 8)])
    if g.turn == 1:
        play(g, b=[(2, 8)])
    assert g.turn == 0
    return g


@pytest.mark.parametrize("level", ["easy", "medium", "hard", "expert", "classic-hard"])
def test_takes_an_immediate_capture(level: str) -> None:
    g = _capture_on_offer()
    assert _best_gain(g, 0) >= 3
    before = g.to_json()
    m = choose_move(g, level, seed=3, time_limit=0.5)
    assert g.to_json() == before, "choose_move changed the game"
    caught = g.captured_dots[0]
    g.play(m)
    assert g.captured_dots[0] - caught >= 3


def _big_group_in_danger() -> Game:
    # Six A dots inside a B ring on the left edge whose last point, (0, 5), is still open:
    # B threatens 6 there and only there; A saves them by taking the edge point.
    g = board(12, 10)
    ring = [(0, 3), (0, 4), (0, 6)] + [(x, y) for x in range(1, 5) for y in (3, 6)]
    ring += [(4, 4), (4, 5)]
    group = [(x, y) for x in range(1, 4) for y in (4, 5)]
    play(g, a=group, b=ring)
    if g.turn == 1:
        play(g, b=[(11, 9)])
    assert g.turn == 0
    assert _best_gain(g, 1) == 6
    return g


@pytest.mark.parametrize("level", ["medium", "hard", "expert", "classic-hard"])
def test_answers_a_one_move_threat_against_a_large_group(level: str) -> None:
    g = _big_group_in_danger()
    g.play(choose_move(g, level, seed=5, time_limit=0.5))
    assert _best_gain(g, 1) == 0


@pytest.mark.parametrize("level", ["hard", "classic-hard"])
def test_saving_a_big_group_comes_before_a_small_capture(level: str) -> None:
    # A is threatened with 6 and could capture 1 elsewhere: saving the group comes first.
    g = _big_group_in_danger()
    play(g, a=[(8, 1), (7, 2), (9, 2)], b=[(8, 2)])
    if g.turn == 1:
        play(g, b=[(11, 8)])
    assert _best_gain(g, 0) == 1 and _best_gain(g, 1) == 6
    g.play(choose_move(g, level, seed=1, time_limit=0.5))
    assert _best_gain(g, 1) == 0


@pytest.mark.parametrize("level", ["medium", "hard", "classic-hard"])
def test_a_move_with_no_time_left_still_captures_and_blocks(level: str) -> None:
    """A tight clock cuts the one-ply shortlist after its first move: the capture on offer,
    else the block of the biggest threat, is the one evaluated."""
    g = _capture_on_offer()
    caught = g.captured_dots[0]
    g.play(choose_move(g, level, seed=3, time_limit=1e-6))
    assert g.captured_dots[0] - caught >= 3
    g = _big_group_in_danger()
    g.play(choose_move(g, level, seed=5, time_limit=1e-6))
    assert _best_gain(g, 1) == 0


def test_a_shortlist_with_no_time_is_its_first_move_alone() -> None:
    g = _capture_on_offer()
    full = _shortlist(g, g.legal_indices(), random.Random(1), 8)
    cut = _shortlist(g, g.legal_indices(), random.Random(1), 8, until=0.0)
    assert len(full) == 8 and len(cut) == 1
    assert cut[0] == full[0] and g.board.gain(cut[0][1], 0) >= 3


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_same_seed_same_move(level: str) -> None:
    rng = random.Random(4)
    g = Game(12, 12)
    for _ in range(30):
        g.play(rng.choice(g.legal_moves()))
    assert choose_move(g, level, seed=9) == choose_move(g, level, seed=9)


def test_classic_hard_is_deterministic_when_the_budget_finishes() -> None:
    g = moves(Game(7, 7), [(3, 3), (3, 2), (2, 3), (4, 2), (4, 4), (2, 2)])
    a = choose_move(g, "classic-hard", seed=2, time_limit=60.0)
    b = choose_move(g, "classic-hard", seed=2, time_limit=60.0)
    assert a == b and g.is_legal(a)


def test_plays_legal_moves_through_a_whole_game_with_zone_and_cross() -> None:
    for options, level in (
        ({"width": 11, "height": 11, "start": "zone", "zone_width": 3, "zone_height": 3}, "easy"),
        ({"width": 9, "height": 8, "start": "cross"}, "medium"),
    ):
        g = Game(**options)  # type: ignore[arg-type]
        seed = 0
        while not g.over:
            m = choose_move(g, level, seed=seed)
            g.play(m)  # raises if illegal
            seed += 1
        assert g.result is not None


def test_bad_calls() -> None:
    g = Game(5, 5)
    with pytest.raises(ValueError):
        choose_move(g, "grandmaster")
    g.resign(0)
    for level in LEVELS + BENCH_LEVELS:  # a finished game has no move at any level
        with pytest.raises(ValueError):
            choose_move(g, level, time_limit=0.1)
    assert Move(0, 0) not in g.legal_moves()


# A 12x12 middle game (from easy-vs-easy play) where A, to move, wins 3 dots by a line of
# threats: after g2 (6, 10) every answer of B still loses 3 (checked against all replies).
FORCING_LINE = (
    "g6 f7 g8 h7 g7 h6 f6 g5 f5 e6 h5 g4 e7 f8 h4 e5 i6 i5 h8 i7 d6 j6 f4 g3 h3 d7 e8 f9 g9 h9 "
    "i4 g10 i8 i3 j7 j8 h10 k7 i9 e4"
)


@pytest.mark.parametrize(("level", "seconds"), [("hard", 0.5), ("classic-hard", 3.0)])
def test_hard_reads_a_forcing_line(level: str, seconds: float) -> None:
    g = Game(12, 12)
    for text in FORCING_LINE.split():
        g.play(g.parse_move(text))
    assert g.turn == 0 and _best_gain(g, 0) == 0  # nothing to take at once
    m = choose_move(g, level, seed=1, time_limit=seconds)
    assert m == Move(6, 10)
    g.play(m)
    near = [r for r in g.legal_moves() if abs(r.x - 6) <= 3 and abs(r.y - 10) <= 3]
    for r in near:  # whatever B answers nearby, A can capture at once or go on threatening
        h = g.copy()
        h.play(r)
        if _best_gain(h, 0) > 0:
            continue
        line = _forcing(h, time.perf_counter() + 2.0)
        assert line is not None and line[1] > 0, f"B's answer {h.format_move(r)} stopped it"
