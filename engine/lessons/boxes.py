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

from engine.lessons.model import Lesson, Task, keyed_lesson, keyed_task
from engine.lessons.model import boxes_endgame as endgame
from engine.lessons.model import boxes_position as board

Position = dict[str, Any]


def _lesson(id: str, pages: Sequence[tuple[Position, str]], tasks: Sequence[Task]) -> Lesson:
    """A lesson whose texts are ``learn.boxes.<id>.*``, its pages' marks the lines given."""
    return keyed_lesson("boxes", id, pages, tasks)


def _task(id: str, position: Position, answers: str, wrong: str) -> Task:
    """Task ``<lesson>-<n>``, its texts ``learn.boxes.<lesson>.<n>.*``."""
    return keyed_task("boxes", id, position, answers, wrong)


# 1. Drawing: a line between neighbouring dots; the fourth side of a box takes it.
B1 = _lesson(
    "b1",
    [
        (board(2, 2), ""),
        (board(2, 2, "a3-b3 a2-a3 a2-b2 b2-b3"), "b2-b3"),
    ],
    [_task("b1-1", board(2, 2, "a3-b3 c1-c2 a2-a3 b1-c1 a2-b2"), "b2-b3", "c2-c3")],
)

# 2. The extra move: who closes a box draws again, so a chain is taken box after box.
_LAST_CHAIN = endgame(2, 3, "b2-b3 c2-c3 d2-d3")  # the bottom row taken, the top one opened
B2 = _lesson(
    "b2",
    [(_LAST_CHAIN, "a2-a3")],
    [_task("b2-1", _LAST_CHAIN, "b2-b3", "d2-d3")],
)

# 3. Never the third side: a box with three sides is a gift to the opponent.
_SAFE = board(2, 3, "a3-b3 b1-b2 c1-c2 c2-c3 d1-d2 c3-d3 a2-b2")
B3 = _lesson(
    "b3",
    [(board(2, 3, "a3-b3 a2-b2"), "a2-a3")],
    [_task("b3-1", _SAFE, "b3-c3", "a2-a3 c1-d1")],
)

# 4. Chains and cycles: a cycle of four (a3 b3 a2 b2) and a chain of three (a1 b1 c1).
_CYCLE_AND_CHAIN = endgame(3, 3, "a3-b3 b3-c3 b3-b4 b2-b3 a1-a2 b1-b2 c1-c2 d1-d2")
B4 = _lesson(
    "b4",
    [
        (endgame(2, 3, "a1-a2 b1-b2 c1-c2 d1-d2"), "a1-a2 b1-b2 c1-c2 d1-d2"),
        (_CYCLE_AND_CHAIN, "a3-b3 b3-c3 b3-b4 b2-b3"),
    ],
    [_task("b4-1", _CYCLE_AND_CHAIN, "b3-b4 a3-b3", "a1-a2")],
)

# 5. Give the short chain first: a single box (c2) and a chain of three (a1 b1 c1).
_SHORT_AND_LONG = endgame(2, 3, "d2-d3 c3-d3 a1-a2 b1-b2 c1-c2 d1-d2")
B5 = _lesson(
    "b5",
    [(_SHORT_AND_LONG, "d2-d3 c3-d3")],
    [_task("b5-1", _SHORT_AND_LONG, "d2-d3 c3-d3", "a1-a2")],
)

# 6. All but two: take the chain but the last two, and hand those back with one line; the
# opponent's double-cross takes both and must open the next chain.
_ALL_BUT_TWO = endgame(2, 3, "c2-c3 d2-d3 a1-a2 b1-b2 c1-c2 d1-d2")
_DECLINED = endgame(2, 3, "b2-b3 a1-a2 b1-b2 c1-c2 d1-d2")
B6 = _lesson(
    "b6",
    [(_ALL_BUT_TWO, "d2-d3"), (_DECLINED, "b2-b3")],
    [
        _task("b6-1", _ALL_BUT_TWO, "d2-d3", "c2-c3"),
        _task("b6-2", _DECLINED, "b2-b3", "a1-a2"),
    ],
)

# 7. The long-chain rule: dots + long chains even for the first player, odd for the second.
# 3×3 has 16 dots; the second player to move wants an odd count of long chains.
_PARITY = board(
    3, 3, "a4-b4 a2-a3 d2-d3 a1-a2 a1-b1 b1-c1 d1-d2 b2-b3 b4-c4 b2-c2 d3-d4 c2-d2 a3-a4"
)
B7 = _lesson(
    "b7",
    [(board(3, 3), ""), (_PARITY, "")],
    [_task("b7-1", _PARITY, "c3-c4", "c4-d4")],
)

# 8. Палочки: the outline is drawn, so a corner box has two sides before the first move.
_STICKS = board(3, 3, border=True)
B8 = _lesson(
    "b8",
    [(_STICKS, ""), (board(3, 3, "a3-b3", border=True), "a3-b3")],
    [_task("b8-1", _STICKS, "b3-c3 b2-c2 b2-b3 c2-c3", "a3-b3")],
)

LESSONS: tuple[Lesson, ...] = (B1, B2, B3, B4, B5, B6, B7, B8)
