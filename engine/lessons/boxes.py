"""The Точки и квадраты / Палочки course: drawing, the extra move, never the third side,
chains and cycles, the short chain first, the double-cross and "all but two", the long-chain
rule, and Палочки's drawn border.

Texts are ``learn.boxes.<lesson>.*`` in bot/i18n: ``title``, ``p<n>`` a page, and per task
``<task>.goal``, ``.hint``, ``.right`` and ``.w<n>`` the reason a tempting move is wrong.
Lines are named as the keyboard names them: dots a1, b1… from the bottom left.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.lessons.model import Lesson, Page, Task
from engine.lessons.model import boxes_position as board
from engine.lessons.model import task as make_task

Position = dict[str, Any]


def _lesson(id: str, pages: Sequence[tuple[Position, str]], tasks: Sequence[Task]) -> Lesson:
    """A lesson whose texts are named by its id: page n's words are ``learn.boxes.<id>.p<n>``,
    its marks the lines given (space-separated)."""
    return Lesson(
        id=id,
        game="boxes",
        title=f"learn.boxes.{id}.title",
        pages=tuple(
            Page(f"learn.boxes.{id}.p{n}", pos, tuple(marks.split()))
            for n, (pos, marks) in enumerate(pages, 1)
        ),
        tasks=tuple(tasks),
    )


def _task(id: str, position: Position, answers: str, wrong: str) -> Task:
    """Task ``<lesson>-<n>``: its texts ``learn.boxes.<lesson>.<n>.*``; ``answers`` and
    ``wrong`` lines separated by spaces, wrong move k's reason ``.w<k>``."""
    lesson, n = id.split("-")
    key = f"learn.boxes.{lesson}.{n}"
    return make_task(
        id,
        position,
        goal=f"{key}.goal",
        hint=f"{key}.hint",
        answers=answers.split(),
        wrong=[(m, f"{key}.w{k}") for k, m in enumerate(wrong.split(), 1)],
        right=f"{key}.right",
    )


# 1. Drawing: a line between neighbouring dots; the fourth side of a box takes it.
B1 = _lesson(
    "b1",
    [
        (board(2, 2), ""),
        (board(2, 2, "a3-b3 a2-a3 a2-b2"), "a3-b3 a2-a3 a2-b2"),
    ],
    [_task("b1-1", board(2, 2, "a3-b3 c1-c2 a2-a3 b1-c1 a2-b2"), "b2-b3", "c2-c3")],
)

LESSONS: tuple[Lesson, ...] = (B1,)
