"""Leases: "only one replica does this now", for work such as computing one AI move.

A lease is ``SET t:lk:{name} <random token> NX PX <ttl>``. It always expires, so a replica that
dies while holding one wedges nothing for longer than ``ttl``. Renewing and releasing check the
token first (Lua), so a holder whose lease ran out and passed to someone else can never extend
or drop the new holder's lease. A lease is a courtesy that avoids duplicate work, not a
correctness guard: the match record's own compare-and-set still decides what gets written.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from redis.asyncio import Redis

from storage._base import guarded
from storage.deadlines import member
from storage.errors import LeaseBusy, LeaseLost, StorageError, Unavailable
from storage.keys import Keys

log = logging.getLogger(__name__)
GUARD_MARGIN = 0.25  # seconds a guarding deadline falls due after its lease runs out


_beats: set[asyncio.Task[None]] = set()  # renewals running (kept referenced until they end)


def _beat_ended(task: asyncio.Task[None]) -> None:
    _beats.discard(task)
    if not task.cancelled() and task.exception() is not None:
        log.warning("lease renewal ended with %r", task.exception())


class Guard:
    """The deadline that watches over a lease's work: ``kind`` of ``match_id`` falls due just
    after the lease would run out, on the caller's clock (the bot's may be a test's)."""

    def __init__(self, match_id: str, kind: str, clock: Callable[[], float]) -> None:
        self.member = member(match_id, kind)
        self.clock = clock

    def score(self, ttl: float) -> float:
        return self.clock() + ttl + GUARD_MARGIN


_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
"""

# KEYS: 1 the lease, 2 the deadline schedule. ARGV: 1 token, 2 ttl ms, 3 a deadline member
# ("" = none), 4 its new score. Takes (or, with the holder's token, renews) the lease and in
# the same step moves the deadline that watches over the work to the lease's end: whatever
# the holder must finish is picked up by a watchdog when, and only when, the holder is gone.
_TAKE = """
local cur = redis.call('GET', KEYS[1])
if cur and cur ~= ARGV[1] then return 0 end
if not cur and ARGV[5] == 'renew' then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
if ARGV[3] ~= '' then redis.call('ZADD', KEYS[2], ARGV[4], ARGV[3]) end
return 1
"""

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


def _ms(seconds: float) -> int:
    if seconds <= 0:
        raise ValueError("a lease needs a positive lifetime")
    return max(1, round(seconds * 1000))


class Lease:
    """A held lease; ``renew`` before ``ttl`` runs out when the work takes longer."""

    def __init__(
        self,
        leases: Leases,
        name: str,
        key: str,
        token: str,
        ttl: float,
        guard: Guard | None = None,
    ) -> None:
        self._leases = leases
        self.name = name
        self.key = key
        self.token = token
        self.ttl = ttl
        self.guard = guard
        self.lost = False  # a renewal found it gone: the work is someone else's now

    @guarded
    async def renew(self, ttl: float | None = None) -> None:
        """Extend the lease to ``ttl`` seconds from now (and move its guard along);
        :class:`LeaseLost` if it is gone."""
        ttl = self.ttl if ttl is None else ttl
        if self.guard is None:
            ok = await self._leases._renew_script(keys=[self.key], args=[self.token, _ms(ttl)])
        else:
            ok = await self._leases._take(self.key, self.token, ttl, self.guard, renew=True)
        if not ok:
            self.lost = True
            raise LeaseLost(self.name)
        self.ttl = ttl

    @asynccontextmanager
    async def kept(self, every: float | None = None) -> AsyncIterator[Lease]:
        """Renew the lease every ``every`` seconds (a third of its ttl by default) while the
        block runs: work that outlasts the ttl keeps it as long as this process is alive,
        and a watchdog takes over only from a holder that is gone. If a renewal finds the
        lease lost, ``lost`` is set and renewing stops (the holder checks it before it
        commits its result)."""
        period = self.ttl / 3 if every is None else every
        stop = asyncio.Event()

        async def beat() -> None:
            while not stop.is_set():
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), period)
                    return
                try:
                    await self.renew()
                except LeaseLost:
                    log.warning("lease %s was lost while its work ran", self.name)
                    return
                except StorageError as e:  # Redis away for a moment: try again next beat
                    log.warning("lease %s not renewed: %s", self.name, e)

        task = asyncio.get_running_loop().create_task(beat())
        _beats.add(task)
        task.add_done_callback(_beat_ended)
        try:
            yield self
        finally:
            # Not awaited: a client library may turn the cancellation of a renewal in flight
            # into its own error, and a beat that swallowed it would never end. The stop
            # flag ends it at its next turn; a renewal that lands after the release finds
            # the token gone and changes nothing.
            stop.set()
            task.cancel()

    @guarded
    async def release(self) -> bool:
        """Give the lease up; False when it had already expired or passed to someone else."""
        return bool(await self._leases._release_script(keys=[self.key], args=[self.token]))

    @guarded
    async def held(self) -> bool:
        return await self._leases._r.get(self.key) == self.token.encode()


class Leases:
    """``store.leases``: ``acquire`` (or None) and ``hold`` (a context manager)."""

    def __init__(self, client: Redis, keys: Keys) -> None:
        self._r = client
        self._keys = keys
        self._renew_script = client.register_script(_RENEW)
        self._release_script = client.register_script(_RELEASE)
        self._take_script = client.register_script(_TAKE)

    @guarded
    async def acquire(self, name: str, ttl: float, guard: Guard | None = None) -> Lease | None:
        """Take the lease ``name`` for ``ttl`` seconds; None when someone else holds it.
        With ``guard``, its deadline moves to the lease's end in the same step (and with
        every renewal), so the work is resumed by a watchdog only if the holder dies."""
        key = self._keys.lease(name)
        token = secrets.token_hex(16)
        if guard is None:
            taken = await self._r.set(key, token, nx=True, px=_ms(ttl))
        else:
            taken = await self._take(key, token, ttl, guard, renew=False)
        return Lease(self, name, key, token, ttl, guard) if taken else None

    async def _take(self, key: str, token: str, ttl: float, guard: Guard, *, renew: bool) -> bool:
        args: list[str | int] = [
            token,
            _ms(ttl),
            guard.member,
            repr(guard.score(ttl)),
            "renew" if renew else "",
        ]
        return bool(await self._take_script(keys=[key, self._keys.due], args=args))

    @guarded
    async def expires_in(self, name: str) -> float | None:
        """Seconds until the lease runs out by itself; None when nobody holds it. Someone who
        finds it busy schedules their retry for then (instead of giving up)."""
        ms = await self._r.pttl(self._keys.lease(name))
        return None if ms < 0 else ms / 1000

    @asynccontextmanager
    async def hold(self, name: str, ttl: float) -> AsyncIterator[Lease]:
        """``async with leases.hold(name, ttl) as lease:`` — :class:`LeaseBusy` when taken.
        Released on exit (quietly, if it had already run out or Redis is down)."""
        lease = await self.acquire(name, ttl)
        if lease is None:
            raise LeaseBusy(name)
        try:
            yield lease
        finally:
            with contextlib.suppress(Unavailable):  # it runs out by itself within ttl
                await lease.release()
