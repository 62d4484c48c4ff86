"""The path of one action: read the match → ``turns.apply_and_show`` → one compare-and-set
write (with the deadlines it needs) → effects and the views → Bot API calls.

Pictures always show the latest stored state: see boards.refresh ("latest wins").
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
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
from bot.telegram.boards import (
    RETRY_SOON,
    SHOW_GUARD,
    SHOW_KIND,
    Written,
    later,
    refresh,
    retry_when_free,
)
from bot.telegram.services import Services
from bot.telegram.stored import change, load, remember

log = logging.getLogger(__name__)
AI_KIND = "ai"  # deadline kinds: the bot's move, the clock, the ending (replay and record)
TICK_KIND = "tick"
END_KIND = "end"
END_LEASE = 4.0  # one process sends a match's ending (renewed while it sends)
FAILED_RETRY = 10.0  # an AI turn that failed with an error is tried again this much later
MOST_REFUSED = 20  # the bot's own moves refused at one state before its turn fails


def ai_lease(svc: Services) -> float:
    """How long an AI turn's lease lasts unrenewed: the watchdog's time to take over from a
    process that died. The turn renews it (a quarter of this apart) while it runs, so a think
    slowed down by a busy machine keeps it as long as its process lives."""
    return 5.0 + 4 * max(TIME_LIMITS.values()) * svc.ai.time_scale


def dues(svc: Services, match: Match, effects: list[Effect]) -> dict[str, float | None]:
    """The deadlines a new state of the match needs, written in the same atomic write as the
    state (see storage/README.md, "What happens next is written with the state"): the clock;
    a show of its boards (cancelled by the show that completes); the bot's move (kept at the
    AI turn's lease end while it runs, cancelled once it is stored and shown); the ending."""
    now = svc.clock()
    out: dict[str, float | None] = {TICK_KIND: clocks.next_tick(match, svc.timeouts)}
    if any(isinstance(e, Refresh | AITurn) for e in effects):
        out[SHOW_KIND] = now + SHOW_GUARD
    if any(isinstance(e, AITurn) and not e.check_after for e in effects):
        out[AI_KIND] = now + ai_lease(svc)
    if any(isinstance(e, Finished) for e in effects):
        out[END_KIND] = now + END_LEASE
    return out


async def create(svc: Services, match: Match, effects: list[Effect]) -> Outcome:
    """Store a new match with the deadlines its first effects need, in one write."""
    due = dues(svc, match, effects)
    await svc.store.matches.create(match.to_json(), due=lambda _: due)
    return Outcome(match, effects, dues=due)


# (chat id, message id, inline message id) of the message a tap came from
Where = tuple[int | None, int | None, str | None]


