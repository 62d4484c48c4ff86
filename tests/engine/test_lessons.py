"""Every task of every course, replayed through the engines: each intended answer is accepted
by the game's judge (the exact solver for Точки и квадраты, the Рассада solver), each tempting
wrong move is refused; and the courses' shapes hold (ids fit a button, pages draw, the seat
to move is the position's). Generic over :data:`engine.lessons.COURSES`, so a new course is
proved here as soon as it is registered."""

from __future__ import annotations

import re

import pytest

import engine.lessons
from engine.boxes import Game
from engine.boxes.ai import Position
from engine.lessons import COURSES, Task, course, judge
from engine.lessons.judges import analysis
from engine.lessons.model import sprouts_position
from engine.lessons.model import task as make_task
from engine.sprouts import Game as SproutsGame
from engine.sprouts.moves import Move as SproutsMove
from engine.sprouts.solver import outcome

TASKS = [t for lessons in COURSES.values() for x in lessons for t in x.tasks]
ID = re.compile(r"^[A-Za-z0-9_-]{1,24}$")


def test_the_boxes_course_has_eight_lessons_or_more() -> None:
    lessons = course("boxes")
    assert len(lessons) >= 8
    assert all(x.game == "boxes" for x in lessons)
    assert course("no such game") == ()


@pytest.mark.parametrize("t", TASKS, ids=[t.id for t in TASKS])
def test_the_answers_are_right_and_the_tempting_moves_wrong(t: Task) -> None:
    game = t.start()
    assert not game.over and game.turn == t.turn
    for move in t.answers:
        verdict = judge(t, move)
        assert verdict is not None and verdict.solved, f"{t.id}: {move} is not accepted"
    for w in t.wrong:
        verdict = judge(t, w.move)
        assert verdict is not None and not verdict.solved, f"{t.id}: {w.move} is accepted"
        assert verdict.got < verdict.best
        assert w.move not in t.answers
    assert judge(t, "no move") is None


@pytest.mark.parametrize("t", TASKS, ids=[t.id for t in TASKS])
def test_the_judge_is_the_engine_not_the_stored_answer(t: Task) -> None:
    """The judge accepts exactly the moves that keep the value, the stored ones among them;
    and some legal move is refused, or the task would teach nothing."""
    a = analysis(t)
    accepted = {m for m in a.values if (v := judge(t, m)) is not None and v.solved}
    assert accepted == {m for m, v in a.values.items() if v == a.best}
    assert set(t.answers) <= accepted < set(a.values)


def test_ids_fit_a_button_and_are_unique() -> None:
    lessons = [x for xs in COURSES.values() for x in xs]
    assert len({x.id for x in lessons}) == len(lessons)
    assert len({t.id for t in TASKS}) == len(TASKS)
    for x in lessons:
        assert ID.match(x.id) and len(x.id) <= 8
        assert x.pages and x.tasks
        for i, t in enumerate(x.tasks):
            assert ID.match(t.id)
            assert engine.lessons.task(t.id) == (x, i)
        assert engine.lessons.lesson(x.id) is x
    assert engine.lessons.lesson("zz") is None and engine.lessons.task("zz") is None


def test_every_page_draws_and_marks_real_lines() -> None:
    for x in [x for xs in COURSES.values() for x in xs]:
        for page in x.pages:
            game = page.start()
            for mark in page.marks:
                assert game.format_move(game.parse_move(mark)) == mark, (x.id, mark)


def test_the_long_chain_task_is_the_rule_at_work() -> None:
    """b7's words say the right line leaves the count of long chains the mover wants (dots +
    long chains even for the first player, odd for the second) and the tempting one the
    other; the engine's own chain count says so too."""
    found = engine.lessons.task("b7-1")
    assert found is not None
    t = found[0].tasks[found[1]]
    game = t.start()
    assert isinstance(game, Game) and game.turn == 1 and (game.rows + 1) * (game.cols + 1) == 16
    pos = Position(game)
    assert not pos.wants_even_chains()
    for m in ("c3-c4", "c4-d4"):  # the two safe lines of the task's words, and no others
        assert pos.safe_lines().count(game.line_number(game.parse_move(m))) == 1
    assert len(pos.safe_lines()) == 2
    answered = game.copy()
    answered.play(answered.parse_move("c3-c4"))
    assert Position(answered).safe_lines() == []  # "no safe line is left"
    after = {
        m: pos.long_chains_after(game.line_number(game.parse_move(m))) for m in ("c3-c4", "c4-d4")
    }
    assert after == {"c3-c4": 1, "c4-d4": 2}


def test_a_sprouts_task_is_judged_by_the_solver() -> None:
    """The Рассада judge, before a Рассада course ships: on the 3-spot start (a first-player
    win) exactly the moves whose child the solver loses for the opponent are right."""
    position = sprouts_position(3)
    game = SproutsGame.from_json(position)
    winning = {game.format_move(m) for m in game.legal_moves() if _wins(game, m)}
    losing = {game.format_move(m) for m in game.legal_moves()} - winning
    assert winning and losing
    t = make_task(
        "s-test",
        position,
        goal="g",
        hint="h",
        answers=sorted(winning)[:1],
        wrong=[(min(losing), "w")],
    )
    assert t.game == "sprouts" and t.turn == 0
    for m in winning:
        verdict = judge(t, m)
        assert verdict is not None and verdict.solved and verdict.got == 1
    for m in losing:
        verdict = judge(t, m)
        assert verdict is not None and not verdict.solved and verdict.got == -1


def _wins(game: SproutsGame, move: SproutsMove) -> bool:
    child = game.position.play(game.describe(move).pmove)
    return not outcome(child, game.misere)
