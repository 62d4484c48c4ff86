"""The path of one action: storage.update(apply) → effects → Bot API calls.

Pictures always show the latest stored state: see boards.refresh ("latest wins").
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from telegram import Bot, CallbackQuery
from telegram.constants import ChatAction, ParseMode
from telegram.error import TelegramError

import storage
from bot import pictures
from bot.i18n import t
from bot.match import clocks, records, turns, ui, views
from bot.match.actions import Action, Actor, AIMove, AlreadyApplied, Refused
from bot.match.effects import AITurn, Effect, Finished, Notify, Popup, Refresh, Say
from bot.match.model import BadMatchRecord, Match
from bot.telegram import hookreply, pings
from bot.telegram.ai_pool import TIME_LIMITS
from bot.telegram.boards import RETRY_SOON, later, refresh
from bot.telegram.services import Services

log = logging.getLogger(__name__)


def ai_lease(svc: Services) -> float:
    """How long one AI turn may hold its lease before another process may take over."""
    return 5.0 + 4 * max(TIME_LIMITS.values()) * svc.ai.time_scale


# (chat id, message id, inline message id) of the message a tap came from
Where = tuple[int | None, int | None, str | None]


@dataclass
class Outcome:
    match: Match | None = None
    effects: list[Effect] = field(default_factory=list)
    refused: Refused | None = None
    # The revision and record this action wrote: the first show after it starts from them
    # instead of reading the record back.
    written: tuple[str, dict[str, Any]] | None = None


def load(record: dict[str, Any], svc: Services | None = None) -> Match:
    """A match from its record, with its live game from the cache when we have it."""
    match = Match.from_json(record)
    if svc is not None and match.state is not None:
        game = svc.games.get(match.id, match.version)
        if game is not None:
            match.attach(game)
    return match


def remember(svc: Services, match: Match) -> None:
    if match.has_game:
        svc.games.put(match.id, match.version, match.game)


async def act(
    svc: Services,
    match_id: str,
    actor: Actor | None,
    action: Action,
    *,
    version: int | None = None,
    at: Where | None = None,
    request: str | None = None,
    first: tuple[str, dict[str, Any]] | None = None,
) -> Outcome:
    """Apply an action atomically; a refusal changes nothing and is returned, not raised.
    ``at`` says which message the tap came from (the place whose cursor a step moves);
    ``request`` is the update's own id, so a redelivered update is recognised (see
    :func:`turns.apply`) and only followed up. ``first``: the match's revision and record as
    read along with the tap's settings (see ``Matches.update_revised``)."""

    def step(match: Match) -> list[Effect]:
        place = match.place_at(*at) if at is not None else None
        if at is not None and place is None:
            place = _upgraded_place(match, at)
        if at is not None and place is None:
            place = _place_being_sent(match, at)
        if at is not None and place is None:
            # A button acts only on the match of the message it is under: data naming another
            # match (another chat's, say) is refused whoever sends it.
            raise Refused("err.bad_button")
        return turns.apply(
            match,
            actor,
            action,
            now=svc.clock(),
            version=version,
            place=place,
            timeouts=svc.timeouts,
            request=request,
        )

    try:
        return await run(svc, match_id, step, first=first)
    except AlreadyApplied as done:
        log.info("update %s for match %s was applied before; following it up", request, match_id)
        await later(svc, match_id, RETRY_SOON)
        return Outcome(done.match, turns.resume(done.match))


def _place_being_sent(match: Match, at: Where) -> int | None:
    """A tap on a board that reached the chat before its message id reached Redis (another
    replica may take the tap in that instant): the chat's place still waiting for its id."""
    chat, msg, inline = at
    if inline is not None or chat is None or msg is None:
        return None
    waiting = [i for i, p in enumerate(match.places) if p.chat == chat and p.msg is None]
    return waiting[0] if len(waiting) == 1 else None


SUPERGROUP_IDS = -(10**12)  # supergroup and channel ids are -100…; basic groups' are above


def _upgraded_place(match: Match, at: Where) -> int | None:
    """A tap on a board in a supergroup that was a basic group when the board was sent: the
    messages moved along, the match learns the new chat id at its next edit."""
    chat, msg, _ = at
    if chat is None or msg is None or chat > SUPERGROUP_IDS:
        return None
    for i, p in enumerate(match.places):
        if p.msg == msg and p.chat is not None and SUPERGROUP_IDS < p.chat < 0:
            return i
    return None


