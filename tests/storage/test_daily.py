"""A group's daily puzzle in Redis: one try per person, the first right answer the winner for
good even when two answer at once; a group answer rated once per person per puzzle."""

from __future__ import annotations

import asyncio

import pytest

import storage
from storage.daily import KEEP, Tried


async def test_one_try_each_and_the_first_solver_stays(store: storage.Store) -> None:
    assert await store.daily.get(-5, "boxes", 20426) == storage.daily.Daily()
    await store.daily.post(-5, "boxes", 20426, "b0001", 42)
    wrong = await store.daily.answer(-5, "boxes", 20426, 1, "Ann", solved=False)
    assert not wrong.first and wrong.winner is None
    with pytest.raises(Tried):
        await store.daily.answer(-5, "boxes", 20426, 1, "Ann", solved=True)
    first = await store.daily.answer(-5, "boxes", 20426, 2, "Bob", solved=True)
    later = await store.daily.answer(-5, "boxes", 20426, 3, "Cy", solved=True)
    assert (first.first, first.winner, later.first, later.winner) == (True, "Bob", False, "Bob")
    got = await store.daily.get(-5, "boxes", 20426)
    assert (got.puzzle, got.message, got.winner, got.winner_id) == ("b0001", 42, "Bob", 2)
    assert got.tried == {1, 2, 3}
    assert await store.daily.get(-5, "boxes", 20427) == storage.daily.Daily()  # another day
    assert await store.daily.get(-5, "sprouts", 20426) == storage.daily.Daily()
    ttl = await store.client.ttl(store.keys.chat(-5) + ":zd:boxes:20426")
    assert 0 < ttl <= KEEP


async def test_two_right_answers_at_once_make_one_winner(store: storage.Store) -> None:
    tries = await asyncio.gather(
        *(store.daily.answer(-6, "boxes", 1, u, f"u{u}", solved=True) for u in range(1, 9))
    )
    assert sum(t.first for t in tries) == 1
    assert {t.winner for t in tries} == {next(f"u{u}" for u, t in enumerate(tries, 1) if t.first)}


async def test_a_group_answer_is_rated_once_per_puzzle(store: storage.Store) -> None:
    hand = await store.puzzles.begin(1, "boxes", "b0002")
    one = await store.puzzles.answer_once(1, "boxes", "b0001", solved=True, start_rating=1500)
    assert one.rated and one.after.rating > one.before.rating and one.state.solved == 1
    two = await store.puzzles.answer_once(1, "boxes", "b0001", solved=False, start_rating=1500)
    assert not two.rated and two.after == one.after
    state = await store.puzzles.state(1, "boxes")
    assert (state.puzzle, state.attempt, state.done) == ("b0002", hand.attempt, False)
    assert "b0001" in await store.puzzles.solved_ids(1, "boxes")
