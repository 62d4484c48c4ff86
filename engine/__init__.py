"""Pure game rules and AI for Tetrad's three games; no I/O, no Telegram, no Redis.

``engine.new("dots", width=20, height=20)`` starts a game; ``engine.load(record)`` rebuilds one
from its JSON record. Each game subpackage registers itself in :data:`GAMES` on import.
"""

from typing import Any, Literal, overload

from engine import core
from engine.core import (
    END_REASONS,
    GAMES,
    BadNotation,
    BadOptions,
    BadRecord,
    EndReason,
    EngineError,
    Game,
    GameOver,
    GameResult,
    IllegalMove,
    game_class,
    load,
    random_playout,
    read_text_record,
    register,
    text_record,
)

__all__ = [
    "END_REASONS",
    "GAMES",
    "BadNotation",
    "BadOptions",
    "BadRecord",
    "EndReason",
    "EngineError",
    "Game",
    "GameOver",
    "GameResult",
    "IllegalMove",
    "game_class",
    "load",
    "new",
    "random_playout",
    "read_text_record",
    "register",
    "text_record",
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
