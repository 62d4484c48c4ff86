"""A match write acknowledged only once a replica has it: ``WAIT 1 <ms>`` after the write.

Redis replicates asynchronously, so a primary that dies right after a write may take it
along, and the replica Sentinel promotes then lacks a move the player was already shown.
``WAIT`` blocks until that many replicas acknowledged everything *this connection* wrote,
so it goes in one pipeline (one connection) with the write script. It is sent only when the
primary has replicas (``ROLE``, asked again every :data:`REFRESH` seconds and after a
timeout): on a lone server or the embedded store nothing waits. A WAIT that times out
leaves the write as today (on the primary only): the write stands and is counted, never
failed, since a replica that lags or is gone must not stop play.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from redis import exceptions as rx
from redis.asyncio import Redis
from redis.commands.core import AsyncScript

REFRESH = 1.0  # seconds a replica count read from ROLE is trusted

# (seconds waited, whether a replica acknowledged in time)
Observer = Callable[[float, bool], None]


class ReplicaWait:
    """Runs the match write script, then WAITs for a replica when the primary has one."""

    def __init__(
        self,
        client: Redis,
        timeout: float,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._r = client
        self.timeout_ms = max(0, round(timeout * 1000))
        self._clock = clock
        self._replicas = 0
        self._checked = -float("inf")
        self.waits = 0  # writes that waited for a replica
        self.timeouts = 0  # of those, the ones no replica acknowledged in time
        self.observer: Observer | None = None  # the bot's metrics

    async def replicas(self) -> int:
        """Replicas connected to the primary, as ROLE said at most :data:`REFRESH` s ago."""
        now = self._clock()
        if now - self._checked >= REFRESH:
            role = await self._r.role()
            self._replicas = len(role[2]) if role and role[0] in (b"master", "master") else 0
            self._checked = now
        return self._replicas

    async def run(self, script: AsyncScript, keys: Sequence[str], args: Sequence[Any]) -> Any:
        """``script(keys, args)``'s answer, once a replica has the write (or WAIT gave up)."""
        if self.timeout_ms == 0 or await self.replicas() == 0:
            return await script(keys=keys, args=args)
        started = time.perf_counter()
        answer, acked = await self._script_and_wait(script, keys, args)
        self.waits += 1
        if acked < 1:
            self.timeouts += 1
            self._checked = -float("inf")  # the replica may be gone: ask ROLE next time
        if self.observer is not None:
            self.observer(time.perf_counter() - started, acked >= 1)
        return answer

    async def _script_and_wait(
        self, script: AsyncScript, keys: Sequence[str], args: Sequence[Any]
    ) -> tuple[Any, int]:
        for loaded in (False, True):
            async with self._r.pipeline(transaction=False) as pipe:
                pipe.evalsha(script.sha, len(keys), *keys, *args)
                pipe.wait(1, self.timeout_ms)
                answer, acked = await pipe.execute(raise_on_error=False)
            if not isinstance(answer, rx.NoScriptError) or loaded:
                break
            # a primary that never ran it (a promoted replica's script cache is empty);
            # the script did not run, so running it again is safe
            await self._r.script_load(script.script)
        if isinstance(answer, Exception):
            raise answer
        if isinstance(acked, Exception):
            raise acked
        return answer, int(acked)
