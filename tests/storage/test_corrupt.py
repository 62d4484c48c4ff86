"""Corrupt or foreign data under a key gives a clear error for that key only; migrations."""

from __future__ import annotations

from typing import Any

import pytest

import storage
from storage import CorruptRecord, Migrations, UnknownVersion
from storage._base import dumps

from .helpers import bump, record


async def _plant(store: storage.Store, match_id: str, kind: str) -> None:
    """Put something that is not one of our match records under the match's key."""
    key = store.keys.match(match_id)
    r = store.client
    if kind == "string":
        await r.set(key, "hello")
    elif kind == "list":
        await r.rpush(key, "a", "b")
    elif kind == "bad-json":
        await r.hset(key, mapping={"r": "1", "d": "{not json"})
    elif kind == "not-utf8":
        await r.hset(key, mapping={"r": "1", "d": b"\xff\xfe{}"})
    elif kind == "json-array":
        await r.hset(key, mapping={"r": "1", "d": "[1,2]"})
    elif kind == "foreign-hash":
        await r.hset(key, mapping={"name": "x"})
    elif kind == "other-id":
        other = '{"id":"zz","status":"active","chats":[],"v":1}'
        await r.hset(key, mapping={"r": "1", "d": other})
    else:
        raise AssertionError(kind)


KINDS = ["string", "list", "bad-json", "not-utf8", "json-array", "foreign-hash", "other-id"]


@pytest.mark.parametrize("kind", KINDS)
async def test_corrupt_record_is_reported_and_others_unaffected(
    store: storage.Store, kind: str
) -> None:
    good = record(chats=[3])
    await store.matches.create(good)
    bad_id = storage.new_match_id()
    await _plant(store, bad_id, kind)

    with pytest.raises(CorruptRecord) as err:
        await store.matches.get(bad_id)
    assert bad_id in str(err.value) and err.value.key == store.keys.match(bad_id)
    with pytest.raises(CorruptRecord):
        await store.matches.update(bad_id, bump)
    with pytest.raises((CorruptRecord, storage.MatchExists)):  # never overwritten
        await store.matches.create(record(match_id=bad_id))

    assert await store.matches.get(good["id"]) == good
    assert (await store.matches.update(good["id"], bump))["version"] == 1
    assert await store.matches.active_in_chat(3) == [good["id"]]

    assert await store.matches.delete(bad_id) is True  # an operator can clear it
    assert await store.matches.get(bad_id) is None


@pytest.mark.parametrize("v", [2, 0, None, "1", True])
async def test_unknown_versions_are_refused(store: storage.Store, v: Any) -> None:
    match_id = storage.new_match_id()
    rec = {**record(match_id=match_id), "v": v}
    if v is None:
        del rec["v"]
    await store.client.hset(store.keys.match(match_id), mapping={"r": "1", "d": dumps(rec)})
    with pytest.raises(UnknownVersion) as err:
        await store.matches.get(match_id)
    assert "schema version" in str(err.value)


async def test_migrations_bring_old_records_up_to_date(store_url: str) -> None:
    schema = Migrations(current=3)

    @schema.step(1)
    def rename(r: dict[str, Any]) -> dict[str, Any]:
        r["places"] = r.pop("where")
        return r

    @schema.step(2)
    def add_clock(r: dict[str, Any]) -> dict[str, Any]:
        r.setdefault("clock", None)
        return r

    async with await storage.connect(store_url, migrations=schema) as store:
        old = {"id": "oldMatch", "status": "active", "chats": [], "v": 1, "where": [5]}
        await store.client.hset(store.keys.match("oldMatch"), mapping={"r": "1", "d": dumps(old)})
        want = {"id": "oldMatch", "status": "active", "chats": [], "v": 3, "places": [5]}
        assert await store.matches.get("oldMatch") == {**want, "clock": None}
        out = await store.matches.update("oldMatch", lambda r: {**r, "clock": 30})
        assert out == {**want, "clock": 30}
        raw = await store.client.hget(store.keys.match("oldMatch"), "d")
        assert raw is not None and b'"v":3' in raw  # written back in the new shape

        with pytest.raises(storage.InvalidRecord):  # new records carry the current version
            await store.matches.create(record())


async def test_a_gap_in_the_migrations_or_a_failing_step_is_refused(store_url: str) -> None:
    schema = Migrations(current=3)
    schema.add(2, lambda r: 1 / 0)  # type: ignore[arg-type,return-value]
    async with await storage.connect(store_url, migrations=schema) as store:
        for v, error in ((1, UnknownVersion), (2, CorruptRecord)):
            rec = {**record(match_id=f"v{v}match"), "v": v}
            await store.client.hset(
                store.keys.match(rec["id"]), mapping={"r": "1", "d": dumps(rec)}
            )
            with pytest.raises(error):
                await store.matches.get(rec["id"])


def test_migrations_are_checked_when_registered() -> None:
    schema = Migrations(current=2)
    schema.add(1, lambda r: r)
    with pytest.raises(ValueError):
        schema.add(1, lambda r: r)
    with pytest.raises(ValueError):
        schema.add(2, lambda r: r)
    with pytest.raises(ValueError):
        Migrations(current=0)


async def test_corrupt_settings_and_profiles(store: storage.Store) -> None:
    await store.chats.patch(1, {"language": "ru"})
    await store.client.hset(store.keys.chat(2), "s", "{oops")
    await store.client.set(store.keys.chat(3), "a string")
    await store.client.hset(store.keys.user(4), "r:dots", '{"r": "x"}')
    with pytest.raises(CorruptRecord):
        await store.chats.get(2)
    with pytest.raises(CorruptRecord):
        await store.chats.patch(3, {"language": "en"})
    with pytest.raises(CorruptRecord):
        await store.users.profile(4)
    with pytest.raises(CorruptRecord):
        await store.ratings.get(4, "dots")
    assert await store.chats.get(1) == {"language": "ru"}
    for chat in (2, 3):  # read together with a user's settings, as a tap in a group does
        with pytest.raises(CorruptRecord):
            await store.chats.get_with(chat, store.users, 5)
        with pytest.raises(CorruptRecord):
            await store.users.get_with(5, store.chats, chat)


async def test_corrupt_challenge(store: storage.Store) -> None:
    token = await store.challenges.create({"m": 1})
    await store.client.set(store.keys.challenge(token), "x")
    with pytest.raises(CorruptRecord):
        await store.challenges.redeem(token)
