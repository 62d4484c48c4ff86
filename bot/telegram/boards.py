"""Showing a match in its places: every board is brought to the latest stored state.

"Latest wins": a refresh re-reads the match and skips what a place already shows, so a burst
of taps (or a chat over its edit budget, where the rate limiter makes edits wait) coalesces
into the edits still needed instead of queueing every frame. Within a process refreshes of
one match take turns; across replicas, a refresh reads the record again after its edits and
goes round once more if it changed meanwhile, so the edit that lands last shows the latest.

Telegram's answers: "message is not modified" is success; a deleted board is sent again and
its new message id remembered; a migrated group moves the place to the supergroup; a user who
blocked the bot (403) marks their place off until they come back (the match goes on). Edits
are never held behind a flood wait (see ``ratelimit.py``): an edit for a chat that answered
429 is given up, and the board is shown in its latest state once the chat opens again (by
this process, to the moment; a deadline in Redis is the other replicas' and a restart's
backup), so a flooded chat's pending edits collapse into one. A board that missed an edit
with no error to tell is shown again when someone taps it while it is out of date (see
:func:`heal`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from dataclasses import dataclass
from typing import Any

from telegram import Bot, ChatMemberUpdated, Update
from telegram.constants import ChatMemberStatus, ChatType, ParseMode
from telegram.error import BadRequest, ChatMigrated, Forbidden, RetryAfter, TelegramError
from telegram.ext import ContextTypes

import storage
from bot import pictures
from bot.match import views
from bot.match.model import BadMatchRecord, Match
from bot.match.turns import Applied
from bot.match.ui import PictureView
from bot.match.views import PlaceView
from bot.telegram import media, openboard, rawapi
from bot.telegram.keyboards import markup, markup_json
from bot.telegram.ratelimit import flood_seconds
from bot.telegram.services import Services
from bot.telegram.stored import change, load

log = logging.getLogger(__name__)
ROUNDS = 5  # re-reads after edits before leaving the rest to a deadline
SHOW_KIND = "show"  # deadline kind: show this match's boards again
RETRY_SOON = 2.0
# Leases: one replica edits a match's boards at a time, one sends a place's first board. They
# are renewed while the edits run (an edit can wait long for a chat's flood budget), so they
# are short: one held by a process that died is free again a few seconds later.
SEND_LEASE = 3.0
SHOW_LEASE = 2.5
SHOW_GUARD = 5.0  # a write that must be shown schedules a show this much later, just in case
BUSY_RETRY = 0.5
HEAL_AFTER = 3.0  # seconds since a match's last change before a stale tap re-shows its board
REOPEN_MARGIN = 0.05  # after a flood wait, seconds before showing the board again

Revisions = tuple[str, str | None]  # a state's revision, and the one it was written on
_locks: dict[str, asyncio.Lock] = {}
_reopening: set[str] = set()  # matches this process shows again when a flood wait ends


@dataclass(frozen=True)
class Written:
    """A state of the match as stored (revision, decoded match) and, when an action has just
    written it, what the action said to show (``turns.Applied``: the views of the places it
    refreshes; others are drawn here) and the revision it was written on (``base``)."""

    revision: str
    match: Match
    applied: Applied | None = None
    base: str | None = None


def _lock(match_id: str) -> asyncio.Lock:
    lock = _locks.get(match_id)
    if lock is None:
        if len(_locks) > 10_000:
            _locks.clear()
        lock = _locks[match_id] = asyncio.Lock()
    return lock


async def refresh(
    svc: Services,
    bot: Bot,
    match_id: str,
    places: tuple[int, ...] | None = None,
    *,
    written: Written | None = None,
    guard: float | None = None,
) -> None:
    """Bring the given places (all by default) up to the latest stored state. ``written``:
    the state an action has just stored, shown without reading it back (if the match changed
    since, the check after the edits sees it and goes round again).
    ``guard``: the time of the show deadline that action wrote with its state; a show that
    completes cancels it (a show of every place cancels any pending show of that revision).

    A refresh that had to wait for another one of this match reads the latest record instead:
    on a busy machine taps queue up behind a slow picture, and showing each of their states
    in turn would draw pictures (and route Рассада previews) nobody will see."""
    lock = _lock(match_id)
    if lock.locked():
        written = None
    async with lock:
        # One replica at a time edits a match's boards, or an edit of an older state could
        # land after one of a newer state. The holder reads the revision again after its
        # edits, in the round trip that gives the lease up; if the match changed meanwhile it
        # takes the lease again (reading the record afresh) and goes round once more. A
        # replica that finds the lease taken looks again when it would run out.
        name = f"show:{match_id}"
        for _ in range(ROUNDS):
            lease = await svc.store.leases.acquire(
                name, SHOW_LEASE, storage.Guard(match_id, SHOW_KIND, svc.clock)
            )
            if lease is None:
                await retry_when_free(svc, match_id, name, SHOW_KIND)
                return
            held: storage.Lease | None = lease
            try:
                async with lease.kept():
                    current = written or await _read(svc, match_id)
                    shown = current is not None and await _show_all(svc, bot, current, places)
                if current is None:  # gone, or past showing: nothing to wait for
                    await svc.store.deadlines.cancel(match_id, kind=SHOW_KIND)
                    return
                held = None  # given up by the next call, whatever it answers
                # Everything shown: the show deadline of this revision has done its work.
                rev = current.revision
                done = (SHOW_KIND, rev, guard if places else None) if shown else None
                now = await svc.store.matches.revision_releasing(match_id, lease, done=done)
                if now == rev:
                    return
            finally:
                if held is not None:
                    with contextlib.suppress(storage.Unavailable):  # it runs out by itself
                        await held.release()
            written, places, guard = None, None, None  # it changed meanwhile: show it all
        await later(svc, match_id, RETRY_SOON)


async def retry_when_free(svc: Services, match_id: str, lease: str, kind: str) -> None:
    """A lease found busy: schedule ``kind`` for when it would run out. A live holder keeps
    renewing it (and its work ends with a check that covers ours); a holder that died lets
    it run out, and then this deadline takes its work over."""
    try:
        left = await svc.store.leases.expires_in(lease)
        delay = BUSY_RETRY if left is None else max(BUSY_RETRY, left + storage.GUARD_MARGIN)
        await svc.store.deadlines.schedule(match_id, svc.clock() + delay, kind=kind)
    except storage.StorageError as e:
        log.warning("could not schedule %s of match %s: %s", kind, match_id, e)


async def _read(svc: Services, match_id: str) -> Written | None:
    """The stored state, decoded; None when there is none or it cannot be shown at all."""
    loaded = await svc.store.matches.get_revised(match_id)
    if loaded is None:
        return None
    try:
        return Written(loaded[0], load(loaded[1], svc))
    except BadMatchRecord as e:
        log.error("match %s cannot be shown: %s", match_id, e)
        return None


async def _show_all(
    svc: Services, bot: Bot, current: Written, places: tuple[int, ...] | None
) -> bool:
    """Show the state in the given places: True when every one shows it now, False when
    some were left to a later show (a flood wait, a network error)."""
    match = current.match
    indexes = range(len(match.places)) if places is None else places
    revisions = (current.revision, current.base)
    complete = True
    for i in indexes:
        if 0 <= i < len(match.places):
            view = current.applied.view(i) if current.applied is not None else None
            shown = await _show(svc, bot, match, i, revisions, view)
            complete = shown and complete
    return complete


def _shown_before(svc: Services, key: tuple[str, int], revisions: Revisions) -> Any:
    """What this process showed last in a place, if that is still what the place shows: it
    showed it at the revision being shown now, or at the one the state being shown was
    written on. Another replica may have shown any later state (a Рассада preview flipped
    there and back here, a Dots window moved), and an edit of "only what changed" since an
    older show of ours would leave the board showing the other replica's state."""
    memory = svc.shown.get(key)
    if memory is None or memory[1] is None or memory[1] not in revisions:
        return None
    return memory[0]


