"""The generator's shared parts: which positions of a source game are cut, the Рассада
cutter's quick rejection and the command's options."""

from __future__ import annotations

import random

import pytest

from engine.puzzles import cuts, load
from engine.puzzles.generate import main
from engine.puzzles.sprouts import MAX_MOVES, analyse, analyse_unless, judge
from engine.sprouts import Game


def test_cuts_take_two_at_random_or_every_nth() -> None:
    items = list(range(10))
    assert cuts(random.Random(3), items, None) == random.Random(3).sample(items, 2)
    assert cuts(random.Random(3), items[:1], None) == [0]
    for every in (1, 2, 3, 7, 12):
        got = cuts(random.Random(5), items, every)
        start = random.Random(5).randrange(every)
        assert got == items[start::every]
    assert cuts(random.Random(5), [], 2) == []
    with pytest.raises(ValueError):
        cuts(random.Random(5), items, 0)


def test_the_command_refuses_a_bad_every(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--game", "sprouts", "--count", "1", "--every", "0"])
    assert "--every must be at least 1" in capsys.readouterr().err


def test_quick_rejection_stops_past_the_limit_only() -> None:
    p = next(p for p in load("sprouts") if len(p.accepted) >= 2)
    game = p.start()
    assert isinstance(game, Game)
    full = analyse(game)
    assert analyse_unless(game, len(p.accepted) - 1) is None
    assert analyse_unless(game, len(p.accepted)) == full
    assert set(full.accepted) == set(p.accepted)


def test_a_position_with_too_many_moves_is_turned_down_unsolved() -> None:
    game = Game(8)  # a loop from any spot may enclose any of the other seven
    assert len(game.legal_moves()) > MAX_MOVES
    assert judge(game, 0) == (f"more than {MAX_MOVES} moves", None, 0.0)
