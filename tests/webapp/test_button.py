"""The "🖐 Open board" button: a web_app button in private chats, the t.me direct link in
groups, none while the Mini App is not set up (nothing else changes then)."""

from __future__ import annotations

from typing import Any

from playground.client import MessageView
from tests.bot.helpers import quick_game
from tests.fixtures.playground import ScenarioClient
from tests.webapp.conftest import app_base, dots_in_group


def _last_row(m: MessageView) -> list[dict[str, Any]]:
    return list(m.raw["buttons"][-1])


async def test_private_board_opens_the_page(mpg: ScenarioClient) -> None:
    alice = await mpg.user("alice", lang="ru")
    board = await quick_game(alice, "⚡ Точки с ботом")
    [button] = _last_row(board)
    match_id = board.buttons[0][0].callback_data.split(":")[1]  # type: ignore[union-attr]
    assert button["text"] == "🖐 Открыть доску"
    assert button["web_app"] == {"url": f"{app_base(mpg)}/app/?m={match_id}"}


async def test_group_board_has_the_direct_link(mpg: ScenarioClient) -> None:
    _alice, _bob, _group, board, ref = await dots_in_group(mpg, "alice", "bob")
    [button] = _last_row(board)
    assert button["text"] == "🖐 Open board"
    assert button["url"] == f"https://t.me/{mpg.bot_username}/board?startapp={ref}"


async def test_no_button_without_a_miniapp_url(pg: ScenarioClient) -> None:
    alice = await pg.user("alice")
    board = await quick_game(alice, "⚡ Dots vs bot")
    labels = [b.get("text") for row in board.raw["buttons"] for b in row]
    assert "🖐 Open board" not in labels
    assert all("callback_data" in b for row in board.raw["buttons"] for b in row)
