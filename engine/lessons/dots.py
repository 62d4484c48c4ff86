"""The Точки course: the field and points, the first moves in the centre, rings in eight
directions, what is captured and dead, the empty ring and the intruder, nested captures and
liberation, the edge, STOP and the solo phase, the variants (grounding, territory), then
tactics: the ladder along the edge, the double threat, cutting a wall.

Every task is proved by search (:mod:`engine.lessons.dots_proofs` asks
:mod:`engine.dots.tactics`), on boards of one keyboard window at most (8×7: no arrows), so
the proofs are quick and the pictures readable. Texts are ``learn.dots.<lesson>.*`` in
bot/i18n: ``title``, ``p<n>`` a page, and per task ``<n>.goal``, ``.hint``, ``.right`` and
``.w<k>`` why a tempting move is wrong. Points are named as the keyboard names them: columns
a… from the left, rows 1… from the bottom. Orange (player 0) moves first; Blue second.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.lessons.dots_proofs import Kind, Proof, analysis, verdict
from engine.lessons.model import Lesson, Task, alternate, keyed_lesson, keyed_task
from engine.lessons.model import dots_position as board
from engine.puzzles import Analysis, Verdict

Position = dict[str, Any]

PROOFS: dict[str, Proof] = {}  # each task's question, by task id


def _lesson(id: str, pages: Sequence[tuple[Position, str]], tasks: Sequence[Task]) -> Lesson:
    """A lesson whose texts are ``learn.dots.<id>.*``, its pages' marks the points given."""
    return keyed_lesson("dots", id, [(pos, marks.split()) for pos, marks in pages], tasks)


def _task(
    id: str,
    position: Position,
    answers: str,
    wrong: str,
    kind: Kind,
    moves: int,
    targets: str = "",
    at_least: int = 1,
) -> Task:
    """Task ``<lesson>-<n>`` (texts ``learn.dots.<lesson>.<n>.*``) and its proof: ``kind``,
    ``moves``, ``targets`` (space-separated points) and ``at_least``, see :class:`Proof`."""
    PROOFS[id] = Proof(kind, moves, tuple(targets.split()), at_least)
    return keyed_task(id, position, answers.split(), wrong.split())


_JUDGED: dict[tuple[str, str], Verdict] = {}


def judge(task: Task, move: str) -> Verdict | None:
    """The search's verdict on ``move`` in a Точки task (None: not a legal move); once per
    task, legal move and process, as a task is tried again and again."""
    key = (task.id, move)
    found = _JUDGED.get(key)
    if found is None:
        found = verdict(task, PROOFS[task.id], move)
        if found is not None:
            _JUDGED[key] = found
    return found


def analyse(task: Task) -> Analysis:
    """Every legal move of a Точки task judged (the tests' look at the whole position)."""
    return analysis(task, PROOFS[task.id])


def _pos(width: int, height: int, orange: str, blue: str, **options: Any) -> Position:
    """Orange's dots and Blue's, played in turn (Orange first)."""
    return board(width, height, alternate(orange, blue), **options)


# 1. The field and the points: dots go on the crossings, in turn; a ring captures.
RING = "d5 e4 c4"
D1 = _lesson(
    "d1",
    [
        (board(7, 7), ""),
        (board(7, 7, "d4 e4 c3 d3"), "d4 e4 c3 d3"),
        (_pos(7, 7, RING + " d3", "f6 b2 d4"), "d3"),
    ],
    [
        _task("d1-1", _pos(7, 7, RING, "f6 b2 d4"), "d3", "e3", "capture", 1, "d4"),
        _task("d1-2", _pos(7, 7, RING + " a7", "f6 b2 d4"), "d3", "c3", "save", 2, "d4"),
    ],
)

# 2. The first moves in the centre: the tournament zone, the modern cross.
D2 = _lesson(
    "d2",
    [
        (board(9, 9, start="zone", zone_width=3, zone_height=3), ""),
        (board(8, 7, start="cross"), "d5 e4 e5 d4"),
    ],
    [_task("d2-1", board(8, 7, "f3 f4", start="cross"), "e3", "d3", "save", 2, "e4")],
)

# 3. Eight directions: diagonal links close rings too, and cross the enemy's.
D3 = _lesson(
    "d3",
    [
        (_pos(7, 7, RING + " d3", "d4 f6 b2"), "c4 d5 e4 d3"),
        (_pos(7, 7, "c4 d5 e4 d3", "d4 c5 b2 f2"), "c5"),
    ],
    [
        _task(
            "d3-1",
            _pos(7, 7, "c4 d5 e5 f4 e3", "a1 g7 a7 d4 e4"),
            "d3",
            "c3",
            "capture",
            1,
            "d4 e4",
            2,
        )
    ],
)

# 4. What is captured is dead: no dot goes there, and a captured dot builds no ring.
DEAD = "c4 a7 a6 d5 e4 f5 g4", "b4 c5 c3 d4 h1 h2 f4"
D4 = _lesson(
    "d4",
    [
        (_pos(8, 7, "c4 a7 a6 h7", "b4 c5 c3 d4"), "c4"),
        (_pos(8, 7, *DEAD), "c4 d4"),
    ],
    [_task("d4-1", _pos(8, 7, *DEAD), "f3", "d3", "capture", 1)],
)

