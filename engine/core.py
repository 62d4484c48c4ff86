"""The one API shape every game shares (after python-chess and OpenSpiel).

A game is a mutable object with a small, uniform surface: ``turn``, ``legal_moves()``,
``is_legal(m)``, ``play(m)``, ``over``, ``result``, ``scores``, ``parse_move``/``format_move``,
``to_json``/``from_json`` and ``copy``. Moves are small frozen dataclasses owned by each game.
Errors are specific exception classes so the bot can explain them in the user's language.
"""

from __future__ import annotations

import importlib
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Literal, Protocol, Self, TypeVar, get_args

from engine.facts import GameFacts


class EngineError(Exception):
    """Base class of every error the engine raises on purpose."""


class IllegalMove(EngineError, ValueError):
    """A move that the rules forbid; the game is left unchanged.

    ``code`` is a stable machine-readable key (``"occupied"``, ``"not_your_turn"``…) the bot
    maps to a translated message; ``reason`` is the English text for logs and tools; ``params``
    fill the placeholders of the translated message.
    """

    def __init__(self, reason: str, *, code: str = "illegal", **params: Any) -> None:
        super().__init__(reason)
        self.reason = reason
        self.code = code
        self.params = params


class BadNotation(IllegalMove):
    """Text that does not name a move in the game's notation."""

    def __init__(self, reason: str, *, code: str = "bad_notation", **params: Any) -> None:
        super().__init__(reason, code=code, **params)


class GameOver(IllegalMove):
    """An action on a game that has already ended."""

    def __init__(self, reason: str = "the game is over", **params: Any) -> None:
        super().__init__(reason, code="game_over", **params)


class BadOptions(EngineError, ValueError):
    """Options that do not describe a valid game (size out of range, unknown preset…)."""


class BadRecord(EngineError, ValueError):
    """A stored record (JSON, SGF…) that cannot be read back into a game."""


class UnknownLevel(EngineError, ValueError):
    """An AI level that the game's facts do not offer."""


# How a game ended. "end" is the natural end by the rules (board full, no move left…). The
# same strings are stored ("r" of a result record) and name the translations ("end.<reason>").
EndReason = Literal["end", "resign", "time", "agreement", "stop", "ground"]
END_REASONS: tuple[EndReason, ...] = get_args(EndReason)


@dataclass(frozen=True, slots=True)
class GameResult:
    """The final outcome: scores per player, who won, and how.

    ``winner`` is the one winner's index, None when there is not exactly one; ``winners``
    every winner: ``(winner,)``, or of three or four players those who share the top score
    (joint winners: they won, the others lost), or ``()`` for a draw (nobody lost).
    """

    scores: tuple[int, ...]
    winner: int | None
    reason: EndReason = "end"
    loser: int | None = None  # who resigned or ran out of time, when that ended the game
    winners: tuple[int, ...] = ()  # filled in from ``winner`` when that is given

    def __post_init__(self) -> None:
        if self.reason not in END_REASONS:
            raise ValueError(f"unknown end reason {self.reason!r}")
        if self.winner is not None:
            if self.winners not in ((), (self.winner,)):
                raise ValueError("a single winner's result lists only that winner")
            object.__setattr__(self, "winners", (self.winner,))
        elif len(self.winners) == 1:
            raise ValueError("a single winner is given as winner")
        elif len(set(self.winners)) != len(self.winners) or not all(
            isinstance(i, int) and 0 <= i < len(self.scores) for i in self.winners
        ):
            raise ValueError(f"bad joint winners {self.winners!r}")

    @property
    def draw(self) -> bool:
        return not self.winners

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"s": list(self.scores), "w": self.winner, "r": self.reason}
        if self.loser is not None:
            d["l"] = self.loser
        if len(self.winners) > 1:  # only then: older records read as before
            d["ws"] = list(self.winners)
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> GameResult:
        try:
            return cls(
                tuple(int(s) for s in d["s"]),
                d["w"],
                d.get("r", "end"),
                d.get("l"),
                tuple(d.get("ws", ())),
            )
        except (KeyError, TypeError, ValueError) as e:
            raise BadRecord(f"bad result record: {e}") from e

    @staticmethod
    def by_scores(scores: Sequence[int], reason: EndReason = "end") -> GameResult:
        """The player with the strictly highest score wins. A top score shared by some of
        three or four players makes them joint winners; shared by all (or by both of two),
        a draw."""
        best = max(scores)
        leaders = tuple(i for i, s in enumerate(scores) if s == best)
        if len(leaders) == 1:
            return GameResult(tuple(scores), leaders[0], reason)
        joint = leaders if len(leaders) < len(scores) else ()
        return GameResult(tuple(scores), None, reason, winners=joint)


