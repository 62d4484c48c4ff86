"""Pure game rules and AI for Tetrad's three games; no I/O, no Telegram, no Redis.

``engine.new("dots", width=20, height=20)`` starts a game; ``engine.load(record)`` rebuilds one
from its JSON record. Each game subpackage registers itself in :data:`GAMES` on import.
"""

from engine.core import (
    END_REASONS,
    GAMES,
    BadNotation,
    BadOptions,
    BadRecord,
    EngineError,
    Game,
    GameOver,
    GameResult,
    IllegalMove,
    game_class,
    load,
    new,
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
from engine import boxes, dots, sprouts  # noqa: F401
