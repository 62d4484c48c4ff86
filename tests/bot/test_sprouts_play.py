"""Рассада through the playground as people play it: spot → spot → (previews) → play, typed
moves, a group match with a spectator, and the record of a finished game read back."""

from __future__ import annotations

import dataclasses
import io
import random

from PIL import Image, ImageChops

from bot.i18n import t
from bot.match import records
from bot.match.ui.sprouts import spoken
from bot.telegram.metrics import REGISTRY
from playground.client import MessageView
from tests.bot.helpers import (
    buttons,
    endings,
    finished,
    message,
    play_to_end,
    quick_game,
    stored_match,
    texts,
    wait_message,
)
from tests.fixtures.playground import ScenarioClient


def _spots(board: MessageView) -> list[str]:
    """Labels of the spot buttons (a number and one dot per life)."""
    return [t for t in texts(board) if t[:1].isdigit()]


async def test_pick_spots_flip_previews_then_play(pg: ScenarioClient) -> None:
    await pg.set_limits(enabled=False)
    alice = await pg.user("alice", lang="en")
    board = await quick_game(alice, "⚡ Sprouts vs bot")
    assert _spots(board) == ["1•••", "2•••", "3•••", "4•••"], texts(board)
    assert not buttons(board, "p"), "nothing is played before two spots are chosen"
    start_png = await alice.private.last_photo()

    # A loop from spot 1 to itself: the other spots can go inside it or not, so there are
    # several curves; each is previewed on the picture before anything is played.
    await alice.press("1•••", board)
    board = await message(alice.private, board.message_id)
    assert "From spot 1" in (board.caption or ""), board.caption
    assert "Back" in " ".join(texts(board))
    await alice.press("1•••", board)
    board = await message(alice.private, board.message_id)
    caption = board.caption or ""
    assert "Curve 1 of " in caption, caption
    total = int(caption.split("Curve 1 of ", 1)[1].split(":", 1)[0])
    assert total >= 2
    preview_png = await alice.private.last_photo()
    assert ImageChops.difference(
        Image.open(io.BytesIO(start_png)).convert("RGB"),
        Image.open(io.BytesIO(preview_png)).convert("RGB"),
    ).getbbox(), "the preview is drawn on the picture"
    await alice.press("▶", board)
    board = await message(alice.private, board.message_id)
    assert f"Curve 2 of {total}" in (board.caption or "")
    await alice.press("◀", board)
    await alice.press("◀", await message(alice.private, board.message_id))
    board = await message(alice.private, board.message_id)
    assert f"Curve {total} of {total}" in (board.caption or ""), "flipping wraps around"

    # Cancel drops the selection; nothing was played.
    await alice.press("✖ Cancel", board)
    board = await message(alice.private, board.message_id)
    assert _spots(board) == ["1•••", "2•••", "3•••", "4•••"]
    assert "Move " not in (board.caption or "")

    # Joining two different spots at the start can be drawn one way only: it is played at
    # once, and the bot answers.
    await alice.press("1•••", board)
    await alice.press("2•••", await message(alice.private, board.message_id), settle=False)
    board = await wait_message(
        alice.private, board.message_id, lambda m: "Move 2" in (m.caption or "")
    )
    stored = await stored_match(pg._settings.redis_url, board)
    assert stored.game.format_move(stored.game.moves[0]).startswith("1-2")
    assert len(stored.game.moves) == 2
    said = t("en", spoken(stored.game.moves[1]))  # the bot's curve, in words
    assert f"Move 2: {said}" in (board.caption or ""), board.caption


async def test_typed_sprouts_moves_and_errors(pg: ScenarioClient) -> None:
    await pg.set_limits(enabled=False)
    alice = await pg.user("alice", lang="ru")
    board = await quick_game(alice, "⚡ Рассада с ботом")
    await alice.send("9-9")
    reply = await alice.private.last_message()
    assert "Точки 9 нет" in (reply.text or ""), reply.text
    await alice.send("1-2 [3]")
    reply = await alice.private.last_message()
    assert "невозможен" in (reply.text or ""), reply.text
    await alice.send("1-2")
    board = await wait_message(
        alice.private, board.message_id, lambda m: "Ход 2" in (m.caption or "")
    )
    stored = await stored_match(pg._settings.redis_url, board)
    assert stored.game.format_move(stored.game.moves[0]).startswith("1-2")


def _routed(where: str) -> float:
    return REGISTRY.get_sample_value("tetrad_sprouts_route_seconds_count", {"where": where}) or 0


async def test_group_sprouts_match_with_a_spectator_and_its_record(pg: ScenarioClient) -> None:
    """Played as a deployed bot plays it: its curves routed in a worker process."""
    pg._settings = dataclasses.replace(pg._settings, route_workers=1, warm_workers=True)
    await pg.restart_bot()
    in_workers, here = _routed("worker"), _routed("here")
    await pg.set_limits(enabled=False)
    alice, bob, carol = [await pg.user(n, lang="en") for n in ("alice", "bob", "carol")]
    group = await pg.group("Garden", members=[alice, bob, carol])
    await alice.send("/new", group)
    for label in ("Sprouts", "4", "Next »", "👥 Players in this chat"):
        await alice.press(label, chat=group)
    lobby = await group.last_with_buttons()
    await bob.press("Join", lobby, group)
    board = await wait_message(group, lobby.message_id, lambda m: bool(_spots(m)))
    assert len(_spots(board)) == 4 and "To move: Alice" in (board.caption or "")
    popup = await carol.press("1•••", board, group)
    assert popup is not None and "only its players can move" in popup.text
    popup = await bob.press("1•••", board, group)
    assert popup is not None and popup.text == "It is not your turn."

    final = await play_to_end(
        {alice.id: alice, bob.id: bob}, group, board.message_id, random.Random(11)
    )
    assert finished(final) and "wins" in (final.caption or ""), final.caption
    stored = await stored_match(pg._settings.redis_url, final)
    assert stored.game.over
    assert _routed("worker") - in_workers == len(stored.game.moves), "a curve routed twice?"
    assert _routed("here") == here
    await endings(group)
    await alice.press("📜 Record", final, group)
    doc = await group.last_message()
    assert doc.media is not None
    game = records.read_record(doc.media.file_name or "", await pg.file_bytes(doc.media.file_id))
    assert game.moves == stored.game.moves and game.result == stored.game.result
