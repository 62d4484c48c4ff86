"""The static facts each game declares (players, scoring, options, actions besides moves, AI
levels) agree with what the game does, and one AI registry serves all three games with the
same call, level names and errors."""

from __future__ import annotations

import importlib
import inspect
import random
from typing import Any

import pytest

import engine
from engine import GAMES, BadOptions, Extra, GameOver, IllegalMove, UnknownLevel
from engine.facts import GameFacts, Option

KINDS = sorted(GAMES)


def test_each_game_declares_its_facts() -> None:
    dots, boxes, sprouts = (engine.facts_of(k) for k in ("dots", "boxes", "sprouts"))
    assert (boxes.min_players, boxes.max_players) == (2, 4)
    assert (dots.min_players, dots.max_players) == (sprouts.min_players, sprouts.max_players)
    assert (dots.min_players, dots.max_players) == (2, 2)
    assert dots.scored and boxes.scored and not sprouts.scored
    assert dots.extras == {Extra.DRAW, Extra.END_HERE, Extra.STOP, Extra.GROUND}
    assert boxes.extras == sprouts.extras == {Extra.DRAW}
    assert dots.record == "sgf" and boxes.record == sprouts.record == "txt"
    assert dots.option("start").choices == ("free", "zone", "cross")
    assert boxes.option("players") == Option("players", int, 2, low=2, high=4)
    assert sprouts.option("spots") == Option("spots", int, 3, low=1, high=12)
    with pytest.raises(KeyError):
        sprouts.option("players")


def test_unknown_kind() -> None:
    with pytest.raises(BadOptions):
        engine.facts_of("chess")


@pytest.mark.parametrize("kind", KINDS)
def test_options_are_the_constructors(kind: str) -> None:
    """Names and order as the constructor takes them; a default None in the facts is one the
    game works out from the other options, and is None in the signature too."""
    facts = engine.facts_of(kind)
    params = inspect.signature(GAMES[kind]).parameters
    assert facts.option_names == tuple(params)
    for o in facts.options:
        signature_default = params[o.name].default
        assert signature_default in (o.default, None), o.name
        if o.default is not None:
            assert isinstance(o.default, o.type)


@pytest.mark.parametrize("kind", KINDS)
def test_allowed_values_are_accepted_and_others_refused(kind: str) -> None:
    facts = engine.facts_of(kind)
    for o in facts.options:
        for value in o.choices:
            engine.new(kind, **{o.name: value})
        if o.choices and o.type is str:
            with pytest.raises(BadOptions):
                engine.new(kind, **{o.name: "no such value"})
        if o.low is None or o.high is None or o.default is None:
            continue  # bounded by the other options (the Dots zone is within the board)
        for value in (o.low, o.high):
            engine.new(kind, **{o.name: value})
        for value in (o.low - 1, o.high + 1):
            with pytest.raises(BadOptions):
                engine.new(kind, **{o.name: value})


@pytest.mark.parametrize("kind", KINDS)
def test_seats_follow_the_options(kind: str) -> None:
    facts = engine.facts_of(kind)
    assert facts.seats({}) == engine.new(kind).players == facts.min_players
    if facts.max_players > facts.min_players:
        top = facts.max_players
        assert facts.seats({"players": top}) == engine.new(kind, players=top).players == top


def test_facts_refuse_nonsense() -> None:
    with pytest.raises(ValueError):
        GameFacts(3, 2, True, (), frozenset(), ai="x")
    with pytest.raises(ValueError):
        GameFacts(2, 2, True, (), frozenset(), ai="x", default_level="genius")
    with pytest.raises(ValueError):  # a range of players needs the option that sets it
        GameFacts(2, 4, True, (), frozenset(), ai="x")


def test_a_game_without_facts_is_not_registered() -> None:
    base: Any = GAMES["sprouts"]

    class NoFacts(base):  # type: ignore[misc]
        kind = "nofacts"
        facts = None

    with pytest.raises(TypeError):
        engine.register(NoFacts)
    assert "nofacts" not in GAMES


# -- actions besides moves ----------------------------------------------------------------