MoveT = TypeVar("MoveT", bound=Hashable)


class Game(ABC, Generic[MoveT]):
    """Base class of the three games; subclasses register themselves with :func:`register`.

    Subclasses implement the rules; this class holds what is the same everywhere: the ending
    actions that are not moves (resign, agreement, time) and the checks around them.
    """

    kind: ClassVar[str]
    move_type: ClassVar[type]
    facts: ClassVar[GameFacts]
    # Named option sets, e.g. ``{"quick": {"width": 15, "height": 15}}``.
    PRESETS: ClassVar[dict[str, dict[str, Any]]] = {}
    # Subclasses set ``_result`` when the game ends; ``None`` while it goes on.
    _result: GameResult | None

    # -- the rules (per game) ------------------------------------------------------------

    @property
    @abstractmethod
    def players(self) -> int:
        """How many players take turns."""

    @property
    @abstractmethod
    def turn(self) -> int:
        """Index of the player to move (0 moves first)."""

    @property
    @abstractmethod
    def scores(self) -> tuple[int, ...]:
        """Points per player as they stand now."""

    @property
    @abstractmethod
    def ply(self) -> int:
        """How many moves have been played."""

    @property
    @abstractmethod
    def options(self) -> dict[str, Any]:
        """The constructor options: ``type(g)(**g.options)`` starts the same game afresh
        (rematches, replays)."""

    @property
    @abstractmethod
    def moves(self) -> list[MoveT]:
        """The moves played so far, in order (a fresh list)."""

    @abstractmethod
    def legal_moves(self) -> list[MoveT]:
        """Every legal move; empty exactly when the game is over."""

    @abstractmethod
    def check(self, move: MoveT) -> None:
        """Raise :class:`IllegalMove` (with a reason) when ``move`` cannot be played now."""

    @abstractmethod
    def play(self, move: MoveT) -> None:
        """Play ``move``; raise :class:`IllegalMove` and change nothing when it is illegal."""

    @abstractmethod
    def parse_move(self, text: str) -> MoveT:
        """Read a move in human notation; raise :class:`BadNotation` for text that is not one."""

    @abstractmethod
    def format_move(self, move: MoveT) -> str:
        """Write a move in human notation; ``parse_move(format_move(m)) == m``."""

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """A compact JSON-safe record with ``kind`` and a schema version ``v``."""

    @classmethod
    @abstractmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        """Rebuild a game from :meth:`to_json`; raise :class:`BadRecord` for bad data."""

    # -- shared behaviour ------------------------------------------------------------------

    @classmethod
    def check_record(cls, data: Any, version: int) -> None:
        """Refuse (:class:`BadRecord`) data that is not this game's record of ``version``."""
        if not isinstance(data, dict) or data.get("kind") != cls.kind:
            raise BadRecord(f"not a {cls.kind} record")
        if data.get("v") != version:
            raise BadRecord(f"unsupported {cls.kind} record version {data.get('v')!r}")

    @classmethod
    def preset(cls, name: str) -> Self:
        """A new game with the options of the named preset."""
        try:
            options = cls.PRESETS[name]
        except KeyError:
            known = ", ".join(cls.PRESETS) or "none"
            raise BadOptions(f"unknown preset {name!r} for {cls.kind}; known: {known}") from None
        return cls(**options)

    def is_legal(self, move: MoveT) -> bool:
        try:
            self.check(move)
        except IllegalMove:
            return False
        return True

    @property
    def over(self) -> bool:
        return self._result is not None

    @property
    def result(self) -> GameResult | None:
        return self._result

    def copy(self) -> Self:
        return type(self).from_json(self.to_json())

    def replay(self) -> Iterator[Self]:
        """Yield the game as it stood at ply 0, 1, … up to now, for replays and records.

        One object is advanced step by step; copy a state if you keep it. Games whose history
        holds actions other than moves (Dots STOP) override this.
        """
        g = type(self)(**self.options)
        yield g
        for move in self.moves:
            g.play(move)
            yield g

    def snapshots(self) -> Iterator[Self]:
        """The game at each ply like :meth:`replay`, for pictures (replays of a finished game):
        a game whose replay is slow may yield the same positions drawn more cheaply."""
        return self.replay()

    def _check_player(self, player: int) -> None:
        if self._result is not None:
            raise GameOver()
        if not (isinstance(player, int) and 0 <= player < self.players):
            raise IllegalMove(f"no player {player!r}", code="no_such_player", player=player)

    def resign(self, player: int) -> GameResult:
        """``player`` gives up; with two players the other wins, otherwise the best of the rest."""
        self._check_player(player)
        self._result = self._forfeit(player, "resign")
        return self._result

    def timeout(self, player: int) -> GameResult:
        """``player`` ran out of time; scored like a resignation."""
        self._check_player(player)
        self._result = self._forfeit(player, "time")
        return self._result

    def agree(self, draw: bool = True) -> GameResult:
        """End by agreement of all players: a draw. Games whose facts have
        :attr:`~engine.facts.Extra.END_HERE` also end with the scores deciding (``draw=False``;
        Dots: "ending by agreement", its default) and override this."""
        if self._result is not None:
            raise GameOver()
        if not draw:
            raise IllegalMove(f"{self.kind} does not end by agreement on the scores")
        self._result = GameResult(self.scores, None, "agreement")
        return self._result

    def record(self, comments: Sequence[str] = ()) -> str:
        """The game's move record as a file's text, in the format ``facts.record`` names: by
        default the plain :func:`text_record` (games with a format of their own override
        this and :meth:`from_record`, and may leave the comments out)."""
        return text_record(self, comments)

    @classmethod
    def from_record(cls, text: str) -> Game[Any]:
        """Read :meth:`record` back (raise :class:`BadRecord`)."""
        game = read_text_record(text)
        if game.kind != cls.kind:
            raise BadRecord(f"not a {cls.kind} record")
        return game

    def _forfeit(self, player: int, reason: EndReason) -> GameResult:
        scores = self.scores
        others = [i for i in range(self.players) if i != player]
        best = max(others, key=lambda i: scores[i])
        return GameResult(scores, best, reason, loser=player)

    def _end_json(self) -> dict[str, Any] | None:
        return None if self._result is None else self._result.to_json()


