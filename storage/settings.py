"""Settings dicts of chats and users (language, default board sizes, timers…).

The bot owns what is inside; storage keeps the dict as JSON in the ``s`` field of the chat's or
user's hash, wrapped with a schema version, and changes it with optimistic WATCH/MULTI
transactions so two admins changing different settings at once both win.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, cast

from redis import exceptions as rx
from redis.asyncio import Redis
from redis.asyncio.client import Pipeline

from storage._base import dumps, guarded, is_wrong_type, load_object, start_writes, watched
from storage.config import Config
from storage.errors import CorruptRecord, InvalidRecord, UnknownVersion

FIELD = "s"
VERSION = 1

Doc = dict[str, Any]
DocUpdater = Callable[[Doc], Doc | Awaitable[Doc]]


async def read_field(client: Redis | Pipeline, key: str, field: str) -> bytes | None:
    try:
        return cast("bytes | None", await client.hget(key, field))
    except rx.ResponseError as e:
        return field_or_raise(key, e)


def decode(key: str, raw: bytes | None) -> Doc:
    if raw is None:
        return {}
    wrapped = load_object(key, raw)
    if wrapped.get("v") != VERSION:
        raise UnknownVersion(key, wrapped.get("v"), VERSION)
    doc = wrapped.get("d")
    if not isinstance(doc, dict):
        raise CorruptRecord(key, "settings are not a JSON object")
    return doc


def field_or_raise(key: str, raw: Any) -> bytes | None:
    """A field's value, or the error Redis answered instead (a pipeline hands errors back)."""
    if isinstance(raw, rx.ResponseError):
        if is_wrong_type(raw):
            raise CorruptRecord(key, "holds a different Redis type, not a hash") from raw
        raise raw
    return cast("bytes | None", raw)


class SettingsStore:
    """``get`` / ``update`` / ``patch`` of one settings dict per chat or per user."""

    def __init__(self, client: Redis, key: Callable[[int], str], config: Config) -> None:
        self._r = client
        self._key = key
        self._config = config

    @guarded
    async def get(self, owner: int) -> Doc:
        """The settings, ``{}`` when none were ever saved."""
        key = self._key(owner)
        return decode(key, await read_field(self._r, key, FIELD))

    @guarded
    async def get_with(self, owner: int, other: SettingsStore, other_owner: int) -> tuple[Doc, Doc]:
        """This owner's settings and ``other``'s in one round trip (a tap in a group reads
        both its chat's and its user's)."""
        keys = (self._key(owner), other._key(other_owner))
        async with self._r.pipeline(transaction=False) as pipe:
            for key in keys:
                pipe.hget(key, FIELD)
            raws = await pipe.execute(raise_on_error=False)
        mine, theirs = (
            decode(k, field_or_raise(k, raw)) for k, raw in zip(keys, raws, strict=True)
        )
        return mine, theirs

    @guarded
    async def update(self, owner: int, fn: DocUpdater) -> Doc:
        """Store ``fn(settings)`` atomically; ``fn`` may run more than once."""
        key = self._key(owner)

        async def body(pipe: Pipeline) -> Doc:
            doc = decode(key, await read_field(pipe, key, FIELD))
            new = fn(doc)
            if inspect.isawaitable(new):
                new = await new
            if not isinstance(new, dict):
                raise InvalidRecord(f"settings must be a dict, not {type(new).__name__}")
            start_writes(pipe)
            pipe.hset(key, FIELD, dumps({"v": VERSION, "d": new}))
            await pipe.execute()
            return new

        return await watched(
            self._r, [key], body, attempts=self._config.max_attempts, what=f"settings {key}"
        )

    async def patch(self, owner: int, changes: Mapping[str, Any]) -> Doc:
        """Merge ``changes`` into the settings; a value of None removes that setting."""

        def merge(doc: Doc) -> Doc:
            for name, value in changes.items():
                if value is None:
                    doc.pop(name, None)
                else:
                    doc[name] = value
            return doc

        return await self.update(owner, merge)

    @guarded
    async def clear(self, owner: int) -> None:
        await self._r.hdel(self._key(owner), FIELD)
