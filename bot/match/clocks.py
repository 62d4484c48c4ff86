"""Time in a match: per-move clocks, reminders, the Dots STOP timer, idle lobbies and games.

Everything is computed from the record (``turn_since``, ``updated``, the clock option, the
engine's STOP deadline), so acting on a deadline twice is harmless and nothing lives only in
memory: the adapter keeps one Redis deadline per match at :func:`next_tick` and calls
:func:`tick` when it falls due (on any replica, after any restart).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import engine
from bot.i18n import Text
from bot.match.closing import finish
from bot.match.effects import Effect, Notify, Refresh, Say
from bot.match.model import Match

# Per-move clocks offered when creating a match (seconds); 0 = no clock.
CLOCKS = {"0": 0, "1": 60, "5": 300, "h": 3600, "d": 86400, "w": 3 * 86400}
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
    if seconds % 86400 == 0:
        return Text("clock.days_per_move", n=seconds // 86400)
    if seconds % 3600 == 0:
        return Text("clock.hours_per_move", n=seconds // 3600)
    return Text("clock.minutes_per_move", n=max(1, seconds // 60))


def per_move(match: Match) -> int:
    return int(match.extra.get("clock", 0))


def deadline(match: Match) -> float | None:
    """When the player to move runs out of time (None: no clock, or not running)."""
    seconds = per_move(match)
    if not seconds or match.status != "active" or _stopped(match):
        return None
    seat = match.to_move
    if seat is None or seat.is_ai:
        return None
    return match.turn_since + seconds


def expired(match: Match, now: float) -> bool:
    d = deadline(match)
    return d is not None and now >= d


def _stop_phase(match: Match) -> engine.Stopping | None:
    """The game while someone's STOP holds (the other player moves alone), else None."""
    game = engine.stopping(match.game)
    return game if game is not None and game.stopped_by is not None else None


def _stopped(match: Match) -> bool:
    return _stop_phase(match) is not None


def _remind_at(match: Match) -> float | None:
    d = deadline(match)
    seconds = per_move(match)
    if d is None or seconds < LONG_CLOCK or match.extra.get("reminded") == match.turn_since:
        return None
    return d - min(seconds / 4, 12 * 3600)


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
    over = stop_over(match, now)
    if over:
        return over
    effects: list[Effect] = []
    d = deadline(match)
    seat = match.to_move
    if d is not None and now >= d and match.extra.get("expired") != match.turn_since:
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
        effects.append(Notify(seat.user, Text("clock.reminder", left=_left(d - now if d else 0))))
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
