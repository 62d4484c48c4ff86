"""Time in a match on a fake clock (plain ``now`` floats): per-move clocks and the claim,
whole-game clocks with their increment and flag fall (against people and the bot), the
reminder of long clocks, the one ping per turn, STOP's three minutes, idle lobbies and games.

``next_tick`` is when the adapter's one Redis deadline per match falls due; ``Tick`` is what
it applies then. Each rule is checked just before and at its moment, and a repeated tick
must change nothing (deadlines may fire twice, on any replica).
"""

from __future__ import annotations

import json

import pytest

from bot.match import clocks, links, lobby
from bot.match.actions import ClaimTime, Cursor, Join, Play, Resign, Stop, Tick
from bot.match.clocks import DEFAULT_TIMEOUTS, Control, Timeouts
from bot.match.effects import Effect
from bot.match.model import Match
from tests.bot.match.builders import (
    ALICE,
    BOB,
    KINDS,
    T0,
    active,
    ai_move,
    apply,
    first_move,
    lobby_of,
    refusal,
    said,
    stopped,
    vs_bot,
)

MINUTE, HOUR, DAY = 60.0, 3600.0, 86400.0


def tick(match: Match, at: float, timeouts: Timeouts = DEFAULT_TIMEOUTS) -> list[str]:
    return said(apply(match, None, Tick(), now=T0 + at, timeouts=timeouts))


def due(match: Match, timeouts: Timeouts = DEFAULT_TIMEOUTS) -> float | None:
    at = clocks.next_tick(match, timeouts)
    return None if at is None else at - T0


def twice(match: Match, at: float) -> tuple[list[str], list[str]]:
    """A tick and the same tick again (a second replica, a retry): the second does nothing."""
    first = tick(match, at)
    record = match.to_json()
    second = tick(match, at)
    assert match.to_json() == record
    return first, second


# -- per-move clock and the claim --------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_the_claim_opens_when_the_movers_time_is_up(kind: str) -> None:
    match = active(kind, clock=60)
    assert clocks.deadline(match) == T0 + MINUTE and due(match) == MINUTE
    assert refusal(match, BOB, ClaimTime(), now=T0 + 59.9) == "err.not_expired"
    assert tick(match, 59.9) == []
    shown = match.version
    assert tick(match, MINUTE) == ["Refresh", "Notify Bob clock.can_claim"]
    assert match.version == shown + 1 and match.extra["expired"] == match.turn_since
    # told once; with a one-minute clock the same moment is also the mover's one-minute
    # ping ("your move" as the time runs out: she may still move until the claim)
    assert tick(match, MINUTE) == ["Notify Alice turn.ping"]
    assert tick(match, MINUTE + 1) == [] and match.version == shown + 1
    assert refusal(match, ALICE, ClaimTime(), now=T0 + 61) == "err.claim_own"
    assert said(apply(match, BOB, ClaimTime(), now=T0 + 61)) == ["Refresh", "Finished"]
    res = match.game.result
    assert res is not None and (res.winner, res.loser, res.reason) == (1, 0, "time")


def test_a_move_in_time_restarts_the_clock_for_the_other() -> None:
    match = active("dots", clock=60)
    apply(match, ALICE, first_move(match), now=T0 + 50)
    assert clocks.deadline(match) == T0 + 110
    assert refusal(match, ALICE, ClaimTime(), now=T0 + 109) == "err.not_expired"
    assert said(apply(match, ALICE, ClaimTime(), now=T0 + 110)) == ["Refresh", "Finished"]


def test_a_late_move_before_the_claim_still_counts() -> None:
    """Running out of time does not end the game: the opponent may claim, or the late player
    may still move first (and the claim is gone with the turn)."""
    match = active("boxes", clock=60)
    tick(match, MINUTE)
    assert said(apply(match, ALICE, first_move(match), now=T0 + 90)) == ["Refresh"]
    assert refusal(match, ALICE, ClaimTime(), now=T0 + 91) == "err.not_expired"


