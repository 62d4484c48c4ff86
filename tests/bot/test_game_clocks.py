"""Game clocks through the playground: the /new menu (the clock, then the opponent as without
one), whole-game clocks with their increment in the caption, flag fall against a person and
against the bot, and a flag that falls while the bot is down.

The bot's clock is the fixture's fake clock (``pg.clock.advance``): no test waits for a clock
to run out. Figures that depend on how long the machine took (a move's real seconds) are
checked as bounds.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable

import pytest

from bot.i18n import t
from bot.match import clocks, menus
from bot.match.actions import Refused
from playground.client import ChatHandle, MessageView, UserHandle
from tests.bot.helpers import (
    buttons,
    finished,
    message,
    quick_game,
    stored_match,
    tap_move,
    texts,
    wait_message,
)
from tests.fixtures.playground import ScenarioClient

DOTS_SMALL = ["Dots", "Small 10×10", "Next »"]
WAIT = 60.0


async def _choose(user: UserHandle, chat: ChatHandle, clock: str, opponent: str) -> MessageView:
    """/new → Dots 10×10 → the clock → the opponent; the message the menu was in."""
    await user.send("/new", chat)
    for label in DOTS_SMALL:
        await user.press(label, chat=chat)
    menu = await chat.last_with_buttons()
    await user.press("⏱ Clock: none", menu, chat)
    await user.press(clock, await message(chat, menu.message_id), chat)
    again = await message(chat, menu.message_id)
    assert f"⏱ Clock: {clock}" in texts(again), "back on the opponent screen, clock on"
    await user.press(opponent, again, chat)
    return again


async def _arrives(
    chat: ChatHandle, after: int, pred: Callable[[MessageView], bool]
) -> MessageView:
    """The first message after message ``after`` that ``pred`` accepts (a bounded wait)."""
    deadline = time.monotonic() + WAIT
    while True:
        for m in await chat.messages():
            if m.message_id > after and pred(m):
                return m
        assert time.monotonic() < deadline, f"no such message after {after} in {chat}"
        await asyncio.sleep(0.05)


def _clock_of(line: str) -> int:
    """Seconds on one caption line's clock (``⏳ 4:58`` or ``⏱ 5:00``)."""
    m = re.search(r"[⏳⏱] (\d+):(\d\d)$", line)
    assert m is not None, line
    return int(m.group(1)) * 60 + int(m.group(2))


def _seat_lines(board: MessageView) -> list[str]:
    return [
        line for line in (board.caption or "").splitlines() if line.startswith(("▶", "🟠", "🔵"))
    ]


