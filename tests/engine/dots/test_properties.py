"""Properties over random games: against the independent referee, under the board's
symmetries, and the invariants (scores never negative, dead points stay dead, records
reproduce the position move by move)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.dots import Game, Move
from engine.dots.game import Edge
from engine.dots.rings import Board

from .helpers import dead
from .reference import Referee

OPTIONS = st.sampled_from(
    [
        {"width": 5, "height": 5},
        {"width": 8, "height": 6},
        {"width": 7, "height": 7, "start": "cross"},
        {"width": 9, "height": 8, "start": "zone", "zone_width": 3, "zone_height": 3},
        {"width": 6, "height": 9, "grounding": True, "scoring": "territory"},
        {"width": 7, "height": 6, "edge": "capturable"},
        {"width": 6, "height": 6, "edge": "capturable", "scoring": "territory"},
    ]
)


def _normal_dead(game: Game) -> dict[tuple[int, int], int]:
    """Dead points, leaving out a player's own dot inside their own area (the same position
    as that dot standing on the ring)."""
    return {p: a for p, a in dead(game).items() if game.cell(*p).dot != a}


@given(OPTIONS, st.lists(st.integers(0, 10_000), max_size=90), st.integers(0, 3))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_invariants_and_records(options: dict[str, Any], picks: list[int], action: int) -> None:
    g = Game(**options)
    was_dead: set[tuple[int, int]] = set()
    states = [g.to_json()]
    for k in picks:
        if g.over:
            break
        legal = g.legal_moves()
        g.play(legal[k % len(legal)])
        assert min(g.scores) >= 0 and min(g.captured_dots) >= 0
        now_dead = set(dead(g))
        assert was_dead <= now_dead, "a dead point came back to life"
        was_dead = now_dead
        states.append(g.to_json())
        if action == 1 and g.ply == 5 and not g.over:
            g.stop(g.turn, now=50.0)
            states[-1] = g.to_json()
    if not g.over and action == 2 and g.grounding:
        g.ground(g.turn)
    elif not g.over and action == 3:
        g.resign(g.turn)
    final = g.to_json()
    states[-1] = g.to_json()
    assert Game.from_json(final).to_json() == final
    replayed = [s.to_json() for s in g.replay()]
    for mine, again in zip(states, replayed, strict=True):
        mine.pop("end", None)
        again.pop("end", None)
        assert mine == again
    back = Game.from_sgf(g.to_sgf(rings=True))
    assert back.to_json() == final
    for a, b in zip(back.replay(), Game.from_json(final).replay(), strict=True):
        assert a.to_json() == b.to_json()


@pytest.mark.parametrize("patience", [Board.patience, 0])
def test_engine_agrees_with_the_independent_referee(
    patience: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # patience 0 rebuilds the union-find at every trace after dots died: both paths count.
    monkeypatch.setattr(Board, "patience", patience)
    rebuilds = 0
    for seed in range(60 if patience else 40):
        rng = random.Random(seed)
        w, h = rng.randint(5, 11), rng.randint(5, 11)
        g, ref = Game(w, h), Referee(w, h)
        while not g.over:
            m = rng.choice(g.legal_moves())
            player = g.turn
            g.play(m)
            ref.play((m.x, m.y), player)
            assert g.captured_dots == ref.scores(), (seed, g.ply)
        theirs = {p: a for p, a in ref.area.items() if ref.dot.get(p) != a}
        assert _normal_dead(g) == theirs, seed
        rebuilds += g._board.rebuilds
    assert rebuilds > 0 or patience


SYMMETRIES = [
    lambda x, y, n: (n - 1 - x, y),
    lambda x, y, n: (x, n - 1 - y),
    lambda x, y, n: (y, x),
    lambda x, y, n: (n - 1 - y, n - 1 - x),
    lambda x, y, n: (n - 1 - x, n - 1 - y),
]


@pytest.mark.parametrize("edge", ["safe", "capturable"])
def test_symmetric_games_give_symmetric_positions(edge: Edge) -> None:
    n = 9
    for seed in range(40 if edge == "safe" else 15):
        rng = random.Random(seed)
        g = Game(n, n, edge=edge)
        while not g.over:
            g.play(rng.choice(g.legal_moves()))
        base = _normal_dead(g)
        for f in SYMMETRIES:
            t = Game(n, n, edge=edge)
            for m in g.moves:
                t.play(Move(*f(m.x, m.y, n)))
            assert t.scores == g.scores
            assert _normal_dead(t) == {f(x, y, n): a for (x, y), a in base.items()}
