"""Challenge tokens: unguessable, deep-link safe, single use, and expired vs used vs unknown."""

from __future__ import annotations

import asyncio
import re

import pytest

import storage
from storage import ChallengeExpired, ChallengeUsed, UnknownChallenge


async def test_tokens_fit_a_telegram_deep_link(store: storage.Store) -> None:
    tokens = {await store.challenges.create({"i": i}) for i in range(300)}
    assert len(tokens) == 300
    for t in tokens:
        # Telegram's start parameter: up to 64 of A-Z a-z 0-9 _ -; 22 chars = 128 bits here
        assert re.fullmatch(r"[A-Za-z0-9_-]{22}", t)


async def test_redeem_once(store: storage.Store) -> None:
    token = await store.challenges.create({"match": "abc12345", "from": 42})
    assert await store.challenges.peek(token) == {"match": "abc12345", "from": 42}
    assert await store.challenges.redeem(token) == {"match": "abc12345", "from": 42}
    with pytest.raises(ChallengeUsed) as err:
        await store.challenges.redeem(token)
    assert err.value.token == token and err.value.used_at > 0
    with pytest.raises(ChallengeUsed):
        await store.challenges.peek(token)


async def test_racing_redeemers_one_wins(store: storage.Store) -> None:
    token = await store.challenges.create({"m": 1})
    results = await asyncio.gather(
        *(store.challenges.redeem(token) for _ in range(20)), return_exceptions=True
    )
    assert sum(r == {"m": 1} for r in results) == 1
    assert sum(isinstance(r, ChallengeUsed) for r in results) == 19


@pytest.mark.parametrize("token", ["A" * 22, "short", "x" * 65, "a{b}c" + "d" * 17, "", "é" * 22])
async def test_unknown_tokens(store: storage.Store, token: str) -> None:
    with pytest.raises(UnknownChallenge):
        await store.challenges.redeem(token)
    with pytest.raises(UnknownChallenge):
        await store.challenges.peek(token)
    assert await store.challenges.revoke(token) is False


async def test_expiry_by_the_clock(store_url: str) -> None:
    now = [1000.0]
    async with await storage.connect(store_url, clock=lambda: now[0]) as store:
        token = await store.challenges.create({"m": 1}, ttl=60)
        now[0] += 59.9
        assert await store.challenges.peek(token) == {"m": 1}
        now[0] += 0.1
        with pytest.raises(ChallengeExpired) as err:
            await store.challenges.redeem(token)
        assert err.value.expired_at == 1060.0
        with pytest.raises(ChallengeExpired):  # and it stays expired, not "used"
            await store.challenges.redeem(token)


async def test_expiry_in_real_time(store: storage.Store) -> None:
    token = await store.challenges.create({"m": 1}, ttl=0.2)
    await asyncio.sleep(0.3)
    with pytest.raises(ChallengeExpired):
        await store.challenges.redeem(token)


async def test_forgotten_after_the_memory_period(store_url: str) -> None:
    config = storage.Config(challenge_memory=0)
    async with await storage.connect(store_url, config=config) as store:
        token = await store.challenges.create({"m": 1}, ttl=0.2)
        await asyncio.sleep(0.3)
        with pytest.raises(UnknownChallenge):
            await store.challenges.redeem(token)


async def test_revoke(store: storage.Store) -> None:
    token = await store.challenges.create({"m": 1})
    assert await store.challenges.revoke(token) is True
    with pytest.raises(UnknownChallenge):
        await store.challenges.redeem(token)


async def test_bad_payload_or_lifetime(store: storage.Store) -> None:
    with pytest.raises(storage.InvalidRecord):
        await store.challenges.create({"x": {1, 2}})  # type: ignore[dict-item]
    with pytest.raises(ValueError):
        await store.challenges.create({"x": 1}, ttl=0)
