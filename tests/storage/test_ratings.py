"""Glicko-2 against Glickman's published example; results recorded exactly once per match;
tallies, bot levels and leaderboards."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

import storage
from storage import AiSeat, InvalidRecord, glicko
from storage.glicko import Rating, update

from .helpers import bump, record


def test_glicko2_matches_glickmans_worked_example() -> None:
    # "Example of the Glicko-2 system" (Glickman): 1500/200/0.06 plays 1400/30 (win),
    # 1550/100 (loss), 1700/300 (loss) with tau = 0.5 -> 1464.06 / 151.52 / 0.05999.
    games = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]
    r = update(Rating(1500, 200, 0.06), games, tau=0.5)
    assert r.rating == pytest.approx(1464.06, abs=0.01)
    assert r.rd == pytest.approx(151.52, abs=0.01)
    assert r.volatility == pytest.approx(0.05999, abs=0.00001)


def test_inactivity_widens_the_deviation_up_to_the_start() -> None:
    r = Rating(1700, 60, 0.06)
    assert r.aged(0) == r
    assert 60 < r.aged(30).rd < r.aged(365).rd <= 350
    assert r.aged(10**7).rd == 350


async def test_a_rated_game_between_two_people(store: storage.Store) -> None:
    out = await store.ratings.record("game0001", "dots", [11, 22], [0, 1], chat_id=-5)
    assert out.rated and not out.repeated
    win, loss = out.changes
    assert (win.user_id, win.result, loss.user_id, loss.result) == (11, "won", 22, "lost")
    assert win.delta is not None and loss.delta is not None
    assert win.delta > 100 and win.delta == pytest.approx(-loss.delta)  # equal newcomers
    assert win.after is not None and win.after.games == 1 and win.after.rd < 350

    assert await store.ratings.get(11, "dots") == win.after
    assert (await store.ratings.get(33, "dots")).rating == 1500  # never played
    stats = await store.users.stats(11, "dots")
    assert stats.tally == storage.Tally(played=1, won=1)
    assert stats.best_win == storage.BestWin(1500.0, 22, "game0001")
    assert (await store.users.stats(22, "dots")).tally == storage.Tally(played=1, lost=1)

    for chat in (None, -5):
        top = await store.ratings.top("dots", chat_id=chat)
        assert [s.user_id for s in top] == [11, 22]
        assert top[0].rating == pytest.approx(win.after.rating) and top[0].provisional
    assert await store.ratings.top("dots", chat_id=-6) == []
    assert await store.ratings.top("boxes") == []
    assert await store.ratings.rank(22, "dots") == 2
    assert await store.ratings.rank(99, "dots") is None


async def test_recording_twice_changes_nothing(store: storage.Store) -> None:
    first = await store.ratings.record("game0002", "boxes", [1, 2], [1, 0], chat_id=7)
    again = await store.ratings.record("game0002", "boxes", [1, 2], [1, 0], chat_id=7)
    assert again.repeated and again.changes == first.changes and again.rated
    assert (await store.users.stats(2, "boxes")).tally.played == 1
    assert await store.ratings.get(2, "boxes") == first.changes[1].after


async def test_racing_retries_of_the_finishing_step_count_once(store: storage.Store) -> None:
    """The bot finishes a match (update) and records it; a retried or duplicated finishing
    step, even several at once from different replicas, counts the result once."""
    rec = record(players=[5, 6])
    await store.matches.create(rec)

    def finish(r: dict[str, Any]) -> dict[str, Any]:
        if r["status"] != "finished":
            r["status"], r["winner"] = "finished", 0
            bump(r)
        return r

    async def finishing_step() -> storage.Outcome:
        r = await store.matches.update(rec["id"], finish)
        places = [0, 1] if r["winner"] == 0 else [1, 0]
        return await store.ratings.record(r["id"], "sprouts", r["players"], places, chat_id=9)

    outcomes = await asyncio.gather(*(finishing_step() for _ in range(10)))
    outcomes.append(await finishing_step())  # and once more later
    assert sum(not o.repeated for o in outcomes) == 1
    assert all(o.changes == outcomes[0].changes for o in outcomes)
    assert (await store.users.stats(5, "sprouts")).tally == storage.Tally(played=1, won=1)
    assert (await store.ratings.get(5, "sprouts")).games == 1
    final = await store.matches.get(rec["id"])
    assert final is not None and final["version"] == 1


async def test_games_against_the_bot_count_per_level_and_are_unrated(
    store: storage.Store,
) -> None:
    await store.ratings.record("ai000001", "dots", [7, AiSeat("hard")], [0, 1])
    await store.ratings.record("ai000002", "dots", [AiSeat("hard"), 7], [0, 1])
    out = await store.ratings.record("ai000003", "dots", [7, AiSeat("easy")], [0, 0])
    assert not out.rated and out.changes[0].before is None and out.changes[0].result == "drawn"
    stats = await store.users.stats(7, "dots")
    assert stats.vs_ai == {
        "hard": storage.Tally(played=2, won=1, lost=1),
        "easy": storage.Tally(played=1, drawn=1),
    }
    assert stats.tally == storage.Tally() and stats.rating is None
    assert await store.ratings.top("dots") == []


async def test_unrated_game_counts_but_does_not_rate(store: storage.Store) -> None:
    out = await store.ratings.record("friendly", "dots", [1, 2], [0, 1], rated=False)
    assert not out.rated and all(c.delta is None for c in out.changes)
    assert (await store.users.stats(1, "dots")).tally.won == 1
    assert await store.ratings.top("dots") == []


async def test_more_than_two_players_and_ties(store: storage.Store) -> None:
    out = await store.ratings.record("four0001", "boxes", [1, 2, 3, 4], [0, 0, 2, 3])
    results = {c.user_id: c.result for c in out.changes}
    assert results == {1: "won", 2: "won", 3: "lost", 4: "lost"}  # joint winners
    deltas = {c.user_id: c.delta for c in out.changes}
    assert deltas[1] == pytest.approx(deltas[2])  # same results against the same field
    assert deltas[1] > 0 > deltas[3] > deltas[4]  # type: ignore[operator]
    top = await store.ratings.top("boxes", n=3)
    assert [s.user_id for s in top][2] == 3 and len(top) == 3


async def test_best_win_keeps_the_strongest_opponent(store: storage.Store) -> None:
    for i in range(4):  # user 2 grows strong
        await store.ratings.record(f"warm000{i}", "dots", [2, 100 + i], [0, 1])
    strong = (await store.ratings.get(2, "dots")).rating
    await store.ratings.record("upset001", "dots", [1, 2], [0, 1])
    await store.ratings.record("easy0001", "dots", [1, 3], [0, 1])
    best = (await store.users.stats(1, "dots")).best_win
    assert best is not None and (best.opponent, best.match_id) == (2, "upset001")
    assert best.rating == pytest.approx(strong, abs=0.01)


async def test_chat_boards_follow_the_players_latest_rating(store: storage.Store) -> None:
    await store.ratings.record("chatA001", "dots", [1, 2], [0, 1], chat_id=-100)
    await store.ratings.record("chatB001", "dots", [1, 3], [0, 1], chat_id=-200)
    rating = (await store.ratings.get(1, "dots")).rating
    for chat in (-100, -200, None):
        top = await store.ratings.top("dots", chat_id=chat, n=1)
        assert top[0].user_id == 1 and top[0].rating == pytest.approx(rating)
    assert [s.user_id for s in await store.ratings.top("dots", chat_id=-100)] == [1, 2]


@pytest.mark.parametrize(
    ("seats", "places"),
    [([1], [0]), ([1, 2], [0]), ([1, 1], [0, 1]), ([1, True], [0, 1]), ([1, 2], [0, -1])],
)
async def test_bad_results_are_refused(
    store: storage.Store, seats: list[Any], places: list[int]
) -> None:
    with pytest.raises(InvalidRecord):
        await store.ratings.record("badgame1", "dots", seats, places)
    assert await store.client.exists(store.keys.result("badgame1")) == 0


async def test_joint_winners_draw_each_other_and_beat_the_rest(store: storage.Store) -> None:
    for i in range(3):  # user 3 grows strong, user 4 weak: the field is uneven
        await store.ratings.record(f"warm100{i}", "boxes", [3, 4], [0, 1])
    before = {u: await store.ratings.get(u, "boxes") for u in (1, 2, 3, 4)}
    out = await store.ratings.record("four0002", "boxes", [1, 2, 3, 4], [0, 0, 1, 1])
    assert {c.user_id: c.result for c in out.changes} == {1: "won", 2: "won", 3: "lost", 4: "lost"}

    out_now = next(c.after for c in out.changes if c.user_id == 1).last  # type: ignore[union-attr]
    assert out_now is not None

    def rating(u: int) -> glicko.Rating:
        r = before[u]
        return glicko.Rating(r.rating, r.rd, r.volatility).aged(
            0 if r.last is None else (out_now - r.last) / glicko.PERIOD
        )

    for c in out.changes:
        pairs = {1: [(2, 0.5), (3, 1.0), (4, 1.0)], 2: [(1, 0.5), (3, 1.0), (4, 1.0)]}.get(
            c.user_id, [(1, 0.0), (2, 0.0), (3 if c.user_id == 4 else 4, 0.5)]
        )
        expected = glicko.update(rating(c.user_id), [(rating(o), x) for o, x in pairs])
        assert c.after is not None
        assert c.after.rating == pytest.approx(expected.rating, abs=0.01), c.user_id
    # A joint winner's best win is the strongest player beaten, not the co-winner.
    best = (await store.users.stats(1, "boxes")).best_win
    assert best is not None and best.opponent == 3
    tally = (await store.users.stats(2, "boxes")).tally
    assert (tally.won, tally.drawn, tally.lost) == (1, 0, 0)


async def test_a_top_score_shared_by_every_seat_is_a_draw(store: storage.Store) -> None:
    out = await store.ratings.record("three001", "boxes", [1, 2, 3], [0, 0, 0])
    assert {c.result for c in out.changes} == {"drawn"}
