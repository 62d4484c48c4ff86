"""Moves, keyboard steps and the bot's moves on an active match, and the entry points: the
state machine :func:`apply`, and :func:`apply_and_show`, the adapter's one call per action
(the effects and what each place to refresh shows now)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypedDict, Unpack

import engine
from bot.i18n import Text
from bot.match import clocks, closing, ending, lobby, ui, views
from bot.match.actions import (
    AI_DONE,
    AI_STOP,
    Action,
    Actor,
    AddBot,
    AIMove,
    AlreadyApplied,
    AnswerDraw,
    Cancel,
    ClaimTime,
    Cursor,
    Done,
    Ground,
    Join,
    Leave,
    OfferDraw,
    Play,
    Refused,
    Resign,
    Start,
    Stop,
    Tick,
    illegal,
)
from bot.match.clocks import DEFAULT_TIMEOUTS, Timeouts
from bot.match.effects import AITurn, Effect, Popup, Refresh
from bot.match.model import Match
from bot.match.views import PlaceView


def apply(
    match: Match,
    actor: Actor | None,
    action: Action,
    *,
    now: float,
    version: int | None = None,
    place: int | None = None,
    timeouts: Timeouts = DEFAULT_TIMEOUTS,
    request: str | None = None,
) -> list[Effect]:
    """Apply ``action`` by ``actor`` (None for the bot itself) and say what must be shown.

    Raises :class:`Refused` and leaves the match unchanged when the action is not allowed;
    ``version`` (from the button) must match the match's, so stale buttons do nothing.
    ``request`` names the Telegram update that asked (callback query id, chat:message id):
    the same request again raises :class:`AlreadyApplied` instead of being refused as stale
    (or, for keyboard steps that keep the version, applied twice).
    """
    if isinstance(action, Tick):
        return clocks.tick(match, now, timeouts)
    if request is not None and match.extra.get("rq") == request:
        raise AlreadyApplied(match)
    effects = _apply(match, actor, action, now, version, place, timeouts)
    if request is not None:
        match.extra["rq"] = request
    return effects


@dataclass(frozen=True)
class Applied:
    """What an action did: its effects, and the view of each place they refresh (the state
    just written, shown without decoding it again). A view is drawn when first asked for
    and kept: a show that starts from this state draws each place once, on the event loop
    (not in the worker thread a slow move runs in), and one that reads a newer state
    instead draws none of these."""

    effects: list[Effect]
    match: Match
    now: float
    places: frozenset[int]
    _drawn: dict[int, PlaceView] = field(default_factory=dict, repr=False, compare=False)

    def view(self, i: int) -> PlaceView | None:
        """The view of place ``i``, None for a place the effects do not refresh."""
        if i not in self.places:
            return None
        if i not in self._drawn:
            self._drawn[i] = views.place_view(self.match, i, self.now)
        return self._drawn[i]

    @property
    def views(self) -> dict[int, PlaceView]:
        return {i: v for i in sorted(self.places) if (v := self.view(i)) is not None}


class Given(TypedDict, total=False):
    """:func:`apply`'s optional keyword arguments, for :func:`apply_and_show`."""

    version: int | None
    place: int | None
    timeouts: Timeouts
    request: str | None


def apply_and_show(
    match: Match, actor: Actor | None, action: Action, *, now: float, **given: Unpack[Given]
) -> Applied:
    """:func:`apply` (same arguments, same refusals), and the views of the places to show."""
    return shown(match, apply(match, actor, action, now=now, **given), now)


def shown(match: Match, effects: list[Effect], now: float) -> Applied:
    """``effects`` with the views of the places their refreshes name (places that cannot be
    shown, a blocked user's or one with nowhere to go, are left out)."""
    wanted: set[int] = set()
    for e in effects:
        if isinstance(e, Refresh):
            wanted.update(range(len(match.places)) if e.places is None else e.places)
    places = frozenset(
        i
        for i in wanted
        if 0 <= i < len(match.places)
        and not match.places[i].off
        and (match.places[i].chat is not None or match.places[i].inline)
    )
    return Applied(effects, match, now, places)


RESUME_AFTER = 2.0  # seconds a redelivered update waits before following up


def resume(match: Match) -> list[Effect]:
    """What a match needs when its last action may not have been followed up (the process
    that applied it died): the bot's move if it is still its turn in a moment. (Its boards are
    shown again a moment later too, so as not to race the first delivery's own edits.)"""
    seat = match.to_move
    return [AITurn(check_after=RESUME_AFTER)] if seat is not None and seat.is_ai else []


def _apply(
    match: Match,
    actor: Actor | None,
    action: Action,
    now: float,
    version: int | None,
    place: int | None,
    timeouts: Timeouts,
) -> list[Effect]:
    over = clocks.stop_over(match, now)
    if over:  # the STOP time ran out before this tap: the game ends, the tap does nothing
        return [*over, Popup(Text("stop.time_over"), alert=True)]
    over = clocks.flag_over(match, now)
    if over:  # the mover's whole-game clock ran out before this tap (or the bot's move)
        return [*over, Popup(Text("clock.flag_fell"), alert=True)]
    if version is not None and version != match.version:
        raise Refused("err.stale")
    before = match.version
    if isinstance(action, AIMove):
        effects = _ai_move(match, action, now, timeouts)
    else:
        if actor is None:
            raise Refused("err.not_a_player")
        effects = _human(match, actor, action, now, place, timeouts)
    if match.version != before:  # keyboard-only steps are not activity
        match.updated = now
    return effects


