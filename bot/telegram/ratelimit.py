"""Flood control per chat: Telegram's limits kept without letting one chat stall the others.

python-telegram-bot's ``AIORateLimiter`` halts *every* request for ``retry_after`` after any
429, so one flooded group held up taps in every other chat. Here a 429 closes only the chat
(or inline message) its request named, for exactly as long as Telegram said; the queues:

* the whole bot: ``overall_max_rate`` requests a second (Telegram: about 30 messages a
  second) for every request that names a chat;
* each group or channel: ``group_max_rate`` per ``group_time_period`` (Telegram: 20 messages
  a minute in a group);
* each chat or inline message that answered 429: closed until its ``retry_after`` is over.

Private chats get no queue of their own (Telegram allows about one message a second there
with short bursts; the bot answers taps, it does not broadcast): a 429 closes that one chat.
Requests that name no chat (answerCallbackQuery, answerInlineQuery, getMe…) wait in none of
these queues, so a tap is answered at once however flooded the chat it came from; a 429 on
one of them closes only that method.

A call that would wait for a closed chat waits outside the budgets (it holds no one's
place); one marked :data:`LATEST` (the boards' edits, see ``rawapi.latest_only``) is not held
at all: it raises :class:`ChatClosed` at once, and the board is shown again, in its latest
state, when the chat opens (a flooded chat's pending edits collapse into that one edit, see
``boards.py``).
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Callable, Coroutine
from typing import Any

from aiolimiter import AsyncLimiter
from telegram.error import RetryAfter
from telegram.ext import BaseRateLimiter

log = logging.getLogger(__name__)
Key = int | str
_LIMITERS_KEPT = 512  # idle group limiters are dropped beyond this many
LATEST = "latest"  # rate_limit_args of a call that only shows the latest state


class ChatClosed(RetryAfter):
    """The chat is closed by a flood wait for ``seconds`` more (not sent; never retried)."""

    def __init__(self, seconds: float) -> None:
        super().__init__(max(1, math.ceil(seconds)))
        self.seconds = seconds


def flood_seconds(e: RetryAfter) -> float:
    """How long the chat stays closed: exact for :class:`ChatClosed`, Telegram's whole
    seconds for its own 429 (python-telegram-bot gives an int or a timedelta)."""
    if isinstance(e, ChatClosed):
        return e.seconds
    value: Any = e.retry_after
    return float(value.total_seconds() if hasattr(value, "total_seconds") else value)


def request_key(endpoint: str, data: dict[str, Any]) -> tuple[Key, bool, bool]:
    """Which flood wait a request shares: its chat, its inline message, or else its method;
    whether it names a chat at all (the bot-wide budget), and whether that chat is a group
    (ids below zero, or an ``@username``: supergroups and channels)."""
    chat = data.get("chat_id")
    if chat is not None:
        try:
            chat = int(chat)
        except (TypeError, ValueError):
            return str(chat), True, True
        return chat, True, chat < 0
    inline = data.get("inline_message_id")
    if inline is not None:
        return f"inline:{inline}", False, False
    return f"method:{endpoint}", False, False


class ChatRateLimiter(BaseRateLimiter[str]):
    """A 429 is retried ``max_retries`` times once its chat opens again; a call marked
    :data:`LATEST` is neither held nor retried (:class:`ChatClosed` or the 429 instead)."""

    def __init__(
        self,
        overall_max_rate: float = 30,
        group_max_rate: float = 20,
        group_time_period: float = 60,
        max_retries: int = 3,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._overall = AsyncLimiter(overall_max_rate, 1) if overall_max_rate else None
        self._group_rate = group_max_rate
        self._group_period = group_time_period
        self._groups: dict[Key, AsyncLimiter] = {}
        self._closed: dict[Key, float] = {}  # key -> clock time its flood wait ends
        self._max_retries = max_retries
        self._clock = clock

    async def initialize(self) -> None:
        """Nothing to set up."""

    async def shutdown(self) -> None:
        """Nothing to release."""

    def closed_for(self, key: Key) -> float:
        """Seconds until ``key`` may be sent to again (0 when open)."""
        until = self._closed.get(key)
        if until is None:
            return 0.0
        left = until - self._clock()
        if left <= 0:
            del self._closed[key]
            return 0.0
        return left

    def close(self, key: Key, seconds: float) -> None:
        until = self._clock() + seconds
        if until > self._closed.get(key, 0.0):
            self._closed[key] = until

    def _group(self, key: Key) -> AsyncLimiter | None:
        if not (self._group_rate and self._group_period):
            return None
        limiter = self._groups.get(key)
        if limiter is None:
            if len(self._groups) > _LIMITERS_KEPT:
                for k, old in list(self._groups.items()):
                    if old.has_capacity(old.max_rate):
                        del self._groups[k]
            limiter = self._groups[key] = AsyncLimiter(self._group_rate, self._group_period)
        return limiter

    async def _open(self, key: Key, hold: bool) -> None:
        """Return once ``key`` is open (or raise :class:`ChatClosed` when not to hold)."""
        while (left := self.closed_for(key)) > 0:
            if not hold:
                raise ChatClosed(left)
            await asyncio.sleep(left)

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, bool | dict[str, Any] | list[dict[str, Any]]]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: str | None,
    ) -> bool | dict[str, Any] | list[dict[str, Any]]:
        retries = 0 if rate_limit_args == LATEST else self._max_retries
        key, in_budget, group = request_key(endpoint, data)
        attempt = 0
        while True:
            await self._open(key, hold=rate_limit_args != LATEST)
            limiter = self._group(key) if group else None
            if limiter is not None:
                await limiter.acquire()
            if in_budget and self._overall is not None:
                await self._overall.acquire()
            if self.closed_for(key) > 0:  # closed while this one queued: wait again
                continue
            try:
                return await callback(*args, **kwargs)
            except RetryAfter as e:
                seconds = flood_seconds(e)
                self.close(key, seconds)
                log.info("429 on %s for %s: closed for %.0f s", endpoint, key, seconds)
                if attempt >= retries:
                    raise
                attempt += 1
