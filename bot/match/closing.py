"""Closing a match the engine says is over: shared by the last move (turns), the ways to end
a game (ending) and the clock (clocks), which all sit above it."""

from __future__ import annotations

from bot.match.effects import Effect, Finished, Refresh
from bot.match.model import Match


def finish(match: Match, now: float, *, bump: bool = True) -> list[Effect]:
    """The engine says the game is over: close the match."""
    match.status = "finished"
    if bump:
        match.version += 1
    match.turn_since = now
    for place in match.places:
        place.cursor.pop("menu", None)
        place.cursor.pop("confirm", None)
    clear_offer(match)
    return [Refresh(), Finished()]


def clear_offer(match: Match) -> None:
    """A draw (or end-here) offer lapses: a move, STOP, the end, a withdrawal, a refusal."""
    match.extra.pop("draw", None)
    match.extra.pop("end_scores", None)
