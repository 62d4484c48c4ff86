"""Courses: each game's lessons for /learn, with tasks the engines prove.

``engine.lessons.course("boxes")`` is the Точки и квадраты / Палочки course (a tuple of
:class:`Lesson`, in teaching order); ``lesson(id)`` and ``task(id)`` find one by id;
``judge(task, move)`` is the engine's verdict on a move (:mod:`engine.lessons.judges`).

A new course plugs in with data alone: a module ``engine/lessons/<game>.py`` holding
``LESSONS`` (built with :mod:`engine.lessons.model`), its line in :data:`COURSES`, and, for a
game not judged by exact value, its judge in :data:`engine.lessons.judges.JUDGES`.
``tests/engine/test_lessons.py`` then replays every task of it: its answers accepted by the
engine, its tempting wrong moves refused.
"""

from __future__ import annotations

from functools import cache

from engine.lessons import boxes, dots, sprouts
from engine.lessons.judges import JUDGES, judge
from engine.lessons.model import Lesson, Page, Task, Wrong

GAMES = ("dots", "boxes", "sprouts")  # the games /learn offers, a course or not yet
COURSES: dict[str, tuple[Lesson, ...]] = {
    "dots": dots.LESSONS,
    "boxes": boxes.LESSONS,
    "sprouts": sprouts.LESSONS,
}


def course(game: str) -> tuple[Lesson, ...]:
    """The lessons of ``game`` in order (empty for a game without a course yet)."""
    return COURSES.get(game, ())


@cache
def _lessons() -> dict[str, Lesson]:
    found: dict[str, Lesson] = {}
    for lessons in COURSES.values():
        for x in lessons:
            if x.id in found:
                raise ValueError(f"two lessons are called {x.id}")
            found[x.id] = x
    return found


@cache
def _tasks() -> dict[str, tuple[Lesson, int]]:
    found: dict[str, tuple[Lesson, int]] = {}
    for x in _lessons().values():
        for i, t in enumerate(x.tasks):
            if t.id in found:
                raise ValueError(f"two tasks are called {t.id}")
            found[t.id] = (x, i)
    return found


def lesson(lesson_id: str) -> Lesson | None:
    return _lessons().get(lesson_id)


def task(task_id: str) -> tuple[Lesson, int] | None:
    """The lesson holding the task ``task_id`` and the task's index in it."""
    return _tasks().get(task_id)


__all__ = [
    "COURSES",
    "GAMES",
    "JUDGES",
    "Lesson",
    "Page",
    "Task",
    "Wrong",
    "course",
    "judge",
    "lesson",
    "task",
]
