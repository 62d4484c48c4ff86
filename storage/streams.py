"""Open live streams (the Mini App's Server-Sent Events), counted in Redis so a limit per
person and per match holds across every replica.

Each open stream is a member of two sorted sets, the person's ``t:u:{<user>}:ls`` and the
match's ``t:m:{<match>}:ls``, scored by when it lapses. The replica serving it pushes that
time on while the stream is open (:class:`Slot` renews every third of ``ttl``) and removes it
when the stream closes; a replica that dies stops renewing, so its streams lapse after
``ttl`` and are swept by the next open. Admission (sweep, count both, add to both) is one
script: two pages opening at once on two replicas cannot both take the last place.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from redis import exceptions as rx
from redis.asyncio import Redis

from storage._base import guarded
from storage.errors import TooMany
from storage.keys import Keys

log = logging.getLogger(__name__)

# KEYS: the person's set, the match's set. ARGV: now, lapse time, member, per person,
# per match, key ttl (s). Returns 0 (admitted), 1 (the person is at the limit) or 2 (the match).
_OPEN = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then return 1 end
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[5]) then return 2 end
for i = 1, 2 do
  redis.call('ZADD', KEYS[i], ARGV[2], ARGV[3])
  redis.call('EXPIRE', KEYS[i], ARGV[6])
end
return 0
"""
# Push the lapse time of a member still in the sets (XX: a swept one is not brought back).
_RENEW = """
for i = 1, 2 do
  redis.call('ZADD', KEYS[i], 'XX', ARGV[1], ARGV[2])
  redis.call('EXPIRE', KEYS[i], ARGV[3])
end
return 0
"""


class Streams:
    def __init__(self, client: Redis, keys: Keys, clock: Callable[[], float]) -> None:
        self._client = client
        self._keys = keys
        self._clock = clock
        self._open = client.register_script(_OPEN)
        self._renew = client.register_script(_RENEW)

    def _sets(self, user: int, match_id: str) -> list[str]:
        return [self._keys.user_streams(user), self._keys.match_streams(match_id)]

    @asynccontextmanager
    async def slot(
        self, user: int, match_id: str, *, per_user: int, per_match: int, ttl: float
    ) -> AsyncIterator[None]:
        """Hold one place for a stream of ``user`` on ``match_id`` while inside; raises
        :class:`TooMany` when either limit is reached."""
        keys = self._sets(user, match_id)
        member = secrets.token_hex(8)
        keep = int(ttl) + 1  # the sets' own expiry: a match or person gone quiet leaves nothing
        now = self._clock()
        answer = await self._admit(
            keys, [repr(now), repr(now + ttl), member, per_user, per_match, keep]
        )
        if answer:
            raise TooMany("user" if answer == 1 else "match")
        renewing = asyncio.get_running_loop().create_task(self._keep(keys, member, ttl, keep))
        try:
            yield
        finally:
            renewing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await renewing
            with contextlib.suppress(rx.RedisError, OSError):  # else it lapses after ttl
                async with self._client.pipeline(transaction=False) as pipe:
                    for key in keys:
                        pipe.zrem(key, member)
                    await pipe.execute()

    async def _keep(self, keys: list[str], member: str, ttl: float, keep: int) -> None:
        while True:
            await asyncio.sleep(ttl / 3)
            try:
                await self._renew(keys=keys, args=[repr(self._clock() + ttl), member, keep])
            except (rx.RedisError, OSError) as e:  # the next renewal may get through
                log.warning("live stream renewal failed: %s", e)

    @guarded
    async def _admit(self, keys: list[str], args: list[str | int]) -> int:
        return int(await self._open(keys=keys, args=args))

    @guarded
    async def count(self, user: int, match_id: str) -> tuple[int, int]:
        """Streams open now (not lapsed) for the person and for the match (tests, metrics)."""
        now = self._clock()
        user_key, match_key = self._sets(user, match_id)
        return (
            int(await self._client.zcount(user_key, now, "+inf")),
            int(await self._client.zcount(match_key, now, "+inf")),
        )
