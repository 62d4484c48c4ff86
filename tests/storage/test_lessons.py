"""Lesson progress in Redis: a task board's attempt makes older boards stale, a lesson is done
once all its tasks are, the counts per game for /stats, and a record of another schema
version is refused rather than misread."""

from __future__ import annotations

import asyncio

import pytest

import storage
from storage.lessons import LessonState, Stale


async def test_a_lesson_is_done_when_all_its_tasks_are(store: storage.Store) -> None:
    assert await store.lessons.state(1, "boxes") == LessonState()
    first = await store.lessons.begin(1, "boxes", "b6-1")
    again = await store.lessons.begin(1, "boxes", "b6-1")  # a second board of the same task
    assert (first.attempt, again.attempt) == (1, 2)
    with pytest.raises(Stale):  # the older board
        await store.lessons.solve(1, "boxes", "b6-1", 1, lesson="b6", tasks=["b6-1", "b6-2"])
    s = await store.lessons.solve(1, "boxes", "b6-1", 2, lesson="b6", tasks=["b6-1", "b6-2"])
    assert s.solved == {"b6-1"} and not s.done and s.finished
    with pytest.raises(Stale):  # solved already
        await store.lessons.solve(1, "boxes", "b6-1", 2, lesson="b6", tasks=["b6-1", "b6-2"])
    hand = await store.lessons.begin(1, "boxes", "b6-2")
    with pytest.raises(Stale):  # another task's board
        await store.lessons.solve(1, "boxes", "b6-1", hand.attempt, lesson="b6", tasks=["b6-1"])
    s = await store.lessons.solve(
        1, "boxes", "b6-2", hand.attempt, lesson="b6", tasks=["b6-1", "b6-2"]
    )
    assert s.done == {"b6"} and await store.lessons.state(1, "boxes") == s
    assert await store.lessons.done_counts(1, ["dots", "boxes"]) == {"dots": 0, "boxes": 1}
    assert await store.lessons.done_counts(2, ["boxes"]) == {"boxes": 0}


async def test_two_taps_on_one_board_solve_it_once(store: storage.Store) -> None:
    hand = await store.lessons.begin(3, "boxes", "b1-1")
    results = await asyncio.gather(
        *(
            store.lessons.solve(3, "boxes", "b1-1", hand.attempt, lesson="b1", tasks=["b1-1"])
            for _ in range(4)
        ),
        return_exceptions=True,
    )
    assert sum(isinstance(r, LessonState) for r in results) == 1
    assert sum(isinstance(r, Stale) for r in results) == 3


async def test_a_record_of_another_version_is_refused(store: storage.Store) -> None:
    key = store.keys.user(4)
    await store.client.hset(key, "l:boxes", '{"v":2,"d":[],"ok":[],"a":0}')
    with pytest.raises(storage.UnknownVersion):
        await store.lessons.state(4, "boxes")
    await store.client.hset(key, "l:boxes", '{"v":1,"d":7,"ok":[],"a":0}')
    with pytest.raises(storage.CorruptRecord):
        await store.lessons.state(4, "boxes")
