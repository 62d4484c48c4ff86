"""What is true of every game of a kind, whatever the position (OpenSpiel's GameType and
GameInfo, kept apart from the state): how many players, whether the score is worth showing,
the options with their types and defaults, the actions besides moves, and the AI's levels.

Each game class carries its :class:`GameFacts` as ``Game.facts``; ``engine.facts_of(kind)``
reads them through the registry. The bot builds its menus, lobbies and buttons from these
facts, so it never asks which game it is playing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Protocol, cast

if TYPE_CHECKING:
    from engine.core import Game, GameResult

# The AI levels every game offers, weakest first, and the one asked for when none is named.
LEVELS = ("easy", "medium", "hard")
DEFAULT_LEVEL = "medium"


class Extra(StrEnum):
    """An action besides moves and the endings every game has (resign, loss on time)."""

    DRAW = "draw"  # offer a draw by agreement
    END_HERE = "end_here"  # offer to end by agreement with the scores as they stand deciding
    STOP = "stop"  # call STOP: the other player moves alone, then taps Done (:class:`Stopping`)
    GROUND = "ground"  # end the game by grounding, when the ``grounding`` option is on


@dataclass(frozen=True, slots=True)
class Option:
    """One constructor option: its name, type and default, and the values it may take
    (``choices``, or the whole numbers ``low``..``high``). A default of None means "left
    out": the game works it out from the other options."""

    name: str
    type: type
    default: Any
    choices: tuple[Any, ...] = ()
    low: int | None = None
    high: int | None = None


@dataclass(frozen=True, slots=True)
class GameFacts:
    """The static facts of one kind of game."""

    min_players: int
    max_players: int
    scored: bool  # the scores mean something while playing (Рассада's winner moves last)
    options: tuple[Option, ...]
    extras: frozenset[Extra]
    ai: str  # the module whose ``choose_move`` plays the game (imported when first asked)
    levels: tuple[str, ...] = LEVELS
    default_level: str = DEFAULT_LEVEL
    record: str = "txt"  # the suffix of the game's move record (``Game.record()``)

    def __post_init__(self) -> None:
        if not 1 <= self.min_players <= self.max_players:
            raise ValueError("bad player range")
        if self.default_level not in self.levels:
            raise ValueError(f"default level {self.default_level!r} is not offered")
        if self.min_players < self.max_players and "players" not in self.option_names:
            raise ValueError("a game with a range of players sets it by the option 'players'")

    @property
    def option_names(self) -> tuple[str, ...]:
        return tuple(o.name for o in self.options)

    def option(self, name: str) -> Option:
        for o in self.options:
            if o.name == name:
                return o
        raise KeyError(name)

    def has(self, extra: Extra) -> bool:
        return extra in self.extras

    def seats(self, options: Mapping[str, Any]) -> int:
        """How many players a game with these options has (the option ``players`` where the
        count may vary, else the fixed count)."""
        if self.min_players == self.max_players:
            return self.min_players
        return int(options.get("players", self.option("players").default))


class Stopping(Protocol):
    """What a game whose facts have :attr:`Extra.STOP` offers besides the shared API."""

    @property
    def stopped_by(self) -> int | None:
        """The player who called STOP, or None."""

    @property
    def deadline(self) -> float | None:
        """When the STOP phase ends, on the caller's clock (None: no STOP or no limit)."""

    def stop(self, player: int, now: float | None = None, limit: float = ...) -> None: ...

    def expired(self, now: float) -> bool: ...

    def finish_stop(self) -> GameResult: ...


class Grounding(Protocol):
    """What a game whose facts have :attr:`Extra.GROUND` offers when its option is on."""

    grounding: bool

    def ground(self, player: int) -> GameResult: ...


def stopping(game: Game[Any]) -> Stopping | None:
    """The game's STOP phase, or None when its kind has no STOP."""
    return cast("Stopping", game) if game.facts.has(Extra.STOP) else None


def grounding(game: Game[Any]) -> Grounding | None:
    """The game's grounding action, or None when this game does not play it."""
    if not game.facts.has(Extra.GROUND):
        return None
    g = cast("Grounding", game)
    return g if g.grounding else None
