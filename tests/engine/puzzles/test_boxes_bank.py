"""Every shipped Точки и квадраты puzzle, proved again by the exact solver from scratch (a
fresh table, no budget): the accepted moves are exactly the value-keeping ones, the tempting
wrong move loses, and the stored values the bot explains with are the solver's.

A sample runs in the normal suite; all of them with ``TETRAD_SLOW=1``."""

from __future__ import annotations

import pytest

from engine.boxes import Game
from engine.puzzles import HINTS, Puzzle, by_id, load
from engine.puzzles.boxes import analyse
from tests.engine.puzzles.sample import cases, check_bank

BANK = load("boxes")
SAMPLE = 15  # every 15th puzzle in the normal run


def test_the_bank_is_big_enough_and_small_on_disk() -> None:
    check_bank("boxes")


@pytest.mark.parametrize("pid", cases(BANK, SAMPLE))
def test_puzzle_is_proved(pid: str) -> None:
    p: Puzzle = by_id("boxes")[pid]
    game = p.start()
    assert isinstance(game, Game) and not game.over
    assert game.turn == p.turn
    assert len(game.legal_moves()) <= 30 and game.rows <= 5 and game.cols <= 5
    fresh = analyse(game)  # no budget: always finishes
    assert fresh is not None
    assert fresh.values == p.values
    assert fresh.best == p.value
    assert set(p.accepted) == set(fresh.accepted)
    assert p.accepted and len(p.accepted) < len(p.values)
    assert p.wrong not in p.accepted and p.values[p.wrong] < p.value
    assert p.hint in HINTS
    for m in p.accepted:  # the verdicts the bot gives
        verdict = p.judge(m)
        assert verdict is not None and verdict.solved
    wrong = p.judge(p.wrong)
    assert wrong is not None and not wrong.solved and wrong.got < wrong.best
    assert p.judge("z9-z10") is None