def test_no_clock_runs_without_a_clock() -> None:
    match = active("dots")
    assert clocks.deadline(match) is None and clocks.flag_at(match) is None
    assert refusal(match, BOB, ClaimTime(), now=T0 + 30 * DAY) == "err.not_expired"


def test_a_per_move_clock_against_the_bot_times_both() -> None:
    """The person's time runs out: the bot claims the win at once (nobody else could). The
    bot's thinking is its time: late, the person may claim."""
    match = vs_bot("dots", clock=Control(per_move=60))
    assert due(match) == MINUTE
    assert tick(match, MINUTE) == ["Refresh", "Finished"]
    res = match.game.result
    assert res is not None and (res.winner, res.loser, res.reason) == (1, 0, "time")
    match = vs_bot("dots", clock=Control(per_move=60))
    apply(match, ALICE, first_move(match), now=T0 + 10)  # the bot to move
    assert clocks.deadline(match) == T0 + 70
    assert tick(match, 70) == ["Refresh", "Notify Alice clock.can_claim"]
    assert said(apply(match, ALICE, ClaimTime(), now=T0 + 71)) == ["Refresh", "Finished"]
    res = match.game.result
    assert res is not None and (res.winner, res.loser) == (0, 1)


# -- the whole-game clock --------------------------------------------------------------------

BLITZ = Control(total=180, increment=2)  # 3+2


def left(match: Match, at: float | None = None) -> list[float]:
    got = clocks.time_left(match, None if at is None else T0 + at)
    assert got is not None
    return got


def test_the_whole_game_clock_counts_each_players_time_with_the_increment() -> None:
    match = active("dots", clock=BLITZ)
    assert match.extra == {"total": 180, "inc": 2}
    assert left(match) == [180, 180] and clocks.flag_at(match) == T0 + 180
    assert left(match, 30) == [150, 180], "the mover's clock runs down, the other's stands"
    apply(match, ALICE, first_move(match), now=T0 + 30)
    assert left(match) == [152, 180], "30 s spent, 2 s added"
    assert clocks.flag_at(match) == T0 + 30 + 180
    apply(match, BOB, first_move(match), now=T0 + 100)
    assert left(match) == [152, 112] and clocks.flag_at(match) == T0 + 100 + 152
    assert due(match) == 100 + MINUTE  # Alice's ping comes before her flag


def test_a_boxes_turn_is_every_line_until_the_turn_passes() -> None:
    """A closed box keeps the turn: the clock runs on and no increment is added until the
    turn is handed on."""
    match = active("boxes", clock=Control(total=600, increment=5))
    game = match.game
    for move in ("a1-a2", "b1-b2", "a1-b1"):  # Alice, Bob, Alice: two sides of a1
        apply(match, WHO_MOVES[game.turn], Play(text=move), now=T0 + 10 * (game.ply + 1))
    apply(match, BOB, Play(text="a2-b2"), now=T0 + 40)  # Bob closes a1 and moves again
    assert game.turn == 1 and left(match) == [600 - 20 + 10, 600 - 10 + 5]
    assert left(match, 45) == [590, 595 - 15], "the clock ran on since the turn began"
    apply(match, BOB, first_move(match), now=T0 + 50)  # the turn passes
    assert game.turn == 0 and left(match) == [590, 595 - 20 + 5]


WHO_MOVES = (ALICE, BOB)


@pytest.mark.parametrize("kind", KINDS)
def test_the_flag_falls_by_itself_and_ends_the_game_on_time(kind: str) -> None:
    match = active(kind, clock=BLITZ)
    apply(match, ALICE, first_move(match), now=T0 + 10)
    flag = 10 + 180  # Bob's whole time, spent on this one turn
    assert clocks.flag_at(match) == T0 + flag
    tick(match, 10 + MINUTE)  # Bob's ping
    assert due(match) == flag
    assert tick(match, flag - 0.1) == []
    assert twice(match, flag) == (["Refresh", "Finished"], [])
    res = match.game.result
    assert res is not None and (res.winner, res.loser, res.reason) == (0, 1, "time")
    assert match.status == "finished" and left(match) == [172, 0]
    assert due(match) is None


