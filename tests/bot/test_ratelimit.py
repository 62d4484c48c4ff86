"""The per-chat rate limiter: a 429 closes the chat it named, and only that chat."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from telegram.error import RetryAfter

from bot.telegram.ratelimit import LATEST, ChatClosed, ChatRateLimiter, request_key

GROUP, OTHER = -100123, 42


class Api:
    """Bot API calls as the limiter's callback: 429 for the chats in ``flooded``."""

    def __init__(self) -> None:
        self.flooded: dict[Any, int] = {}
        self.calls: list[tuple[str, Any]] = []

    def callback(self, endpoint: str, data: dict[str, Any]) -> Any:
        async def call() -> dict[str, Any]:
            self.calls.append((endpoint, data.get("chat_id")))
            wait = self.flooded.get(data.get("chat_id"))
            if wait:
                raise RetryAfter(wait)
            return {"ok": True}

        return call


async def _send(
    rl: ChatRateLimiter, api: Api, endpoint: str, rl_args: str | None = None, **data: Any
) -> Any:
    return await rl.process_request(api.callback(endpoint, data), (), {}, endpoint, data, rl_args)


def test_the_key_of_a_request() -> None:
    assert request_key("editMessageText", {"chat_id": "-100123"}) == (GROUP, True, True)
    assert request_key("sendMessage", {"chat_id": OTHER}) == (OTHER, True, False)
    assert request_key("sendMessage", {"chat_id": "@channel"}) == ("@channel", True, True)
    assert request_key("editMessageMedia", {"inline_message_id": "AB"}) == (
        "inline:AB",
        False,
        False,
    )
    key = request_key("answerCallbackQuery", {"callback_query_id": "1"})
    assert key == ("method:answerCallbackQuery", False, False)


async def test_a_429_closes_its_chat_only() -> None:
    rl, api = ChatRateLimiter(max_retries=1), Api()
    api.flooded[GROUP] = 1
    held = asyncio.create_task(_send(rl, api, "sendMessage", chat_id=GROUP))
    while not api.calls:
        await asyncio.sleep(0)
    await asyncio.sleep(0)
    assert rl.closed_for(GROUP) > 0 and not held.done()
    # Meanwhile: another chat, and a tap's answer, go out at once.
    assert await _send(rl, api, "sendMessage", chat_id=OTHER) == {"ok": True}
    assert await _send(rl, api, "answerCallbackQuery", callback_query_id="q") == {"ok": True}
    # An edit marked LATEST is not held for the closed chat, nor sent.
    sent = len(api.calls)
    with pytest.raises(ChatClosed) as closed:
        await _send(rl, api, "editMessageText", LATEST, chat_id=GROUP)
    assert len(api.calls) == sent and 0 < closed.value.seconds <= 1
    assert not held.done()
    del api.flooded[GROUP]  # the flood is over: the held message goes out, retried once
    assert await asyncio.wait_for(held, 30) == {"ok": True}
    assert [c for c in api.calls if c[1] == GROUP] == [("sendMessage", GROUP)] * 2


async def test_a_latest_edit_meeting_a_429_is_not_retried() -> None:
    rl, api = ChatRateLimiter(max_retries=3), Api()
    api.flooded[GROUP] = 5
    with pytest.raises(RetryAfter):
        await _send(rl, api, "editMessageMedia", LATEST, chat_id=GROUP)
    assert len(api.calls) == 1 and 4 < rl.closed_for(GROUP) <= 5
    assert await _send(rl, api, "sendMessage", chat_id=OTHER) == {"ok": True}
