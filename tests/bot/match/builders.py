"""Matches in named states for the match-layer tests, built the way the adapter builds them
(``lobby.new_match``, then actions through ``turns.apply``), and a short spelling of effects.

No Redis, no emulator, no Telegram: time is the plain ``now`` float each call is given.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from bot.match import lobby, turns
from bot.match.actions import (
    Action,
    Actor,
    AIMove,
    Cancel,
    Join,
    OfferDraw,
    Play,
    Refused,
    Resign,
    Stop,
)
from bot.match.clocks import DEFAULT_TIMEOUTS, NO_CLOCK, Control, Timeouts
from bot.match.effects import AITurn, Effect, Finished, Notify, Popup, Refresh, Say
from bot.match.model import Match

ALICE = Actor(1, "Alice")  # creates the match; seat 0, moves first
BOB = Actor(2, "Bob")  # seat 1
CAROL = Actor(3, "Carol")  # seat 2 of a three-player Boxes match
EVE = Actor(9, "Eve")  # never holds a seat
NAMES = {a.user: a.name for a in (ALICE, BOB, CAROL, EVE)}
WHO = {"alice": ALICE, "bob": BOB, "carol": CAROL, "eve": EVE, "bot": None}

GROUP = -100  # the group chat the match is shown in (place 0)
T0 = 1_000_000.0  # the fake clock's start
OPTIONS: dict[str, dict[str, Any]] = {
    "dots": {"width": 10, "height": 10},
    "boxes": {"rows": 3, "cols": 3},
    "sprouts": {"spots": 3},
}
KINDS = tuple(OPTIONS)


def apply(
    match: Match,
    actor: Actor | None,
    action: Action,
    *,
    now: float = T0,
    version: int | None = None,
    place: int | None = 0,
    timeouts: Timeouts = DEFAULT_TIMEOUTS,
    request: str | None = None,
) -> list[Effect]:
    """The one call of the match layer's entry point in these tests (adapt here if it moves)."""
    return turns.apply(
        match,
        actor,
        action,
        now=now,
        version=version,
        place=place,
        timeouts=timeouts,
        request=request,
    )


def refusal(match: Match, actor: Actor | None, action: Action, **kw: Any) -> str:
    """The key of the refusal ``action`` meets; a refused action must leave the match as it
    was (the adapter relies on it only through not saving, but the layer promises it)."""
    before = _record(match)
    with pytest.raises(Refused) as caught:
        apply(match, actor, action, **kw)
    assert _record(match) == before, "a refused action changed the match"
    return caught.value.text.key


def _record(match: Match) -> dict[str, Any]:
    """The stored form, less a lobby's engine state: every tap reads ``match.game`` (the
    STOP check), which in a lobby builds a fresh game that nobody uses before the start."""
    record = match.to_json()
    if match.status == "lobby":
        record.pop("game", None)
    return record


def said(effects: list[Effect]) -> list[str]:
    """Effects in a few words each, so table rows read as rules: ``Refresh`` (every place),
    ``Refresh@0`` (only place 0), ``Popup <key>``,
    ``Alert <key>``, ``Notify <name> <key>``, ``Say <key>``, ``AITurn``, ``Finished``."""
    out = []
    for e in effects:
        match e:
            case Refresh(places=places):
                out.append("Refresh" + ("" if places is None else "@" + ",".join(map(str, places))))
            case Popup(text=text, alert=alert):
                out.append(f"{'Alert' if alert else 'Popup'} {text.key}")
            case Notify(user=user, text=text):
                out.append(f"Notify {NAMES.get(user, user)} {text.key}")
            case Say(text=text):
                out.append(f"Say {text.key}")
            case AITurn(check_after=after):
                out.append("AITurn" if not after else f"AITurn+{after:g}")
            case Finished():
                out.append("Finished")
    return out


def first_move(match: Match) -> Play:
    """A legal move for the player to move, typed in the game's notation."""
    game = match.game
    return Play(text=game.format_move(game.legal_moves()[0]))


