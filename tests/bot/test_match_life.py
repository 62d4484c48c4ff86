"""Match life through the playground: resign, draws, STOP, clocks, rematch, the end of a game
(replay, record, ratings once), /record, /stats and /top."""

from __future__ import annotations

import asyncio
import random
import re

import storage
from bot.match import lobby, records
from bot.match.actions import Actor
from bot.match.model import Match
from playground.client import ChatHandle, MessageView, UserHandle
from tests.bot.helpers import (
    buttons,
    endings,
    finished,
    message,
    quick_game,
    stored_match,
    tap_move,
    texts,
    version,
    wait_message,
)
from tests.fixtures.playground import ScenarioClient

DOTS_SMALL = ["Dots", "Small 10×10", "Next »"]


async def _group_match(
    pg: ScenarioClient,
    path: list[str] = DOTS_SMALL,
    *,
    names: tuple[str, ...] = ("alice", "bob"),
    clock: str | None = None,
) -> tuple[list[UserHandle], ChatHandle, MessageView]:
    await pg.set_limits(enabled=False)
    people = [await pg.user(n, lang="en") for n in names]
    group = await pg.group("Club", members=people)
    first = people[0]
    await first.send("/new", group)
    for label in path:
        await first.press(label, chat=group)
    if clock is not None:  # the clock first, then the opponent as without one
        await first.press("⏱ Clock: none", chat=group)
        await first.press(clock, chat=group)
    await first.press("👥 Players in this chat", chat=group)
    lobby = await group.last_with_buttons()
    for other in people[1:]:
        await other.press("Join", await message(group, lobby.message_id), group)
    board = await wait_message(group, lobby.message_id, lambda m: bool(buttons(m, "p")))
    return people, group, board


async def test_resign_with_confirmation_then_replay_and_record(pg: ScenarioClient) -> None:
    (alice, bob), group, board = await _group_match(pg)
    board = await tap_move(alice, group, board)
    await bob.press("⋯ More", board, group)
    menu = await message(group, board.message_id)
    await bob.press("🏳 Resign", menu, group)
    ask = await message(group, board.message_id)
    assert "🏳 Yes, I resign" in texts(ask)
    popup = await alice.press("🏳 Yes, I resign", ask, group)
    assert popup is not None and "another player" in popup.text
    await bob.press("🏳 Yes, I resign", ask, group)
    final = await wait_message(group, board.message_id, finished)
    assert "Alice wins (by resignation)" in (final.caption or "")
    await endings(group)
    msgs = await group.messages()
    animation = [m for m in msgs if m.media is not None and m.media.kind == "animation"]
    docs = [m for m in msgs if m.media is not None and m.media.kind == "document"]
    assert len(animation) == 1 and "Alice wins" in (animation[0].caption or "")
    doc = docs[0].media if len(docs) == 1 else None
    assert doc is not None and (doc.file_name or "").endswith(".sgf")
    data = await pg.file_bytes(doc.file_id)
    game = records.read_record(doc.file_name or "", data)
    stored = await stored_match(pg._settings.redis_url, final)
    assert [m for m in game.moves] == stored.game.moves
    assert game.scores == stored.game.scores


async def test_draw_declined_then_accepted(pg: ScenarioClient) -> None:
    (alice, bob), group, board = await _group_match(pg)
    board = await tap_move(alice, group, board)
    await bob.press("⋯ More", board, group)
    await bob.press("½ Draw", await message(group, board.message_id), group)
    offered = await message(group, board.message_id)
    assert "A draw is offered by Bob" in (offered.caption or "")
    popup = await bob.press("✔ Accept the draw", offered, group)
    assert popup is not None and "your own offer" in popup.text
    await alice.press("✖ Decline", offered, group)
    board = await message(group, board.message_id)
    assert "draw is offered" not in (board.caption or "") and not finished(board)
    await alice.press("⋯ More", board, group)
    await alice.press("½ Draw", await message(group, board.message_id), group)
    await bob.press("✔ Accept the draw", await message(group, board.message_id), group)
    final = await wait_message(group, board.message_id, finished)
    assert "Draw (by agreement)" in (final.caption or "")


