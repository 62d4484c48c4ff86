"""The expert bot (Точки's tree search with the match's move time) through the playground:
the opponent screen offers it next to the other levels, and it answers the person's dots."""

from __future__ import annotations

import pytest

from bot.i18n import t
from engine.dots import Game
from tests.bot.helpers import buttons, stored_match, texts, version, wait_message
from tests.fixtures.playground import ScenarioClient


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_the_bot_offers_expert_and_it_plays(pg: ScenarioClient, lang: str) -> None:
    alice = await pg.user("alice", lang=lang)
    await alice.send("/new")
    await alice.press(t(lang, "game.dots"))
    await alice.press(t(lang, "menu.dots_q"))
    await alice.press(t(lang, "btn.next"))
    levels = await alice.private.last_with_buttons()
    names = [t(lang, f"menu.vs_{lv}") for lv in ("easy", "medium", "hard", "expert")]
    assert set(names) <= set(texts(levels))
    await alice.press(t(lang, "menu.vs_expert"))
    first = await alice.private.last_message()
    board = await wait_message(alice.private, first.message_id, lambda m: bool(buttons(m, "p")))
    match = await stored_match(pg._settings.redis_url, board)
    assert [s.level for s in match.seats if s.level is not None] == ["expert"]
    for _ in range(2):  # the person's dot, the bot's answer (the first may load the kernels)
        v = version(board)
        r, c = buttons(board, "p")[0]
        await alice.press_button(r, c, board, settle=False)
        board = await wait_message(
            alice.private,
            board.message_id,
            lambda m, v=v: version(m) not in (v, (v or 0) + 1),
            timeout=60,
        )
    game = (await stored_match(pg._settings.redis_url, board)).game
    assert isinstance(game, Game) and game.ply >= 4 and not game.over