async def test_the_clock_is_chosen_before_the_opponent_and_makes_no_link(
    pg: ScenarioClient,
) -> None:
    """Private chat: choosing a clock shows the opponent screen again (no link, no game yet);
    then "A friend" makes the link game with that clock, and the bot levels are there too."""
    await pg.set_limits(enabled=False)
    alice = await pg.user("alice", lang="en")
    await alice.send("/new")
    for label in DOTS_SMALL:
        await alice.press(label)
    menu = await alice.private.last_with_buttons()
    await alice.press("⏱ Clock: none", menu)
    screen = await message(alice.private, menu.message_id)
    assert "Which clock?" in (screen.text or "")
    assert {"● No clock", "1 min per move", "3 min per game + 2 s", "3 days per game"} <= set(
        texts(screen)
    )
    before = len(await alice.private.messages())
    await alice.press("5 min per game + 3 s", screen)
    back = await message(alice.private, menu.message_id)
    assert len(await alice.private.messages()) == before, "no link before the opponent"
    assert "Who do you play against?" in (back.text or "")
    assert {"🤖 Easy", "🤖 Medium", "🤖 Hard", "👥 A friend"} <= set(texts(back))
    await alice.press("⏱ Clock: 5 min per game + 3 s", back)  # look again: the choice is marked
    assert "● 5 min per game + 3 s" in texts(await message(alice.private, menu.message_id))
    await alice.press("« Back", await message(alice.private, menu.message_id))
    await alice.press("👥 A friend", await message(alice.private, menu.message_id))
    link = await _arrives(alice.private, menu.message_id, lambda m: "t.me/" in (m.text or ""))
    board = await _arrives(alice.private, menu.message_id, lambda m: m.media is not None)
    stored = await stored_match(pg._settings.redis_url, board)
    assert clocks.control(stored) == clocks.Control(total=300, increment=3)
    group_button = next(b for row in link.buttons for b in row if b.url and "startgroup" in b.url)
    assert group_button.url is not None and group_button.url.endswith("g_d_s_-_g_t5i3")


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_a_whole_game_clock_runs_out_between_people(pg: ScenarioClient, lang: str) -> None:
    """5+3 in a group: both clocks in the caption, the mover's counting down; a move adds the
    increment; Bob's flag falls by itself (nobody taps) and Alice wins on time."""
    await pg.set_limits(enabled=False)
    alice, bob = await pg.user("alice", lang=lang), await pg.user("bob", lang=lang)
    group = await pg.group("Club", members=[alice, bob])
    control = clocks.Control(total=300, increment=3)
    label = t(lang, clocks.name(control))
    await alice.send("/new", group)
    for key in ("game.dots", "menu.dots_s", "btn.next"):
        await alice.press(t(lang, key), chat=group)
    menu = await group.last_with_buttons()
    await alice.press(t(lang, "menu.clock", clock=t(lang, "clock.none")), menu, group)
    await alice.press(label, await message(group, menu.message_id), group)
    await alice.press(t(lang, "menu.vs_group"), await message(group, menu.message_id), group)
    lobby = await group.last_with_buttons()
    await bob.press(t(lang, "btn.join"), lobby, group)
    board = await wait_message(group, lobby.message_id, lambda m: bool(buttons(m, "p")))
    assert f"⏱ {label}" in (board.caption or "")
    first, second = _seat_lines(board)
    assert first.startswith("▶") and "⏳" in first and "⏱" in second
    assert 290 <= _clock_of(first) <= 300 and _clock_of(second) == 300
    board = await tap_move(alice, group, board)
    first, second = _seat_lines(board)
    assert "⏱" in first and second.startswith("▶") and "⏳" in second
    assert 290 <= _clock_of(first) <= 303, "Alice's time, less her move, plus 3 s"
    stored = await stored_match(pg._settings.redis_url, board)
    left = stored.extra.get("left")
    assert left is not None and 300 - 10 < left[0] <= 303 and left[1] == 300
    pg.clock.advance(301)  # Bob sits on his clock: the deadline in Redis ends the game
    final = await wait_message(group, board.message_id, finished, timeout=WAIT)
    why = t(lang, "result.win", who="Alice", how=t(lang, "end.time"))
    assert why.replace("<b>", "").replace("</b>", "") in (final.caption or "")
    assert _clock_of(_seat_lines(final)[1]) == 0


async def test_a_whole_game_clock_against_the_bot(pg: ScenarioClient) -> None:
    """10 minutes each against the bot: its thinking comes off its own clock; then Alice's
    flag falls and the bot wins on time."""
    await pg.set_limits(enabled=False)
    alice = await pg.user("alice", lang="en")
    menu = await _choose(alice, alice.private, "10 min per game", "🤖 Easy")
    board = await _arrives(alice.private, menu.message_id, lambda m: bool(buttons(m, "p")))
    board = await tap_move(alice, alice.private, board)
    board = await wait_message(
        alice.private,
        board.message_id,
        lambda m: "To move: Alice" in (m.caption or ""),
        timeout=WAIT,
    )
    stored = await stored_match(pg._settings.redis_url, board)
    assert stored.game.ply == 2
    left = stored.extra.get("left")
    assert left is not None and left[1] < 600, "the bot's thinking ran on its clock"
    bot_line = _seat_lines(board)[1]
    assert "Tetrad bot (easy)" in bot_line and _clock_of(bot_line) < 600
    pg.clock.advance(601)
    final = await wait_message(alice.private, board.message_id, finished, timeout=WAIT)
    assert "Tetrad bot (easy) wins (on time)" in (final.caption or "")


