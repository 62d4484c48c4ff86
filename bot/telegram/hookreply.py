"""One Bot API call carried back in the webhook's response instead of a request of its own.

Telegram runs a method named in the JSON answer to a webhook post (``{"method": ..., ...}``)
as if the bot had called it, without telling the bot how it went. Answering a tap's callback
query that way saves a whole HTTP request per tap (the answer's result is never used: a
failed answer has nothing to repair). The hook opens a slot for the update it is handling;
:func:`offer` fills it at most once and only while the hook has not yet answered, so a
handler that outlives its update (or runs in polling mode) makes the call itself. A handler
still busy :data:`HOLD` seconds later (a retried edit, a slow picture) makes the call itself
too, so the person's spinner never waits on the rest of the work.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from typing import Any

HOLD = 1.0

Fallback = Callable[[], Awaitable[Any]]


class Slot:
    """Room for one call, open until the hook takes it."""

    __slots__ = ("_timer", "call", "open")

    def __init__(self) -> None:
        self.call: dict[str, Any] | None = None
        self.open = True
        self._timer: asyncio.TimerHandle | None = None

    def take(self) -> dict[str, Any] | None:
        """Close the slot; the call to answer the webhook with, if one is waiting."""
        self.open = False
        if self._timer is not None:
            self._timer.cancel()
        return self.call

    def _give_up(self, fallback: Fallback) -> None:
        if self.open and self.call is not None:
            self.open, self.call = False, None
            _calls.add(task := asyncio.ensure_future(fallback()))
            task.add_done_callback(_calls.discard)


_slot: ContextVar[Slot | None] = ContextVar("tetrad_hook_reply", default=None)
_calls: set[asyncio.Future[Any]] = set()  # fallback calls in flight (the loop keeps weak refs)


def open_slot() -> Slot:
    """A slot for the update the current task is about to handle."""
    slot = Slot()
    _slot.set(slot)
    return slot


def offer(method: str, params: dict[str, Any], fallback: Fallback) -> bool:
    """Put the call in the current update's slot; False when the caller must make it itself.
    ``fallback`` makes it if the hook has not answered within :data:`HOLD` seconds."""
    slot = _slot.get()
    if slot is None or not slot.open or slot.call is not None:
        return False
    slot.call = {"method": method, **params}
    slot._timer = asyncio.get_running_loop().call_later(HOLD, slot._give_up, fallback)
    return True
