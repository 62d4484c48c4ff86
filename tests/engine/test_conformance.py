"""The generic conformance suite every registered game must pass (after OpenSpiel's
random-simulation test): random games to the end, JSON round-trips at every ply, notation
round-trips, illegal moves rejected without side effects, and the shared ending actions."""

from __future__ import annotations

import importlib
import json
import random
from typing import Any

import pytest

import engine
from engine import GAMES, BadNotation, GameOver, IllegalMove

# Options to try per game kind: small boards so a whole random game runs fast, plus variety.
CONFIGS: dict[str, list[dict[str, Any]]] = {
    "dots": [
        {"width": 5, "height": 5},
        {"width": 7, "height": 6, "start": "cross", "scoring": "territory"},
        {"width": 9, "height": 9, "start": "zone", "zone_width": 3, "zone_height": 5},
        {"width": 6, "height": 8, "grounding": True},
    ],
    "boxes": [
        {"rows": 1, "cols": 1},
        {"rows": 2, "cols": 3},
        {"rows": 3, "cols": 3, "players": 3},
        {"shape": "frame"},
        {"mask": ["#.#", "###"], "players": 4},
        {"rows": 2, "cols": 2, "players": 4},
        {"preset": "quick"},
    ],
    "sprouts": [
        {"spots": 1},
        {"spots": 2},
        {"spots": 3},
        {"spots": 5},
        {"spots": 3, "misere": True},
    ],
}
SEEDS = range(3)
MOVES_CHECKED_PER_PLY = 12


def _cases() -> list[Any]:
    return [
        pytest.param(k, opts, s, id=f"{k}-{_label(opts)}-{s}")
        for k in sorted(GAMES)
        for opts in CONFIGS.get(k, [])
        for s in SEEDS
    ]


def _label(options: dict[str, Any]) -> str:
    return ",".join(f"{k}={v}" for k, v in options.items()) or "default"


def _roundtrip(g: engine.Game[Any]) -> dict[str, Any]:
    d = g.to_json()
    wire = json.loads(json.dumps(d, separators=(",", ":")))
    g2 = engine.load(wire)
    assert g2.to_json() == d
    assert g2.turn == g.turn and g2.scores == g.scores and g2.over == g.over
    assert g2.result == g.result
    return d


def test_every_registered_game_has_configs() -> None:
    missing = sorted(set(GAMES) - set(CONFIGS))
    assert not missing, f"add conformance configs for {missing}"


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_move_is_the_games_move_type(kind: str) -> None:
    """``engine.<kind>.Move`` is the type of the game's moves, as for every game."""
    cls = GAMES[kind]
    assert importlib.import_module(f"engine.{kind}").Move is cls.move_type
    g = engine.new(kind, **dict(CONFIGS[kind][0]))
    assert all(type(m) is cls.move_type for m in g.legal_moves())


@pytest.mark.parametrize(("kind", "options", "seed"), _cases())
def test_random_game(kind: str, options: dict[str, Any], seed: int) -> None:
    rng = random.Random(seed)
    g = engine.new(kind, **dict(options))
    seen: list[Any] = []  # moves legal at some earlier ply, to try again later
    while True:
        assert 0 <= g.turn < g.players
        assert len(g.scores) == g.players
        before = _roundtrip(g)
        moves = g.legal_moves()
        assert (not moves) == g.over
        if g.over:
            break
        assert len(set(moves)) == len(moves), "duplicate legal moves"
        legal = set(moves)
        for m in rng.sample(moves, min(MOVES_CHECKED_PER_PLY, len(moves))):
            assert g.is_legal(m)
            text = g.format_move(m)
            assert isinstance(text, str) and text
            assert g.parse_move(text) == m
        for m in rng.sample(seen, min(MOVES_CHECKED_PER_PLY, len(seen))):
            if m in legal:
                continue
            assert not g.is_legal(m)
            with pytest.raises(IllegalMove):
                g.play(m)
            assert g.to_json() == before, "an illegal move changed the game"
        with pytest.raises(IllegalMove):
            g.play(None)
        assert g.to_json() == before
        seen.extend(rng.sample(moves, min(3, len(moves))))
        ply = g.ply
        move = rng.choice(moves)
        c = g.copy()
        g.play(move)
        assert g.ply == ply + 1
        assert c.to_json() == before, "copy() shares state with the original"
    result = g.result
    assert result is not None and result.scores == g.scores
    assert result.winner is None or 0 <= result.winner < g.players
    assert all(s >= 0 for s in g.scores)
    states = [s.to_json() for s in g.replay()]
    assert len(states) == g.ply + 1
    assert states[0] == engine.new(kind, **g.options).to_json()
    final = states[-1]
    final.pop("end", None)
    mine = g.to_json()
    mine.pop("end", None)
    assert final == mine, "replay() does not reach the current position"
    with pytest.raises(GameOver):
        g.play(moves[0] if moves else None)
    with pytest.raises(GameOver):
        g.resign(0)


@pytest.mark.parametrize(("kind", "options", "seed"), _cases())
def test_ending_actions(kind: str, options: dict[str, Any], seed: int) -> None:
    rng = random.Random(1000 + seed)
    g = engine.new(kind, **dict(options))
    engine.random_playout(g, rng, max_moves=rng.randrange(4))
    if g.over:
        return
    for action in ("resign", "timeout", "agree"):
        c = g.copy()
        player = c.turn
        res = c.agree() if action == "agree" else getattr(c, action)(player)
        assert c.over and c.result == res and c.legal_moves() == []
        if action != "agree":
            assert res.loser == player and res.winner != player
        _roundtrip(c)
    with pytest.raises(IllegalMove):
        g.resign(g.players)


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_bad_notation(kind: str) -> None:
    g = engine.new(kind, **dict(CONFIGS[kind][0]))
    for text in ("", "   ", "zz999zz", "💥", "x" * 500, "-1"):
        with pytest.raises(BadNotation):
            g.parse_move(text)


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_bad_records(kind: str) -> None:
    for bad in ({}, {"kind": kind}, {"kind": kind, "v": 999}, {"kind": "no-such-game"}):
        with pytest.raises(engine.BadRecord):
            engine.load(bad)


@pytest.mark.parametrize(("kind", "options", "seed"), _cases())
def test_text_record_round_trip(kind: str, options: dict[str, Any], seed: int) -> None:
    g = engine.random_playout(engine.new(kind, **dict(options)), random.Random(seed))
    back = engine.read_text_record(engine.text_record(g, ["players: A, B"]))
    assert back.to_json() == g.to_json()