async def run(
    svc: Services,
    match_id: str,
    step: Callable[[Match], list[Effect]],
    *,
    first: tuple[str, dict[str, Any]] | None = None,
) -> Outcome:
    """Run ``step`` on the stored match atomically (it may run more than once, on a fresh copy
    each time); a :class:`Refused` from it changes nothing and is returned, not raised."""
    box: dict[str, Any] = {}

    async def fn(record: dict[str, Any]) -> dict[str, Any]:
        match = load(record, svc)
        if ui.get(match.kind).slow_moves:
            effects = await asyncio.to_thread(step, match)
        else:
            effects = step(match)
        box["match"], box["effects"] = match, effects
        return match.to_json()

    try:
        written = await svc.store.matches.update_revised(match_id, fn, first=first)
    except Refused as r:
        return Outcome(refused=r)
    except storage.MatchNotFound:
        return Outcome(refused=Refused("err.no_match"))
    except (storage.CorruptRecord, storage.UnknownVersion, BadMatchRecord) as e:
        log.error("match %s cannot be read: %s", match_id, e)
        return Outcome(refused=Refused("err.broken_match", alert=True))
    remember(svc, box["match"])
    return Outcome(box["match"], box["effects"], written=written)


async def answer(query: CallbackQuery | None, lang: str, outcome: Outcome) -> None:
    """Every callback query gets exactly one answer: the refusal, a popup, or a silent ack."""
    if query is None:
        return
    text, alert = None, False
    if outcome.refused is not None:
        text, alert = t(lang, outcome.refused.text), outcome.refused.alert
    else:
        for e in outcome.effects:
            if isinstance(e, Popup):
                text, alert = t(lang, e.text), e.alert
    text = text[:200] if text else None
    params: dict[str, Any] = {"callback_query_id": query.id}
    if text:
        params.update(text=text, show_alert=alert)

    async def call() -> None:
        try:
            await query.answer(text, show_alert=alert)
        except TelegramError as e:  # too old, already answered: nothing to repair
            log.debug("answerCallbackQuery failed: %s", e)

    if not hookreply.offer("answerCallbackQuery", params, call):
        await call()


async def perform(svc: Services, bot: Bot, outcome: Outcome) -> None:
    match = outcome.match
    if match is None:
        return
    if any(not isinstance(e, Popup) for e in outcome.effects):
        await schedule_tick(svc, match)
    written = outcome.written
    for effect in outcome.effects:
        if isinstance(effect, Refresh):
            await refresh(svc, bot, match.id, effect.places, written=written)
            written = None  # the show may have written too (a board's new message id)
        elif isinstance(effect, Say):
            await _say(bot, effect, match)
        elif isinstance(effect, Notify):
            await _notify(svc, bot, effect, match)
        elif isinstance(effect, AITurn) and effect.check_after:
            svc.spawn(_kick_later(svc, bot, match.id, effect.check_after))
        elif isinstance(effect, AITurn):
            start_ai(svc, bot, match.id)
        elif isinstance(effect, Finished):
            await finished(svc, bot, match.id)


async def schedule_tick(svc: Services, match: Match) -> None:
    """Keep the match's one clock deadline in Redis where the match layer says it is."""
    when = clocks.next_tick(match, svc.timeouts)
    try:
        if when is None:
            await svc.store.deadlines.cancel(match.id, kind="tick")
        else:
            await svc.store.deadlines.schedule(match.id, when, kind="tick")
    except storage.StorageError as e:
        log.warning("deadline for match %s not kept: %s", match.id, e)


async def _notify(svc: Services, bot: Bot, effect: Notify, match: Match) -> None:
    await pings.notify(svc, bot, effect, match)


async def _say(bot: Bot, effect: Say, match: Match) -> None:
    lang = next((p.lang for p in match.places if p.chat == effect.chat), match.lang)
    try:
        await bot.send_message(effect.chat, t(lang, effect.text), parse_mode=ParseMode.HTML)
    except TelegramError as e:
        log.info("message to %s failed: %s", effect.chat, e)


# -- the bot's own moves -------------------------------------------------------------------


def start_ai(svc: Services, bot: Bot, match_id: str) -> None:
    svc.spawn(ai_turn(svc, bot, match_id))


async def _kick_later(svc: Services, bot: Bot, match_id: str, delay: float) -> None:
    await asyncio.sleep(delay)
    try:
        await kick_ai(svc, bot, match_id)
    except storage.StorageError as e:
        log.warning("AI follow-up for match %s failed: %s", match_id, e)


async def kick_ai(svc: Services, bot: Bot, match_id: str) -> None:
    """The lazy check on any tap: if the bot should be moving here, make sure it is."""
    record = await svc.store.matches.get(match_id)
    if record is None:
        return
    seat = load(record, svc).to_move
    if seat is not None and seat.is_ai:
        start_ai(svc, bot, match_id)


async def ai_turn(svc: Services, bot: Bot, match_id: str) -> None:
    """Play the bot's moves until a human is to move, then show the board once.

    A lease makes one process (and one task) do it; if this process dies the lease expires
    and the watchdog deadline lets another pick the match up.
    """
    try:
        async with svc.store.lease(f"ai:{match_id}", ttl=ai_lease(svc)) as lease:
            await _ai_moves(svc, bot, match_id, lease)
    except storage.LeaseBusy:
        return
    except asyncio.CancelledError:
        raise
    except Exception:
        log.exception("AI turn for match %s failed", match_id)
        await svc.store.deadlines.schedule(match_id, svc.clock() + 10, kind="ai")
        return
    # A person may have moved while this turn still held the lease (showing the board), and
    # their own start found it busy: now that it is free, look once more.
    await kick_ai(svc, bot, match_id)


