"""Commands as a user sees them: /help, /lang, /stats with no games (/rules: test_rules.py)."""

from __future__ import annotations

from tests.fixtures.playground import ScenarioClient


async def test_help_lang_and_empty_stats(pg: ScenarioClient) -> None:
    bob = await pg.user("bob", lang="de")  # an unknown language falls back to English
    await bob.send("/help")
    assert "/new" in ((await bob.private.last_message()).text or "")
    await bob.send("/lang")
    await bob.press("Русский")
    assert "русский" in ((await bob.private.last_message()).text or "")
    await bob.send("/stats")
    assert "Пока нет партий" in ((await bob.private.last_message()).text or "")
    commands = await bob.private.commands(bob)
    assert {c["command"] for c in commands} >= {"new", "rules", "stats", "top", "record"}
