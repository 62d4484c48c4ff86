"""The real bot, polling the emulator, answers /start as a person sees it."""

from __future__ import annotations

from tests.fixtures.playground import ScenarioClient


async def test_start_in_private_chat(pg: ScenarioClient) -> None:
    alice = await pg.user("alice", lang="ru")
    mine = await alice.send("/start")
    assert mine.text == "/start" and not mine.from_bot
    reply = await alice.private.last_message()
    assert reply.from_bot and "Тетрадь" in (reply.text or "")  # alice reads Russian
    assert reply.message_id == mine.message_id + 1
    assert any("⚡ Точки с ботом" in row for row in reply.button_texts)
