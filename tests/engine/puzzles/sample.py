"""Which of a bank's puzzles a test proves in the normal run (every ``every``-th) and which
only with ``TETRAD_SLOW=1`` (the rest, marked slow)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from engine.puzzles import Puzzle


def cases(bank: Sequence[Puzzle], every: int) -> list[object]:
    return [
        p.id if i % every == 0 else pytest.param(p.id, marks=pytest.mark.slow)
        for i, p in enumerate(bank)
    ]
