"""Dots STOP and the empty ring through the playground, in both languages: a person's STOP
against the bot (the bot plays its solo phase at once with only gaining dots and ends it
itself), the bot's own STOP when it wins (never on easy), STOP on the other player's turn,
and an intruder the ring's owner never gets to catch.

Positions are set up by writing a hand-made game into the stored match (its version bumped,
so every button shown before is stale) and asking the bot to show the board again: the bot
then plays on from there exactly as from a game it had played itself."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import storage
from bot.i18n import Text, t
from bot.match.model import Match
from bot.telegram.boards import SHOW_KIND
from engine.dots import Game, Move
from playground.client import ChatHandle, MessageView, UserHandle
from tests.bot.helpers import (
    buttons,
    finished,
    message,
    quick_game,
    stored_match,
    texts,
    version,
    wait_message,
)
from tests.fixtures.playground import ScenarioClient

LANGS = ["en", "ru"]
PICTURES = Path("/tmp/tetrad-stop-pictures")  # the final boards, to look at


def _match_id(board: MessageView) -> str:
    return next((b.callback_data or "").split(":")[1] for row in board.buttons for b in row)


async def _set_up(
    pg: ScenarioClient,
    chat: ChatHandle,
    board: MessageView,
    points: list[tuple[int, int]],
    *,
    size: tuple[int, int] = (15, 15),
    change: Callable[[Match], None] | None = None,
    **options: Any,
) -> MessageView:
    """Replace the match's game by one of ``points`` played in order, and wait for the board
    showing it."""
    game = Game(*size, **options)
    for x, y in points:
        game.play(Move(x, y))
    match_id = _match_id(board)
    store = await storage.connect(pg._settings.redis_url)
    try:

        def put(record: dict[str, Any]) -> dict[str, Any]:
            m = Match.from_json(record)
            m.state, m._game = game.to_json(), None
            m.version += 1
            if change is not None:
                change(m)
            return m.to_json()

        written = await store.matches.update(match_id, put)
        await store.deadlines.schedule(match_id, pg.clock(), kind=SHOW_KIND)
    finally:
        await store.close()
    want = written["version"]
    return await wait_message(chat, board.message_id, lambda m: version(m) == want)


async def _picture(pg: ScenarioClient, m: MessageView, name: str) -> None:
    assert m.media is not None
    PICTURES.mkdir(exist_ok=True)
    (PICTURES / f"{name}.png").write_bytes(await pg.png(m.media))


async def _stop(user: UserHandle, chat: ChatHandle, board: MessageView, lang: str) -> None:
    await user.press(t(lang, "btn.more"), board, chat)
    await user.press(t(lang, "btn.stop"), await message(chat, board.message_id), chat)


def _solo_dots_gain(game: Game) -> None:
    """Every dot the lone player placed after STOP gained at once or at the next dot."""
    me = 1 - (game.stopped_by or 0)
    margins = []
    for g in game.replay():
        if g.ply >= game.stop_ply:
            margins.append(g.scores[me] - g.scores[1 - me])
    for k in range(len(margins) - 1):
        assert margins[k + 1] > margins[k] or margins[k + 2] > margins[k], margins


# The bot (seat 1) has a ring one dot short of closing round the person's (4, 4) (at
# (4, 3)) and one two dots short round (10, 10) (at (10, 9) and (10, 11)).
POCKETS = [
    (4, 4), (3, 4), (10, 10), (5, 4), (7, 1), (4, 5), (1, 13), (9, 10), (13, 1), (11, 10),
]  # fmt: skip


@pytest.mark.parametrize("lang", LANGS)
async def test_person_stops_and_the_bot_ends_its_solo_phase_itself(
    pg: ScenarioClient, lang: str
) -> None:
    alice = await pg.user("alice", lang=lang)
    board = await quick_game(alice, t(lang, "menu.quick_dots"))
    board = await _set_up(pg, alice.private, board, POCKETS)
    await _stop(alice, alice.private, board, lang)
    final = await wait_message(alice.private, board.message_id, finished, timeout=60)
    caption = final.caption or ""
    assert t(lang, "end.stop") in caption and t(lang, "btn.done") not in texts(final)
    game = (await stored_match(pg._settings.redis_url, final)).game
    assert isinstance(game, Game)
    assert game.stopped_by == 0 and game.result is not None and game.result.reason == "stop"
    # Three dots alone, each gaining: (4, 3) closes one ring, (10, 9)/(10, 11) the other.
    solo = game.moves[game.stop_ply :]
    assert set(solo) == {Move(4, 3), Move(10, 9), Move(10, 11)} and solo[0] == Move(4, 3)
    assert game.scores == (0, 2) and game.result.winner == 1
    assert game.cell(4, 4).captured and game.cell(10, 10).captured
    _solo_dots_gain(game)
    await _picture(pg, final, f"person-stops-{lang}")


@pytest.mark.parametrize("lang", LANGS)
async def test_person_stops_a_game_played_through(pg: ScenarioClient, lang: str) -> None:
    """A game the bot played itself: STOP after some moves, and the bot's solo phase places
    only gaining dots and ends at once, never filling the board."""
    alice = await pg.user("alice", lang=lang)
    board = await quick_game(alice, t(lang, "menu.quick_dots"))
    rng = random.Random(3)
    for _ in range(12):
        v = version(board)
        r, c = rng.choice(buttons(board, "p"))
        await alice.press_button(r, c, board, settle=False)
        board = await wait_message(
            alice.private, board.message_id, lambda m, v=v: version(m) not in (v, (v or 0) + 1)
        )
    await _stop(alice, alice.private, board, lang)
    final = await wait_message(alice.private, board.message_id, finished, timeout=60)
    assert t(lang, "end.stop") in (final.caption or "")
    game = (await stored_match(pg._settings.redis_url, final)).game
    assert isinstance(game, Game) and game.result is not None and game.result.reason == "stop"
    assert game.ply - game.stop_ply < 15 and game.ply < 40
    _solo_dots_gain(game)
    await _picture(pg, final, f"played-through-{lang}")


# The bot's ring (1,0),(0,1),(2,1),(1,2) caught the person's (1, 1); ring and area join the
# top-left edge, so nothing of the bot's can be enclosed any more: the person to move.
WON = [(1, 1), (1, 0), (7, 7), (0, 1), (8, 8), (2, 1), (9, 7), (1, 2)]


@pytest.mark.parametrize("lang", LANGS)
async def test_the_bot_calls_stop_when_it_wins(pg: ScenarioClient, lang: str) -> None:
    alice = await pg.user("alice", lang=lang)
    board = await quick_game(alice, t(lang, "menu.quick_dots"))  # medium
    board = await _set_up(pg, alice.private, board, WON)
    v = version(board)
    r, c = buttons(board, "p")[0]
    await alice.press_button(r, c, board)
    board = await wait_message(
        alice.private,
        board.message_id,
        lambda m: version(m) not in (v, (v or 0) + 1) and t(lang, "btn.done") in texts(m),
    )
    caption = board.caption or ""
    bot = t(lang, "bot.name", level=t(lang, "level.medium"))
    assert f"{bot}: {t(lang, 'btn.stop')[2:]}" in caption, caption
    assert re.search(r"\b(3:00|2:[45]\d)\b", caption), caption
    assert t(lang, "caption.stop_bot_why", lead=Text("count.points", n=1)) in caption
    said = [m.text or "" for m in await alice.private.messages() if m.from_bot and not m.media]
    line = t(lang, "stop.bot_called", who=bot, lead=Text("count.points", n=1), minutes=3)
    assert line in said
    match = await stored_match(pg._settings.redis_url, board)
    assert match.game.stopped_by == 1 and match.game.turn == 0  # type: ignore[attr-defined]
    # Alice moves alone, then taps Done: the bot wins after STOP.
    v = version(board)
    r, c = buttons(board, "p")[0]
    await alice.press_button(r, c, board)
    board = await wait_message(alice.private, board.message_id, lambda m: version(m) != v)
    assert t(lang, "btn.done") in texts(board)
    await alice.press(t(lang, "btn.done"), board)
    final = await wait_message(alice.private, board.message_id, finished)
    assert t(lang, "end.stop") in (final.caption or "") and bot in (final.caption or "")
    await _picture(pg, final, f"bot-stops-{lang}")


async def test_the_easy_bot_never_calls_stop(pg: ScenarioClient) -> None:
    alice = await pg.user("alice", lang="en")
    board = await quick_game(alice, "⚡ Dots vs bot")

    def easy(m: Match) -> None:
        m.seats[1].level = "easy"

    board = await _set_up(pg, alice.private, board, WON, change=easy)
    v = version(board)
    r, c = buttons(board, "p")[0]
    await alice.press_button(r, c, board)
    board = await wait_message(
        alice.private, board.message_id, lambda m: version(m) not in (v, (v or 0) + 1)
    )
    match = await stored_match(pg._settings.redis_url, board)
    game = match.game
    assert isinstance(game, Game) and game.stopped_by is None and game.ply == len(WON) + 2
    assert "STOP" not in (board.caption or "")


async def variant_game(user: UserHandle, lang: str, flag: str, help_line: int) -> MessageView:
    """/new → Dots → Quick 15×15 → the variant ``flag`` ticked (its help line shown on the
    variants screen) → Next → the medium bot; the board once it has its keyboard."""
    await user.send("/new")
    await user.press(t(lang, "game.dots"))
    await user.press(t(lang, "menu.dots_q"))
    variants = await user.private.last_with_buttons()
    assert t(lang, "menu.variants_dots").splitlines()[help_line] in (variants.text or "")
    await user.press(t(lang, f"menu.flag_{flag}", mark="☐"))
    ticked = await user.private.last_with_buttons()
    assert t(lang, f"menu.flag_{flag}", mark="☑") in texts(ticked)
    await user.press(t(lang, "btn.next"))
    await user.press(t(lang, "menu.vs_medium"))
    first = await user.private.last_message()
    return await wait_message(user.private, first.message_id, lambda m: bool(buttons(m, "p")))


async def _two(
    pg: ScenarioClient, lang: str
) -> tuple[UserHandle, UserHandle, ChatHandle, MessageView]:
    await pg.set_limits(enabled=False)
    alice, bob = await pg.user("alice", lang=lang), await pg.user("bob", lang=lang)
    group = await pg.group("Club", members=[alice, bob])
    await alice.send("/new", group)
    for label in (t(lang, "game.dots"), t(lang, "menu.dots_q"), t(lang, "btn.next")):
        await alice.press(label, chat=group)
    await alice.press(t(lang, "menu.vs_group"), chat=group)
    lobby = await group.last_with_buttons()
    await bob.press(t(lang, "btn.join"), await message(group, lobby.message_id), group)
    board = await wait_message(group, lobby.message_id, lambda m: bool(buttons(m, "p")))
    return alice, bob, group, board


@pytest.mark.parametrize("lang", LANGS)
async def test_stop_on_the_other_players_turn(pg: ScenarioClient, lang: str) -> None:
    alice, bob, group, board = await _two(pg, lang)
    v = version(board)
    r, c = buttons(board, "p")[0]
    await alice.press_button(r, c, board, group)
    board = await wait_message(group, board.message_id, lambda m: version(m) != v)
    await _stop(alice, group, board, lang)  # on Bob's turn
    board = await message(group, board.message_id)
    caption = board.caption or ""
    assert t(lang, "caption.stop_alone", who="Alice", mover="Bob", minutes=3, left="")[:30] in (
        caption
    ), caption
    assert t(lang, "btn.done") in texts(board)
    v = version(board)
    r, c = buttons(board, "p")[0]
    await bob.press_button(r, c, board, group)  # Bob moves alone
    board = await wait_message(group, board.message_id, lambda m: version(m) != v)
    popup = await alice.press(t(lang, "btn.done"), board, group)
    assert popup is not None and popup.text == t(lang, "err.not_your_turn")
    await bob.press(t(lang, "btn.done"), board, group)
    final = await wait_message(group, board.message_id, finished)
    assert t(lang, "end.stop") in (final.caption or "")
    game = (await stored_match(pg._settings.redis_url, final)).game
    assert isinstance(game, Game) and game.stopped_by == 0 and game.stop_ply == 1
    assert game.ply == 2


def filled_but_one() -> list[tuple[int, int]]:
    """15×15 filled without a capture in 224 moves, the person (seat 0) to move, the one
    free point (7, 7) inside the bot's empty diamond: two-column stripes, balanced."""
    rng = random.Random(0)
    diamond = {(7, 6), (6, 7), (8, 7), (7, 8)}
    own = {(x, y): 1 - (x // 2) % 2 for x in range(15) for y in range(15) if (x, y) != (7, 7)}
    for p in diamond:
        own[p] = 1
    count = [sum(v == k for v in own.values()) for k in (0, 1)]
    cells = [p for p in own if p not in diamond]
    rng.shuffle(cells)
    for p in cells:
        if count[0] == count[1]:
            break
        big = 0 if count[0] > count[1] else 1
        if own[p] == big:
            own[p] = 1 - big
            count[big] -= 1
            count[1 - big] += 1
    a = [p for p, v in own.items() if v == 0]
    b = [p for p, v in own.items() if v == 1]
    rng.shuffle(a)
    rng.shuffle(b)
    return [(a if k % 2 == 0 else b)[k // 2] for k in range(224)]


@pytest.mark.parametrize("lang", LANGS)
async def test_intruder_on_the_last_free_point_is_not_caught(pg: ScenarioClient, lang: str) -> None:
    alice = await pg.user("alice", lang=lang)
    board = await quick_game(alice, t(lang, "menu.quick_dots"))
    points = filled_but_one()
    board = await _set_up(pg, alice.private, board, points)
    game = (await stored_match(pg._settings.redis_url, board)).game
    assert isinstance(game, Game) and not game.captures and game.bases
    assert game.legal_moves() == [Move(7, 7)]
    await alice.send("/m h8")  # (7, 7): column h, row 15 - 7 from the bottom
    final = await wait_message(alice.private, board.message_id, finished)
    game = (await stored_match(pg._settings.redis_url, final)).game
    assert isinstance(game, Game) and game.result is not None and game.result.reason == "end"
    assert game.scores == (0, 0) and not game.cell(7, 7).captured
    assert t(lang, "result.draw", how=t(lang, "end.end")) in (final.caption or "")
    await _picture(pg, final, f"last-point-{lang}")


# Alice (seat 0) has an empty diamond round (2, 2) on a 15×15 board; Bob to move.
DIAMOND = [(2, 1), (10, 10), (1, 2), (12, 12), (3, 2), (10, 12), (2, 3)]


@pytest.mark.parametrize("lang", LANGS)
async def test_intruder_moving_alone_after_the_owners_stop_is_not_caught(
    pg: ScenarioClient, lang: str
) -> None:
    alice, bob, group, board = await _two(pg, lang)
    board = await _set_up(pg, group, board, DIAMOND)
    await _stop(alice, group, board, lang)  # Alice, the ring's owner, stops on Bob's turn
    board = await message(group, board.message_id)
    await bob.send("/m c13", group)  # (2, 2), inside Alice's empty ring
    board = await wait_message(group, board.message_id, lambda m: "c13" in (m.caption or ""))
    await bob.press(t(lang, "btn.done"), board, group)
    final = await wait_message(group, board.message_id, finished)
    game = (await stored_match(pg._settings.redis_url, final)).game
    assert isinstance(game, Game) and game.result is not None and game.result.reason == "stop"
    assert game.scores == (0, 0) and game.cell(2, 2).dot == 1 and not game.cell(2, 2).captured
    assert t(lang, "result.draw", how=t(lang, "end.stop")) in (final.caption or "")
    await _picture(pg, final, f"intruder-after-stop-{lang}")


async def test_the_persons_three_minutes_after_the_bots_stop_run_out(pg: ScenarioClient) -> None:
    alice = await pg.user("alice", lang="en")
    board = await quick_game(alice, "⚡ Dots vs bot")
    board = await _set_up(pg, alice.private, board, WON)
    v = version(board)
    r, c = buttons(board, "p")[0]
    await alice.press_button(r, c, board)
    board = await wait_message(alice.private, board.message_id, lambda m: "✅ Done" in texts(m))
    assert version(board) != v
    pg.clock.advance(181)  # Alice never taps Done: the deadline kept in Redis ends it
    final = await wait_message(alice.private, board.message_id, finished, timeout=30)
    assert "Tetrad bot (medium) wins (after STOP)" in (final.caption or ""), final.caption


@pytest.mark.parametrize("lang", LANGS)
async def test_person_stops_on_the_bots_turn(pg: ScenarioClient, lang: str) -> None:
    """STOP while the bot is to move: the bot then moves alone at once, and only (4, 3)
    gains (the other pocket is three dots short)."""
    alice = await pg.user("alice", lang=lang)
    board = await quick_game(alice, t(lang, "menu.quick_dots"))
    board = await _set_up(pg, alice.private, board, POCKETS[:-1])  # the bot to move
    game = (await stored_match(pg._settings.redis_url, board)).game
    assert game.turn == 1 and game.ply == len(POCKETS) - 1
    await _stop(alice, alice.private, board, lang)
    final = await wait_message(alice.private, board.message_id, finished, timeout=60)
    game = (await stored_match(pg._settings.redis_url, final)).game
    assert isinstance(game, Game) and game.stopped_by == 0
    assert game.stop_ply == len(POCKETS) - 1 and game.moves[game.stop_ply :] == [Move(4, 3)]
    assert game.scores == (0, 1) and t(lang, "end.stop") in (final.caption or "")