GAMES: dict[str, type[Game[Any]]] = {}

GameT = TypeVar("GameT", bound=type[Game[Any]])
PlayedT = TypeVar("PlayedT", bound=Game[Any])  # random_playout hands back the game it was given


def register(cls: GameT) -> GameT:
    """Class decorator: make a game reachable through ``engine.new(kind)``."""
    kind = cls.kind
    if not isinstance(cls.__dict__.get("facts"), GameFacts):
        raise TypeError(f"game kind {kind!r} declares no facts")
    if kind in GAMES and GAMES[kind] is not cls:
        raise ValueError(f"game kind {kind!r} registered twice")
    GAMES[kind] = cls
    return cls


def game_class(kind: str) -> type[Game[Any]]:
    try:
        return GAMES[kind]
    except KeyError:
        raise BadOptions(f"unknown game {kind!r}; known: {', '.join(sorted(GAMES))}") from None


def facts_of(kind: str) -> GameFacts:
    """The static facts of a registered kind (raise :class:`BadOptions` for an unknown one)."""
    return game_class(kind).facts


def new(kind: str, **options: Any) -> Game[Any]:
    """Start a game of ``kind`` with its options; ``preset=name`` picks a named preset."""
    cls = game_class(kind)
    preset = options.pop("preset", None)
    if preset is not None:
        if options:
            raise BadOptions("a preset takes no further options")
        return cls.preset(preset)
    try:
        return cls(**options)
    except TypeError as e:
        raise BadOptions(f"bad options for {kind}: {e}") from e