async def heal(svc: Services, bot: Bot, match_id: str, at: tuple[Any, Any, Any]) -> None:
    """A tap on a board older than the stored match, a while after its last change: that
    board missed an edit (lost to a fault Telegram did not report, say), and its player
    would be told "look again" forever. Show it again. Taps racing a fresh change are left
    alone: the change's own edit is on its way."""
    record = await svc.store.matches.get(match_id)
    if record is None:
        return
    try:
        match = Match.from_json(record)
    except BadMatchRecord:
        return
    i = match.place_at(*at)
    if i is None or svc.clock() - match.updated < HEAL_AFTER:
        return
    svc.shown.pop((match_id, i), None)
    await refresh(svc, bot, match_id, (i,))


async def bring_down(
    svc: Services, bot: Bot, match_id: str, version: int, chat_id: int, user: int
) -> bool:
    """Send the match's board in ``chat_id`` again as the chat's newest message (a player's
    /games or /new asked for it) and delete the old one; False when the match is no longer at
    ``version`` (the one the button was drawn for) or shows no board of ``user``'s there. The
    new board is sent as any first board is (once, by one replica)."""
    old: list[int | None] = []

    def forget(match: Match) -> None:
        i = next((i for i, p in enumerate(match.places) if p.chat == chat_id), None)
        if match.version != version or i is None or match.seat_of(user) is None:
            raise LookupError(match_id)
        old.append(match.places[i].msg)
        match.places[i].msg = None

    try:
        # the show deadline carries the new board if this process dies before sending it
        match = await change(svc, match_id, forget, due={SHOW_KIND: svc.clock() + SHOW_GUARD})
    except (LookupError, storage.MatchNotFound):
        return False
    i = next(i for i, p in enumerate(match.places) if p.chat == chat_id)
    svc.shown.pop((match_id, i), None)
    await refresh(svc, bot, match_id, (i,))
    if old[-1] is not None:
        with contextlib.suppress(TelegramError):
            await bot.delete_message(chat_id, old[-1])
    return True