def ai_move(match: Match) -> AIMove:
    """The bot's move for the seat to move, as the AI pool hands it back."""
    game = match.game
    return AIMove(seat=game.turn, move=game.format_move(game.legal_moves()[0]))


# -- states ------------------------------------------------------------------------------


def lobby_of(
    kind: str,
    *,
    players: int = 2,
    clock: int | Control = 0,
    options: dict[str, Any] | None = None,
) -> Match:
    """Alice's lobby in the group, alone in it (``options`` replace the small board's;
    ``clock``: seconds per move, or any clock)."""
    options = dict(OPTIONS[kind] if options is None else options)
    if players != 2:
        options["players"] = players
    match, effects = lobby.new_match(
        match_id="m1",
        kind=kind,
        options=options,
        creator=ALICE,
        chat=GROUP,
        group=True,
        lang="en",
        now=T0,
        clock=Control(per_move=clock) if isinstance(clock, int) else clock,
    )
    assert effects == [] and match.status == "lobby"
    return match


def lobby_of_two_of_three(kind: str) -> Match:
    """A three-seat Boxes lobby with Alice and Bob in it."""
    match = lobby_of(kind, players=3)
    apply(match, BOB, Join())
    return match


def active(kind: str, *, clock: int | Control = 0, options: dict[str, Any] | None = None) -> Match:
    """Alice (seat 0) against Bob (seat 1) in the group; Alice to move."""
    match = lobby_of(kind, clock=clock, options=options)
    assert said(apply(match, BOB, Join())) == ["Refresh"]
    assert match.status == "active" and match.game.turn == 0
    return match


def vs_bot(kind: str, *, level: str = "medium", clock: Control = NO_CLOCK) -> Match:
    """Alice against the bot, in her private chat, as the quick-game menu makes it."""
    match, effects = lobby.new_match(
        match_id="m1",
        kind=kind,
        options=dict(OPTIONS[kind]),
        creator=ALICE,
        chat=ALICE.user,
        group=False,
        lang="en",
        now=T0,
        ai_level=level,
        clock=clock,
    )
    assert said(effects) == ["Refresh"] and match.game.turn == 0
    return match


def bobs_turn(kind: str) -> Match:
    match = active(kind)
    apply(match, ALICE, first_move(match))
    assert match.game.turn == 1
    return match


def offered(kind: str) -> Match:
    """Bob offered a draw on Alice's turn."""
    match = active(kind)
    apply(match, BOB, OfferDraw())
    return match


def stopped(kind: str) -> Match:
    """Dots: Bob called STOP on Alice's turn at T0; Alice moves alone for three minutes."""
    match = active(kind)
    apply(match, BOB, Stop())
    return match


def finished(kind: str) -> Match:
    """Bob resigned on Alice's turn: Alice won."""
    match = active(kind)
    apply(match, BOB, Resign(confirmed=True))
    assert match.status == "finished"
    return match


def cancelled(kind: str) -> Match:
    match = lobby_of(kind)
    apply(match, ALICE, Cancel())
    return match


def bots_turn(kind: str) -> Match:
    match = vs_bot(kind)
    assert said(apply(match, ALICE, first_move(match))) == ["AITurn"]
    return match


def bot_alone(kind: str) -> Match:
    """Dots: Alice called STOP against the bot; the bot moves alone and ends it itself."""
    match = vs_bot(kind)
    assert said(apply(match, ALICE, Stop())) == ["Refresh", "AITurn"]
    return match


STATES: dict[str, Callable[[str], Match]] = {
    "lobby": lobby_of,
    "lobby 2/3": lobby_of_two_of_three,
    "active": active,  # Alice to move
    "bob's turn": bobs_turn,
    "offer": offered,
    "stop": stopped,
    "finished": finished,
    "cancelled": cancelled,
    "vs bot": vs_bot,  # Alice to move
    "bot's turn": bots_turn,
    "bot alone": bot_alone,
}
