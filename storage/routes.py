"""Рассада curves routed once for all replicas: the drawing after a move, by a digest of the
drawing and the move, kept a while.

The taps of one move go round the replicas (a spot, a preview, a flip, Play), and each
replica keeps the curves it routed in its own memory only: a preview drawn on one replica
and played or looked at again on another would be routed twice, tens of milliseconds of CPU
each time, most when the machine is short of it. The router looks here first; one replica
routes a curve at a time (a lease named after the digest), the others wait for its answer.
"""

from __future__ import annotations

from typing import Any

from redis.asyncio import Redis

from storage._base import dumps, guarded, loads
from storage.keys import Keys


class Routes:
    def __init__(self, client: Redis, keys: Keys) -> None:
        self._r = client
        self._keys = keys

    @guarded
    async def get(self, digest: str) -> Any | None:
        """The drawing (as JSON) routed for ``digest``, or None when nobody has yet."""
        key = self._keys.route(digest)
        raw = await self._r.get(key)
        return None if raw is None else loads(key, raw)

    @guarded
    async def put(self, digest: str, drawing: Any, ttl: float) -> None:
        """Keep the routed ``drawing`` (JSON) for ``ttl`` seconds."""
        await self._r.set(self._keys.route(digest), dumps(drawing), px=max(1, round(ttl * 1000)))
