"""Verified puzzles: positions cut from real and random games, each with the moves an engine
proves right, one tempting move it proves wrong, and a difficulty.

``engine.puzzles.load("boxes")`` gives the shipped bank (``engine/puzzles/data/<game>.json.gz``,
written by ``python -m engine.puzzles.generate``); ``puzzle.start()`` rebuilds the position as
the engine's own game (from its record, as matches store games), ``puzzle.judge(notation)``
says whether a move solves it and what it is worth. The data is checked whole by
``tests/engine/puzzles/test_boxes_bank.py``; the bot only reads it.
"""

from __future__ import annotations

import gzip
import json
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

from engine.core import Game
from engine.core import load as load_game

DATA = Path(__file__).parent / "data"
GAMES = ("boxes", "sprouts", "dots")
RECORD_VERSION = 1
# The starting puzzle rating by difficulty (1 easiest … 5 hardest), on the Glicko scale the
# players' puzzle ratings start from (1500), so the first puzzles a newcomer gets are middling.
RATING_OF_DIFFICULTY = {1: 1100.0, 2: 1300.0, 3: 1500.0, 4: 1700.0, 5: 1900.0}
# Hint topics: what the first accepted move does (``puzzle.hint.<topic>`` in the bot's
# catalogs): Точки и квадраты take, decline, safe, sacrifice; Рассада loop, split, join;
# Точки capture (at once), ladder (a chase of single threats), double (two threats at once),
# save (the one move that stops the opponent's capture).
HINTS = (
    *("take", "decline", "safe", "sacrifice", "loop", "split", "join"),
    *("capture", "ladder", "double", "save"),
)

T = TypeVar("T")


def cuts(rng: random.Random, positions: Sequence[T], every: int | None) -> list[T]:
    """The positions of one source game a generator cuts: two at random (``every`` None), or
    every ``every``-th from a random start, so a game that cost seconds to play gives many
    candidates (most of a Рассада candidate's cost is drawing its game)."""
    if every is None:
        return rng.sample(list(positions), min(2, len(positions)))
    if every < 1:
        raise ValueError(f"every must be at least 1, not {every}")
    return list(positions[rng.randrange(every) :: every]) if positions else []


@dataclass(frozen=True)
class Analysis:
    """Every legal move's exact value (for the player to move, by notation) and the best:
    net boxes in Точки и квадраты, +1 (a win) or -1 (a loss) in Рассада."""

    values: dict[str, int]
    best: int

    @property
    def accepted(self) -> list[str]:
        return [m for m, v in self.values.items() if v == self.best]


@dataclass(frozen=True)
class Verdict:
    """What a move played in a puzzle is worth: ``solved`` when it keeps the position's value;
    ``got`` its value and ``best`` the position's (net boxes for the player to move)."""

    solved: bool
    got: int
    best: int


@dataclass(frozen=True)
class Puzzle:
    """One puzzle. ``position``: the engine's record of the game so far; ``turn``: the seat to
    move; ``accepted``: every move that keeps the value (engine notation); ``wrong``: a natural
    move that loses it; ``values``: every legal move's exact value (net for the mover), so the
    bot explains a wrong move without searching; ``hint``: one of :data:`HINTS`; ``plan``: a
    game's own solution beyond the first move (Точки: the bot's replies in a multi-move puzzle
    and the refutations, :mod:`engine.puzzles.dots`), empty for the others."""

    game: str
    id: str
    position: dict[str, Any]
    turn: int
    value: int
    accepted: tuple[str, ...]
    wrong: str
    values: dict[str, int]
    difficulty: int
    hint: str
    plan: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def cut(cls, kind: str, game: Game[Any], analysis: Analysis, wrong: str, hint: str) -> Puzzle:
        """A generator's new puzzle from its position and analysis (the id and the difficulty
        are set once the whole bank is cut and ranked)."""
        return cls(
            game=kind,
            id="",
            position=game.to_json(),
            turn=game.turn,
            value=analysis.best,
            accepted=tuple(sorted(analysis.accepted)),
            wrong=wrong,
            values=dict(sorted(analysis.values.items())),
            difficulty=3,
            hint=hint,
        )

    @property
    def rating(self) -> float:
        """The puzzle's starting rating (its live rating is kept by the bot's storage)."""
        return RATING_OF_DIFFICULTY[self.difficulty]

    def start(self) -> Game[Any]:
        """A fresh copy of the puzzle's position."""
        return load_game(self.position)

    def judge(self, notation: str) -> Verdict | None:
        """The verdict on a move given in the engine's notation; None if it is no legal move.
        A puzzle with a plan lists only some wrong moves: any other legal move is wrong too."""
        got = self.values.get(notation)
        if got is None and self.plan and _legal(self.start(), notation):
            got = 0
        if got is None:
            return None
        return Verdict(notation in self.accepted, got, self.value)

    def to_json(self) -> dict[str, Any]:
        plan = {"plan": self.plan} if self.plan else {}
        return plan | {
            "game": self.game,
            "id": self.id,
            "position": self.position,
            "turn": self.turn,
            "value": self.value,
            "accepted": list(self.accepted),
            "wrong": self.wrong,
            "values": self.values,
            "difficulty": self.difficulty,
            "hint": self.hint,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Puzzle:
        return cls(
            game=d["game"],
            id=d["id"],
            position=d["position"],
            turn=int(d["turn"]),
            value=int(d["value"]),
            accepted=tuple(d["accepted"]),
            wrong=d["wrong"],
            values={str(k): int(v) for k, v in d["values"].items()},
            difficulty=int(d["difficulty"]),
            hint=d["hint"],
            plan=dict(d.get("plan", {})),
        )


def _legal(game: Game[Any], notation: str) -> bool:
    try:
        return bool(game.is_legal(game.parse_move(notation)))
    except ValueError:
        return False


def path_of(game: str) -> Path:
    return DATA / f"{game}.json.gz"


def write(game: str, puzzles: list[Puzzle], path: Path | None = None) -> Path:
    """Write a bank (compact JSON, gzip without a timestamp so a rerun gives the same bytes)."""
    out = path or path_of(game)
    body = {"v": RECORD_VERSION, "game": game, "puzzles": [p.to_json() for p in puzzles]}
    raw = json.dumps(body, separators=(",", ":"), sort_keys=True).encode()
    out.write_bytes(gzip.compress(raw, compresslevel=9, mtime=0))
    return out


@cache
def load(game: str) -> tuple[Puzzle, ...]:
    """The shipped puzzles of ``game`` (empty for a game without a bank), in id order."""
    if game not in GAMES or not path_of(game).exists():
        return ()
    body = json.loads(gzip.decompress(path_of(game).read_bytes()))
    if body.get("v") != RECORD_VERSION:
        raise ValueError(f"puzzle bank {game}: unknown version {body.get('v')!r}")
    return tuple(Puzzle.from_json(d) for d in body["puzzles"])


@cache
def by_id(game: str) -> dict[str, Puzzle]:
    return {p.id: p for p in load(game)}


def find(puzzle_id: str) -> Puzzle | None:
    """The shipped puzzle with this id, in any game's bank (None for an unknown id)."""
    for game in GAMES:
        found = by_id(game).get(puzzle_id)
        if found is not None:
            return found
    return None


__all__ = ["GAMES", "HINTS", "Puzzle", "Verdict", "by_id", "cuts", "find", "load", "write"]