@dataclass
class Outcome:
    match: Match | None = None
    effects: list[Effect] = field(default_factory=list)
    refused: Refused | None = None
    # The state this action wrote, with its views: the first show after it starts from them
    # instead of reading the record back and decoding it again.
    written: Written | None = None
    # The deadlines written with it (kind -> time, None = cancelled); None: none were.
    dues: dict[str, float | None] | None = None


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
    read along with the tap's settings (see ``Matches.turn``)."""

    def step(match: Match) -> turns.Applied:
        place = match.place_at(*at) if at is not None else None
        if at is not None and place is None:
            place = _upgraded_place(match, at)
        if at is not None and place is None:
            place = _place_being_sent(match, at)
        if at is not None and place is None:
            # A button acts only on the match of the message it is under: data naming another
            # match (another chat's, say) is refused whoever sends it.
            raise Refused("err.bad_button")
        return turns.apply_and_show(
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
    step: Callable[[Match], turns.Applied],
    *,
    first: tuple[str, dict[str, Any]] | None = None,
) -> Outcome:
    """Run ``step`` on the stored match atomically: read (or take ``first``, the record read
    along with the tap's settings), decode once, step, write if nobody wrote meanwhile, with
    the deadlines the new state needs; a lost race reads and steps again on a fresh copy. A
    :class:`Refused` from ``step`` changes nothing and is returned, not raised."""
    try:
        async with svc.store.matches.turn(match_id, first=first) as tries:
            while True:
                base, record = await tries.read()
                match = load(record, svc)
                if ui.get(match.kind).slow_moves:
                    applied = await asyncio.to_thread(step, match)
                else:
                    applied = step(match)
                due = dues(svc, match, applied.effects)
                revision = await tries.write(match.to_json(), due=due)
                if revision is not None:
                    break
    except Refused as r:
        return Outcome(refused=r)
    except storage.MatchNotFound:
        return Outcome(refused=Refused("err.no_match"))
    except (storage.CorruptRecord, storage.UnknownVersion, BadMatchRecord) as e:
        log.error("match %s cannot be read: %s", match_id, e)
        return Outcome(refused=Refused("err.broken_match", alert=True))
    remember(svc, match)
    written = Written(revision, match, applied, base)
    return Outcome(match, applied.effects, written=written, dues=due)


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
    if outcome.dues is None and any(not isinstance(e, Popup) for e in outcome.effects):
        await schedule_tick(svc, match)  # not written with the state (a redelivered update)
    written = outcome.written
    guard = (outcome.dues or {}).get(SHOW_KIND)
    for effect in outcome.effects:
        if isinstance(effect, Refresh):
            await refresh(svc, bot, match.id, effect.places, written=written, guard=guard)
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
            await svc.store.deadlines.cancel(match.id, kind=TICK_KIND)
        else:
            await svc.store.deadlines.schedule(match.id, when, kind=TICK_KIND)
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

    A lease makes one process (and one task) do it. Taking it moves the match's AI deadline
    to the lease's end, and every renewal moves it along: if this process dies, the lease
    runs out and the watchdog of any replica picks the turn up; while it lives, nobody does.
    The deadline goes only once the move is stored and shown, in the step that gives the
    lease up, and only if the match has not changed since (a change brought its own need).
    """
    name = f"ai:{match_id}"
    guard = storage.Guard(match_id, AI_KIND, svc.clock)
    lease = await svc.store.leases.acquire(name, ai_lease(svc), guard)
    if lease is None:
        # Someone holds the turn: look again when their lease would run out (a live holder
        # renews it; a dead one's expires, and then this retry takes over).
        await retry_when_free(svc, match_id, name, AI_KIND)
        return
    try:
        async with lease.kept(lease.ttl / 4):
            rev = await _ai_moves(svc, bot, match_id, lease)
    except asyncio.CancelledError:
        with contextlib.suppress(storage.StorageError):  # shutting down: the deadline stays
            await lease.release()
        raise
    except Exception:
        log.exception("AI turn for match %s failed", match_id)
        with contextlib.suppress(storage.StorageError):
            await svc.store.deadlines.schedule(match_id, svc.clock() + FAILED_RETRY, kind=AI_KIND)
            await lease.release()
        return
    if lease.lost:
        return  # superseded: the deadline and the turn are the new holder's
    done = None if rev is None else (AI_KIND, rev, None)
    await svc.store.matches.revision_releasing(match_id, lease, done=done)
    if rev is None:
        await svc.store.deadlines.cancel(match_id, kind=AI_KIND)  # the match is gone
        return
    # A person may have moved while this turn still held the lease (showing the board), and
    # their own start found it busy: now that it is free, look once more.
    await kick_ai(svc, bot, match_id)


async def _ai_moves(svc: Services, bot: Bot, match_id: str, lease: storage.Lease) -> str | None:
    """The bot's moves while it is to move, then the boards and (at the end) the ending.
    Returns the revision it finished at, None when the match is gone or the turn was taken
    over (a late answer of a superseded thinker is dropped, never stored or thought again)."""
    last: Written | None = None  # the state the bot's last move wrote
    # The bot's own moves refused at the state it stands at (version ``refused_at``): a move
    # the engine takes as legal can still be refused by the table, e.g. a Рассада curve
    # with no room to draw it. The bot then plays another move instead of thinking the same
    # one again for ever.
    refused: list[str] = []
    refused_at = -1
    while True:
        loaded = await svc.store.matches.get_revised(match_id)
        if loaded is None:
            return None
        rev, record = loaded
        match = load(record, svc)
        seat = match.to_move
        if seat is None or not seat.is_ai:
            break
        if match.version != refused_at:
            refused = []
        assert seat.level is not None
        if refused:
            move = _another_move(match, refused)
        else:
            move = await _think(svc, bot, match_id, match, seat.level)
        if lease.lost:
            log.warning("AI turn for match %s was taken over; its late move is dropped", match_id)
            return None
        outcome = await act(
            svc, match_id, None, AIMove(match.game.turn, move), version=match.version
        )
        # Refused: someone else changed the match meanwhile, or the move itself was (the
        # next round tells them apart by the version); look again either way (the next
        # round ends the turn when a human is to move or the match is over).
        if outcome.refused is not None:
            log.warning(
                "the bot's move %r in match %s was refused: %s",
                move,
                match_id,
                outcome.refused.text,
            )
            refused.append(move)
            refused_at = match.version
        for effect in outcome.effects:  # the bot's own Dots STOP says why in a line
            if isinstance(effect, Say) and outcome.match is not None:
                await _say(bot, effect, outcome.match)
        last = outcome.written
    # Nothing changed since the bot's last move: show the state it wrote, as it wrote it.
    await refresh(svc, bot, match_id, written=last if last and last.revision == rev else None)
    if match.status == "finished":
        await finished(svc, bot, match_id)
    return rev


async def _think(svc: Services, bot: Bot, match_id: str, match: Match, level: str) -> str:
    """The AI's move for ``match``, shown as typing; a long think shows the person's own
    move first (the caption says it is the bot's turn) rather than leave their last board."""
    for chat in match.chats():
        with contextlib.suppress(TelegramError):
            await bot.send_chat_action(chat, ChatAction.TYPING)
    budget = clocks.think_budget(match, svc.clock())  # the bot plays on its own time
    thinking = asyncio.ensure_future(
        svc.thinker.choose(match.game.to_json(), level, seed=match.version, budget=budget)
    )
    try:
        move, _spent = await asyncio.wait_for(asyncio.shield(thinking), svc.settings.ai_show_after)
    except TimeoutError:
        try:
            await refresh(svc, bot, match_id)
        finally:
            move, _spent = await thinking
    return move


def _another_move(match: Match, refused: list[str]) -> str:
    """A legal move the table has not refused at this state, chosen by the version (one
    seed, one choice: replicas agree); after ``MOST_REFUSED`` refusals the turn fails and
    is tried again later (``FAILED_RETRY``) rather than spin."""
    game = match.game
    left = [m for m in (game.format_move(m) for m in game.legal_moves()) if m not in refused]
    if not left or len(refused) >= MOST_REFUSED:
        raise RuntimeError(f"the bot's moves were refused {len(refused)} times at one state")
    return random.Random(match.version * 1009 + len(refused)).choice(left)


async def finished(svc: Services, bot: Bot, match_id: str) -> None:
    """The end of a match: ratings and stats exactly once (storage is idempotent by match
    id, so a retried ending counts once), the replay animation and the move record.

    The write that finished the match scheduled its "end" deadline; one process at a time
    sends the ending (a lease that moves the deadline to its end), and the write that marks
    it sent cancels the deadline. A process killed while sending leaves the deadline to a
    watchdog: the ending arrives at least once."""
    record = await svc.store.matches.get(match_id)
    if record is None:
        await svc.store.deadlines.cancel(match_id, kind=END_KIND)
        return
    match = load(record, svc)
    result = match.game.result if match.has_game else None
    if match.status != "finished" or result is None or match.extra.get("ended"):
        await svc.store.deadlines.cancel(match_id, kind=END_KIND)
        return
    name = f"end:{match_id}"
    guard = storage.Guard(match_id, END_KIND, svc.clock)
    lease = await svc.store.leases.acquire(name, END_LEASE, guard)
    if lease is None:
        await retry_when_free(svc, match_id, name, END_KIND)
        return
    try:
        async with lease.kept():
            record = await svc.store.matches.get(match_id)  # sent while we took the lease?
            if record is None or load(record).extra.get("ended"):
                return
            if not await _record_ending(svc, match):
                return  # the deadline stays: a watchdog tries again
            await send_ending(svc, bot, match)
            if not lease.lost:
                await change(svc, match_id, _mark_ended, due={END_KIND: None})
    finally:
        with contextlib.suppress(storage.StorageError):
            await lease.release()


def _mark_ended(match: Match) -> None:
    match.extra["ended"] = True


async def _record_ending(svc: Services, match: Match) -> bool:
    """Ratings and stats (idempotent by match id) and each chat's last match."""
    seats: list[int | storage.AiSeat] = [
        storage.AiSeat(s.level) if s.is_ai and s.level else int(s.user or 0) for s in match.seats
    ]
    try:
        await svc.store.ratings.record(
            match.id, match.kind, seats, _ranks(match), chat_id=match.chat
        )
        for chat in match.chats():
            await svc.store.chats.patch(chat, {"last_match": match.id})
    except storage.StorageError as e:
        log.warning("ratings for match %s not recorded: %s", match.id, e)
        return False
    return True


async def send_ending(svc: Services, bot: Bot, match: Match) -> None:
    """Each chat that showed the match gets the replay (captioned with the result) and the
    move record as a file."""
    try:
        gif = await svc.replayer.replay(match.game.to_json(), pictures.replay_view(match))
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
