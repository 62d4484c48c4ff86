"""Each game's judge of a lesson task: the engine decides whether a move reaches the task's
goal, so a task is right by proof, not because its answer was typed in.

A judge is ``judge(task, move) -> Verdict | None`` (None: no legal move). Точки и квадраты
and Рассада judge by exact value, as their puzzles do (:mod:`engine.puzzles`): a move is right
when it keeps the position's value — the exact solver's net boxes
(:func:`engine.puzzles.boxes.analyse`), or a win in Рассада (one of the winning children,
:func:`engine.puzzles.sprouts.analyse`). A game whose goals are not a value registers its
own judge in :data:`JUDGES`: Точки, whose tasks are captures and rescues proved by an exact
search (:func:`engine.lessons.dots.judge`); its :func:`analysis` is every legal move judged
so (1 proved, 0 not).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from engine.boxes import Game as BoxesGame
from engine.lessons import dots as dots_course
from engine.lessons.model import Task
from engine.puzzles import Analysis, Verdict
from engine.puzzles import boxes as boxes_puzzles
from engine.puzzles import sprouts as sprouts_puzzles
from engine.sprouts import Game as SproutsGame

Judge = Callable[[Task, str], "Verdict | None"]


def _boxes(game: Any) -> Analysis:
    analysis = boxes_puzzles.analyse(cast(BoxesGame, game))  # no budget: always finishes
    assert analysis is not None
    return analysis


def _sprouts(game: Any) -> Analysis:
    return sprouts_puzzles.analyse(cast(SproutsGame, game))


_ANALYSES: dict[str, Callable[[Task], Analysis]] = {
    "boxes": lambda t: _boxes(t.start()),
    "sprouts": lambda t: _sprouts(t.start()),
    "dots": dots_course.analyse,  # every move judged by the capture prover
}


_SEEN: dict[str, Analysis] = {}


def analysis(task: Task) -> Analysis:
    """Every legal move's exact value in the task's position (once per task and process:
    a lesson's positions are small, the first look takes milliseconds)."""
    found = _SEEN.get(task.id)
    if found is None:
        found = _SEEN[task.id] = _ANALYSES[task.game](task)
    return found


def by_value(task: Task, move: str) -> Verdict | None:
    """Right when the move keeps the position's exact value."""
    a = analysis(task)
    got = a.values.get(move)
    return None if got is None else Verdict(got == a.best, got, a.best)


JUDGES: dict[str, Judge] = {"boxes": by_value, "sprouts": by_value, "dots": dots_course.judge}


def judge(task: Task, move: str) -> Verdict | None:
    """The engine's verdict on ``move`` (engine notation) in ``task``; None if it is not a
    legal move there."""
    return JUDGES[task.game](task, move)
