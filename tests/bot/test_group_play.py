"""Group matches as people see them: lobby, seats, spectators, stale and forged buttons,
racing taps, typed moves under privacy mode, and a bot restart in the middle of a match."""

from __future__ import annotations

import asyncio
import random

import pytest

from playground.client import ChatHandle, MessageView, UserHandle
from tests.bot.helpers import buttons, finished, message, play_to_end, version, wait_message
from tests.fixtures.playground import ScenarioClient

DOTS_SMALL = ["Dots", "Small 10×10", "Next »"]
PATHS = {  # /new in a group → a two-player lobby of each game
    "dots": DOTS_SMALL,
    "boxes": ["Dots and Boxes", "3×3", "Next »"],
    "sprouts": ["Sprouts", "4", "Next »"],
}
QUICK = {"dots": "⚡ Dots vs bot", "boxes": "⚡ Boxes vs bot", "sprouts": "⚡ Sprouts vs bot"}


async def _lobby(
    pg: ScenarioClient, creator: UserHandle, group: ChatHandle, path: list[str]
) -> MessageView:
    await creator.send("/new", group)
    for label in path:
        await creator.press(label, chat=group)
    await creator.press("👥 Players in this chat", chat=group)
    lobby = await group.last_with_buttons()
    assert lobby.media is not None and "Waiting for players" in (lobby.caption or "")
    return lobby


async def _ready(kind: str, user: UserHandle, group: ChatHandle, board_id: int) -> MessageView:
    """The started board with a move button: in Рассада spot 1 is tapped twice first (a loop
    at spot 1 can go round any of the other spots, so a preview with Play comes up)."""
    board = await wait_message(group, board_id, lambda m: not buttons(m, "j") and not finished(m))
    if kind == "sprouts":
        await user.press("1•••", board, group)  # waits until the bot is quiet
        await user.press("1•••", await message(group, board_id), group)
    return await wait_message(group, board_id, lambda m: bool(buttons(m, "p")))


async def _people(pg: ScenarioClient, *names: str) -> list[UserHandle]:
    return [await pg.user(n, lang="en") for n in names]


async def test_group_dots_match_with_spectators(pg: ScenarioClient) -> None:
    await pg.set_limits(enabled=False)
    alice, bob, carol = await _people(pg, "alice", "bob", "carol")
    group = await pg.group("Friends", members=[alice, bob, carol])
    lobby = await _lobby(pg, alice, group, DOTS_SMALL)
    popup = await bob.press("Join", lobby, group)
    assert popup is not None
    board = await wait_message(group, lobby.message_id, lambda m: bool(buttons(m, "p")))
    assert "To move: Alice" in (board.caption or ""), board.caption
    before = version(board)

    # Only the player to move may move; others get a popup and nothing changes.
    r, c = buttons(board, "p")[0]
    popup = await carol.press_button(r, c, board, group)
    assert popup is not None and "only its players can move" in popup.text
    popup = await bob.press_button(r, c, board, group)
    assert popup is not None and popup.text == "It is not your turn."
    assert version(await message(group, board.message_id)) == before

    final = await play_to_end(
        {alice.id: alice, bob.id: bob}, group, board.message_id, random.Random(3)
    )
    assert "wins" in (final.caption or "") or "Draw" in (final.caption or "")
    # The whole match happened in one board message: no new photo per move.
    photos = [m for m in await group.messages() if m.from_bot and m.media is not None]
    assert [m.message_id for m in photos] == [lobby.message_id]


async def test_group_boxes_for_three(pg: ScenarioClient) -> None:
    await pg.set_limits(enabled=False)
    alice, bob, carol, dave = await _people(pg, "alice", "bob", "carol", "dave")
    group = await pg.group("Boxes club", members=[alice, bob, carol, dave])
    await alice.send("/new", group)
    await alice.press("Dots and Boxes", chat=group)
    await alice.press("3×3", chat=group)
    await alice.press("3 players", chat=group)
    await alice.press("Next »", chat=group)
    await alice.press("👥 Players in this chat", chat=group)
    lobby = await group.last_with_buttons()
    assert "(1/3)" in (lobby.caption or "")
    await bob.press("Join", lobby, group)
    popup = await bob.press("Join", await message(group, lobby.message_id), group)
    assert popup is not None and popup.text == "You have already joined."
    await carol.press("Join", await message(group, lobby.message_id), group)
    board = await wait_message(group, lobby.message_id, lambda m: bool(buttons(m, "p")))
    r, c = buttons(board, "p")[0]
    popup = await dave.press_button(r, c, board, group)
    assert popup is not None and "only its players can move" in popup.text
    final = await play_to_end(
        {alice.id: alice, bob.id: bob, carol.id: carol},
        group,
        board.message_id,
        random.Random(5),
    )
    caption = final.caption or ""
    assert ("wins" in caption or "Draw" in caption) and caption.count("—") >= 3