async def _ai_moves(svc: Services, bot: Bot, match_id: str, lease: storage.Lease) -> None:
    finished_now = False
    while True:
        record = await svc.store.matches.get(match_id)
        if record is None:
            return
        match = load(record, svc)
        seat = match.to_move
        if seat is None or not seat.is_ai:
            break
        # If this process dies now, the watchdog of any replica resumes the turn.
        await svc.store.deadlines.schedule(match_id, svc.clock() + ai_lease(svc), kind="ai")
        for chat in match.chats():
            with contextlib.suppress(TelegramError):
                await bot.send_chat_action(chat, ChatAction.TYPING)
        assert seat.level is not None
        thinking = asyncio.ensure_future(
            svc.ai.choose(match.game.to_json(), seat.level, seed=match.version)
        )
        try:
            move, _spent = await asyncio.wait_for(
                asyncio.shield(thinking), svc.settings.ai_show_after
            )
        except TimeoutError:
            # A long think: show the person's own move now (the caption says it is the bot's
            # turn) rather than leave their last board as it was until the bot has moved.
            try:
                await refresh(svc, bot, match_id)
            finally:
                move, _spent = await thinking
        try:
            await lease.renew(ai_lease(svc))
        except storage.LeaseLost:
            # Thinking outlived the lease (a busy machine, a cold worker pool): another
            # process may be on this turn too. Either move is safe: the version decides.
            log.warning("AI turn for match %s outlived its lease", match_id)
        outcome = await act(
            svc, match_id, None, AIMove(match.game.turn, move), version=match.version
        )
        if outcome.refused is not None:
            continue  # someone else changed the match meanwhile: look again
        for effect in outcome.effects:  # the bot's own Dots STOP says why in a line
            if isinstance(effect, Say) and outcome.match is not None:
                await _say(bot, effect, outcome.match)
                await schedule_tick(svc, outcome.match)  # the 3 minutes the person has
        if any(isinstance(e, Finished) for e in outcome.effects):
            finished_now = True
            break
    await svc.store.deadlines.cancel(match_id, kind="ai")
    await refresh(svc, bot, match_id)
    if finished_now:
        await finished(svc, bot, match_id)


async def finished(svc: Services, bot: Bot, match_id: str) -> None:
    """The end of a match: ratings and stats exactly once (storage is idempotent by match
    id, so a retried ending counts once), the replay animation and the move record."""
    record = await svc.store.matches.get(match_id)
    if record is None:
        return
    match = load(record, svc)
    result = match.game.result
    if match.status != "finished" or result is None:
        return
    seats: list[int | storage.AiSeat] = [
        storage.AiSeat(s.level) if s.is_ai and s.level else int(s.user or 0) for s in match.seats
    ]
    try:
        outcome = await svc.store.ratings.record(
            match.id, match.kind, seats, _ranks(match), chat_id=match.chat
        )
    except storage.StorageError as e:
        log.warning("ratings for match %s not recorded: %s", match.id, e)
        return
    if outcome.repeated:
        return  # another process (or an earlier try) already sent the ending
    for chat in match.chats():
        await svc.store.chats.patch(chat, {"last_match": match.id})
    await send_ending(svc, bot, match)


async def send_ending(svc: Services, bot: Bot, match: Match) -> None:
    """Each chat that showed the match gets the replay (captioned with the result) and the
    move record as a file."""
    try:
        gif = await svc.ai.replay(match.game.to_json(), pictures.replay_view(match))
    except Exception:
        log.exception("replay of match %s failed", match.id)
        gif = None
    name, data = records.record_file(match)
    for place in match.places:
        if place.chat is None:
            continue
        caption = views.result_line(match, place.lang)
        try:
            if gif is not None:
                await bot.send_animation(
                    place.chat,
                    gif,
                    caption=caption,
                    parse_mode=ParseMode.HTML,
                    filename=f"tetrad-{match.id}.gif",
                )
            await bot.send_document(
                place.chat, data, filename=name, caption=t(place.lang, "end.record_caption")
            )
        except TelegramError as e:
            log.info("ending of match %s not sent to %s: %s", match.id, place.chat, e)


def _ranks(match: Match) -> list[int]:
    result = match.game.result
    assert result is not None
    n = len(match.seats)
    if result.reason in ("resign", "time") and result.loser is not None and n == 2:
        return [1 if i == result.loser else 0 for i in range(n)]
    if result.draw:  # "½ Draw" is a draw whatever the scores say
        return [0] * n
    # Rank by score: 0 for the best; equal scores share a rank.
    order = sorted(set(result.scores), reverse=True)
    return [order.index(s) for s in result.scores]
