"""The Рассада course: joining spots and the new spot, lives (a loop costs two), why every game
ends, the 2- and 3-spot games solved, thinking in regions, and misère.

Texts are ``learn.sprouts.<lesson>.*`` in bot/i18n: ``title``, ``p<n>`` a page, and per task
``<task>.goal``, ``.hint``, ``.right`` and ``.w<n>`` the reason a tempting move is wrong
(:func:`~engine.lessons.model.keyed_task`; its moves are lists: a Рассада move has spaces).
Positions are small games played on paper from their moves in the game's notation (as the
keyboard names them). A page's mark is the move it is about, not yet played: the picture
shows it as the keyboard's preview does. A page about a loop shows it drawn instead (the
newest curve is marked): a previewed loop is drawn too small to see. Every claim the texts
make about a position (who wins, how many moves are left, the opponent's answer to a wrong
move) is checked with the solver by tests/engine/test_lessons_sprouts.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.lessons.model import Lesson, Task, keyed_lesson
from engine.lessons.model import keyed_task as _task
from engine.lessons.model import sprouts_position as paper

Position = dict[str, Any]


def _lesson(id: str, pages: Sequence[tuple[Position, str]], tasks: Sequence[Task]) -> Lesson:
    """A lesson whose texts are ``learn.sprouts.<id>.*``, each page marking the move given
    ("" for none)."""
    return keyed_lesson("sprouts", id, [(pos, (m,) if m else ()) for pos, m in pages], tasks)


# The positions the lessons come back to.
TWO_JOINED = ("1-2",)  # 2 spots: the first player joined them
TWO_LOOPED = ("1-1",)  # 2 spots: an empty loop at 1
JOINED_LOOPED = ("1-2", "1-1")  # then a loop at 1, which is left without a life
# 2 spots, four moves on: spots 2, 4 and 5 have a life each, and only one curve ends the game.
POCKET = ("1-1 [2]", "1-3 @2 [2]", "2-2")
LAST_MOVE = (*POCKET, "2-5 @4 cw")  # one move of the longest 2-spot game left: 4-6
# 2 spots, two moves on: spot 1 has three lives, spot 4 one.
THREE_AND_ONE = ("2-2", "2-3 @1 cw")
# 3 spots, three moves on: spot 2 has three lives; 3, 5 and 6 one each.
COUNTING = ("1-1 [2]", "1-4 @3 [3] cw", "3-3")


# 1. A move: a curve between two spots (or a loop), a new spot on it; who cannot move loses.
S1 = _lesson(
    "s1",
    [
        (paper(2), "1-2"),
        (paper(2, TWO_JOINED), ""),
        (paper(2, JOINED_LOOPED), ""),
    ],
    [_task("s1-1", paper(2, TWO_JOINED), ["1-2 cw", "1-2 ccw"], ["1-1", "2-3:1"])],
)

# 2. Lives: three per spot, one per curve end, two for a loop; the new spot is born with one.
S2 = _lesson(
    "s2",
    [
        (paper(3), ""),
        (paper(3, TWO_JOINED), ""),
        (paper(3, JOINED_LOOPED), ""),
    ],
    [_task("s2-1", paper(2, THREE_AND_ONE), ["1-4"], ["1-1", "1-1 [2,3,4]"])],
)

# 3. Every game ends: each move costs one life net, so n spots last at most 3n - 1 moves.
S3 = _lesson(
    "s3",
    [
        (paper(2), ""),
        (paper(2, TWO_JOINED), ""),
        (paper(2, LAST_MOVE), "4-6"),
    ],
    [_task("s3-1", paper(3, COUNTING), ["3-6 @in"], ["3-5", "2-2"])],
)

# 4. Solved: 2 spots, the second player wins (normal and misère); 3 spots, the first (normal)
# and the second (misère).
S4 = _lesson(
    "s4",
    [
        (paper(2), ""),
        (paper(3), "1-2"),
        (paper(3, misere=True), ""),
    ],
    [
        _task("s4-1", paper(2, TWO_LOOPED), ["1-3 @in"], ["1-2", "2-2"]),
        _task("s4-2", paper(3), ["1-2", "1-3", "2-3"], ["1-1", "1-1 [2,3]"]),
    ],
)

# 5. Regions: a closed curve parts the spots inside from those outside for good.
S5 = _lesson(
    "s5",
    [
        (paper(3, ("1-1 [2]",)), ""),
        (paper(2, (*TWO_LOOPED, "1-3 @in")), ""),
    ],
    [_task("s5-1", paper(2, POCKET), ["2-5 @in"], ["4-5", "2-5 @4 cw"])],
)

# 6. Misère: who makes the last move loses; the normal winner is often the misère loser.
S6 = _lesson(
    "s6",
    [
        (paper(3, misere=True), ""),
        (paper(1, misere=True), ""),
    ],
    [
        _task("s6-1", paper(2, TWO_JOINED, misere=True), ["1-1", "2-2"], ["1-2 cw", "2-3:1"]),
        _task("s6-2", paper(2, POCKET, misere=True), ["4-5", "2-4"], ["2-5 @in"]),
    ],
)

LESSONS: tuple[Lesson, ...] = (S1, S2, S3, S4, S5, S6)