def test_a_tap_after_the_flag_ends_the_game_and_does_nothing_else() -> None:
    """The tick may come late (a restart): the first tap past the flag ends the game, and
    the move it carried is not played."""
    match = active("dots", clock=BLITZ)
    got = apply(match, ALICE, first_move(match), now=T0 + 181)
    assert said(got) == ["Refresh", "Finished", "Alert clock.flag_fell"]
    res = match.game.result
    assert match.game.ply == 0 and res is not None and (res.loser, res.reason) == (0, "time")


def test_the_bots_thinking_runs_on_its_clock() -> None:
    match = vs_bot("dots", clock=BLITZ)
    apply(match, ALICE, first_move(match), now=T0 + 5)
    assert clocks.think_budget(match, T0 + 5) == pytest.approx(180 / 30 + 1)
    apply(match, None, ai_move(match), now=T0 + 8)  # 3 s of thinking
    assert left(match) == [177, 179]
    apply(match, ALICE, first_move(match), now=T0 + 10)
    assert clocks.flag_at(match) == T0 + 10 + 179
    late = ai_move(match)  # the bot thinks on and on (a slow machine, a dead worker)
    assert tick(match, 10 + 179) == ["Refresh", "Finished"]  # its flag falls: Alice wins
    res = match.game.result
    assert res is not None and (res.winner, res.loser, res.reason) == (0, 1, "time")
    assert refusal(match, None, late, now=T0 + 200) == "err.finished"  # its late move


def test_the_persons_flag_against_the_bot() -> None:
    match = vs_bot("boxes", clock=Control(total=600))
    assert due(match) == 600, "a private game: no ping, the flag is the next thing"
    assert tick(match, 600) == ["Refresh", "Finished"]
    res = match.game.result
    assert res is not None and (res.winner, res.loser, res.reason) == (1, 0, "time")


def test_the_clocks_stand_still_during_stop() -> None:
    match = active("dots", clock=BLITZ)
    apply(match, ALICE, first_move(match), now=T0 + 20)
    apply(match, ALICE, Stop(), now=T0 + 50)  # on Bob's turn: Bob moves alone
    assert left(match) == [162, 150] and clocks.flag_at(match) is None
    assert left(match, 150) == [162, 150]
    assert tick(match, 50 + MINUTE) == ["Notify Bob turn.ping"]
    assert due(match) == 50 + 180  # then only STOP's three minutes
    assert tick(match, 50 + 180) == ["Refresh", "Finished"]
    assert match.game.result is not None and match.game.result.reason == "stop"


def test_a_long_game_clock_reminds_before_the_flag() -> None:
    """Three days per game in a private game against the bot: a reminder 12 hours before the
    flag, once a turn."""
    match = vs_bot("sprouts", clock=Control(total=3 * 86400))
    assert due(match) == 3 * DAY - 12 * HOUR
    got = apply(match, None, Tick(), now=T0 + 3 * DAY - 12 * HOUR)
    assert said(got) == ["Notify Alice clock.reminder"]
    assert _param(got[0], "left") == ("clock.hours", 12)
    assert due(match) == 3 * DAY
    assert tick(match, 3 * DAY) == ["Refresh", "Finished"]


def test_a_rematch_keeps_the_clock_and_gives_the_totals_afresh() -> None:
    match = active("dots", clock=BLITZ)
    apply(match, ALICE, first_move(match), now=T0 + 30)
    apply(match, BOB, Resign(True), now=T0 + 40)
    new = lobby.rematch(match, BOB, "m2", T0 + 60)
    assert new.extra == {"total": 180, "inc": 2}


