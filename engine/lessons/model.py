"""The shapes of a course: a lesson is a few pages (words and a position to draw) and then
tasks, each a hand-made position with a goal, a hint, the intended answers and the tempting
wrong ones with their reasons.

Positions are engine records (``game.to_json()``), built in code from move lists
(:func:`boxes_position`, :func:`sprouts_position`) so a course reads as the moves a teacher
would draw. Texts are catalog keys (``bot/i18n``), never words: the engine knows no language.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.boxes import Game as BoxesGame
from engine.core import Game
from engine.core import load as load_game
from engine.dots import Game as DotsGame
from engine.sprouts import Game as SproutsGame


@dataclass(frozen=True)
class Page:
    """One message of a lesson: ``text`` (a catalog key), the ``position`` drawn under it and
    ``marks``: the moves (engine notation) the picture marks, the point of the page."""

    text: str
    position: dict[str, Any]
    marks: tuple[str, ...] = ()

    def start(self) -> Game[Any]:
        return load_game(self.position)


@dataclass(frozen=True)
class Wrong:
    """A tempting wrong answer (engine notation) and why it is wrong (a catalog key)."""

    move: str
    reason: str


@dataclass(frozen=True)
class Task:
    """A position to solve on a real board. ``id``: unique across every course (it is in the
    buttons: ``[A-Za-z0-9_-]``, at most 24); ``turn``: the seat to move (the person's);
    ``answers``: the intended moves; ``wrong``: at least one tempting wrong move. The engine
    judges every move (:func:`engine.lessons.judge`); the stored answers are what the tests
    prove it agrees with."""

    id: str
    game: str
    position: dict[str, Any]
    turn: int
    goal: str
    hint: str
    answers: tuple[str, ...]
    wrong: tuple[Wrong, ...]
    right: str = ""  # the words after a right answer (a catalog key; "" for none)

    def start(self) -> Game[Any]:
        """A fresh copy of the task's position."""
        return load_game(self.position)

    def reason(self, move: str) -> str | None:
        """The catalog key saying why ``move`` is wrong, if the task names it."""
        return next((w.reason for w in self.wrong if w.move == move), None)


@dataclass(frozen=True)
class Lesson:
    """One lesson of a game's course: ``id`` (short, in buttons), ``title`` (a catalog key),
    its pages and then its tasks (at least one)."""

    id: str
    game: str
    title: str
    pages: tuple[Page, ...]
    tasks: tuple[Task, ...] = field(default=())

    def __post_init__(self) -> None:
        if not self.pages or not self.tasks:
            raise ValueError(f"lesson {self.id}: a lesson has pages and at least one task")
        if any(t.game != self.game for t in self.tasks):
            raise ValueError(f"lesson {self.id}: a task of another game")


def task(
    id: str,
    position: dict[str, Any],
    *,
    goal: str,
    hint: str,
    answers: Sequence[str],
    wrong: Sequence[tuple[str, str]],
    right: str = "",
) -> Task:
    """A task on ``position``; the seat to move is the position's own (in Точки и квадраты the
    player who just closed a box moves again). Moves are given in any notation the engine
    reads and stored in its own, so a task compares them as the bot's keyboard gives them."""
    game = load_game(position)
    if game.over:
        raise ValueError(f"task {id}: the game is over")

    def norm(m: str) -> str:
        return str(game.format_move(game.parse_move(m)))

    if not answers or not wrong:
        raise ValueError(f"task {id}: it needs an answer and a tempting wrong move")
    return Task(
        id=id,
        game=str(position["kind"]),
        position=position,
        turn=game.turn,
        goal=goal,
        hint=hint,
        answers=tuple(norm(m) for m in answers),
        wrong=tuple(Wrong(norm(m), why) for m, why in wrong),
        right=right,
    )


def keyed_task(
    id: str, position: dict[str, Any], answers: Sequence[str], wrong: Sequence[str]
) -> Task:
    """Task ``<lesson>-<n>`` whose texts are named by its id, so a course lists only moves:
    ``learn.<game>.<lesson>.<n>.goal``, ``.hint``, ``.right``, and ``.w<k>`` the reason
    wrong move k is wrong."""
    lesson, n = id.split("-")
    key = f"learn.{position['kind']}.{lesson}.{n}"
    return task(
        id,
        position,
        goal=f"{key}.goal",
        hint=f"{key}.hint",
        answers=answers,
        wrong=[(m, f"{key}.w{k}") for k, m in enumerate(wrong, 1)],
        right=f"{key}.right",
    )


def keyed_lesson(
    game: str,
    id: str,
    pages: Sequence[tuple[dict[str, Any], Sequence[str]]],
    tasks: Sequence[Task],
) -> Lesson:
    """A lesson whose texts are named by its id: ``learn.<game>.<id>.title``, page n's words
    ``.p<n>``; each page a position and the moves it marks."""
    return Lesson(
        id=id,
        game=game,
        title=f"learn.{game}.{id}.title",
        pages=tuple(
            Page(f"learn.{game}.{id}.p{n}", pos, tuple(marks))
            for n, (pos, marks) in enumerate(pages, 1)
        ),
        tasks=tuple(tasks),
    )


def boxes_position(
    rows: int, cols: int, moves: str = "", *, border: bool = False
) -> dict[str, Any]:
    """A Точки и квадраты (``border``: Палочки) record after ``moves``: lines in the game's
    notation, separated by spaces (``"a1-b1 b1-b2"``); a line that closes a box gives its
    player the next one, as in play."""
    game = BoxesGame(rows, cols, border=border)
    for m in moves.split():
        game.play(game.parse_move(m))
    return game.to_json()


def boxes_endgame(rows: int, cols: int, free: str, *, border: bool = False) -> dict[str, Any]:
    """A Точки и квадраты record with every line drawn but ``free`` (space-separated): what an
    endgame's chains are is clearest said by the lines left. The others are drawn in board
    order (a box they close goes to its player, who moves again, as in play)."""
    game = BoxesGame(rows, cols, border=border)
    left = {game.parse_move(m) for m in free.split()}
    for m in game.legal_moves():
        if m not in left:
            game.play(m)
    return game.to_json()


def sprouts_position(
    spots: int, moves: Sequence[str] = (), *, misere: bool = False
) -> dict[str, Any]:
    """A Рассада record after ``moves`` in the game's notation."""
    game = SproutsGame(spots, misere=misere)
    for m in moves:
        game.play(game.parse_move(m))
    return game.to_json()


def dots_position(width: int, height: int, moves: str = "", **options: Any) -> dict[str, Any]:
    """A Точки record after ``moves``: points in the game's notation (``"d4 e5"``),
    separated by spaces, played in turn from Orange (player 0), as in play, so a capture the
    list makes is made. ``options`` are the game's (``start``, ``scoring``, ``grounding``…)."""
    game = DotsGame(width, height, **options)
    for m in moves.split():
        game.play(game.parse_move(m))
    return game.to_json()


def alternate(first: str, second: str) -> str:
    """One move list from each player's own (space-separated): ``first``'s dots at the odd
    plies, ``second``'s at the even, so a position is written as each side's dots; the
    shorter list ends first (the longer may be one dot longer)."""
    a, b = first.split(), second.split()
    if not 0 <= len(a) - len(b) <= 1:
        raise ValueError(f"{len(a)} and {len(b)} dots do not alternate")
    return " ".join(m for pair in zip(a, [*b, ""], strict=False) for m in pair if m)