def load(data: dict[str, Any]) -> Game[Any]:
    """Rebuild any registered game from its ``to_json`` record."""
    if not isinstance(data, dict) or not isinstance(data.get("kind"), str):
        raise BadRecord("not a game record")
    cls = GAMES.get(data["kind"])
    if cls is None:
        raise BadRecord(f"unknown game kind {data['kind']!r}")
    return cls.from_json(data)


def random_playout(
    game: PlayedT,
    rng: random.Random,
    *,
    max_moves: int | None = None,
    on_move: Callable[[PlayedT, Any], None] | None = None,
) -> PlayedT:
    """Play uniformly random legal moves until the end (or ``max_moves``); for tests and bench."""
    n = 0
    while not game.over and (max_moves is None or n < max_moves):
        moves = game.legal_moves()
        move = moves[rng.randrange(len(moves))]
        game.play(move)
        if on_move is not None:
            on_move(game, move)
        n += 1
    return game


class ChooseMove(Protocol):
    """The one signature of every game's AI (``engine.<kind>.ai.choose_move``)."""

    def __call__(
        self, game: Any, level: str = ..., seed: int | None = None, time_limit: float | None = None
    ) -> Any: ...


def ai_of(kind: str) -> ChooseMove:
    """The AI of a registered kind: the ``choose_move`` of the module its facts name, imported
    on first use (AIs load tables and solvers that a process showing boards never needs)."""
    module = importlib.import_module(facts_of(kind).ai)
    choose: ChooseMove = module.choose_move
    return choose


def warm_ai(kind: str) -> None:
    """Import the AI of ``kind`` and let it set itself up (its module's ``warm()``, where it
    has one: read its tables, say), so that a worker's first move costs what the others do."""
    warm = getattr(importlib.import_module(facts_of(kind).ai), "warm", None)
    if warm is not None:
        warm()


def choose_move(
    game: Game[Any],
    level: str | None = None,
    seed: int | None = None,
    time_limit: float | None = None,
) -> Any:
    """The move the AI of ``level`` (the facts' default when None) plays in ``game``, which it
    leaves unchanged: the same call, level names and errors for every game. A level the facts
    do not offer raises :class:`UnknownLevel`; a finished game :class:`GameOver`."""
    facts = game.facts
    level = facts.default_level if level is None else level
    if level not in facts.levels:
        raise UnknownLevel(f"unknown level {level!r}; choose from {', '.join(facts.levels)}")
    if game.over:
        raise GameOver()
    return ai_of(game.kind)(game, level, seed, time_limit)


RECORD_HEADER = "; tetrad"


def text_record(game: Game[Any], comments: Sequence[str] = ()) -> str:
    """A plain-text move record: a header naming the game and its options, comment lines
    (players, result…), then one move per line in the game's own notation."""
    import json

    lines = [f"{RECORD_HEADER} {game.kind} {json.dumps(game.options, sort_keys=True)}"]
    lines += [f"; {c}" for c in comments]
    lines += [game.format_move(m) for m in game.moves]
    return "\n".join(lines) + "\n"


def read_record(text: str, suffix: str = "txt") -> Game[Any]:
    """Read a record file's text of the format named by its suffix (``facts.record``)."""
    if suffix == "txt":
        return read_text_record(text)
    for cls in GAMES.values():
        if cls.facts.record == suffix:
            return cls.from_record(text)
    raise BadRecord(f"no game keeps .{suffix} records")


def read_text_record(text: str) -> Game[Any]:
    """Replay a :func:`text_record` into a game (the ending, if not by moves, is not replayed)."""
    import json

    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if not lines or not lines[0].startswith(RECORD_HEADER + " "):
        raise BadRecord("not a Tetrad move record")
    try:
        kind, options = lines[0][len(RECORD_HEADER) + 1 :].split(" ", 1)
        game = new(kind, **json.loads(options))
    except (ValueError, TypeError, EngineError) as e:
        raise BadRecord(f"bad record header: {e}") from e
    for line in lines[1:]:
        if line.startswith(";"):
            continue
        try:
            game.play(game.parse_move(line))
        except IllegalMove as e:
            raise BadRecord(f"move {line!r}: {e.reason}") from e
    return game