async def test_stop_ends_by_done(pg: ScenarioClient) -> None:
    (alice, bob), group, board = await _group_match(pg)
    board = await tap_move(alice, group, board)
    await bob.press("⋯ More", board, group)
    await bob.press("✋ STOP", await message(group, board.message_id), group)
    board = await message(group, board.message_id)
    assert re.search(
        r"Bob: STOP\. Alice moves alone for up to 3 min \((3:00|2:[45]\d) left\)",
        board.caption or "",
    )
    assert "To move: Alice" in (board.caption or "")
    board = await tap_move(alice, group, board)
    board = await tap_move(alice, group, board)  # Alice moves alone
    popup = await bob.press("✅ Done", board, group)
    assert popup is not None and popup.text == "It is not your turn."
    await alice.press("✅ Done", board, group)
    final = await wait_message(group, board.message_id, finished)
    assert "after STOP" in (final.caption or "")
    assert (await stored_match(pg._settings.redis_url, final)).game.ply == 3


async def test_stop_ends_by_itself_after_three_minutes(pg: ScenarioClient) -> None:
    (alice, bob), group, board = await _group_match(pg)
    board = await tap_move(alice, group, board)
    await bob.press("⋯ More", board, group)
    await bob.press("✋ STOP", await message(group, board.message_id), group)
    pg.clock.advance(181)
    final = await wait_message(group, board.message_id, finished, timeout=15)
    assert "after STOP" in (final.caption or "")


async def test_claim_the_win_on_time(pg: ScenarioClient) -> None:
    (alice, bob), group, board = await _group_match(pg, clock="1 min per move")
    assert "⏱ 1 min per move" in (board.caption or "")
    board = await tap_move(alice, group, board)
    popup = await alice.forge(board, f"a:{_id(board)}:{version(board)}:t")
    assert popup is not None and "not up yet" in popup.text
    pg.clock.advance(61)
    board = await wait_message(
        group, board.message_id, lambda m: "⏱ Claim the win on time" in texts(m)
    )
    assert "time is up" in (board.caption or "")
    await pg.settle()
    notes = [m for m in await alice.private.messages() if "ran out of time" in (m.text or "")]
    group_notes = [m for m in await group.messages() if "ran out of time" in (m.text or "")]
    assert notes or group_notes, "Alice is told she may claim"
    popup = await bob.press("⏱ Claim the win on time", board, group)
    assert popup is not None and "own time" in popup.text
    await alice.press("⏱ Claim the win on time", board, group)
    final = await wait_message(group, board.message_id, finished)
    assert "Alice wins (on time)" in (final.caption or "")


def _id(board: MessageView) -> str:
    return (board.buttons[0][0].callback_data or "").split(":")[1]


async def test_rematch_rotates_seats_and_counts_ratings_once(pg: ScenarioClient) -> None:
    (alice, bob), group, board = await _group_match(pg)
    board = await tap_move(alice, group, board)
    await bob.press("⋯ More", board, group)
    await bob.press("🏳 Resign", await message(group, board.message_id), group)
    ask = await message(group, board.message_id)
    r, c = next((b.row, b.col) for row in ask.buttons for b in row if b.text == "🏳 Yes, I resign")
    # The finishing tap is sent three times at once: the result counts once.
    await asyncio.gather(*(bob.press_button(r, c, ask, group, settle=False) for _ in range(3)))
    final = await wait_message(group, board.message_id, finished)
    await endings(group)
    await pg.settle(quiet=1.0)
    await alice.send("/stats", group)
    stats = await group.last_message()
    assert "against people: 1 game, 1 win, 0 draws" in (stats.text or ""), stats.text
    # One game is not enough to settle a rating: it says so, and /stats explains the word.
    assert re.search(r"rating: \d+ \(provisional\)", stats.text or ""), stats.text
    assert "Provisional: a new rating moves a lot" in (stats.text or ""), stats.text
    await bob.press("🔁 Rematch", final, group)
    popup = await alice.press("🔁 Rematch", await message(group, final.message_id), group)
    assert popup is not None and "already started" in popup.text
    new = await group.last_with_buttons()
    assert new.message_id != final.message_id and new.media is not None
    assert "To move: Bob" in (new.caption or ""), "seats rotate: Bob moves first now"


