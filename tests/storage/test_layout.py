"""Every key storage writes is documented in storage/README.md, every documented key is
written, and the keys of one match (chat, user) share a Redis Cluster slot."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import storage
from storage import AiSeat
from storage._base import text
from storage.keys import Keys

from .helpers import record

README = Path(__file__).resolve().parents[2] / "storage" / "README.md"


def _documented() -> dict[str, re.Pattern[str]]:
    """The key patterns in the README's layout table, as regular expressions."""
    patterns = {}
    for line in README.read_text(encoding="utf-8").splitlines():
        m = re.match(r"\| `(t:[^`]+)` \|", line)
        if m:
            text = m.group(1)
            rx = re.escape(text)
            rx = rx.replace(r"\<", "<").replace(r"\>", ">").replace("<name>", r"[^{}]+")
            rx = re.sub(r"<[a-z]+>", r"[^:{}|]+", rx)
            patterns[text] = re.compile(rx)
    return patterns


def _crc16(data: bytes) -> int:
    """CRC16-CCITT (XMODEM), the hash Redis Cluster uses for key slots."""
    crc = 0
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
            crc &= 0xFFFF
    return crc


def slot(key: str) -> int:
    start = key.find("{")
    if start >= 0:
        end = key.find("}", start + 1)
        if end > start + 1:
            key = key[start + 1 : end]
    return _crc16(key.encode()) % 16384


def test_slot_function_matches_redis_cluster_examples() -> None:
    # from the Redis Cluster specification: "123456789" -> 0x31C3; tags select the hashed part
    assert _crc16(b"123456789") == 0x31C3
    assert slot("{user1000}.following") == slot("{user1000}.followers")
    assert slot("foo{}{bar}") == _crc16(b"foo{}{bar}") % 16384


async def test_every_key_is_documented_and_every_documented_key_is_used(
    store: storage.Store,
) -> None:
    lobby = record(status="lobby", chats=[-100])
    await store.matches.create(lobby)
    await store.matches.create(record(chats=[-100]))
    await store.chats.patch(-100, {"language": "ru"})
    await store.users.patch(1, {"language": "en"})
    await store.ratings.record(lobby["id"], "dots", [1, 2], [0, 1], chat_id=-100)
    await store.ratings.record("aigame01", "dots", [1, AiSeat("easy")], [0, 1])
    await store.challenges.create({"m": lobby["id"]})
    await store.deadlines.schedule(lobby["id"], 1.0)
    await store.leases.acquire("ai:" + lobby["id"], 10)
    await store.routes.put("0123456789abcdef", {"w": 1}, 60)
    hand = await store.puzzles.begin(1, "boxes", "b-0001")
    await store.puzzles.answer(1, "boxes", "b-0001", hand.attempt, solved=True, start_rating=1500)
    await store.puzzles.answer_once(1, "boxes", "b-0002", solved=False, start_rating=1500)
    await store.daily.post(-100, "boxes", 20426, "b-0002", 7)
    await store.daily.answer(-100, "boxes", 20426, 1, "Ann", solved=False)
    await store.lessons.begin(1, "boxes", "b1-1")

    async with store.streams.slot(1, lobby["id"], per_user=1, per_match=1, ttl=30):
        keys = sorted([k.decode() async for k in store.client.scan_iter(match="t:*")])
    patterns = _documented()
    assert len(patterns) >= 10
    used = set()
    for key in keys:
        matching = [text for text, rx in patterns.items() if rx.fullmatch(key)]
        assert matching, f"{key} is not in the storage/README.md layout"
        used.update(matching)
    assert used == set(patterns), f"documented but never written: {set(patterns) - used}"

    fields = await store.client.hkeys(store.keys.user(1))
    assert {text(f).split(":")[0] for f in fields} == {"s", "r", "n", "a", "c", "z", "l"}


def test_keys_of_one_owner_share_a_slot() -> None:
    k = Keys()
    assert slot(k.match("abcDEF12")) == slot(k.result("abcDEF12"))
    assert slot(k.match("abcDEF12")) == slot(k.match_streams("abcDEF12"))
    assert slot(k.user(7)) == slot(k.user_streams(7))
    assert slot(k.chat(-100)) == slot(k.chat_matches(-100)) == slot(k.board("dots", -100))
    assert slot(k.match("abcDEF12")) != slot(k.match("abcDEF13"))


async def test_a_routed_curve_is_kept_for_a_while_and_its_digest_checked(
    store: storage.Store,
) -> None:
    digest = "00ff" * 8
    assert await store.routes.get(digest) is None
    await store.routes.put(digest, {"w": 1000.0, "spots": [[1.5, 2]]}, 60)
    assert await store.routes.get(digest) == {"w": 1000.0, "spots": [[1.5, 2]]}
    assert 0 < await store.client.pttl(store.keys.route(digest)) <= 60_000
    with pytest.raises(storage.InvalidRecord):
        await store.routes.get("not hex")
