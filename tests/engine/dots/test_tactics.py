"""The capture prover (engine.dots.tactics): on hand-made positions it finds the captures a
teacher sees and none that a defence stops; on random small positions it agrees with a plain
minimax over the referee's Game (no compiled board, no cut), and its last-move cut changes
no answer."""

from __future__ import annotations

import random

import pytest

from engine.dots import Game, Move
from engine.dots.tactics import Threat, forced, forcing_moves, saving_moves


def _game(width: int, height: int, moves: str, **options: object) -> Game:
    g = Game(width, height, **options)  # type: ignore[arg-type]
    for m in moves.split():
        g.play(g.parse_move(m))
    return g


def _names(g: Game, ms: list[Move]) -> set[str]:
    return {g.format_move(m) for m in ms}


def _score(g: Game, player: int) -> int:
    return g.scores[player]


def _reached(g: Game, t: Threat, base: int) -> bool:
    if not t.targets:
        return _score(g, t.attacker) - base >= t.at_least
    return sum(g.cell(m.x, m.y).area == t.attacker for m in t.targets) >= t.at_least


def _minimax(g: Game, t: Threat, left: int, base: int) -> bool:
    """The question asked the slow way: copy the referee's game for every move."""
    moves = g.legal_moves()
    attacking = g.turn == t.attacker
    for m in moves:
        h = g.copy()
        h.play(m)
        ok = _reached(h, t, base)
        if not ok and not h.over and (left > 1 or not attacking):
            ok = _minimax(h, t, left - 1 if attacking else left, base)
        if attacking and ok:
            return True
        if not attacking and not ok:
            return False
    return bool(moves) and not attacking


def _slow(g: Game, t: Threat, after: Move) -> bool:
    base = _score(g, t.attacker)
    left = t.moves - (g.turn == t.attacker)
    h = g.copy()
    h.play(after)
    if _reached(h, t, base):
        return True
    return left > 0 and not h.over and _minimax(h, t, left, base)


def test_a_ring_one_dot_short_is_closed_and_only_there() -> None:
    g = _game(7, 7, "d5 d4 e4 a1 c4 a2")  # Orange round Blue's d4 but for d3
    t = Threat(0, 1, (g.parse_move("d4"),))
    assert _names(g, forcing_moves(g, t)) == {"d3"}
    assert g.turn == 0
    # Blue to move saves d4 by taking d3 (then it has a way out) and by nothing else
    g2 = _game(7, 7, "d5 d4 e4 a1 c4 a2 g7")
    assert _names(g2, saving_moves(g2, Threat(0, 1, (g2.parse_move("d4"),)))) == {"d3"}


def test_diagonal_links_close_a_ring() -> None:
    g = _game(7, 7, "c4 d4 d5 a1 e4 a2")  # the ring c4-d5-e4-d3 is all diagonals
    assert _names(g, forcing_moves(g, Threat(0, 1, (g.parse_move("d4"),)))) == {"d3"}


def test_a_dot_on_the_edge_is_never_captured() -> None:
    g = _game(7, 7, "c1 d1 e1 a7 d2 b7")  # Blue's d1 sits on the edge under Orange's wall
    assert forcing_moves(g, Threat(0, 3, (g.parse_move("d1"),))) == []


def test_two_threats_at_once_beat_every_defence() -> None:
    # Blue d4 and f4 each lack one Orange dot below: d3 and f3 are both threats, and Blue
    # fills one. With two moves Orange gets one of them whatever Blue does.
    g = _game(9, 7, "c4 d4 d5 f4 e4 a1 e5 a2 g4 a3 f5 a4")
    assert g.turn == 0
    t = Threat(0, 2)
    assert {"d3", "f3"} <= _names(g, forcing_moves(g, t))
    assert forced(g, t)  # Orange to move: a capture is forced from here, no move named


def test_the_defender_to_move_is_asked_for_every_reply() -> None:
    g = _game(7, 7, "d5 d4 e4 a1 c4 a2 g7")  # Blue to move; Orange threatens d3
    t = Threat(0, 1, (g.parse_move("d4"),))
    assert forced(g, t, g.parse_move("a3"))
    assert not forced(g, t, g.parse_move("d3"))
    with pytest.raises(ValueError):
        Threat(0, 4)


def _random_position(rng: random.Random, free: int) -> Game:
    """A 6×5 game played at random inside its frame of edge points until ``free`` points are
    left: crowded enough that captures are on."""
    g = Game(6, 5)
    while len(g.legal_moves()) > free:
        ms = g.legal_moves()
        inner = [m for m in ms if 0 < m.x < 5 and 0 < m.y < 4]
        g.play(rng.choice(inner or ms))
    return g


def test_agrees_with_plain_minimax_over_the_referee() -> None:
    answers = []
    for seed in range(8):
        g = _random_position(random.Random(seed), 10)
        me = g.turn
        for t in (Threat(me, 1), Threat(me, 2), Threat(1 - me, 1), Threat(1 - me, 2)):
            for m in g.legal_moves():
                got = forced(g, t, m)
                assert got == _slow(g, t, m), (g.to_json(), t, m)
                answers.append(got)
    assert 40 <= sum(answers) <= len(answers) - 40  # both answers are asked often


@pytest.mark.parametrize("seed", range(4))
def test_the_last_move_cut_changes_no_answer(seed: int) -> None:
    rng = random.Random(100 + seed)
    g = Game(6, 6)
    while len(g.legal_moves()) > 16:
        g.play(rng.choice(g.legal_moves()))
    me = g.turn
    for t in (Threat(me, 2), Threat(1 - me, 2)):
        for m in g.legal_moves():
            assert forced(g, t, m) == forced(g, t, m, cut=False), (g.to_json(), t, m)


def test_after_stop_the_attacker_moves_alone() -> None:
    # Blue's c3 dot has Orange on three sides; Blue calls STOP: Orange alone closes the ring
    # with two dots, while in normal play Blue would answer.
    g = _game(7, 7, "b3 c3 c4 a7 d3 b7")
    t = Threat(0, 2, (g.parse_move("c3"),))
    g.stop(1)
    assert g.turn == 0
    assert forced(g, t)
    g2 = _game(7, 7, "b3 c3 c4 a7")
    g2.play(g2.parse_move("c2"))  # Orange's second-last dot in normal play: Blue answers d3
    assert not forced(g2, Threat(0, 1, (g2.parse_move("c3"),)), g2.parse_move("d3"))