async def test_rematch_after_a_crash_between_its_writes_is_the_same_rematch(
    pg: ScenarioClient,
) -> None:
    """A rematch whose new match was stored but whose old match never learnt it (the bot died
    between the two writes): the tap made again finds that match and does not make another."""
    (alice, bob), group, board = await _group_match(pg)
    await bob.press("⋯ More", board, group)
    await bob.press("🏳 Resign", await message(group, board.message_id), group)
    await bob.press("🏳 Yes, I resign", await message(group, board.message_id), group)
    final = await wait_message(group, board.message_id, finished)
    old = await stored_match(pg._settings.redis_url, final)
    new_id = storage.rematch_id(old.id)
    store = await storage.connect(pg._settings.redis_url)
    try:  # the first try's first write, as the bot makes it, and nothing after
        half = lobby.rematch(Match.from_json(old.to_json()), Actor(bob.id, "Bob"), new_id, 0.0)
        lobby.start(half, 0.0)
        await store.matches.create(half.to_json())
        popup = await alice.press("🔁 Rematch", await message(group, final.message_id), group)
        assert popup is None or "already" not in popup.text
        record = await store.matches.get(old.id)
        assert record is not None and Match.from_json(record).extra.get("rematch") == new_id
        keys = {k if isinstance(k, str) else k.decode() async for k in store.client.scan_iter()}
        matches = {k for k in keys if k.startswith("t:m:") and k.endswith("}")}
        assert matches == {f"t:m:{{{old.id}}}", f"t:m:{{{new_id}}}"}, keys
    finally:
        await store.close()


async def test_record_command_and_top_ordering(pg: ScenarioClient) -> None:
    await pg.set_limits(enabled=False)
    names = ("alice", "bob", "carol")
    people = {n: await pg.user(n, lang="en") for n in names}
    group = await pg.group("Club", members=list(people.values()))
    # alice beats bob twice, bob beats carol once: alice > bob > carol.
    games = (("alice", "bob"), ("alice", "bob"), ("bob", "carol"))
    for played, (winner, loser) in enumerate(games, 1):
        w, lo = people[winner], people[loser]
        await w.send("/new", group)
        for label in [*DOTS_SMALL, "👥 Players in this chat"]:
            await w.press(label, chat=group)
        lobby = await group.last_with_buttons()
        await lo.press("Join", lobby, group)
        board = await wait_message(group, lobby.message_id, lambda m: bool(buttons(m, "p")))
        board = await tap_move(w, group, board)
        await lo.press("⋯ More", board, group)
        await lo.press("🏳 Resign", await message(group, board.message_id), group)
        await lo.press("🏳 Yes, I resign", await message(group, board.message_id), group)
        await wait_message(group, board.message_id, finished)
        await endings(group, played)
        await pg.settle(quiet=0.5)
    await people["carol"].send("/top", group)
    top = (await group.last_message()).text or ""
    chat_part = top.split("Everyone")[0]
    assert chat_part.index("Alice") < chat_part.index("Bob") < chat_part.index("Carol"), top
    # a new rating says it is provisional, and the count of games takes its plural form
    assert re.search(r"1\. Alice — \d+ \(provisional\), \d+ games?\n", top), top
    assert "(1 games)" not in top and " 1 games" not in top, top
    await people["carol"].send("/record", group)
    doc = await group.last_message()
    assert doc.media is not None and doc.media.kind == "document"
    game = records.read_record(doc.media.file_name or "", await pg.file_bytes(doc.media.file_id))
    assert game.ply == 1


