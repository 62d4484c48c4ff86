"""The Точки course (engine.lessons.dots): what its pages say is what the referee does, played
out on each page's position; the STOP task's answers hold against the opponent moving alone
and its tempting moves lose to it; every task fits one keyboard window. (Each task's answers
and tempting moves are proved by tests/engine/test_lessons.py, as every course's are.)"""

from __future__ import annotations

from typing import cast

import pytest

import engine.lessons
from engine.dots import Game
from engine.dots.tactics import Threat, forced
from engine.lessons import Lesson, Page, Task
from engine.lessons.dots import PROOFS
from engine.lessons.model import alternate

COURSE = engine.lessons.course("dots")


def _lesson(lesson_id: str) -> Lesson:
    found = engine.lessons.lesson(lesson_id)
    assert found is not None
    return found


def _page(lesson_id: str, n: int) -> Game:
    page: Page = _lesson(lesson_id).pages[n - 1]
    return cast(Game, page.start())


def _task(task_id: str) -> Task:
    found = engine.lessons.task(task_id)
    assert found is not None
    return found[0].tasks[found[1]]


def _at(g: Game, *points: str) -> list[tuple[int, int]]:
    return [(m.x, m.y) for m in (g.parse_move(p) for p in points)]


def _captured(g: Game, *points: str) -> bool:
    return all(g.cell(x, y).captured for x, y in _at(g, *points))


def _after(g: Game, *moves: str) -> Game:
    g = g.copy()
    for m in moves:
        g.play(g.parse_move(m))
    return g


def test_ten_lessons_or_more_each_with_a_proved_task() -> None:
    assert len(COURSE) >= 10
    for x in COURSE:
        assert x.game == "dots" and x.pages and x.tasks
        for t in x.tasks:
            assert t.id in PROOFS and t.wrong
            g = cast(Game, t.start())
            assert g.width <= 8 and g.height <= 7  # one window of the keyboard: no arrows


def test_the_first_pages_capture_as_they_say() -> None:
    g = _page("d1", 3)  # d3 closes c4-d5-e4-d3 round d4
    assert _captured(g, "d4") and g.scores == (1, 0)
    g = _page("d3", 2)  # Blue's d4-c5 diagonal crosses Orange's c4-d5: d4 is still taken
    assert _captured(g, "d4") and not _captured(g, "c5") and g.scores == (1, 0)


def test_captured_points_are_dead_and_build_no_rings() -> None:
    g = _page("d4", 1)
    assert _captured(g, "c4") and g.scores == (0, 1)
    assert not g.is_legal(g.parse_move("c4"))
    g = _page("d4", 2)
    assert g.turn == 0
    assert _after(g, "d3").scores == g.scores  # the ring through dead c4 takes nothing
    assert _captured(_after(g, "f3"), "f4")


def test_the_empty_ring_and_the_intruders() -> None:
    g = _page("d5", 1)
    assert g.bases and g.scores == (0, 0) and g.is_legal(g.parse_move("c3"))
    g = _page("d5", 2)
    assert _captured(g, "c3") and g.scores == (1, 0)
    g = _page("d5", 3)  # the intruder closes its own ring first
    assert _captured(g, "c4") and not _captured(g, "c3") and g.scores == (0, 1)
    assert not g.bases


def test_nested_capture_frees_the_dot_inside() -> None:
    g = _page("d6", 1)
    assert _captured(g, "d4") and g.scores == (0, 1)
    g = _page("d6", 2)
    assert g.scores == (4, 0)
    assert _captured(g, "d5", "c4", "e4", "d3") and not _captured(g, "d4")


def test_edge_dots_cannot_be_captured() -> None:
    g = _page("d7", 1)
    threat = Threat(0, 3, tuple(g.parse_move(p) for p in ("c1", "d1", "e1")))
    assert g.turn == 0 and not forced(g, threat)


def test_secured_dots_are_grounded_and_ungrounded_ones_count_for_the_opponent() -> None:
    g = _page("d8", 2)
    assert set(_at(g, "c1", "c2", "c3")) <= g.grounded(0)
    g = _page("d9", 1)
    assert g.grounding
    assert set(_at(g, "b1", "b2")) <= g.grounded(0)
    assert set(_at(g, "e4", "e5")) == set(g.ungrounded(0))
    assert g.turn == 0 and g.ground(0).scores == (0, 2)


