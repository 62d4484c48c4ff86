"""Time in a match: per-move and whole-game clocks, reminders, the Dots STOP timer, idle
lobbies and games.

Everything is computed from the record (``turn_since``, ``updated``, the clock's fields, the
engine's STOP deadline), so acting on a deadline twice is harmless and nothing lives only in
memory: the adapter keeps one Redis deadline per match at :func:`next_tick` and calls
:func:`tick` when it falls due (on any replica, after any restart).

Two clocks (the tournament rules set limits per move or per game): a per-move clock gives
every turn the same time, and when it runs out the opponent may claim the win (the bot claims
at once); a whole-game clock gives each player a total, spent while they are to move (the
bot's thinking included) plus an increment each time they hand the turn on, and its flag fall
ends the game on time by itself. A turn is every move until the turn passes (a Boxes chain is
one turn); the clocks stand still during a Dots STOP phase, which has its own three minutes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import engine
from bot.i18n import Text
from bot.match.closing import finish
from bot.match.effects import Effect, Notify, Refresh, Say
from bot.match.model import Extra, Match


@dataclass(frozen=True)
class Control:
    """A time control as the menu offers it and the record keeps it (``clock``, ``total``
    and ``inc`` of the match's extra): ``per_move`` seconds for every turn, or ``total``
    seconds for each player's whole game plus ``increment`` seconds per turn. All zero: no
    clock. A record without ``total`` (any record before whole-game clocks) is per-move."""

    per_move: int = 0
    total: int = 0
    increment: int = 0

    def __bool__(self) -> bool:
        return bool(self.per_move or self.total)

    def store(self, extra: Extra) -> None:
        if self.per_move:
            extra["clock"] = self.per_move
        if self.total:
            extra["total"] = self.total
            if self.increment:
                extra["inc"] = self.increment

    @classmethod
    def of(cls, extra: Extra) -> Control:
        total = int(extra.get("total", 0))
        if total > 0:
            return cls(total=total, increment=max(0, int(extra.get("inc", 0))))
        return cls(per_move=max(0, int(extra.get("clock", 0))))


NO_CLOCK = Control()
MINUTE, HOUR, DAY = 60, 3600, 86400
# The clocks the /new menu offers, by their menu code (kept: menus sent before carry them).
CLOCKS: dict[str, Control] = {
    "0": NO_CLOCK,
    "1": Control(per_move=MINUTE),
    "5": Control(per_move=5 * MINUTE),
    "h": Control(per_move=HOUR),
    "d": Control(per_move=DAY),
    "w": Control(per_move=3 * DAY),
    "t3i2": Control(total=3 * MINUTE, increment=2),
    "t5i3": Control(total=5 * MINUTE, increment=3),
    "t10": Control(total=10 * MINUTE),
    "t3d": Control(total=3 * DAY),
}
LONG_CLOCK = 3600  # clocks this long get a reminder before they run out
PING_AFTER = 60.0  # a player who has not moved this long after getting the turn is pinged once


@dataclass(frozen=True)
class Timeouts:
    """How long lobbies and games may sit untouched before they are closed politely."""

    lobby: float = 6 * 3600
    idle: float = 7 * 86400
    stop: float = 180.0  # Dots: how long the other player may move alone after STOP


DEFAULT_TIMEOUTS = Timeouts()


def label(seconds: int) -> Text:
    """A per-move clock's name ("5 min per move")."""
    if seconds % DAY == 0:
        return Text("clock.days_per_move", n=seconds // DAY)
    if seconds % HOUR == 0:
        return Text("clock.hours_per_move", n=seconds // HOUR)
    return Text("clock.minutes_per_move", n=max(1, seconds // MINUTE))


def name(control: Control) -> Text:
    """A clock's name as the menu and the caption give it ("5 min + 3 s per game")."""
    if control.per_move:
        return label(control.per_move)
    if not control.total:
        return Text("clock.none")
    if control.total % DAY == 0:
        return Text("clock.days_per_game", n=control.total // DAY)
    minutes = max(1, control.total // MINUTE)
    if control.increment:
        return Text("clock.minutes_plus", n=minutes, inc=control.increment)
    return Text("clock.minutes_per_game", n=minutes)


def control(match: Match) -> Control:
    return Control.of(match.extra)


def per_move(match: Match) -> int:
    return control(match).per_move


def deadline(match: Match) -> float | None:
    """When the player to move runs out of their per-move time (None: no per-move clock, or
    not running). The bot's turn is timed too: its thinking is its time."""
    seconds = per_move(match)
    if not seconds or match.status != "active" or _stopped(match):
        return None
    return match.turn_since + seconds


# -- the whole-game clock -----------------------------------------------------------------------


def _banked(match: Match) -> list[float] | None:
    """Each seat's time left at ``turn_since`` (the record's ``left``; missing or of another
    length, as at the start: everyone's total). None without a whole-game clock."""
    total = control(match).total
    if not total:
        return None
    left = match.extra.get("left")
    if isinstance(left, list) and len(left) == len(match.seats):
        try:
            return [float(x) for x in left]
        except (TypeError, ValueError):
            pass  # a damaged list: start from the totals rather than fail the match
    return [float(total)] * len(match.seats)


def _running(match: Match) -> bool:
    return match.status == "active" and not _stopped(match)


def time_left(match: Match, now: float | None) -> list[float] | None:
    """Each seat's time left on the whole-game clock at ``now`` (the mover's runs down; None:
    the time at the start of the turn); None without a whole-game clock."""
    left = _banked(match)
    if left is None or match.status == "lobby":
        return None
    if now is not None and _running(match):
        turn = match.game.turn
        left[turn] = max(0.0, left[turn] - max(0.0, now - match.turn_since))
    return left


def flag_at(match: Match) -> float | None:
    """When the mover's whole-game clock runs out (None: no such clock, or not running)."""
    left = _banked(match)
    if left is None or not _running(match):
        return None
    return match.turn_since + left[match.game.turn]


def charge(match: Match, turn: int, now: float, *, increment: bool = True) -> None:
    """Seat ``turn``, the mover, hands the turn on at ``now`` (or STOP halts the clocks): the
    time spent since ``turn_since`` comes off their clock, and the increment goes on. Call it
    before ``turn_since`` moves to ``now``."""
    left = _banked(match)
    if left is None or match.status != "active":
        return
    spent = max(0.0, now - match.turn_since)
    bonus = control(match).increment if increment else 0
    left[turn] = max(0.0, left[turn] - spent) + bonus
    match.extra["left"] = [round(x, 3) for x in left]


def flag_over(match: Match, now: float) -> list[Effect]:
    """The mover's whole-game clock ran out: the game ends on time (the tick at the flag,
    or lazily the first tap after it, whichever comes first: a restart may delay the tick)."""
    at = flag_at(match)
    if at is None or now < at:
        return []
    loser = match.game.turn
    charge(match, loser, at, increment=False)
    match.game.timeout(loser)
    return finish(match, now)


def think_budget(match: Match, now: float) -> float | None:
    """The most the bot may think about its move on a whole-game clock (it plays on its
    time): a thirtieth of what is left plus half the increment; None without such a clock."""
    left = time_left(match, now)
    if left is None or match.status != "active":
        return None
    mover = left[match.game.turn]
    return max(0.05, mover / 30 + control(match).increment / 2)


def expired(match: Match, now: float) -> bool:
    d = deadline(match)
    return d is not None and now >= d


def _stop_phase(match: Match) -> engine.Stopping | None:
    """The game while someone's STOP holds (the other player moves alone), else None."""
    game = engine.stopping(match.game)
    return game if game is not None and game.stopped_by is not None else None


def _stopped(match: Match) -> bool:
    return _stop_phase(match) is not None


def _runs_out(match: Match) -> tuple[float, int] | None:
    """When the mover's time runs out, and the length of that clock (per move or per game)."""
    d = deadline(match)
    if d is not None:
        return d, per_move(match)
    f = flag_at(match)
    if f is not None:
        return f, control(match).total
    return None


def _remind_at(match: Match) -> float | None:
    """A long clock reminds a person once a turn, a quarter of the clock (at most 12 hours)
    before it runs out, or a minute into a turn that starts with less left."""
    out = _runs_out(match)
    seat = match.to_move
    if out is None or seat is None or seat.is_ai or out[1] < LONG_CLOCK:
        return None
    if match.extra.get("reminded") == match.turn_since:
        return None
    at = max(out[0] - min(out[1] / 4, 12 * 3600), match.turn_since + PING_AFTER)
    return at if at < out[0] else None


def next_tick(match: Match, timeouts: Timeouts) -> float | None:
    """The next moment something may change by itself, or None."""
    if match.status == "finished":
        return None
    if match.status == "lobby":
        return match.updated + timeouts.lobby
    times = [match.updated + timeouts.idle]
    stop = _stop_phase(match)
    if stop is not None and stop.deadline is not None:
        times.append(stop.deadline)
    d = deadline(match)
    if d is not None and match.extra.get("expired") != match.turn_since:
        times.append(d)
    f = flag_at(match)
    if f is not None:
        times.append(f)
    r = _remind_at(match)
    if r is not None:
        times.append(r)
    p = _ping_at(match)
    if p is not None:
        times.append(p)
    return min(times)


def _ping_at(match: Match) -> float | None:
    """Board edits notify nobody, so a player whose turn it is in a shared game (a group, or
    a link game in two private chats) gets one short ping per turn if they do not move within
    a minute; fast games never ping, slow ones ping once — never a flood."""
    seat = match.to_move
    if seat is None or seat.is_ai or seat.user is None:
        return None
    if not any(p.group or p.seat is not None or p.inline for p in match.places):
        return None
    if match.extra.get("pinged") == match.turn_since:
        return None
    return match.turn_since + PING_AFTER


def stop_over(match: Match, now: float) -> list[Effect]:
    """The lazy check on any tap: a Dots STOP phase whose time ran out ends the game."""
    stop = _stop_phase(match) if match.status == "active" else None
    if stop is not None and stop.expired(now):
        stop.finish_stop()
        return finish(match, now)
    return []


def tick(match: Match, now: float, timeouts: Timeouts) -> list[Effect]:
    """Apply whatever is due at ``now``; an early or repeated tick changes nothing."""
    if match.status == "finished":
        return []
    if match.status == "lobby":
        if now < match.updated + timeouts.lobby:
            return []
        return _close(match, "closed.lobby")
    game: Any = match.game
    over = stop_over(match, now) or flag_over(match, now)
    if over:
        return over
    effects: list[Effect] = []
    d = deadline(match)
    seat = match.to_move
    if d is not None and now >= d and match.extra.get("expired") != match.turn_since:
        if all(s.is_ai for i, s in enumerate(match.seats) if i != game.turn):
            game.timeout(game.turn)  # against the bot: it claims the win at once
            return finish(match, now)
        match.extra["expired"] = match.turn_since
        match.version += 1  # the keyboard now offers the claim
        effects.append(Refresh())
        for i, s in enumerate(match.seats):
            if s.user is not None and not s.is_ai and i != game.turn:
                effects.append(
                    Notify(s.user, Text("clock.can_claim", who=seat.name if seat else ""))
                )
    elif (r := _remind_at(match)) is not None and now >= r and seat is not None and seat.user:
        match.extra["reminded"] = match.turn_since
        match.extra["pinged"] = match.turn_since  # the reminder is the ping
        out = _runs_out(match)
        left = _left(out[0] - now if out else 0)
        effects.append(Notify(seat.user, Text("clock.reminder", left=left)))
    elif (p := _ping_at(match)) is not None and now >= p and seat is not None and seat.user:
        match.extra["pinged"] = match.turn_since
        others = ", ".join(s.name for s in match.seats if s is not seat)
        game_name = Text(f"game.{match.kind}")
        effects.append(Notify(seat.user, Text("turn.ping", game=game_name, opponent=others)))
    if not effects and now >= match.updated + timeouts.idle:
        return _close(match, "closed.idle")
    return effects


def _close(match: Match, key: str) -> list[Effect]:
    match.status = "finished"
    match.extra["cancelled"] = True
    match.version += 1
    effects: list[Effect] = [Refresh()]
    if match.chat is not None:
        effects.append(Say(match.chat, Text(key)))
    return effects


def _left(seconds: float) -> Text:
    if seconds >= 3600:
        return Text("clock.hours", n=max(1, round(seconds / 3600)))
    return Text("clock.minutes", n=max(1, round(seconds / 60)))
