"""Pure game rules and AI for Tetrad's three games; no I/O, no Telegram, no Redis.

``engine.new("dots", width=20, height=20)`` starts a game; ``engine.load(record)`` rebuilds one
from its JSON record. Each game subpackage registers itself in :data:`GAMES` on import.
``engine.facts_of(kind)`` tells what is true of every game of a kind (players, options, actions
besides moves, AI levels: :mod:`engine.facts`); ``engine.choose_move(game, level, seed,
time_limit)`` asks any game's AI for a move.
"""

from typing import Any, Literal, overload

from engine import core
from engine.core import (
    END_REASONS,
    GAMES,
    BadNotation,
    BadOptions,
    BadRecord,
    ChooseMove,
    EndReason,
    EngineError,
    Game,
    GameOver,
    GameResult,
    IllegalMove,
    UnknownLevel,
    ai_of,
    choose_move,
    facts_of,
    game_class,
    load,
    random_playout,
    read_record,
    read_text_record,
    register,
    text_record,
    warm_ai,
)
from engine.facts import (
    DEFAULT_LEVEL,
    LEVELS,
    Extra,
    GameFacts,
    Grounding,
    Option,
    Stopping,
    grounding,
    stopping,
)

__all__ = [
    "DEFAULT_LEVEL",
    "END_REASONS",
    "GAMES",
    "LEVELS",
    "BadNotation",
    "BadOptions",
    "BadRecord",
    "ChooseMove",
    "EndReason",
    "EngineError",
    "Extra",
    "Game",
    "GameFacts",
    "GameOver",
    "GameResult",
    "Grounding",
    "IllegalMove",
    "Option",
    "Stopping",
    "UnknownLevel",
    "ai_of",
    "choose_move",
    "facts_of",
    "game_class",
    "grounding",
    "load",
    "new",
    "random_playout",
    "read_record",
    "read_text_record",
    "register",
    "stopping",
    "text_record",
    "warm_ai",
]

# Importing the game packages registers them (kept last: they import from engine.core).
from engine import boxes, dots, sprouts


@overload
def new(kind: Literal["dots"], **options: Any) -> dots.Game: ...
@overload
def new(kind: Literal["boxes"], **options: Any) -> boxes.Game: ...
@overload
def new(kind: Literal["sprouts"], **options: Any) -> sprouts.Game: ...
@overload
def new(kind: str, **options: Any) -> Game[Any]: ...
def new(kind: str, **options: Any) -> Game[Any]:
    """:func:`engine.core.new`, typed by kind: to mypy ``new("dots")`` is a Dots game (with
    its board API), a kind only known at run time the shared :class:`Game`."""
    return core.new(kind, **options)