def test_territory_counts_the_points_inside() -> None:
    g = _page("d9", 2)
    assert g.scoring == "territory" and g.scores == (3, 0) and g.captured_dots == (1, 0)


def test_the_ladder_and_the_double_threat_play_out() -> None:
    g = _page("d10", 2)  # c1 d2 d1 e2 played: e1 closes against the stopper f2
    assert g.scores == (0, 0)
    assert _captured(_after(g, "e1"), "b2", "c2", "d2", "e2")
    g = _page("d11", 2)  # e4, Blue fills d3: f3 takes f4
    assert _captured(_after(g, "f3"), "f4")


def test_the_cut_is_joined_to_the_outside() -> None:
    g = _page("d12", 2)
    assert g.turn == 1
    threat = Threat(1, 2, tuple(g.parse_move(p) for p in ("d4", "e4")))
    assert not forced(g, threat)


@pytest.mark.parametrize(
    "task_id", [t.id for x in COURSE for t in x.tasks if PROOFS[t.id].kind == "secure"]
)
def test_a_secured_group_survives_the_solo_phase_and_the_tempting_one_does_not(
    task_id: str,
) -> None:
    """After the move and the person's STOP, the opponent moves alone: the answers leave
    them nothing to capture within the proof's moves, each tempting move loses a target."""
    t = _task(task_id)
    proof = PROOFS[t.id]
    for move, lost in [(m, False) for m in t.answers] + [(w.move, True) for w in t.wrong]:
        g = _after(cast(Game, t.start()), move)
        g.stop(t.turn)
        threat = Threat(1 - t.turn, proof.moves, tuple(g.parse_move(p) for p in proof.targets))
        assert forced(g, threat) is lost, move


def test_alternate_writes_each_sides_dots_in_turn() -> None:
    assert alternate("a1 b1 c1", "a2 b2") == "a1 a2 b1 b2 c1"
    assert alternate("a1", "a2") == "a1 a2"
    with pytest.raises(ValueError):
        alternate("a1", "a2 b2")


# What each tempting move's reason says happens next: (task, the replies after the wrong
# move, the dots then captured, the scores then).
REASONS = [
    ("d2-1", "e3", "e4", None),  # Blue e3: e5-f4-e3-d4 closes round e4
    ("d7-1", "d1", "d2", None),  # Orange d1 on the edge closes c2-d3-e2-d1
    ("d12-1", "e5", "d4 e4 f4", None),  # Blue closes the gap: all three inside
    ("d9-1", "", "f3 f2", (2, 0)),  # two dots, two points of territory
    ("d4-1", "", "", (0, 1)),  # the ring through dead c4 takes nothing
    ("d5-1", "", "", (0, 0)),  # e6 closes no ring
    ("d1-1", "", "", (0, 0)),  # e3 closes no ring
    ("d3-1", "", "", (0, 0)),  # c3 closes no ring
]


@pytest.mark.parametrize(("task_id", "replies", "lost", "scores"), REASONS)
def test_the_reasons_say_what_happens(
    task_id: str, replies: str, lost: str, scores: tuple[int, int] | None
) -> None:
    t = _task(task_id)
    g = _after(cast(Game, t.start()), t.wrong[0].move, *replies.split())
    if lost:
        assert _captured(g, *lost.split())
    if scores is not None:
        assert g.scores == scores


def test_the_chains_that_escape_are_safe_for_good() -> None:
    """d10: after d2 Blue steps to c1 and the chain is grounded; d11: after d3 Blue's e4
    joins d4 and f4, and Orange then has no capture of them in one move."""
    t = _task("d10-1")
    g = _after(cast(Game, t.start()), "d2", "c1")
    assert set(_at(g, "b2", "c2", "c1")) <= g.grounded(1)
    t = _task("d11-1")
    g = _after(cast(Game, t.start()), "d3", "e4")
    assert not forced(g, Threat(0, 1, tuple(g.parse_move(p) for p in ("d4", "f4"))))


def test_the_first_moves_go_in_the_zone_and_the_cross_is_as_drawn() -> None:
    g = _page("d2", 1)
    assert g.zone is not None
    assert not g.is_legal(g.parse_move("a1")) and g.is_legal(g.parse_move("e5"))
    g = _page("d2", 2)
    assert [g.cell(x, y).dot for x, y in _at(g, "d5", "e4", "d4", "e5")] == [0, 0, 1, 1]
