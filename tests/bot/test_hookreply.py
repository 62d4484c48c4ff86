"""The answer carried in the webhook's response: at most once, only while the hook waits, and
made directly when the handler runs long."""

from __future__ import annotations

import asyncio

import pytest

from bot.telegram import hookreply


async def test_outside_a_hook_the_caller_makes_the_call() -> None:
    assert not hookreply.offer("answerCallbackQuery", {"callback_query_id": "1"}, _never)


async def test_the_hook_takes_the_first_offer_only() -> None:
    async def handle() -> dict[str, object] | None:
        slot = hookreply.open_slot()
        assert hookreply.offer("answerCallbackQuery", {"callback_query_id": "1"}, _never)
        assert not hookreply.offer("answerCallbackQuery", {"callback_query_id": "2"}, _never)
        call = slot.take()
        assert not hookreply.offer("sendMessage", {"chat_id": 1}, _never), "the hook answered"
        return call

    assert await asyncio.create_task(handle()) == {
        "method": "answerCallbackQuery",
        "callback_query_id": "1",
    }


async def test_a_long_handler_makes_the_call_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hookreply, "HOLD", 0.01)
    made = asyncio.Event()

    async def call() -> None:
        made.set()

    async def handle() -> dict[str, object] | None:
        slot = hookreply.open_slot()
        assert hookreply.offer("answerCallbackQuery", {"callback_query_id": "1"}, call)
        await asyncio.wait_for(made.wait(), 5)  # the rest of the work takes long
        return slot.take()

    assert await asyncio.create_task(handle()) is None, "answered once, not twice"


async def _never() -> None:
    raise AssertionError("the hook should have carried this call")