# 5. The empty ring and the intruder (and the intruder that closes its own ring first).
EMPTY = "c4 a5 b3 e1 d3 a1 c2"  # Orange's empty ring round c3 (5×5)
D5 = _lesson(
    "d5",
    [
        (board(5, 5, EMPTY), "c3"),
        (board(5, 5, EMPTY + " c3"), "c3"),
        (board(5, 5, "c4 c5 b3 b4 d3 d4 c2 c3"), "c3"),
    ],
    [_task("d5-1", _pos(7, 7, "d5 c4 e4 d3", "d6 c5 e5"), "d4", "e6", "capture", 1, "d5")],
)

# 6. Nested captures and liberation (the reference's scenario 3 on 7×7).
NEST = (
    "d4 d5 b6 c4 a4 e4 g1 d3",  # Blue captures d4
    "d6 g7 c5 g6 e5 g5 b4 g4 f4 g2 c3 f1 e3 a1",  # Orange builds round Blue's ring
)
D6 = _lesson(
    "d6",
    [
        (board(7, 7, NEST[0]), "d4"),
        (board(7, 7, " ".join(NEST) + " d2"), "d2 d4"),
    ],
    [_task("d6-1", board(7, 7, " ".join(NEST)), "d2", "c2", "capture", 1, "", 4)],
)

# 7. The edge: a dot on the edge is never captured, and it shelters the dots joined to it.
D7 = _lesson(
    "d7",
    [
        (_pos(7, 7, "c2 d2 e2 a6", "c1 d1 e1 f6"), "c1 d1 e1"),
        (_pos(7, 7, "c2 e2 d3 a6", "f6 b5 d2"), "d1"),
    ],
    [
        _task("d7-1", _pos(7, 7, "c2 e2 d3 a6", "f6 b5 d2"), "d1", "c1", "save", 2, "d2"),
        _task("d7-2", _pos(7, 7, "c2 e2 a6 d3", "f6 b5 g7 d2"), "d1", "c1", "capture", 1, "d2"),
    ],
)

# 8. STOP and the solo three minutes: secure your dots (reach the edge) before you stop.
STOP = "c2 c3 f6 g5", "b2 b3 c4 d3"
D8 = _lesson(
    "d8",
    [
        (_pos(7, 7, *STOP), "c2 c3"),
        (_pos(7, 7, STOP[0] + " c1", STOP[1]), "c1"),
    ],
    [_task("d8-1", _pos(7, 7, *STOP), "c1", "d1 b1", "secure", 3, "c2 c3")],
)

# 9. Variants: grounding ends the game on your turn; territory counts the points inside.
TERRITORY = (
    "a6 b7 c7 d7 e6 d5 b5 f4 g3 g2 f1 e3",  # round b6 c6 d6 but for c5; round f3 f2 but e2
    "a1 b1 c1 a2 a3 h7 h6 h5 h1 c6 f3 f2",
)
D9 = _lesson(
    "d9",
    [
        (_pos(7, 7, "b2 b1 e4 e5 a6", "c4 d5 f6 g2 g3", grounding=True), "e4 e5"),
        (_pos(8, 7, TERRITORY[0] + " c5", TERRITORY[1], scoring="territory"), "c5"),
    ],
    [
        _task(
            "d9-1",
            _pos(8, 7, *TERRITORY, scoring="territory"),
            "c5 c4",
            "e2",
            "capture",
            1,
            "",
            3,
        )
    ],
)


def _tactic(
    id: str,
    size: tuple[int, int],
    dots: tuple[str, str],
    pages: tuple[str, str, str],
    task: tuple[str, str, Kind, int, str],
    at_least: int = 1,
) -> Lesson:
    """A tactics lesson (10 to 12): Orange's and Blue's ``dots`` with the first of ``pages``'
    marks, then the same with ``pages[1]`` played on in turn and the last marks; one task on
    the first position (answer, wrong move, kind, moves, targets: :func:`_task`)."""
    w, h = size
    pos = _pos(w, h, *dots)
    then = board(w, h, f"{alternate(*dots)} {pages[1]}")
    return _lesson(
        id, [(pos, pages[0]), (then, pages[2])], [_task(f"{id}-1", pos, *task, at_least)]
    )


# 10. The ladder along the edge: each edge dot threatens, the chain runs into the stopper.
LADDER = "a3 b3 c3 d3 e3 f3 g3 a2 b1 f2", "a5 b5 c5 d5 f5 g5 h5 h4 b2 c2"
D10 = _tactic(
    "d10",
    (8, 5),
    LADDER,
    ("b2 c2 f2", "c1 d2 d1 e2", "c1 d1"),
    ("c1", "d2", "capture", 3, "b2 c2"),
    2,
)

# 11. The double threat: one dot, two rings to close; the defence covers one.
DOUBLE = "c4 d5 f5 g4 e6", "b6 h6 a2 d4 f4"
D11 = _tactic(
    "d11", (8, 7), DOUBLE, ("d4 f4", "e4 d3", "e4 d3 f3"), ("e4", "d3", "capture", 2, "d4 f4")
)

# 12. Cutting a wall: the dot in the gap holds only when it is joined to the outside.
WALL = "d4 e4 e6 a7 h7 a1 h1 c7", "c5 d5 f5 g4 f3 e3 d3 c4"
D12 = _tactic("d12", (8, 7), WALL, ("e5", "e5", "e5 e6"), ("e5", "f4", "save", 2, "d4 e4"))

LESSONS: tuple[Lesson, ...] = (D1, D2, D3, D4, D5, D6, D7, D8, D9, D10, D11, D12)
