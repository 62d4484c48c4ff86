"""Every shipped Рассада puzzle, proved again by the position solver: the player to move wins,
the accepted moves are exactly the winning ones, the tempting wrong move loses, and the
stored values the bot would explain with are the solver's.

A sample runs in the normal suite; all of them with ``TETRAD_SLOW=1``."""

from __future__ import annotations

import pytest

from engine.puzzles import HINTS, Puzzle, by_id, load
from engine.puzzles.generate import generate
from engine.puzzles.sprouts import MAX_MOVES, MIN_MOVES, SPOTS, analyse
from engine.sprouts import Game
from tests.engine.puzzles.sample import cases, check_bank

BANK = load("sprouts")
SAMPLE = 25  # every 25th puzzle in the normal run


def test_the_bank_is_big_enough_and_small_on_disk() -> None:
    check_bank("sprouts")


@pytest.mark.parametrize("pid", cases(BANK, SAMPLE))
def test_puzzle_is_proved(pid: str) -> None:
    p: Puzzle = by_id("sprouts")[pid]
    game = p.start()
    assert isinstance(game, Game) and not game.over and not game.misere
    assert game.turn == p.turn
    assert game.options["spots"] in SPOTS and MIN_MOVES <= len(game.legal_moves()) <= MAX_MOVES
    fresh = analyse(game)
    assert fresh.values == p.values
    assert fresh.best == p.value == 1  # the player to move wins
    assert set(p.accepted) == set(fresh.accepted)
    assert p.accepted and len(p.accepted) < len(p.values)
    assert p.wrong not in p.accepted and p.values[p.wrong] == -1
    assert p.hint in HINTS
    for m, opponent_wins in [(m, False) for m in p.accepted] + [(p.wrong, True)]:
        child = game.copy()  # one move deeper on paper: the opponent's every reply judged
        child.play(child.parse_move(m))
        assert (not child.over and analyse(child).best == 1) is opponent_wins, m
    wrong = p.judge(p.wrong)
    assert wrong is not None and not wrong.solved
    assert p.judge("99-99") is None


def test_the_bank_starts_with_the_generators_own_output() -> None:
    """The shipped bank is ``--game sprouts --count 300 --seed 1 --every 2``: its first
    puzzles come again from the same seed (only the difficulty waits for the whole bank)."""
    puzzles, why, spent = generate(3, seed=1, game="sprouts", every=2)
    fields = ("id", "position", "turn", "accepted", "wrong", "values", "hint")
    for new, old in zip(puzzles, BANK[:3], strict=True):
        assert [getattr(new, f) for f in fields] == [getattr(old, f) for f in fields]
    assert sum(why.values()) > 0 and set(spent) == {
        "playing the source games",
        "judging the candidates",
    }