async def test_the_waiting_player_cannot_pull_the_shared_keyboard_away(
    pg: ScenarioClient,
) -> None:
    await pg.set_limits(enabled=False)
    alice, bob = await _people(pg, "alice", "bob")
    group = await pg.group("Hearts", members=[alice, bob])
    lobby = await _lobby(pg, alice, group, ["Dots and Boxes", "Heart", "Next »"])
    await bob.press("Join", lobby, group)
    board = await wait_message(group, lobby.message_id, lambda m: bool(buttons(m, "c")))
    keys = [[b.text for b in row] for row in board.buttons]
    assert "d3" in keys[3], keys  # the heart names its boxes; Alice is to move
    popup = await bob.press("d3", board, group)
    assert popup is not None and popup.text == "It is not your turn."
    board = await message(group, board.message_id)
    assert [[b.text for b in row] for row in board.buttons] == keys
    await alice.press("d3", board, group)
    board = await message(group, board.message_id)
    assert [b.text for b in board.buttons[1]] == ["┃ ←", "d3", "→ ┃"]


@pytest.mark.parametrize("kind", sorted(PATHS))
async def test_stale_and_forged_buttons_change_nothing(pg: ScenarioClient, kind: str) -> None:
    await pg.set_limits(enabled=False)
    alice, bob, mallory = await _people(pg, "alice", "bob", "mallory")
    group = await pg.group("Friends", members=[alice, bob])
    lobby = await _lobby(pg, alice, group, PATHS[kind])
    await bob.press("Join", lobby, group)
    board = await _ready(kind, alice, group, lobby.message_id)
    r, c = buttons(board, "p")[0]
    old_data = board.buttons[r][c].callback_data
    assert old_data is not None
    await alice.press_button(r, c, board, group)
    board = await wait_message(group, board.message_id, lambda m: version(m) != version(board))
    v = version(board)
    match_id = old_data.split(":")[1]
    cases = {
        old_data: "The board has changed",  # a stale button (older version)
        f"p:{match_id}:{v}:99.99": "This button does not work any more",
        f"p:{match_id}:{v}:1.x": "This button does not work any more",
        f"p:{match_id}:{v}:1.1.99": "This button does not work any more",
        f"c:{match_id}:{v}:s99": "",  # a keyboard step that makes no sense here: refused
        f"p:NoSuchMatch:{v}:1.1": "This game no longer exists",
        "💥": "This button does not work any more",
        "p:" + "x" * 70: "This button does not work any more",
        f"zz:{match_id}:{v}": "This button does not work any more",
    }
    for data, expected in cases.items():
        popup = await bob.forge(board, data)
        assert popup is not None and popup.text and expected in popup.text, (data, popup)
    # A stranger cannot act on this match from another chat either.
    await mallory.send("/start")
    mine = await mallory.private.last_with_buttons()
    popup = await mallory.forge(mine, f"p:{match_id}:{v}:2.2")
    assert popup is not None and "This button does not work any more" in popup.text
    after = await message(group, board.message_id)
    assert version(after) == v and after.caption == board.caption
    assert after.button_texts == board.button_texts


@pytest.mark.parametrize("kind", sorted(PATHS))
async def test_double_taps_apply_one_move(pg: ScenarioClient, kind: str) -> None:
    await pg.set_limits(enabled=False)
    alice, bob = await _people(pg, "alice", "bob")
    group = await pg.group("Friends", members=[alice, bob])
    lobby = await _lobby(pg, alice, group, PATHS[kind])
    await bob.press("Join", lobby, group)
    board = await _ready(kind, alice, group, lobby.message_id)
    v = version(board)
    assert v is not None
    plays = buttons(board, "p")
    (r1, c1), (r2, c2) = (plays * 2)[:2]  # Рассада's preview has one Play button: tap it twice
    popups = await asyncio.gather(
        alice.press_button(r1, c1, board, group, settle=False),
        alice.press_button(r2, c2, board, group, settle=False),
        alice.press_button(r1, c1, board, group, settle=False),
    )
    await pg.settle()
    after = await message(group, board.message_id)
    assert version(after) == v + 1, "exactly one of the racing taps is a move"
    assert "To move: Bob" in (after.caption or "")
    texts = [p.text for p in popups if p is not None and p.text]
    assert all("changed" in t or "not your turn" in t for t in texts), texts