def test_an_old_record_loads_as_before() -> None:
    """A record written before whole-game clocks (a per-move clock, or none) reads and plays
    as it did: no whole-game clock appears."""
    old = active("dots", clock=60).to_json()
    assert old["x"] == {"clock": 60} and "total" not in old["x"]
    match = Match.from_json(json.loads(json.dumps(old)))
    assert clocks.control(match) == Control(per_move=60)
    assert clocks.time_left(match, T0) is None and clocks.flag_at(match) is None
    assert clocks.deadline(match) == T0 + MINUTE
    bare = active("boxes").to_json()
    assert "x" not in bare and clocks.control(Match.from_json(bare)) == clocks.NO_CLOCK


def test_a_damaged_clock_list_starts_from_the_totals() -> None:
    match = active("dots", clock=BLITZ)
    match.extra["left"] = ["x", 3]  # type: ignore[list-item]
    assert left(match) == [180, 180]
    match.extra["left"] = [1.0]
    assert left(match) == [180, 180]


# -- reminders and pings ---------------------------------------------------------------------


def test_a_long_clock_reminds_once_a_quarter_before() -> None:
    """One hour per move: the one-minute ping first, then a reminder 15 minutes before."""
    match = active("dots", clock=3600)
    assert due(match) == MINUTE
    assert twice(match, MINUTE) == (["Notify Alice turn.ping"], [])
    assert due(match) == 45 * MINUTE
    assert tick(match, 45 * MINUTE - 1) == []
    assert twice(match, 45 * MINUTE) == (["Notify Alice clock.reminder"], [])
    assert due(match) == HOUR
    assert tick(match, HOUR) == ["Refresh", "Notify Bob clock.can_claim"]


@pytest.mark.parametrize(
    ("clock", "before"),
    [(HOUR, 15 * MINUTE), (DAY, 6 * HOUR), (3 * DAY, 12 * HOUR)],  # a quarter, at most 12 h
)
def test_long_clocks_remind_before_the_time_is_up(clock: float, before: float) -> None:
    match = vs_bot("sprouts")  # a private game: no ping, so the reminder is the first word
    match.extra["clock"] = int(clock)
    assert due(match) == clock - before
    assert tick(match, clock - before - 1) == []
    got = apply(match, None, Tick(), now=T0 + clock - before)
    assert said(got) == ["Notify Alice clock.reminder"]
    unit = ("clock.hours", before / HOUR) if before >= HOUR else ("clock.minutes", before / 60)
    assert _param(got[0], "left") == unit
    assert tick(match, clock - before) == [] and due(match) == clock


def _param(effect: Effect, name: str) -> tuple[str, int]:
    text = effect.text.params[name]  # type: ignore[union-attr]
    return text.key, text.params["n"]


def test_a_slow_player_in_a_group_is_pinged_once_a_turn() -> None:
    """Board edits notify nobody: the player to move in a shared game hears once, a minute in."""
    match = active("dots")
    apply(match, ALICE, first_move(match), now=T0 + 10)
    assert due(match) == 10 + MINUTE
    assert tick(match, 10 + 30) == [], "no ping within a minute"
    assert tick(match, 10 + MINUTE - 0.1) == []
    got = apply(match, None, Tick(), now=T0 + 10 + MINUTE)
    assert said(got) == ["Notify Bob turn.ping"]
    assert got[0].text.params["opponent"] == "Alice"  # type: ignore[union-attr]
    assert tick(match, 10 + MINUTE) == [] and tick(match, 10 + 11 * MINUTE) == [], "once a turn"
    assert due(match) == DEFAULT_TIMEOUTS.idle + 10  # nothing more until the game sits idle
    apply(match, BOB, first_move(match), now=T0 + 700)
    assert due(match) == 700 + MINUTE
    assert tick(match, 700 + MINUTE) == ["Notify Alice turn.ping"]


@pytest.mark.parametrize("kind", KINDS)
def test_a_private_game_against_the_bot_never_pings(kind: str) -> None:
    match = vs_bot(kind)
    assert due(match) == DEFAULT_TIMEOUTS.idle
    assert tick(match, HOUR) == []


# -- Dots STOP: three minutes -------------------------------------------------------------------