def test_stop_and_grounding_views() -> None:
    dots = engine.new("dots", width=6, height=6)
    grounded = engine.new("dots", width=6, height=6, grounding=True)
    assert engine.stopping(dots) is dots and engine.grounding(dots) is None
    assert engine.grounding(grounded) is grounded
    for kind in ("boxes", "sprouts"):
        g = engine.new(kind)
        assert engine.stopping(g) is None and engine.grounding(g) is None
    stop = engine.stopping(dots)
    assert stop is not None and stop.stopped_by is None
    stop.stop(0, now=10.0, limit=5.0)
    assert stop.stopped_by == 0 and stop.deadline == 15.0 and stop.expired(15.0)
    assert stop.finish_stop().reason == "stop"


@pytest.mark.parametrize("kind", KINDS)
def test_agreement(kind: str) -> None:
    """Every game ends in a draw by agreement; only END_HERE games end on the scores."""
    g = engine.new(kind)
    engine.random_playout(g, random.Random(3), max_moves=3)
    before = g.to_json()
    assert g.copy().agree(draw=True).draw
    if engine.facts_of(kind).has(Extra.END_HERE):
        assert g.copy().agree(draw=False).reason == "agreement"
    else:
        with pytest.raises(IllegalMove):
            g.agree(draw=False)
        assert g.to_json() == before


@pytest.mark.parametrize("kind", KINDS)
def test_record_round_trip(kind: str) -> None:
    g = engine.new(kind)
    engine.random_playout(g, random.Random(1), max_moves=6)
    text = g.record(["a comment"])
    back = engine.read_record(text, engine.facts_of(kind).record)
    assert back.kind == kind and back.moves == g.moves


def test_record_of_another_kind_is_refused() -> None:
    text = engine.new("boxes").record()
    with pytest.raises(engine.BadRecord):
        GAMES["sprouts"].from_record(text)
    with pytest.raises(engine.BadRecord):
        engine.read_record(text, "xyz")


# -- the AI registry ---------------------------------------------------------------------

SMALL: dict[str, dict[str, Any]] = {
    "dots": {"width": 6, "height": 6},
    "boxes": {"rows": 2, "cols": 2},
    "sprouts": {"spots": 2},
}


def test_every_game_offers_the_same_levels() -> None:
    for kind in KINDS:
        facts = engine.facts_of(kind)
        extra = ("expert",) if kind == "dots" else ()  # Точки's tree search with more time
        assert facts.levels == (*engine.LEVELS, *extra) == ("easy", "medium", "hard", *extra)
        assert facts.default_level == engine.DEFAULT_LEVEL == "medium"
    # Dots' old hard and the search without reuse are bench baselines, not the bot's levels.
    from engine.dots.ai import BENCH_LEVELS

    assert not set(BENCH_LEVELS) & set(engine.facts_of("dots").levels)


@pytest.mark.parametrize("kind", KINDS)
def test_unknown_level_is_one_error(kind: str) -> None:
    g = engine.new(kind, **SMALL[kind])
    with pytest.raises(UnknownLevel):
        engine.choose_move(g, "grandmaster")
    with pytest.raises(UnknownLevel):  # the game's own AI module raises the same class
        importlib.import_module(f"engine.{kind}.ai").choose_move(g, "grandmaster")
    with pytest.raises(UnknownLevel):  # bench-only levels are not the registry's
        engine.choose_move(g, "classic-hard")


@pytest.mark.parametrize("kind", KINDS)
def test_finished_game_is_one_error(kind: str) -> None:
    g = engine.new(kind, **SMALL[kind])
    g.resign(0)
    with pytest.raises(GameOver):
        engine.choose_move(g, "easy")
    with pytest.raises(GameOver):
        importlib.import_module(f"engine.{kind}.ai").choose_move(g, "easy")


@pytest.mark.parametrize("kind", KINDS)
def test_registry_plays_the_games_ai(kind: str) -> None:
    g = engine.new(kind, **SMALL[kind])
    before = g.to_json()
    ai = importlib.import_module(f"engine.{kind}.ai")
    assert engine.ai_of(kind) is ai.choose_move
    move = engine.choose_move(g, seed=7, time_limit=0.5)  # the default level
    assert g.to_json() == before and g.is_legal(move)
    assert type(move) is GAMES[kind].move_type
    assert inspect.signature(ai.choose_move).parameters["level"].default == engine.DEFAULT_LEVEL
