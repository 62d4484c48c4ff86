"""What every bank's test shares: which of its puzzles are proved in the normal run (every
``every``-th) and which only with ``TETRAD_SLOW=1`` (the rest, marked slow), and what any
shipped bank must be."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from engine.puzzles import GAMES, Puzzle, load, path_of
from engine.puzzles.generate import CUTTERS

SHIPPED = 300  # issue #30: at least this many puzzles a game


def cases(bank: Sequence[Puzzle], every: int) -> list[object]:
    return [
        p.id if i % every == 0 else pytest.param(p.id, marks=pytest.mark.slow)
        for i, p in enumerate(bank)
    ]


def check_bank(game: str) -> None:
    """A shipped bank: at least :data:`SHIPPED` puzzles, ids unique and with the game's
    prefix, every difficulty 1..5, and all the banks together under 2 MB (issue #30)."""
    bank = load(game)
    assert len(bank) >= SHIPPED
    assert len({p.id for p in bank}) == len(bank)
    assert all(p.id.startswith(CUTTERS[game].PREFIX) for p in bank)
    assert sum(path_of(g).stat().st_size for g in GAMES) < 2_000_000
    assert {p.difficulty for p in bank} == {1, 2, 3, 4, 5}
