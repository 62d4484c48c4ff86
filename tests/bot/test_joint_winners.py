"""Boxes for four: players who share the top score win together, the others lose; the
caption, the ending and the ratings say so."""

from __future__ import annotations

import random

import engine
import storage
from engine.boxes import Game, Move
from tests.bot.helpers import buttons, endings, message, stored_match, to_move, wait_message
from tests.fixtures.playground import ScenarioClient


def _script() -> list[Move]:
    """Moves of a 4-player 3×3 game that ends with the first two seats sharing the top score
    and the others below (found by random play, checked by the engine)."""
    for seed in range(1000):
        g = engine.random_playout(Game(3, 3, players=4), random.Random(seed))
        s = g.scores
        if s[0] == s[1] > max(s[2], s[3]):
            assert g.result is not None and g.result.winners == (0, 1)
            return g.moves
    raise AssertionError("no such game")


async def test_joint_winners_in_a_four_player_game(pg: ScenarioClient) -> None:
    await pg.set_limits(enabled=False)
    people = [await pg.user(n, lang="en") for n in ("alice", "bob", "carol", "dave")]
    alice, bob, carol, dave = people
    group = await pg.group("Boxes four", members=people)
    await alice.send("/new", group)
    for label in ("Dots and Boxes", "3×3", "4 players", "Next »", "👥 Players in this chat"):
        await alice.press(label, chat=group)
    lobby = await group.last_with_buttons()
    for p in (bob, carol, dave):
        await p.press("Join", await message(group, lobby.message_id), group)
    board = await wait_message(group, lobby.message_id, lambda m: bool(buttons(m, "p")))
    match = await stored_match(pg._settings.redis_url, board)
    seats = [s.user for s in match.seats]
    assert seats == [p.id for p in people], "seats in the order of joining"
    handles = {p.id: p for p in people}
    for move in _script():
        code = f"{move.orient}{move.r}.{move.c}"
        where = next(
            (b.row, b.col)
            for row in board.buttons
            for b in row
            if (b.callback_data or "").startswith("p:")
            and (b.callback_data or "").endswith(":" + code)
        )
        v = board.buttons[where[0]][where[1]].callback_data
        await to_move(handles, board).press_button(*where, board, group)
        board = await wait_message(
            group,
            board.message_id,
            lambda m, v=v: all(b.callback_data != v for row in m.buttons for b in row),
        )
    caption = board.caption or ""
    assert "🏆 Alice and Bob win (" in caption, caption
    assert "Draw" not in caption
    done = await stored_match(pg._settings.redis_url, board)
    result = done.game.result
    assert result is not None and result.winners == (0, 1) and result.winner is None
    await endings(group)
    replay = [m for m in await group.messages() if m.media and m.media.kind == "animation"]
    assert replay and "Alice and Bob win" in (replay[-1].caption or "")
    store = await storage.connect(pg._settings.redis_url)
    try:
        tallies = {p.id: (await store.users.stats(p.id, "boxes")).tally for p in people}
        ratings = {p.id: (await store.ratings.get(p.id, "boxes")).rating for p in people}
    finally:
        await store.close()
    assert [(t.won, t.lost, t.drawn) for t in tallies.values()] == [
        (1, 0, 0),
        (1, 0, 0),
        (0, 1, 0),
        (0, 1, 0),
    ]
    assert ratings[alice.id] == ratings[bob.id] > ratings[carol.id]
    assert ratings[dave.id] < ratings[carol.id] or done.game.scores[3] == done.game.scores[2]