async def test_idle_lobby_is_closed_politely(pg: ScenarioClient) -> None:
    await pg.set_limits(enabled=False)
    alice = await pg.user("alice", lang="en")
    group = await pg.group("Club", members=[alice])
    await alice.send("/new", group)
    for label in [*DOTS_SMALL, "👥 Players in this chat"]:
        await alice.press(label, chat=group)
    lobby = await group.last_with_buttons()
    pg.clock.advance(7 * 3600)
    closed = await wait_message(group, lobby.message_id, lambda m: not m.buttons, timeout=15)
    assert "cancelled" in (closed.caption or "")
    await pg.settle()
    assert any("lobby is closed" in (m.text or "") for m in await group.messages())


async def test_boxes_record_reads_back(pg: ScenarioClient) -> None:
    await pg.set_limits(enabled=False)
    alice = await pg.user("alice", lang="en")
    board = await quick_game(alice, "⚡ Boxes vs bot")
    rng = random.Random(4)
    for _ in range(3):
        v = version(board)
        r, c = rng.choice(buttons(board, "p"))
        await alice.press_button(r, c, board, settle=False)
        board = await wait_message(alice.private, board.message_id, lambda m, v=v: version(m) != v)
    await alice.press("⋯ More", board)
    await alice.press("🏳 Resign", await message(alice.private, board.message_id))
    await alice.press("🏳 Yes, I resign", await message(alice.private, board.message_id))
    final = await wait_message(alice.private, board.message_id, finished)
    await endings(alice.private)
    await alice.press("📜 Record", final)
    doc = await alice.private.last_message()
    assert doc.media is not None and (doc.media.file_name or "").endswith(".txt")
    game = records.read_record(doc.media.file_name or "", await pg.file_bytes(doc.media.file_id))
    stored = await stored_match(pg._settings.redis_url, final)
    assert game.moves == stored.game.moves and game.scores == stored.game.scores


async def test_a_slow_player_is_pinged_once(pg: ScenarioClient) -> None:
    """The wiring of the one-minute ping: where it goes and how. When it is due and that it
    comes once a turn are rules of the match layer's clock (tests/bot/match/test_clocks.py),
    so this test waits for each ping it expects and never for one that should not come."""

    def ping(m: MessageView) -> bool:
        return "Your move in" in (m.text or "")

    (alice, bob), group, board = await _group_match(pg)
    await alice.send("/start")  # Alice has a private chat with the bot; Bob has none
    board = await tap_move(alice, group, board)  # Bob's turn now
    seq = await pg.seq()
    mark = (await pg.bot_requests())[-1]["seq"]
    pg.clock.advance(61)
    note = await pg.wait_for(ping, after=seq, timeout=10)
    # Bob never opened a chat with the bot, so his ping is one mention in the group, a reply
    # to the board, naming the game and his opponent.
    assert note.chat == group.ref and "Bob" in (note.text or "")
    assert "Dots (opponent: Alice)" in (note.text or ""), note.text
    assert note.reply_to == board.message_id
    board = await tap_move(bob, group, await message(group, board.message_id))
    seq = await pg.seq()
    pg.clock.advance(61)
    note = await pg.wait_for(ping, after=seq, timeout=10)
    assert note.chat == alice.private.ref, "Alice's ping comes privately, not into the group"
    assert "opponent: Bob" in (note.text or "")
    # Bob's next ping goes to the group again, without trying his private chat: its 403 was
    # remembered.
    board = await tap_move(alice, group, await message(group, board.message_id))
    seq = await pg.seq()
    pg.clock.advance(61)
    note = await pg.wait_for(ping, after=seq, timeout=10)
    assert note.chat == group.ref and "Bob" in (note.text or "")
    to_bob = [
        q
        for q in await pg.bot_requests(mark)
        if str(q.get("params", {}).get("chat_id")) == str(bob.id)
    ]
    assert len(to_bob) == 1 and to_bob[0].get("error_code") == 403, to_bob
    # one ping for each of Bob's two turns, however the deadlines fell
    assert len([m for m in await group.messages() if ping(m)]) == 2
