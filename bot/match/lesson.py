"""The /learn flow's pure part: the game picker, a game's list of lessons with ✓ marks, a
lesson's pages and its tasks' boards, and the words of each step.

A task is shown as a puzzle is (:mod:`bot.match.puzzle`): a stand-in match of its position
with the person in the seat to move and the game's own keyboard, its buttons carrying the
task and the person's attempt (:data:`buttons.LEARN_PLAY`, :data:`buttons.LEARN_STEP`). The
engine judges each move (:func:`engine.lessons.judge`); this module only words the verdict.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import engine.lessons
from bot.i18n import Text
from bot.match import puzzle as board
from bot.match.buttons import LEARN, LEARN_HINT, LEARN_PAGE, LEARN_PLAY, LEARN_STEP, LEARN_TASK
from bot.match.model import Match, Seat
from bot.match.ui import Button, Keyboard
from engine.core import Game
from engine.core import load as load_game
from engine.lessons import Lesson, Task
from engine.puzzles import Verdict

GAMES = engine.lessons.GAMES
ANY = "0"  # the subject of the picker's and the lists' buttons: they show the reader's own


@dataclass(frozen=True)
class Screen:
    """A text screen: its lines and buttons."""

    text: list[Text]
    keyboard: Keyboard


@dataclass(frozen=True)
class Shown:
    """A lesson page's position, posed as a board is (:class:`bot.match.puzzle.Posed`)."""

    game: str
    id: str
    turn: int
    position: dict[str, Any]

    def start(self) -> Game[Any]:
        return load_game(self.position)


def picker() -> Screen:
    """Which game to learn: every game, those without a course yet marked so."""
    rows = [
        [
            Button(
                Text(
                    "learn.pick" if engine.lessons.course(g) else "learn.pick.soon",
                    game=Text(f"game.{g}"),
                ),
                LEARN.data(ANY, 0, g),
            )
        ]
        for g in GAMES
    ]
    return Screen([Text("learn.choose")], rows)


def listing(game: str, done: set[str]) -> Screen:
    """A game's lessons in order, a ✓ on each done; or the word that its course is to come."""
    back = [Button(Text("learn.btn.games"), LEARN.data(ANY, 0))]
    lessons = engine.lessons.course(game)
    if not lessons:
        return Screen([Text("learn.none", game=Text(f"game.{game}"))], [back])
    rows = [
        [
            Button(
                Text("learn.item.done" if x.id in done else "learn.item", n=i, title=Text(x.title)),
                LEARN_PAGE.data(x.id, 0),
            )
        ]
        for i, x in enumerate(lessons, 1)
    ]
    count = sum(x.id in done for x in lessons)
    head = Text("learn.list", game=Text(f"game.{game}"), done=count, total=len(lessons))
    return Screen([head, Text("learn.list.how")], [*rows, back])


def number(lesson: Lesson) -> int:
    """The lesson's place in its course, from 1."""
    return engine.lessons.course(lesson.game).index(lesson) + 1


def next_lesson(lesson: Lesson) -> Lesson | None:
    lessons = engine.lessons.course(lesson.game)
    n = lessons.index(lesson) + 1
    return lessons[n] if n < len(lessons) else None


def page_shown(lesson: Lesson, n: int) -> Shown:
    game = lesson.pages[n].start()
    return Shown(lesson.game, lesson.id, game.turn, lesson.pages[n].position)


def page_stand_in(lesson: Lesson, n: int, names: tuple[str, str], lang: str) -> Match:
    """Page ``n``'s position as a match whose seats are named ``names`` (nobody's turn in
    particular: a page only shows)."""
    match = board.stand_in(page_shown(lesson, n), 0, names[0], names[1], lang)
    match.seats = [Seat(None, names[0]), Seat(None, names[1])]
    return match


def page(lesson: Lesson, n: int) -> Screen:
    """Page ``n`` of the lesson: its words, then Next (the last page: to the first task) and
    back to the list."""
    head = Text(
        "learn.page.head",
        n=number(lesson),
        title=Text(lesson.title),
        page=n + 1,
        pages=len(lesson.pages),
    )
    if n + 1 < len(lesson.pages):
        go = Button(Text("learn.btn.next"), LEARN_PAGE.data(lesson.id, n + 1))
    else:
        go = Button(Text("learn.btn.task"), LEARN_TASK.data(lesson.id, 0))
    return Screen([head, Text(lesson.pages[n].text)], [[go], [_lessons(lesson)]])


def _lessons(lesson: Lesson) -> Button:
    return Button(Text("learn.btn.lessons"), LEARN.data(ANY, 0, lesson.game))


def task_head(lesson: Lesson, i: int) -> Text:
    return Text(
        "learn.task.head",
        n=number(lesson),
        title=Text(lesson.title),
        task=i + 1,
        tasks=len(lesson.tasks),
    )


def task_lines(lesson: Lesson, i: int) -> list[Text]:
    """A fresh task's caption: which it is and what to find."""
    return [task_head(lesson, i), Text(lesson.tasks[i].goal)]


def task_keyboard(match: Match, lesson: Lesson, attempt: int) -> Keyboard:
    """The game's own move buttons for the task, then Hint and back to the list."""
    return [
        *board.move_rows(match, attempt, LEARN_PLAY, LEARN_STEP),
        [Button(Text("learn.btn.hint"), LEARN_HINT.data(match.id, attempt)), _lessons(lesson)],
    ]


def wrong(task: Task, move: Text | str, verdict: Verdict, notation: str) -> list[Text]:
    """Why a move is not the answer: the task's own reason for a tempting move it names,
    else what best play leaves after it; then try again."""
    reason = task.reason(notation)
    why = (
        Text(reason)
        if reason is not None
        else Text(
            f"learn.wrong.{task.game}",
            got=board.outcome(task.game, verdict.got),
            best=board.outcome(task.game, verdict.best),
        )
    )
    return [Text("learn.wrong", move=move), why, Text("learn.retry")]


def solved(lesson: Lesson, i: int, move: Text | str, done: bool) -> Screen:
    """A right answer: what it did, then the next task, or the lesson done (✓) with the next
    lesson; and back to the list."""
    task = lesson.tasks[i]
    lines = [task_head(lesson, i), Text("learn.right", move=move)]
    if task.right:
        lines.append(Text(task.right))
    if i + 1 < len(lesson.tasks):
        go = [Button(Text("learn.btn.next_task"), LEARN_TASK.data(lesson.id, i + 1))]
    else:
        lines.append(Text("learn.done" if done else "learn.done.not_all", title=Text(lesson.title)))
        after = next_lesson(lesson)
        go = (
            []
            if after is None
            else [Button(Text("learn.btn.next_lesson"), LEARN_PAGE.data(after.id, 0))]
        )
    return Screen(lines, [row for row in (go, [_lessons(lesson)]) if row])


def picture_status(lesson: Lesson, i: int | None) -> Text:
    """The picture's header line: the lesson and page, or the task."""
    if i is None:
        return Text("learn.picture.page", n=number(lesson))
    return Text("learn.picture.task", n=number(lesson), task=i + 1)