async def test_the_flag_falls_while_the_bot_is_down(pg: ScenarioClient) -> None:
    """The bot process stops on Bob's turn, the flag falls meanwhile, and the next process
    ends the game from the deadline kept in Redis: no tap needed."""
    await pg.set_limits(enabled=False)
    alice, bob = await pg.user("alice", lang="en"), await pg.user("bob", lang="en")
    group = await pg.group("Club", members=[alice, bob])
    await _choose(alice, group, "3 min per game + 2 s", "👥 Players in this chat")
    lobby = await group.last_with_buttons()
    assert "⏱ 3 min per game + 2 s" in (lobby.caption or ""), "who joins sees the clock"
    await bob.press("✋ Join", lobby, group)
    board = await wait_message(group, lobby.message_id, lambda m: bool(buttons(m, "p")))
    board = await tap_move(alice, group, board)
    await pg.stop_bot()
    pg.clock.advance(200)
    await pg.restart_bot()
    final = await wait_message(group, board.message_id, finished, timeout=WAIT)
    assert "Alice wins (on time)" in (final.caption or "")


async def test_the_more_menu_opens_the_rules(pg: ScenarioClient) -> None:
    """⋯ More → 📖 Rules sends the game's rules page to the board's chat; the board stays."""
    await pg.set_limits(enabled=False)
    alice = await pg.user("alice", lang="ru")
    board = await quick_game(alice, "⚡ Квадраты с ботом")
    await alice.press("⋯ Ещё", board)
    more = await message(alice.private, board.message_id)
    last = (await alice.private.last_message()).message_id
    await alice.press("📖 Правила", more)
    said = await _arrives(alice.private, last, lambda m: m.media is not None)
    page = [m for m in await alice.private.messages() if m.message_id > last]
    assert (page[0].text or "").startswith("📖 Точки и квадраты"), page[0].text
    assert said.media is not None
    assert not finished(await message(alice.private, board.message_id))


# -- the menu's paths (no bot needed) -----------------------------------------------------------


def test_menu_paths_carry_the_clock_to_every_opponent() -> None:
    blitz = clocks.Control(total=180, increment=2)
    for opponent, level in (("g", None), ("ae", "easy"), ("ah", "hard")):
        choice = menus.screen(1, f"d.q.-.{opponent}.t3i2", private=True)
        assert isinstance(choice, menus.Choice)
        assert (choice.clock, choice.ai_level, choice.lobby) == (blitz, level, "d.q.-.g.t3i2")
    plain = menus.screen(1, "d.q.-.am", private=True)
    assert isinstance(plain, menus.Choice) and plain.clock == clocks.NO_CLOCK
    assert plain.lobby == "d.q.-.g"


def test_menus_sent_before_still_work() -> None:
    """A lobby button of the old clock screen (``g5``: 5 min per move) and a group link
    that names the game only (``d.q.-``) make the same games as they did."""
    old = menus.screen(1, "d.q.-.g5", private=False)
    assert isinstance(old, menus.Choice)
    assert (old.clock, old.ai_level) == (clocks.Control(per_move=300), None)
    link = menus.screen(1, menus.lobby_path("d.q.-"), private=False)
    assert isinstance(link, menus.Choice) and link.clock == clocks.NO_CLOCK
    assert menus.lobby_path("d.q.-.g.t10") == "d.q.-.g.t10"


@pytest.mark.parametrize("path", ["d.q.-.g.zz", "d.q.-.am.5.5", "d.q.-.g5.t10", "d.q.-.x.5"])
def test_a_forged_clock_path_is_refused(path: str) -> None:
    with pytest.raises(Refused) as refused:
        menus.screen(1, path, private=True)
    assert refused.value.text.key == "err.bad_button"
