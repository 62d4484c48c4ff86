"""Leases: "only one replica does this now", for work such as computing one AI move.

A lease is ``SET t:lk:{name} <random token> NX PX <ttl>``. It always expires, so a replica that
dies while holding one wedges nothing for longer than ``ttl``. Renewing and releasing check the
token first (Lua), so a holder whose lease ran out and passed to someone else can never extend
or drop the new holder's lease. A lease is a courtesy that avoids duplicate work, not a
correctness guard: the match record's own compare-and-set still decides what gets written.
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from redis.asyncio import Redis

from storage._base import guarded
from storage.errors import LeaseBusy, LeaseLost, Unavailable
from storage.keys import Keys

_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
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

    def __init__(self, leases: Leases, name: str, key: str, token: str, ttl: float) -> None:
        self._leases = leases
        self.name = name
        self.key = key
        self.token = token
        self.ttl = ttl

    @guarded
    async def renew(self, ttl: float | None = None) -> None:
        """Extend the lease to ``ttl`` seconds from now; :class:`LeaseLost` if it is gone."""
        ttl = self.ttl if ttl is None else ttl
        if not await self._leases._renew_script(keys=[self.key], args=[self.token, _ms(ttl)]):
            raise LeaseLost(self.name)
        self.ttl = ttl

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

    @guarded
    async def acquire(self, name: str, ttl: float) -> Lease | None:
        """Take the lease ``name`` for ``ttl`` seconds; None when someone else holds it."""
        key = self._keys.lease(name)
        token = secrets.token_hex(16)
        if await self._r.set(key, token, nx=True, px=_ms(ttl)):
            return Lease(self, name, key, token, ttl)
        return None

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
