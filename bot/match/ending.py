"""Ways to end a match besides the last move: resign, draw by agreement, Dots STOP and
grounding, and a win claimed on time."""

from __future__ import annotations

from typing import Any, cast

import engine
from bot.i18n import Text
from bot.match.actions import Actor, Refused, illegal
from bot.match.clocks import charge, expired
from bot.match.closing import clear_offer, finish
from bot.match.effects import AITurn, Effect, Notify, Popup, Refresh, Say
from bot.match.model import Match


def _need_active(match: Match) -> None:
    if match.status == "lobby":
        raise Refused("err.not_started")
    if match.status == "finished":
        raise Refused("err.finished")


def _seat(match: Match, actor: Actor) -> int:
    _need_active(match)
    seat = match.seat_of(actor.user)
    if seat is None:
        raise Refused("err.not_a_player")
    return seat


def _engine(match: Match, call: Any) -> None:
    try:
        call()
    except engine.IllegalMove as e:
        raise illegal(match, e) from e


def resign(
    match: Match, actor: Actor, confirmed: bool, place: int | None, now: float
) -> list[Effect]:
    seat = _seat(match, actor)
    if not confirmed:
        if place is None:
            raise Refused("err.bad_button")
        match.places[place].cursor["confirm"] = ["resign", actor.user]
        match.places[place].cursor.pop("menu", None)
        return [Refresh(places=(place,))]
    if place is not None:
        ask = match.places[place].cursor.get("confirm")
        if ask is not None and ask != ["resign", actor.user]:
            raise Refused("err.not_your_confirm")
    _engine(match, lambda: match.game.resign(seat))
    return finish(match, now)


def offer_draw(match: Match, actor: Actor, now: float, *, scores: bool = False) -> list[Effect]:
    """Offer a draw, or in Dots with ``scores`` to end here with the scores deciding."""
    seat = _seat(match, actor)
    extra = engine.Extra.END_HERE if scores else engine.Extra.DRAW
    if not match.facts.has(extra):
        raise Refused("err.bad_button")
    if match.extra.get("draw") is not None:
        raise Refused("err.draw_pending")
    others = [s for i, s in enumerate(match.seats) if i != seat]
    if all(s.is_ai for s in others):
        return _ai_answers_draw(match, seat, now, scores)
    match.extra["draw"] = [seat]
    if scores:
        match.extra["end_scores"] = True
    match.version += 1
    for place in match.places:
        place.cursor.pop("menu", None)
    who = match.seats[seat].name
    key = "end_here" if scores else "draw"
    effects: list[Effect] = [Refresh(), Popup(Text(f"{key}.offered"))]
    for s in others:
        if s.user is not None and not s.is_ai:
            effects.append(Notify(s.user, Text(f"{key}.offer_to_you", who=who)))
    return effects


def _ai_answers_draw(match: Match, seat: int, now: float, scores: bool) -> list[Effect]:
    """The bot accepts a draw only when it would not be ahead by the scores as they stand,
    and ending here with the scores deciding only when it would not be behind."""
    standing = match.game.scores
    best_other = max(s for i, s in enumerate(standing) if i != seat)
    if scores and best_other < standing[seat]:
        raise Refused("end_here.bot_declines")
    if not scores and best_other > standing[seat]:
        raise Refused("draw.bot_declines")
    _agree(match, scores)
    return finish(match, now)


def _agree(match: Match, scores: bool) -> None:
    _engine(match, lambda: match.game.agree(draw=not scores))


def answer_draw(match: Match, actor: Actor, accept: bool, now: float) -> list[Effect]:
    seat = _seat(match, actor)
    offer = match.extra.get("draw")
    if offer is None:
        raise Refused("err.no_draw_offer")
    if seat in offer:
        if accept:
            raise Refused("err.own_offer")
        clear_offer(match)  # withdraw
        match.version += 1
        return [Refresh()]
    if not accept:
        clear_offer(match)
        match.version += 1
        return [Refresh(), Popup(Text("draw.declined"))]
    agreed = sorted({*offer, seat})
    humans = [i for i, s in enumerate(match.seats) if not s.is_ai]
    if set(agreed) >= set(humans):
        _agree(match, bool(match.extra.get("end_scores")))
        return finish(match, now)
    match.extra["draw"] = agreed
    match.version += 1
    return [Refresh()]


def stop(match: Match, actor: Actor, now: float, limit: float) -> list[Effect]:
    """Dots STOP, on either turn (the rules tie it to none). Against the bot, the bot then
    plays its solo phase at once and ends it itself."""
    seat = _seat(match, actor)
    effects = _stop(match, seat, now, limit)
    mover = match.to_move
    if mover is not None and mover.is_ai:
        effects.append(AITurn())
    return effects


def bot_stop(match: Match, seat: int, now: float, limit: float) -> list[Effect]:
    """The bot calls STOP (medium, hard and expert, when no solo phase of the person can catch up):
    the caption and one line in each chat say why."""
    game: Any = match.game
    lead = game.scores[seat] - game.scores[1 - seat]
    effects = _stop(match, seat, now, limit)
    match.extra["stop_lead"] = lead
    minutes = max(1, round(limit / 60))
    text = Text(
        "stop.bot_called",
        who=Text("bot.name", level=Text(f"level.{match.seats[seat].level}")),
        lead=Text("count.points", n=lead),
        minutes=minutes,
    )
    return effects + [Say(chat, text) for chat in match.chats()]


def _stop(match: Match, seat: int, now: float, limit: float) -> list[Effect]:
    game = engine.stopping(match.game)
    if game is None:
        raise Refused("err.bad_button")
    mover = match.game.turn
    _engine(match, lambda: game.stop(seat, now=now, limit=limit))
    charge(match, mover, now, increment=False)  # the clocks stand still while STOP holds
    match.extra["stop_limit"] = limit
    match.version += 1
    match.turn_since = now
    clear_offer(match)
    for place in match.places:
        place.cursor.pop("menu", None)
        place.cursor.pop("confirm", None)
    return [Refresh()]


def done(match: Match, actor: Actor, now: float) -> list[Effect]:
    seat = _seat(match, actor)
    game = engine.stopping(match.game)
    if game is None or game.stopped_by is None:
        raise Refused("err.bad_button")
    if seat == game.stopped_by:
        raise Refused("err.not_your_turn")
    _engine(match, game.finish_stop)
    return finish(match, now)


def bot_done(match: Match, seat: int, now: float) -> list[Effect]:
    """The bot's solo phase after the person's STOP is over: it taps Done itself."""
    game = engine.stopping(match.game)
    if game is None or game.stopped_by is None or seat == game.stopped_by:
        raise Refused("err.stale")
    _engine(match, game.finish_stop)
    return finish(match, now)


def ground(match: Match, actor: Actor, now: float) -> list[Effect]:
    seat = _seat(match, actor)
    if not match.facts.has(engine.Extra.GROUND):
        raise Refused("err.bad_button")
    game = cast(engine.Grounding, match.game)  # without the option the engine refuses
    _engine(match, lambda: game.ground(seat))
    return finish(match, now)


def claim_time(match: Match, actor: Actor, now: float) -> list[Effect]:
    seat = _seat(match, actor)
    loser = match.game.turn
    if seat == loser:
        raise Refused("err.claim_own")
    if not expired(match, now):
        raise Refused("err.not_expired")
    _engine(match, lambda: match.game.timeout(loser))
    return finish(match, now)