async def later(svc: Services, match_id: str, delay: float) -> None:
    """Show the match again in ``delay`` seconds (on whichever replica claims it)."""
    try:
        await svc.store.deadlines.schedule(match_id, svc.clock() + delay, kind=SHOW_KIND)
    except storage.StorageError as e:
        log.warning("could not schedule showing match %s: %s", match_id, e)


async def _show(
    svc: Services,
    bot: Bot,
    match: Match,
    i: int,
    revisions: Revisions,
    view: PlaceView | None = None,
) -> bool:
    """Show place ``i`` of the match at ``revisions`` (its revision, and the one it was
    written on if known) (``view``: its view, when the action that wrote the state made it);
    False when it was left to a later show that is scheduled already (a flood wait, a
    network error, a first send another replica holds)."""
    place = match.places[i]
    if place.off or (place.msg is None and place.inline is None and place.chat is None):
        return True
    view = view or views.place_view(match, i, svc.clock())
    picture_key = (match.id, match.version, match.status, json.dumps(view.picture, sort_keys=True))
    raw = markup_json(openboard.keyboard(svc, match, place, view.keyboard), place.lang)
    # The keyboard as sent, labels included: two Dots windows full of dots carry the same
    # button data and differ only in their labels.
    shown_key = (match.id, i)
    before = _shown_before(svc, shown_key, revisions)
    now = (picture_key, view.caption, raw.get("reply_markup", ""))
    if before == now:
        return True

    async def png() -> bytes:
        return await _picture(svc, match, view.picture)

    try:
        if not await _edit(svc, bot, match, i, view, raw, picture_key, before, png):
            return False
    except BadRequest as e:
        if not rawapi.not_modified(e):
            memo = (now, revisions[0])
            return await _not_edited(svc, bot, match, i, e, picture_key, png, memo)
    except ChatMigrated as e:
        await _update_place(svc, match.id, i, chat=e.new_chat_id, msg=None)
        place.chat, place.msg = e.new_chat_id, None
        svc.shown.pop(shown_key, None)
        return await _show(svc, bot, match, i, revisions)
    except Forbidden as e:
        log.info("match %s place %d unreachable, not edited until it is back: %s", match.id, i, e)
        await _update_place(svc, match.id, i, off=True)
        return True
    except RetryAfter as e:  # a flood wait: show the latest state when it is over
        await after_flood(svc, bot, match.id, flood_seconds(e))
        return False
    except TelegramError as e:  # network trouble: try again soon
        log.warning("showing match %s place %d failed: %s", match.id, i, e)
        await later(svc, match.id, RETRY_SOON)
        return False
    svc.shown[shown_key] = (now, revisions[0])
    return True


async def _edit(
    svc: Services,
    bot: Bot,
    match: Match,
    i: int,
    view: views.PlaceView,
    raw: rawapi.RawMarkup,
    picture_key: Any,
    before: Any,
    png: Any,
) -> bool:
    """Send the place's first board, or edit only what changed since ``before`` (what this
    process showed last): the picture, the caption, or the keyboard alone. False: the first
    send was left to another replica."""
    place = match.places[i]
    target: rawapi.Target = (
        {"inline_message_id": place.inline}
        if place.inline
        else {"chat_id": place.chat, "message_id": place.msg}
    )
    if place.msg is None and place.inline is None:
        return await _send_new(svc, bot, match, i, picture_key, png)
    if before is None or before[0] != picture_key:
        try:
            photo = await media.photo(svc, bot, picture_key, png, inline=bool(place.inline))
        except media.NoStorageChat as e:  # the caption still tells the state
            log.warning("match %s: %s", match.id, e)
            await rawapi.edit_caption(bot, target, view.caption, raw)
        else:
            shown = await rawapi.edit_photo(bot, target, photo, view.caption, raw)
            media.remember(svc, picture_key, shown)
    elif before[1] != view.caption:
        await rawapi.edit_caption(bot, target, view.caption, raw)
    else:
        await rawapi.edit_keyboard(bot, target, raw)
    return True