async def test_typed_moves_under_privacy_mode(pg: ScenarioClient) -> None:
    alice = await pg.user("alice", lang="ru")
    bob = await pg.user("bob", lang="en")
    group = await pg.group("Friends", members=[alice, bob], privacy=True)
    await alice.send("/lang", group)
    await alice.press("English", chat=group)
    lobby = await _lobby(pg, alice, group, DOTS_SMALL)
    await bob.press("Join", lobby, group)
    board = await wait_message(group, lobby.message_id, lambda m: bool(buttons(m, "p")))
    await alice.send("/m e5", group)
    board = await wait_message(group, board.message_id, lambda m: "Move 1: e5" in (m.caption or ""))
    await bob.send("f6", group, reply_to=board)
    board = await wait_message(group, board.message_id, lambda m: "Move 2: f6" in (m.caption or ""))
    await alice.send("/m zz99", group)
    reply = await group.last_message()
    assert "is not a move here" in (reply.text or "")
    await alice.send("/m f6", group)
    reply = await group.last_message()
    assert "already taken" in (reply.text or "")
    # Ordinary chatter is not seen by the bot under privacy mode and changes nothing.
    await alice.send("g7", group)
    assert (await message(group, board.message_id)).caption == board.caption


async def test_typed_move_errors_in_the_users_language(pg: ScenarioClient) -> None:
    alice = await pg.user("alice", lang="ru")
    await alice.send("/new")
    await alice.press("⚡ Точки с ботом")
    await alice.send("привет")
    reply = await alice.private.last_message()
    assert "здесь не ход" in (reply.text or ""), reply.text


@pytest.mark.parametrize("kind", sorted(QUICK))
async def test_bot_restart_in_the_middle_of_a_match(pg: ScenarioClient, kind: str) -> None:
    await pg.set_limits(enabled=False)
    alice = await pg.user("alice", lang="en")
    await alice.send("/new")
    await alice.press(QUICK[kind])
    first = await alice.private.last_message()
    board = await wait_message(alice.private, first.message_id, lambda m: not finished(m))
    rng = random.Random(7)
    board = await play_to_end({alice.id: alice}, alice.private, board.message_id, rng, moves=3)
    await pg.restart_bot()
    # The game goes on after the restart: to its end (a quick Dots board of 225 points takes
    # minutes of random taps, so Alice plays three more moves there and resigns).
    final = await play_to_end(
        {alice.id: alice}, alice.private, board.message_id, rng, moves=3 if kind == "dots" else None
    )
    if not finished(final):
        await alice.press("⋯ More", final)
        await alice.press("🏳 Resign", await message(alice.private, final.message_id))
        await alice.press("🏳 Yes, I resign", await message(alice.private, final.message_id))
        final = await wait_message(alice.private, final.message_id, finished)
    assert "wins" in (final.caption or "") or "Draw" in (final.caption or "")


async def test_bot_restart_while_the_bot_is_thinking(pg: ScenarioClient) -> None:
    """The process dies right after a player's move, before the bot answered: the next
    bot process picks the turn up from Redis (watchdog deadline), and the game goes on."""
    await pg.set_limits(enabled=False)
    alice = await pg.user("alice", lang="en")
    await alice.send("/new")
    await alice.press("⚡ Boxes vs bot")
    first = await alice.private.last_message()
    board = await wait_message(alice.private, first.message_id, lambda m: bool(buttons(m, "p")))
    v = version(board)
    assert v is not None
    r, c = buttons(board, "p")[0]
    await alice.press_button(r, c, board, settle=False)
    await pg.restart_bot()
    board = await wait_message(
        alice.private, board.message_id, lambda m: (version(m) or 0) >= v + 2, timeout=30
    )
    assert "To move: Alice" in (board.caption or "")
