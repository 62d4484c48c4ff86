"""Fault injection: the Bot API failing for a while the way Telegram does on a bad day.

A :class:`Fault` makes some share (``rate``) of the bot's calls to some methods fail for a
time window: ``429`` (Too Many Requests with ``retry_after``), ``5xx`` (500 or 502, as
Telegram's front ends answer during an incident) or ``timeout`` (the call hangs ``delay``
seconds and then fails with 504, so a client with a shorter read timeout sees a timeout; with
``apply`` the call is carried out after the delay, the ambiguous case where the bot cannot
know that its edit went through) or ``slow`` (the call is carried out at once and its answer
held back ``delay`` seconds: a crash test kills the bot while it waits, after Telegram has
done what it asked). ``chats`` limits a fault to calls naming those chats (a flood in one
group); a 429 with ``retry_after=0`` says how long its window has left, as Telegram's flood
wait does. Faults never touch the people's side of the emulator.
"""

from __future__ import annotations

import asyncio
import math
import random
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from playground.limits import ApiError, too_many_requests

KINDS = ("429", "5xx", "timeout", "slow")


class BadFault(ValueError):
    """A fault description the emulator cannot use."""


@dataclass
class Fault:
    kind: str
    methods: frozenset[str] | None  # lower-case method names; None: every method
    rate: float
    until: float  # on the Faults clock
    retry_after: int = 1  # 0: the seconds left in the window (rounded up)
    delay: float = 10.0
    apply: bool = False
    injected: int = 0
    chats: frozenset[int] | None = None  # None: calls naming any chat, or none
    released: bool = False  # cleared: calls it holds up stop waiting

    async def hold(self) -> None:
        """Wait ``delay`` seconds, or until the fault is cleared."""
        end = time.monotonic() + self.delay
        while not self.released and time.monotonic() < end:
            await asyncio.sleep(min(0.05, max(0.0, end - time.monotonic())))

    def matches(self, method: str, now: float, chat: int | None = None) -> bool:
        return (
            now < self.until
            and (self.methods is None or method.lower() in self.methods)
            and (self.chats is None or chat in self.chats)
        )

    def error(self, rng: random.Random, now: float = 0.0) -> ApiError:
        if self.kind == "429":
            wait = self.retry_after or max(1, math.ceil(self.until - now))
            return too_many_requests(wait)
        if self.kind == "timeout":
            return ApiError(504, "Gateway Timeout")
        if rng.random() < 0.5:
            return ApiError(500, "Internal Server Error")
        return ApiError(502, "Bad Gateway")

    def to_json(self, now: float) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "methods": sorted(self.methods) if self.methods is not None else None,
            "rate": self.rate,
            "seconds_left": max(0.0, self.until - now),
            "retry_after": self.retry_after,
            "delay": self.delay,
            "apply": self.apply,
            "injected": self.injected,
            "chats": sorted(self.chats) if self.chats is not None else None,
        }


@dataclass
class Faults:
    """The active faults of one emulator; the first one that fires decides a call's fate."""

    clock: Callable[[], float] = time.monotonic
    rng: random.Random = field(default_factory=lambda: random.Random(0))
    active: list[Fault] = field(default_factory=list)
    injected: dict[str, int] = field(default_factory=dict)  # by kind, since the start

    def add(
        self,
        kind: str,
        *,
        methods: Iterable[str] | None = None,
        rate: float = 1.0,
        seconds: float = 10.0,
        retry_after: int = 1,
        delay: float = 10.0,
        apply: bool = False,
        chats: Iterable[int] | None = None,
    ) -> Fault:
        if kind not in KINDS:
            raise BadFault(f"fault kind must be one of {', '.join(KINDS)}, not {kind!r}")
        if not 0 < rate <= 1 or seconds <= 0 or retry_after < 0 or delay < 0:
            raise BadFault("need 0 < rate <= 1, seconds > 0, retry_after >= 0, delay >= 0")
        names = frozenset(m.lower() for m in methods) if methods is not None else None
        try:
            ids = frozenset(int(c) for c in chats) if chats is not None else None
        except (TypeError, ValueError):
            raise BadFault("chats must be a list of chat ids") from None
        fault = Fault(
            kind,
            names,
            float(rate),
            self.clock() + seconds,
            int(retry_after),
            float(delay),
            bool(apply),
            chats=ids,
        )
        self.active.append(fault)
        return fault

    def clear(self) -> None:
        for fault in self.active:
            fault.released = True
        self.active.clear()

    def pick(self, method: str, chat: int | None = None) -> Fault | None:
        """The fault that hits this call (naming ``chat``), if any (expired ones are dropped)."""
        now = self.clock()
        self.active = [f for f in self.active if now < f.until]
        for fault in self.active:
            if fault.matches(method, now, chat) and self.rng.random() < fault.rate:
                fault.injected += 1
                self.injected[fault.kind] = self.injected.get(fault.kind, 0) + 1
                return fault
        return None

    def to_json(self) -> dict[str, Any]:
        now = self.clock()
        return {"active": [f.to_json(now) for f in self.active], "injected": dict(self.injected)}