async def _not_edited(
    svc: Services,
    bot: Bot,
    match: Match,
    i: int,
    e: BadRequest,
    picture_key: Any,
    png: Any,
    memo: tuple[Any, str],
) -> bool:
    """A board edit Telegram refused: a deleted board is sent again as a new message; any
    other refusal is one a later try would not change."""
    place = match.places[i]
    if not rawapi.message_gone(e):
        log.warning("showing match %s place %d failed: %s", match.id, i, e)
        return True
    if place.chat is not None and place.inline is None:
        shown_key = (match.id, i)
        svc.shown.pop(shown_key, None)
        gone, place.msg = place.msg, None
        if not await _send_new(svc, bot, match, i, picture_key, png, replacing=gone):
            return False
        svc.shown[shown_key] = memo
    return True


async def after_flood(svc: Services, bot: Bot, match_id: str, seconds: float) -> None:
    """Show the match again once its chat's flood wait of ``seconds`` is over: here, to the
    moment (one pending show per match, however many edits the flood refused), and from a
    deadline a moment later, should this process be gone by then."""
    await later(svc, match_id, seconds + RETRY_SOON)
    if match_id in _reopening:
        return
    _reopening.add(match_id)

    async def reopen() -> None:
        try:
            await asyncio.sleep(seconds + REOPEN_MARGIN)
        finally:
            _reopening.discard(match_id)
        await refresh(svc, bot, match_id)

    svc.spawn(reopen())


async def _send_new(
    svc: Services,
    bot: Bot,
    match: Match,
    i: int,
    picture_key: Any,
    png: Any,
    *,
    replacing: int | None = None,
) -> bool:
    """Send a place's first board (or a replacement for the deleted message ``replacing``)
    exactly once, even when several replicas refresh the match at the same moment."""
    name = f"send:{match.id}:{i}"
    lease = await svc.store.leases.acquire(name, SEND_LEASE)
    if lease is None:  # another replica is sending it; if it dies, show it when its lease ends
        await retry_when_free(svc, match.id, name, SHOW_KIND)
        return False
    try:
        async with lease.kept():
            record = await svc.store.matches.get(match.id)
            if record is None or Match.from_json(record).places[i].msg not in (None, replacing):
                return False  # sent meanwhile
            place = match.places[i]
            view = views.place_view(match, i, svc.clock())
            photo = await media.photo(svc, bot, picture_key, png, inline=False)
            assert place.chat is not None
            sent = await bot.send_photo(
                place.chat,
                photo,
                caption=view.caption,
                parse_mode=ParseMode.HTML,
                reply_markup=markup(
                    openboard.keyboard(svc, match, place, view.keyboard), place.lang
                ),
            )
            media.remember(svc, picture_key, sent)
            await _update_place(svc, match.id, i, msg=sent.message_id)
            place.msg = sent.message_id
            return True
    finally:
        await lease.release()


_UNSET: Any = object()


async def _update_place(
    svc: Services,
    match_id: str,
    i: int,
    *,
    chat: Any = _UNSET,
    msg: Any = _UNSET,
    off: Any = _UNSET,
) -> None:
    def edit(match: Match) -> None:
        place = match.places[i]
        if chat is not _UNSET:
            place.chat = chat
        if msg is not _UNSET:
            place.msg = msg
        if off is not _UNSET:
            place.off = off

    await change(svc, match_id, edit)


async def _picture(svc: Services, match: Match, view: PictureView) -> bytes:
    """Rendered in a worker thread: a big board or a Sprouts preview (whose curve is routed
    first) takes long enough to hold up every other chat if drawn on the event loop."""
    key = (match.id, match.version, match.status, json.dumps(view, sort_keys=True))
    cached = svc.pictures.get(key)
    if cached is not None:
        return cached
    png = await asyncio.to_thread(pictures.board_png, match, view)
    svc.pictures.put(key, png)
    return png


# -- a user who blocked the bot comes back -------------------------------------------------------


async def member_changed(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """``my_chat_member`` in a private chat: when the user unblocks the bot, their boards are
    shown again (with the latest state); when they block it, their places are marked off."""
    change: ChatMemberUpdated | None = update.my_chat_member
    if change is None or change.chat.type != ChatType.PRIVATE:
        return
    svc: Services = context.application.bot_data["svc"]
    back = change.new_chat_member.status == ChatMemberStatus.MEMBER
    gone = change.new_chat_member.status in (ChatMemberStatus.BANNED, ChatMemberStatus.LEFT)
    if not (back or gone):
        return
    chat_id = change.chat.id
    for match_id in await svc.store.matches.active_in_chat(chat_id):
        record = await svc.store.matches.get(match_id)
        if record is None:
            continue
        match = Match.from_json(record)
        for i, place in enumerate(match.places):
            if place.chat == chat_id and place.off != gone:
                svc.shown.pop((match_id, i), None)
                await _update_place(svc, match_id, i, off=gone)
        if back:
            await refresh(svc, context.bot, match_id)
