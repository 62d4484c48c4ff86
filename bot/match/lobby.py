"""Creating matches and filling seats: lobby → active."""

from __future__ import annotations

from typing import Any

import engine
from bot.match.actions import Actor, Refused
from bot.match.clocks import NO_CLOCK, Control
from bot.match.effects import AITurn, Effect, Refresh
from bot.match.model import Match, Place, Seat

MAX_NAME = 32


def seat_count(kind: str, options: dict[str, Any]) -> int:
    """How many seats a game of this kind and these options has."""
    return engine.facts_of(kind).seats(options)


def clean_name(name: str) -> str:
    name = " ".join(name.split()) or "?"
    return name if len(name) <= MAX_NAME else name[: MAX_NAME - 1] + "…"


def new_match(
    *,
    match_id: str,
    kind: str,
    options: dict[str, Any],
    creator: Actor,
    chat: int | None,
    group: bool,
    lang: str,
    now: float,
    ai_level: str | None = None,
    clock: Control = NO_CLOCK,
) -> tuple[Match, list[Effect]]:
    """A new match in ``chat``: against the bot when ``ai_level`` is given (it starts at once),
    otherwise a lobby with the creator in the first seat."""
    try:
        engine.new(kind, **dict(options))
    except (engine.EngineError, TypeError, ValueError) as e:
        raise Refused("err.bad_options", detail=str(e)) from e
    if ai_level is not None and ai_level not in engine.facts_of(kind).levels:
        raise Refused("err.bad_options", detail=ai_level)
    match = Match(
        id=match_id,
        kind=kind,
        options=dict(options),
        players=seat_count(kind, options),
        seats=[Seat(creator.user, clean_name(creator.name))],
        chat=chat,
        creator=creator.user,
        lang=lang,
        created=now,
        updated=now,
    )
    if chat is not None:
        match.places.append(Place(chat=chat, lang=lang, group=group))
    clock.store(match.extra)
    if ai_level is None:
        return match, []
    while len(match.seats) < match.players:
        match.seats.append(Seat(None, "", level=ai_level))
    return match, start(match, now)


def start(match: Match, now: float) -> list[Effect]:
    match.status = "active"
    match.attach(engine.new(match.kind, **match.options))
    match.version += 1
    match.turn_since = now
    to_move = match.to_move
    return [AITurn()] if to_move is not None and to_move.is_ai else [Refresh()]


def _need_lobby(match: Match) -> None:
    if match.status == "active":
        raise Refused("err.already_started")
    if match.status == "finished":
        raise Refused("err.finished")


def join(match: Match, actor: Actor, now: float) -> list[Effect]:
    _need_lobby(match)
    if match.seat_of(actor.user) is not None:
        raise Refused("err.already_joined")
    if len(match.seats) >= match.players:
        raise Refused("err.full")
    match.seats.append(Seat(actor.user, clean_name(actor.name)))
    match.version += 1
    if len(match.seats) == match.players:
        return start(match, now)
    return [Refresh()]


def leave(match: Match, actor: Actor, now: float) -> list[Effect]:
    _need_lobby(match)
    i = match.seat_of(actor.user)
    if i is None:
        raise Refused("err.not_joined")
    del match.seats[i]
    match.version += 1
    if not match.humans:
        match.status = "finished"
        match.extra["cancelled"] = True
    return [Refresh()]


def add_bot(match: Match, actor: Actor, level: str, now: float) -> list[Effect]:
    _need_lobby(match)
    if match.seat_of(actor.user) is None:
        raise Refused("err.join_first")
    if level not in match.facts.levels:
        raise Refused("err.bad_button")
    if len(match.seats) >= match.players:
        raise Refused("err.full")
    match.seats.append(Seat(None, "", level=level))
    match.version += 1
    if len(match.seats) == match.players:
        return start(match, now)
    return [Refresh()]


def start_early(match: Match, actor: Actor, now: float) -> list[Effect]:
    """The creator starts a multi-player Boxes lobby with the players who joined so far."""
    _need_lobby(match)
    if actor.user != match.creator:
        raise Refused("err.creator_only")
    facts = match.facts
    if facts.min_players == facts.max_players or len(match.seats) < facts.min_players:
        raise Refused("err.need_players")  # only a game with a range of players starts early
    match.options["players"] = len(match.seats)
    match.players = len(match.seats)
    return start(match, now)


def cancel(match: Match, actor: Actor, now: float) -> list[Effect]:
    _need_lobby(match)
    if actor.user != match.creator:
        raise Refused("err.creator_only")
    match.status = "finished"
    match.extra["cancelled"] = True
    match.version += 1
    return [Refresh()]


def rematch(old: Match, actor: Actor, match_id: str, now: float) -> Match:
    """The same game again with every seat moved one place on (so colours and the first move
    rotate), shown where the old one was; it starts at once."""
    if old.status != "finished" or old.extra.get("cancelled"):
        raise Refused("err.no_rematch")
    if old.seat_of(actor.user) is None:
        raise Refused("err.not_a_player")
    if old.extra.get("rematch"):
        raise Refused("err.rematch_started")
    seats = old.seats[1:] + old.seats[:1]
    places = []
    for p in old.places:
        seat = None
        if p.seat is not None:
            seat = next(i for i, s in enumerate(seats) if s is old.seats[p.seat])
        places.append(Place(chat=p.chat, inline=p.inline, seat=seat, lang=p.lang, group=p.group))
    match = Match(
        id=match_id,
        kind=old.kind,
        options=dict(old.options),
        players=old.players,
        seats=[Seat(s.user, s.name, s.level) for s in seats],
        places=places,
        chat=old.chat,
        creator=actor.user,
        lang=old.lang,
        created=now,
        updated=now,
    )
    Control.of(old.extra).store(match.extra)  # the same clock, each player's total afresh
    old.extra["rematch"] = match_id
    old.version += 1
    return match
