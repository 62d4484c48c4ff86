"""Every shipped Точки puzzle, proved again by the exact search (:func:`engine.puzzles.dots.exact`:
every attacker point, every defence, at every node of its plan), by the forcing prover and
replayed in the referee: the one right first move (a capture in N: no capture in N − 1; a
save: the only move after which the opponent captures nothing within N), the tempting wrong
move refuted, and every step of the plan the bot plays (its replies legal, the last moves
capturing).

A sample runs in the normal suite; all of them with ``TETRAD_SLOW=1``."""

from __future__ import annotations

from typing import Any

import pytest

from engine.dots import Game
from engine.dots.forcing import prove_capture, prove_save
from engine.puzzles import HINTS, Puzzle, by_id, load
from engine.puzzles.dots import exact
from engine.puzzles.generate import generate
from tests.engine.puzzles.sample import cases, check_bank

BANK = load("dots")
SAMPLE = 25  # every 25th puzzle in the normal run


def test_the_bank_is_big_enough_and_small_on_disk() -> None:
    check_bank("dots")
    kinds = {(p.plan["kind"], p.plan["n"]) for p in BANK}
    assert {("capture", 1), ("capture", 2), ("capture", 3), ("save", 1)} <= kinds


def _game(p: Puzzle, moves: tuple[str, ...] = ()) -> Game:
    game = p.start()
    assert isinstance(game, Game)
    for m in moves:
        move = game.parse_move(m)
        assert game.is_legal(move), m
        game.play(move)
    return game


def _walk(p: Puzzle, game: Game, node: dict[str, Any], left: int, start: int) -> int:
    """Every step of the plan below ``node`` checked in the referee; the lines walked."""
    me = p.turn
    walked = 0
    proof = prove_capture(game, left)
    assert proof is not None and {game.format_move(m) for m in proof.moves} == set(node["ok"])
    for move, step in node["ok"].items():
        after = game.copy()
        after.play(after.parse_move(move))
        if not step:
            assert after.scores[me] > start, move  # the last move captures
            walked += 1
            continue
        assert after.scores[me] == start  # a move before the last captures nothing yet
        reply = after.parse_move(step["r"])
        assert after.is_legal(reply)
        after.play(reply)
        walked += _walk(p, after, step["n"], left - 1, start)
    for move, line in node["no"].items():
        assert move not in node["ok"]
        after = game.copy()
        after.play(after.parse_move(move))
        if p.plan["kind"] == "capture":  # the defender's reply holds the rest of the way
            held = after.copy()
            held.play(held.parse_move(line[0]))
            assert left == 1 or prove_capture(held, left - 1) is None, (move, line)
    return walked


@pytest.mark.parametrize("pid", cases(BANK, SAMPLE))
def test_puzzle_is_proved(pid: str) -> None:
    p: Puzzle = by_id("dots")[pid]
    game = _game(p)
    assert not game.over and game.turn == p.turn
    n = int(p.plan["n"])
    assert 1 <= n <= 3 and p.hint in HINTS and len(p.accepted) == 1
    right, wrong = p.accepted[0], p.wrong
    assert p.values == {right: 1, wrong: 0}
    assert exact(game, p.plan) is None
    if p.plan["kind"] == "capture":
        proof = prove_capture(game, n)
        assert proof is not None and [game.format_move(m) for m in proof.moves] == [right]
        assert n == 1 or prove_capture(game, n - 1) is None  # no shorter capture
        assert _walk(p, game, p.plan["node"], n, game.scores[p.turn]) >= 1
        after = _game(p, (wrong,))
        if n == 1:
            assert after.scores == game.scores
        else:
            assert prove_save(after, n - 1, most=0).moves  # the defender has a reply that holds
    else:
        assert prove_capture(game, n, attacker=1 - p.turn) is not None
        save = prove_save(game, n)
        assert save.complete and [game.format_move(m) for m in save.moves] == [right]
        line = p.plan["node"]["no"][wrong]
        after = _game(p, (wrong, *line))  # the opponent's line after the wrong move captures
        assert after.scores[1 - p.turn] > game.scores[1 - p.turn]
    verdict = p.judge(right)
    assert verdict is not None and verdict.solved
    verdict = p.judge(wrong)
    assert verdict is not None and not verdict.solved
    legal = [game.format_move(m) for m in game.legal_moves()]
    other = next(m for m in legal if m not in (right, wrong))
    verdict = p.judge(other)
    assert verdict is not None and not verdict.solved  # any other legal move is wrong too
    assert p.judge("zz99") is None


def test_the_bank_starts_with_the_generators_own_output() -> None:
    """The shipped bank is ``--game dots --count 300 --seed 1``: its first puzzles come again
    from the same seed (only the difficulty waits for the whole bank)."""
    puzzles, why, _ = generate(3, seed=1, game="dots", total=len(BANK))
    fields = ("id", "position", "turn", "accepted", "wrong", "values", "hint", "plan")
    for new, old in zip(puzzles, BANK[:3], strict=True):
        assert [getattr(new, f) for f in fields] == [getattr(old, f) for f in fields]
    assert sum(why.values()) > 0
