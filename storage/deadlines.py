"""Deadlines that survive restarts and replicas: chess clocks, the Dots STOP timer, lobbies.

One sorted set ``t:due`` holds ``<match id>|<kind>`` scored by the time it falls due. A poller
on every replica calls ``due(now)``: a Lua script takes the entries that are due and pushes
each one ``lease`` seconds into the future in the same step, so of two replicas polling at the
same moment exactly one receives it. The receiver acts (typically ``matches.update`` with a
function that checks the clock in the record, so acting twice is harmless) and then calls
``done``, which removes the entry unless it was rescheduled meanwhile. A replica that dies
before ``done`` loses nothing: the entry comes due again when its lease runs out.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import cast

from redis.asyncio import Redis

from storage._base import guarded
from storage.keys import Keys, check_match_id, check_name

# KEYS[1] the schedule; ARGV: 1 now, 2 how many at most, 3 claimed until.
_CLAIM = """
local items = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1],
                        'WITHSCORES', 'LIMIT', 0, ARGV[2])
for i = 1, #items, 2 do redis.call('ZADD', KEYS[1], ARGV[3], items[i]) end
return items
"""

# KEYS[1] the schedule; ARGV: 1 member, 2 the score our claim gave it.
_DONE = """
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if score and tonumber(score) == tonumber(ARGV[2]) then
  return redis.call('ZREM', KEYS[1], ARGV[1])
end
return 0
"""


# KEYS[1] the schedule; ARGV: 1 now, then the kinds. Every entry of those kinds due later
# than now falls due now; returns how many.
_EXPEDITE = """
local kinds = {}
for i = 2, #ARGV do kinds['|' .. ARGV[i]] = true end
local n = 0
local items = redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. ARGV[1], '+inf')
for _, m in ipairs(items) do
  local bar = string.find(m, '|', 1, true)
  if bar and kinds[string.sub(m, bar)] then
    redis.call('ZADD', KEYS[1], ARGV[1], m)
    n = n + 1
  end
end
return n
"""


@dataclass(frozen=True, slots=True)
class Due:
    """A claimed deadline: act on it, then ``await store.deadlines.done(due)``."""

    match_id: str
    kind: str
    when: float  # when it fell due
    claimed_until: float  # after this another replica may claim it again


def member(match_id: str, kind: str) -> str:
    """The schedule's entry for one kind of deadline of one match (matches and leases write
    entries in their own scripts, atomically with what the deadline watches over)."""
    return f"{check_match_id(match_id)}|{check_name('deadline kind', kind)}"


class Deadlines:
    """``store.deadlines``: ``schedule``, ``cancel``, ``when``, ``due`` (claims), ``done``."""

    def __init__(self, client: Redis, keys: Keys, clock: Callable[[], float]) -> None:
        self._r = client
        self._key = keys.due
        self._clock = clock
        self._claim = client.register_script(_CLAIM)
        self._done = client.register_script(_DONE)
        self._expedite = client.register_script(_EXPEDITE)

    @guarded
    async def schedule(self, match_id: str, when: float, kind: str = "clock") -> None:
        """Fall due at ``when`` (Unix seconds); replaces an earlier time for the same kind."""
        await self._r.zadd(self._key, {member(match_id, kind): when})

    @guarded
    async def cancel(self, match_id: str, kind: str = "clock") -> bool:
        return bool(await self._r.zrem(self._key, member(match_id, kind)))

    @guarded
    async def when(self, match_id: str, kind: str = "clock") -> float | None:
        """The scheduled time (or the end of the current claim), None when not scheduled."""
        return await self._r.zscore(self._key, member(match_id, kind))

    @guarded
    async def next_time(self) -> float | None:
        """The earliest scheduled time, so a poller can sleep until then."""
        reply = await self._r.zrange(self._key, 0, 0, withscores=True)
        first = cast(list[tuple[bytes, float]], reply)
        return first[0][1] if first else None

    @guarded
    async def due(
        self, now: float | None = None, limit: int = 100, lease: float = 30.0
    ) -> list[Due]:
        """Claim up to ``limit`` deadlines due at ``now``; each goes to one caller only."""
        if lease <= 0 or limit <= 0:
            raise ValueError("due() needs a positive lease and limit")
        now = self._clock() if now is None else now
        until = now + lease
        items = await self._claim(keys=[self._key], args=[repr(now), limit, repr(until)])
        claimed = []
        for entry, score in zip(items[::2], items[1::2], strict=True):
            match_id, _, kind = entry.decode().partition("|")
            claimed.append(Due(match_id, kind, float(score), until))
        return claimed

    @guarded
    async def expedite(self, kinds: list[str], now: float | None = None) -> int:
        """Make every entry of ``kinds`` due now; how many there were. A process starting
        up calls it for the deadlines that guard work in flight (each entry names work a
        process may have died doing): it looks at them at once, instead of when a lease it
        will find free anyway would have run out. Work a live holder still does stays
        theirs (their lease is busy, and the retry goes to its end)."""
        now = self._clock() if now is None else now
        names = [check_name("deadline kind", k) for k in kinds]
        return int(await self._expedite(keys=[self._key], args=[repr(now), *names]))

    @guarded
    async def done(self, due: Due) -> bool:
        """Remove a handled deadline; False when it was rescheduled or cancelled meanwhile
        (the new time stands) or our claim had run out and someone else took it."""
        entry = member(due.match_id, due.kind)
        return bool(await self._done(keys=[self._key], args=[entry, repr(due.claimed_until)]))
