"""Commands as a user sees them: /help, /rules with pictures, /lang, /stats with no games."""

from __future__ import annotations

import asyncio
import io

from PIL import Image

from playground.client import MessageView
from tests.fixtures.playground import ScenarioClient


async def test_rules_come_with_pictures(pg: ScenarioClient) -> None:
    await pg.set_limits(enabled=False)
    alice = await pg.user("alice", lang="ru")
    await alice.send("/rules")
    photos: list[MessageView] = []
    for _ in range(200):  # a picture drawn slowly can outlast the playground's quiet moment
        photos = [m for m in await alice.private.messages() if m.from_bot and m.media is not None]
        if len(photos) == 3:
            break
        await asyncio.sleep(0.05)
    assert len(photos) == 3, "one picture per game"
    assert "Точки" in (photos[0].caption or "") and "окружите" in (photos[0].caption or "").lower()
    with Image.open(io.BytesIO(await pg.png(photos[0].media))) as im:  # type: ignore[arg-type]
        assert max(im.size) >= 600
    await alice.send("/rules boxes")
    last = await alice.private.last_message()
    assert "Точки и квадраты" in (last.caption or "")


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
