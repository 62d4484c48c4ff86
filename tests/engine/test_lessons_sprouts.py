"""What the Рассада course's words say, checked on its positions with the engine: who wins the
small games, how long a game can last, how many moves are left after an answer, the lives a
page counts, the spots a curve shuts off, and the opponent's reply each wrong answer names.
(tests/engine/test_lessons.py proves the answers win and the tempting moves lose.)"""

from __future__ import annotations

from typing import Any, cast

import pytest

from bot.i18n import catalog
from engine.lessons import COURSES, Page, Task, course
from engine.lessons import sprouts as lessons
from engine.puzzles.sprouts import analyse
from engine.sprouts import Game, Position
from engine.sprouts.solver import outcome

_LENGTHS: dict[str, frozenset[int]] = {}


def lengths(p: Position) -> frozenset[int]:
    """Every number of moves the game from ``p`` can still last, whoever plays what."""
    key = p.canonical()
    found = _LENGTHS.get(key)
    if found is None:
        kids = p.children()
        found = frozenset({0}) if not kids else frozenset(1 + n for c in kids for n in lengths(c))
        _LENGTHS[key] = found
    return found


def played(game: Any, *moves: str) -> Any:
    """A copy of ``game`` after ``moves`` (each in the notation of the position it is made in)."""
    g = game.copy()
    for m in moves:
        g.play(g.parse_move(m))
    return g


def lives(game: Any) -> dict[int, int]:
    """The live spots and their lives."""
    return {s.number: s.lives for s in game.drawing.spots if s.lives}


def on_paper(t: Task) -> Game:
    """The task's position as the Рассада game it is."""
    return cast(Game, t.start())


def the_task(task_id: str) -> Task:
    return next(t for x in course("sprouts") for t in x.tasks if t.id == task_id)


def page(lesson: str, n: int) -> Page:
    return next(x for x in course("sprouts") if x.id == lesson).pages[n - 1]


def page_game(lesson: str, n: int) -> Any:
    return page(lesson, n).start()


def test_the_course_has_six_lessons_each_with_pages_a_task_and_both_languages() -> None:
    assert COURSES["sprouts"] is lessons.LESSONS and len(lessons.LESSONS) >= 6
    en, ru = catalog("en"), catalog("ru")
    for x in lessons.LESSONS:
        assert x.game == "sprouts" and len(x.pages) >= 2 and x.tasks
        keys = [x.title, *(p.text for p in x.pages)]
        for t in x.tasks:
            keys += [t.goal, t.hint, t.right, *(w.reason for w in t.wrong)]
        for key in keys:
            assert key.startswith(f"learn.sprouts.{x.id}.") and key in en and key in ru, key


def test_every_answer_and_wrong_move_is_on_the_keyboard() -> None:
    """The keyboard offers the moves between the two spots tapped, in the engine's order: every
    stored move is one of them, so a person can play it."""
    for x in lessons.LESSONS:
        for t in x.tasks:
            game = on_paper(t)
            for move in (*t.answers, *(w.move for w in t.wrong)):
                m = game.parse_move(move)
                assert move in [game.format_move(k) for k in game.moves_between(m.a, m.b)]


@pytest.mark.parametrize(
    ("spots", "normal", "misere"), [(1, False, True), (2, False, False), (3, True, False)]
)
def test_who_wins_the_small_games(spots: int, normal: bool, misere: bool) -> None:
    """s4 and s6: the first player's fate with best play (True: wins)."""
    start = Position.start(spots)
    assert outcome(start, False) is normal and outcome(start, True) is misere


def test_the_three_spot_starts() -> None:
    """s4 p2: joins and loops round exactly one spot win; the empty loop and the loop round both
    other spots lose."""
    values = analyse(Game(3)).values
    assert values["1-2"] == values["1-1 [2]"] == values["1-1 [3]"] == 1
    assert values["1-1"] == values["1-1 [2,3]"] == -1


def test_the_only_winning_replies() -> None:
    """s4-1 says its answer is the only one; s5-1 and s3-1 have one too."""
    for task_id in ("s4-1", "s5-1", "s3-1"):
        t = the_task(task_id)
        assert analyse(on_paper(t)).accepted == list(t.answers)


def test_how_long_a_game_lasts() -> None:
    """s3: n spots last between 2n and 3n - 1 moves (s6 p2: one spot, exactly two)."""
    assert lengths(Position.start(1)) == {2}
    assert lengths(Position.start(2)) == {4, 5}
    assert lengths(Position.start(3)) == {6, 7, 8}
    last = page_game("s3", 3)  # four moves made, two lives left, its mark the last move
    assert last.ply == 4 and sum(lives(last).values()) == 2
    assert played(last, *page("s3", 3).marks).over


def test_every_move_costs_one_life() -> None:
    """s3 p2: two lives taken, one given to the new spot, for joins and loops alike."""
    for game in (Game(2), page_game("s2", 2), the_task("s3-1").start()):
        before = sum(lives(game).values())
        for m in game.legal_moves():
            after = played(game, game.format_move(m))
            assert sum(s.lives for s in after.drawing.spots) == before - 1


