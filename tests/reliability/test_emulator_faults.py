"""The emulator's fault injection (playground/faults.py), seen from python-telegram-bot, and
the bot's per-handler CPU measurement (metrics._cpu_steps) that the latency bench reads."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import pytest
from telegram import Bot
from telegram.error import NetworkError, RetryAfter, TimedOut
from telegram.request import HTTPXRequest

from bot.telegram.metrics import _cpu_steps
from playground.client import PlaygroundClient, PlaygroundClientError
from playground.server import Emulator


@pytest.fixture
async def tg(emu: Emulator) -> AsyncIterator[Bot]:
    bot = Bot(
        emu.world.token,
        base_url=f"{emu.url}/bot",
        request=HTTPXRequest(read_timeout=0.5),
    )
    async with bot:
        yield bot


@pytest.fixture
async def people(emu: Emulator) -> AsyncIterator[PlaygroundClient]:
    async with PlaygroundClient(emu.url) as client:
        yield client


async def test_429_for_a_window_then_normal(tg: Bot, people: PlaygroundClient) -> None:
    await people.add_fault("429", methods=["getMe"], seconds=0.6, retry_after=3)
    with pytest.raises(RetryAfter) as e:
        await tg.get_me()
    wait = e.value.retry_after
    assert (wait.total_seconds() if hasattr(wait, "total_seconds") else wait) == 3
    assert (await people.faults())["injected"] == {"429": 1}
    await asyncio.sleep(0.7)
    assert (await tg.get_me()).is_bot
    assert (await people.faults())["active"] == []


async def test_5xx_only_for_the_named_methods_and_at_the_rate(
    tg: Bot, people: PlaygroundClient, emu: Emulator
) -> None:
    user = emu.world.add_user("alice")
    emu.world.user_send(user, emu.world.chats[user.id], "/start")
    await people.add_fault("5xx", methods=["sendMessage"], rate=0.5, seconds=30)
    assert (await tg.get_me()).is_bot  # not named: untouched
    failed = 0
    for _ in range(40):
        try:
            await tg.send_message(user.id, "hi")
        except NetworkError:
            failed += 1
    assert 8 <= failed <= 32, failed  # about half, seeded
    sent = [m for m in emu.world.chats[user.id].messages.values() if m.text == "hi"]
    assert len(sent) == 40 - failed  # a failed call changed nothing
    await people.clear_faults()
    await tg.send_message(user.id, "hi")


async def test_timeout_hangs_and_optionally_applies(
    tg: Bot, people: PlaygroundClient, emu: Emulator
) -> None:
    user = emu.world.add_user("bob")
    emu.world.user_send(user, emu.world.chats[user.id], "/start")
    chat = emu.world.chats[user.id]
    await people.add_fault("timeout", methods=["sendMessage"], seconds=5, delay=1.0)
    started = time.monotonic()
    with pytest.raises(TimedOut):
        await tg.send_message(user.id, "lost")
    assert time.monotonic() - started < 0.9
    await asyncio.sleep(0.7)  # the emulator's side finished without sending
    assert not [m for m in chat.messages.values() if m.text == "lost"]
    await people.clear_faults()
    await people.add_fault("timeout", methods=["sendMessage"], seconds=5, delay=0.8, apply=True)
    with pytest.raises(TimedOut):
        await tg.send_message(user.id, "sent anyway")
    await asyncio.sleep(0.6)
    assert [m for m in chat.messages.values() if m.text == "sent anyway"]


async def test_bad_fault_descriptions_are_refused(people: PlaygroundClient) -> None:
    for body in ({"kind": "418"}, {"kind": "5xx", "rate": 0}, {"kind": "429", "seconds": -1}):
        with pytest.raises(PlaygroundClientError):
            await people.add_fault(**body)  # type: ignore[arg-type]


async def test_cpu_steps_charge_each_coroutine_for_its_own_work() -> None:
    """Two coroutines interleave; each is charged only for the CPU of its own steps."""

    def burn(seconds: float) -> None:
        end = time.thread_time() + seconds
        while time.thread_time() < end:
            pass

    async def worker(share: float) -> str:
        for _ in range(5):
            burn(share)
            await asyncio.sleep(0)
        return "done"

    heavy, light = [0.0], [0.0]
    results = await asyncio.gather(
        _cpu_steps(worker(0.02), heavy), _cpu_steps(worker(0.002), light)
    )
    assert results == ["done", "done"]
    assert 0.09 <= heavy[0] <= 0.2, heavy
    assert 0.009 <= light[0] <= 0.03, light


async def test_cpu_steps_pass_exceptions_and_cancellation() -> None:
    async def fails() -> None:
        await asyncio.sleep(0)
        raise KeyError("x")

    with pytest.raises(KeyError):
        await _cpu_steps(fails(), [0.0])

    caught = []

    async def sleeper() -> None:
        try:
            await asyncio.sleep(10)
        except asyncio.CancelledError:
            caught.append(True)
            raise

    task = asyncio.ensure_future(_cpu_steps(sleeper(), [0.0]))
    await asyncio.sleep(0.01)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert caught == [True]