def _human(
    match: Match, actor: Actor, action: Action, now: float, place: int | None, timeouts: Timeouts
) -> list[Effect]:
    match action:
        case Join():
            return lobby.join(match, actor, now)
        case Leave():
            return lobby.leave(match, actor, now)
        case Start():
            return lobby.start_early(match, actor, now)
        case AddBot(level=level):
            return lobby.add_bot(match, actor, level, now)
        case Cancel():
            return lobby.cancel(match, actor, now)
        case Play():
            return _play(match, actor, action, now)
        case Cursor(op=op):
            return _cursor(match, actor, op, place, now)
        case Resign(confirmed=confirmed):
            return ending.resign(match, actor, confirmed, place, now)
        case OfferDraw(scores=scores):
            return ending.offer_draw(match, actor, now, scores=scores)
        case AnswerDraw(accept=accept):
            return ending.answer_draw(match, actor, accept, now)
        case Stop():
            return ending.stop(match, actor, now, timeouts.stop)
        case Done():
            return ending.done(match, actor, now)
        case Ground():
            return ending.ground(match, actor, now)
        case ClaimTime():
            return ending.claim_time(match, actor, now)
    raise Refused("err.bad_button")


def _need_active(match: Match) -> None:
    if match.status == "lobby":
        raise Refused("err.not_started")
    if match.status == "finished":
        raise Refused("err.finished")


def _play(match: Match, actor: Actor, action: Play, now: float) -> list[Effect]:
    _need_active(match)
    seat = match.to_move
    assert seat is not None
    if seat.is_ai or seat.user != actor.user:
        if match.seat_of(actor.user) is None:
            raise Refused("err.not_a_player")
        raise Refused("err.not_your_turn")
    game_ui = ui.get(match.kind)
    if action.code is not None:
        move = game_ui.decode(match, action.code)
    else:
        move = _parse(match, action.text or "")
    return _commit(match, move, now)


def _parse(match: Match, text: str) -> Any:
    try:
        return match.game.parse_move(text.strip())
    except engine.BadNotation as e:
        if e.code != "bad_notation":  # a specific reason (no such spot, several moves…)
            raise illegal(match, e) from e
        raise Refused("err.bad_notation", text=text.strip()[:40], detail=e.reason) from e


def _commit(match: Match, move: Any, now: float) -> list[Effect]:
    game = match.game
    before = game.turn
    try:
        game.play(move)
    except engine.IllegalMove as e:
        raise illegal(match, e) from e
    match.version += 1
    if game.turn != before or game.over:
        clocks.charge(match, before, now)  # the turn passes: the mover's clock stops
        match.turn_since = now
    ui.get(match.kind).after_move(match, move)
    closing.clear_offer(match)
    for place in match.places:
        place.cursor.pop("menu", None)
        place.cursor.pop("confirm", None)
    if game.over:
        return closing.finish(match, now, bump=False)
    nxt = match.to_move
    if nxt is not None and nxt.is_ai:
        return [AITurn()]
    return [Refresh()]


def _ai_move(match: Match, action: AIMove, now: float, timeouts: Timeouts) -> list[Effect]:
    _need_active(match)
    seat = match.to_move
    if seat is None or not seat.is_ai or match.game.turn != action.seat:
        raise Refused("err.stale")
    if action.move == AI_STOP:
        return ending.bot_stop(match, action.seat, now, timeouts.stop)
    if action.move == AI_DONE:
        return ending.bot_done(match, action.seat, now)
    return _commit(match, _parse(match, action.move), now)


def _cursor(match: Match, actor: Actor, op: str, place: int | None, now: float) -> list[Effect]:
    _need_active(match)
    if place is None or not 0 <= place < len(match.places):
        raise Refused("err.bad_button")
    seat = match.seat_of(actor.user)
    if seat is None:
        raise Refused("err.not_a_player")
    cursor = match.places[place].cursor
    if op == "menu":
        cursor["menu"] = 1
        cursor.pop("confirm", None)
    elif op == "back":
        cursor.pop("menu", None)
        cursor.pop("confirm", None)
    else:
        game_ui = ui.get(match.kind)
        mover = match.seats[match.game.turn]
        if mover.user != actor.user or mover.is_ai:
            # off turn, a player may browse their own board, but not the one a group shares:
            # that would pull the keyboard away from under the player who is moving
            shared = match.places[place].seat is None and not mover.is_ai
            if game_ui.cursor_needs_turn or shared:
                raise Refused("err.not_your_turn")
        game_ui.cursor(match, match.places[place], op)
        move = game_ui.auto_move(match, match.places[place])
        if move is not None:  # the selection leaves one move only: play it
            return _commit(match, move, now)
    return [Refresh(places=(place,))]
