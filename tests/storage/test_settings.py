"""Chat and user settings: get/patch/update, concurrent changes, profiles."""

from __future__ import annotations

import asyncio
from typing import Any

import storage


async def test_chat_settings(store: storage.Store) -> None:
    assert await store.chats.get(-100) == {}
    await store.chats.patch(-100, {"language": "ru", "dots": {"w": 20, "h": 20}})
    await store.chats.patch(-100, {"clock": 60, "language": None})
    assert await store.chats.get(-100) == {"dots": {"w": 20, "h": 20}, "clock": 60}
    out = await store.chats.update(-100, lambda s: {**s, "clock": s["clock"] * 2})
    assert out["clock"] == 120 and (await store.chats.get(-100))["clock"] == 120
    await store.chats.clear(-100)
    assert await store.chats.get(-100) == {}


async def test_a_chats_and_a_users_settings_read_together(store: storage.Store) -> None:
    await store.chats.patch(-100, {"language": "ru"})
    await store.users.patch(7, {"name": "Ann"})
    assert await store.chats.get_with(-100, store.users, 7) == ({"language": "ru"}, {"name": "Ann"})
    assert await store.chats.get_with(-101, store.users, 8) == ({}, {})


async def test_concurrent_patches_all_survive(store: storage.Store) -> None:
    async def patch(i: int) -> None:
        async def fn(s: dict[str, Any]) -> dict[str, Any]:
            await asyncio.sleep(0)
            s[f"k{i}"] = i
            return s

        await store.users.update(42, fn)

    await asyncio.gather(*(patch(i) for i in range(30)))
    assert await store.users.get(42) == {f"k{i}": i for i in range(30)}


async def test_user_profile_collects_settings_and_games(store: storage.Store) -> None:
    await store.users.patch(1, {"language": "en"})
    await store.ratings.record("p0000001", "dots", [1, 2], [0, 1])
    await store.ratings.record("p0000002", "boxes", [1, storage.AiSeat("easy")], [1, 0])
    profile = await store.users.profile(1)
    assert profile.settings == {"language": "en"}
    assert set(profile.games) == {"dots", "boxes"}
    assert profile.stats("dots").tally.won == 1 and profile.stats("dots").rating is not None
    assert profile.stats("boxes").vs_ai == {"easy": storage.Tally(played=1, lost=1)}
    assert profile.stats("sprouts") == storage.GameStats()
    empty = await store.users.profile(999)
    assert empty.settings == {} and empty.games == {}


async def test_settings_and_stats_do_not_clobber_each_other(store: storage.Store) -> None:
    async def slow_patch(s: dict[str, Any]) -> dict[str, Any]:
        await asyncio.sleep(0.01)
        return {**s, "language": "ru"}

    await asyncio.gather(
        store.users.update(1, slow_patch), store.ratings.record("p0000003", "dots", [1, 2], [0, 1])
    )
    profile = await store.users.profile(1)
    assert profile.settings == {"language": "ru"} and profile.stats("dots").tally.played == 1