def test_the_lives_the_pages_and_goals_count() -> None:
    assert lives(page_game("s2", 1)) == {1: 3, 2: 3, 3: 3}
    assert lives(page_game("s2", 2)) == {1: 2, 2: 2, 3: 3, 4: 1}
    assert lives(page_game("s2", 3)) == {2: 2, 3: 3, 4: 1, 5: 1}  # spot 1 is dead
    assert lives(page_game("s1", 2)) == {1: 2, 2: 2, 3: 1}
    assert lives(the_task("s2-1").start()) == {1: 3, 4: 1}
    assert lives(the_task("s3-1").start()) == {2: 3, 3: 1, 5: 1, 6: 1}
    for task_id in ("s5-1", "s6-2"):
        assert lives(the_task(task_id).start()) == {2: 1, 4: 1, 5: 1}


def test_the_regions_pages() -> None:
    """s5 p1: spot 2 inside the loop can never meet spot 3 outside; p2: spot 4 keeps a life
    but can reach nobody, and spot 2 is alone (its game: exactly two moves)."""
    loop = page_game("s5", 1)
    assert 3 not in loop.joinable(2) and 2 not in loop.joinable(3)
    pocket = page_game("s5", 2)
    assert lives(pocket) == {2: 3, 4: 1} and pocket.joinable(4) == []
    assert pocket.joinable(2) == [2]
    assert lengths(pocket.position) == {2}


def test_the_pockets_the_right_curves_close() -> None:
    """s4-1: the curve 1-3 inside the loop leaves the new spot 4 nobody to meet and spot 2
    alone; s5-1: 2-5 inside the small loop parts the new spot 6 from spot 4."""
    pocket = played(the_task("s4-1").start(), "1-3 @in")
    assert lives(pocket) == {2: 3, 4: 1} and pocket.joinable(4) == []
    parted = played(the_task("s5-1").start(), "2-5 @in")
    assert lives(parted) == {4: 1, 6: 1} and parted.over  # both keep a life: parted


# What each task's words say is left after a move: the game's possible lengths from there.
LEFT = [
    ("s1-1", "1-2 cw", None),
    ("s2-1", "1-4", {2}),
    ("s3-1", "3-6 @in", {2}),
    ("s3-1", "3-5", {3}),
    ("s4-1", "1-3 @in", {2}),
    ("s5-1", "2-5 @in", {0}),
    ("s6-2", "4-5", {1}),
    ("s6-2", "2-4", {1}),
    ("s6-2", "2-5 @in", {0}),
]


@pytest.mark.parametrize(("task_id", "move", "left"), LEFT)
def test_the_moves_left_after_a_move(task_id: str, move: str, left: set[int] | None) -> None:
    after = played(the_task(task_id).start(), move)
    if left is None:  # s1-1: the ring closes through 1, 3, 2 and the new spot 4
        assert lives(after) == {1: 1, 2: 1, 3: 1, 4: 1}
        return
    assert lengths(after.position) == left
    assert after.over is (left == {0})


# Each wrong move's reason names the opponent's answer: it wins for them ("wins"), ends the game
# ("last": the opponent moved last) or, in misère, leaves exactly one move, the person's.
REPLIES = [
    ("s1-1", "1-1", "2-2", "wins"),
    ("s1-1", "2-3:1", "2-4 @1", "wins"),
    ("s2-1", "1-1", "1-5 @in", "last"),
    ("s2-1", "1-1 [2,3,4]", "1-5 @out cw", "last"),
    ("s2-1", "1-1 [2,3,4]", "1-5 @out ccw", "last"),
    ("s3-1", "2-2", "3-5", "wins"),
    ("s4-1", "1-2", "2-2", "wins"),
    ("s4-1", "2-2", "1-2", "wins"),
    ("s4-2", "1-1", "1-4 @in", "wins"),
    ("s4-2", "1-1 [2,3]", "1-4 @out cw", "wins"),
    ("s5-1", "4-5", "2-6:4", "last"),
    ("s5-1", "2-5 @4 cw", "4-6", "last"),
    ("s6-1", "1-2 cw", "3-4 @out [1]", "one left"),
    ("s6-1", "2-3:1", "2-4 @in [3]", "one left"),
]


@pytest.mark.parametrize(("task_id", "wrong", "reply", "then"), REPLIES)
def test_the_reply_a_wrong_move_meets(task_id: str, wrong: str, reply: str, then: str) -> None:
    t = the_task(task_id)
    assert t.reason(wrong) is not None
    after = played(t.start(), wrong)
    assert analyse(after).values[reply] == 1  # the reply wins for the opponent
    answered = played(after, reply)
    if then == "last":
        assert answered.over
    elif then == "one left":
        assert answered.misere and lengths(answered.position) == {1}
    if task_id == "s3-1":  # and the opponent still moves last, whatever is played
        assert all(n % 2 == 0 for n in lengths(answered.position))
