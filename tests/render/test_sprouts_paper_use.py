"""Рассада drawings use the paper (issue #29): over random 3-spot games, a 400 px picture's
narrowest gap between curves and the share of the paper the drawing covers are larger with
the tidy's stretch and roomy targets than without them (the baseline the bench compares
with, :data:`bench.sprouts_paper.UNSTRETCHED`), measured in one run by the bench's own
:func:`~bench.sprouts_paper.readability`."""

from __future__ import annotations

import random
import statistics
from typing import Any

from bench.sprouts_paper import UNSTRETCHED, readability, tidy_settings
from engine.sprouts import Game

SIZE = 400  # px: a phone's picture width
GAMES = 3


def _after_every_move(values: dict[str, Any]) -> list[dict[str, float]]:
    out = []
    with tidy_settings(values):
        for seed in range(GAMES):
            rng = random.Random(seed)
            g = Game(3)
            while not g.over:
                g.play(rng.choice(g.legal_moves()))
                out.append(readability(g, SIZE))
    return out


def test_a_three_spot_drawing_spreads_over_the_paper() -> None:
    before, now = _after_every_move(UNSTRETCHED), _after_every_move({})
    assert len(before) == len(now)  # the same games: the tidy changes pictures, not moves

    def median(rows: list[dict[str, float]], key: str) -> float:
        return statistics.median(r[key] for r in rows if r[key] != float("inf"))

    # Measured when this was built (seeds 0-2): curves apart median 7.3 -> 13.9 px, the
    # narrowest 3.2 -> 11.1 px; spots apart min 25 -> 42 px; box share median 0.7 -> 0.8+.
    assert median(now, "curve") > 1.3 * median(before, "curve")
    assert min(r["curve"] for r in now) > min(r["curve"] for r in before)
    assert min(r["spot"] for r in now) > min(r["spot"] for r in before)
    assert median(now, "box") >= median(before, "box")