def test_stop_ends_by_itself_after_three_minutes() -> None:
    match = stopped("dots")
    assert match.game.deadline == T0 + 180  # type: ignore[attr-defined]
    assert due(match) == MINUTE and tick(match, MINUTE) == ["Notify Alice turn.ping"]
    assert due(match) == 180
    assert tick(match, 179.9) == []
    assert twice(match, 180) == (["Refresh", "Finished"], [])
    res = match.game.result
    assert res is not None and res.reason == "stop" and match.status == "finished"


def test_a_tap_after_the_stop_time_ends_the_game_and_does_nothing_else() -> None:
    """The tick may come late (a restart): the first tap past the time ends the game lazily,
    and the move it carried is not played — whatever its version."""
    match = stopped("dots")
    move = first_move(match)
    assert said(apply(match, ALICE, move, now=T0 + 179)) == ["Refresh"]  # in time
    got = apply(match, ALICE, first_move(match), now=T0 + 181, version=0)
    assert said(got) == ["Refresh", "Finished", "Alert stop.time_over"]
    assert match.game.ply == 1 and match.status == "finished"
    assert match.game.result is not None and match.game.result.reason == "stop"


def test_the_stop_time_comes_from_the_timeouts() -> None:
    short = Timeouts(stop=60.0)
    match = active("dots")
    apply(match, BOB, Stop(), now=T0 + 5, timeouts=short)
    assert match.extra["stop_limit"] == 60.0 and due(match) == 65
    assert tick(match, 64) == [] and tick(match, 65) == ["Refresh", "Finished"]


def test_the_per_move_clock_stops_during_stop() -> None:
    match = active("dots", clock=60)
    apply(match, BOB, Stop(), now=T0 + 30)
    assert clocks.deadline(match) is None and due(match) == 30 + MINUTE  # the ping only
    assert tick(match, 30 + MINUTE) == ["Notify Alice turn.ping"]
    assert due(match) == 30 + 180
    assert refusal(match, BOB, ClaimTime(), now=T0 + 200) == "err.not_expired"


# -- idle lobbies and games ----------------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_an_idle_lobby_is_closed_after_six_hours(kind: str) -> None:
    match = lobby_of(kind)
    assert due(match) == 6 * HOUR
    assert tick(match, 6 * HOUR - 1) == []
    assert twice(match, 6 * HOUR) == (["Refresh", "Say closed.lobby"], [])
    assert match.status == "finished" and match.extra["cancelled"] is True
    assert due(match) is None


def test_a_link_lobby_closes_without_a_word_in_a_chat() -> None:
    """A link challenge has no chat of its own (it is shown in the creator's private chat as
    a place): closing it edits the board and says nothing."""
    match = links.new_challenge(
        match_id="k", kind="dots", options={}, creator=ALICE, chat=ALICE.user, lang="en", now=T0
    )
    assert tick(match, 6 * HOUR) == ["Refresh"] and match.status == "finished"


def test_lobby_activity_moves_its_deadline() -> None:
    match = lobby_of("boxes", players=3)
    apply(match, BOB, Join(), now=T0 + HOUR)
    assert due(match) == 7 * HOUR
    assert tick(match, 6 * HOUR) == []


def test_an_idle_game_is_closed_after_a_week() -> None:
    match = active("sprouts")
    tick(match, MINUTE)  # Alice's ping
    assert due(match) == 7 * DAY
    assert tick(match, 7 * DAY - 1) == []
    assert twice(match, 7 * DAY) == (["Refresh", "Say closed.idle"], [])
    assert match.status == "finished" and match.game.result is None


def test_only_moves_count_as_activity() -> None:
    match = active("boxes")
    tick(match, MINUTE)
    apply(match, ALICE, Cursor("menu"), now=T0 + DAY)
    assert due(match) == 7 * DAY, "opening the menu is not activity"
    apply(match, ALICE, Play(text=first_move(match).text), now=T0 + DAY)
    assert due(match) == DAY + MINUTE  # Bob's ping, then a week from the move
    tick(match, DAY + MINUTE)
    assert due(match) == 8 * DAY
