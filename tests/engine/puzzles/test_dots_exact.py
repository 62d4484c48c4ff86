"""The exact check of a Точки puzzle (:func:`engine.puzzles.dots.exact`) on hand-made
positions where a *quiet* first move wins: the forcing prover, which tries only threats,
cannot see it, so a plan built on the prover alone passes the prover's checks; the exact
search (every attacker point, every defence) turns it down."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.dots import Game, Move
from engine.dots.forcing import prove_capture, prove_save
from engine.dots.tactics import Threat, forced, forcing_moves
from engine.puzzles.dots import capture_node, exact

# Two pairs of Blue dots (c3 e3, e5 g5), each pair with Orange above and below all but one
# of its dots; e4 is the missing dot of both. After the quiet e4 each pair is one double
# threat from capture (d3 for the first: c3 needs b3, e3 needs f3; f5 for the second) and
# Blue's one reply spoils only one: Orange captures within 3, starting with a move that
# threatens nothing.
PAIRS = ("c2 c4 e2 g4 e6 g6", "c3 e3 e5 g5")
# A forcing capture in 3 besides: after l4 Blue must take l6 (l5 is one dot from capture),
# and then k3 is a double threat on j3 and l3; k3 first works the same way.
LADDER = ("j2 l2 j4 k5 m5", "j3 l3 l5")


def _position(orange: str, blue: str, then: str = "") -> Game:
    """Orange's and Blue's dots in turn on a 16×10 board (Blue's spare dots in far corners
    when Orange has more), then ``then``."""
    o, b = orange.split(), blue.split()
    b += ["p10", "a10", "p1", "a1", "i10", "p6", "n10"][: len(o) - len(b)]
    g = Game(16, 10)
    for x, y in zip(o, b, strict=True):
        g.play(g.parse_move(x))
        g.play(g.parse_move(y))
    for m in then.split():
        g.play(g.parse_move(m))
    return g


def _names(g: Game, moves: Iterable[Move]) -> set[str]:
    return {g.format_move(m) for m in moves}


def test_a_quiet_first_move_wins_and_only_the_exact_search_sees_it() -> None:
    g = _position(PAIRS[0], PAIRS[1])
    assert g.turn == 0
    for n in (1, 2, 3):
        assert prove_capture(g, n) is None  # no forcing line at all
    assert _names(g, forcing_moves(g, Threat(0, 2))) == set()
    assert _names(g, forcing_moves(g, Threat(0, 3))) == {"e4"}
    after = g.copy()
    after.play(after.parse_move("e4"))
    assert prove_capture(after, 1, attacker=0) is None  # e4 itself threatens nothing


def test_the_exact_check_turns_down_a_capture_plan_built_on_the_prover() -> None:
    g = _position(f"{PAIRS[0]} {LADDER[0]}", f"{PAIRS[1]} {LADDER[1]}")
    proof = prove_capture(g, 3)
    assert proof is not None and _names(g, proof.moves) == {"l4", "k3"}
    node = capture_node(g, 3, proof)
    assert set(node["ok"]) == {"l4", "k3"}  # what the prover alone would ship
    plan: dict[str, Any] = {"kind": "capture", "n": 3, "k": 1, "node": node}
    assert _names(g, forcing_moves(g, Threat(0, 3))) == {"l4", "k3", "e4"}
    assert exact(g, plan) == "another first move captures too"
    without_pairs = _position(LADDER[0], LADDER[1])  # the ladder alone: the plan is right
    alone = prove_capture(without_pairs, 3)
    assert alone is not None
    plan = {"kind": "capture", "n": 3, "k": 1, "node": capture_node(without_pairs, 3, alone)}
    assert exact(without_pairs, plan) is None


def test_a_save_the_prover_accepts_fails_against_the_quiet_attack() -> None:
    g = _position(PAIRS[0], PAIRS[1], "p9")  # Orange passes far away: Blue to move
    assert g.turn == 1
    far = g.parse_move("o2")
    assert far in prove_save(g, 3).moves  # no forcing attack: every move "saves"
    assert forced(g, Threat(0, 3), far)  # but e4 still wins
    plan = {"kind": "save", "n": 3, "k": 1, "node": {"ok": {"o2": {}}, "no": {}}}
    assert exact(g, plan) == "another move saves too, or the save fails against a quiet attack"
    # Filling the hole, or a double-threat point of either pair, saves; a move elsewhere,
    # near the pairs or far, does not (a sample: every point takes 0.2 s, all 149 took 34 s).
    tried = ("e4", "d3", "f5", "o2", "c5", "g3", "e7", "j4")
    saves = {m for m in tried if not forced(g, Threat(0, 3), g.parse_move(m))}
    assert saves == {"e4", "d3", "f5"}
