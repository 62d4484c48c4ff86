"""Simulated people for load: they act on the emulator's world directly (in this process, no
HTTP between them and the emulator) and follow its events, so a load generator of hundreds of
players costs little next to the bot it measures.

* :class:`ObservedWorld` — the emulator's world with an event feed (:class:`Watch`): the latest
  view of every message, the answer to every callback query, and waiters for both.
* :class:`Board` — one match as its players see it (one group board, or one board per
  player's private chat), with racing taps and a log of every tap and its answer.
* ``group_match`` / ``link_match`` / ``ai_match`` make matches through the bot's real UI.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from playground.limits import Limits
from playground.server import Emulator
from playground.world import Chat, User, World

View = dict[str, Any]
Key = tuple[int, int]  # (chat ref, message id)
LINK = re.compile(r"https://t\.me/\S+\?start=[A-Za-z0-9_-]+")
WAIT = 60.0
NAV_WAIT = 5.0  # how long a window step may take to show before it counts as alike


class Watch:
    """What the emulator's events say: message views, popups, and who waits for what."""

    def __init__(self) -> None:
        self.views: dict[Key, View] = {}
        self.changed_at: dict[Key, float] = {}
        self.popups: dict[str, dict[str, Any]] = {}
        self.answered_at: dict[str, float] = {}  # perf_counter when each query was answered
        self.counts: dict[str, int] = {}
        self._waiters: dict[Key, list[tuple[Callable[[View], bool], asyncio.Future[View]]]] = {}
        self._popup_waiters: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._chat_waiters: list[tuple[int, Callable[[View], bool], asyncio.Future[View]]] = []

    def feed(self, kind: str, data: dict[str, Any]) -> None:
        self.counts[kind] = self.counts.get(kind, 0) + 1
        if kind in ("message", "edit"):
            view = data["message"]
            key = (view["chat"], view["message_id"])
            self.views[key] = view
            self.changed_at[key] = time.perf_counter()
            waiting = self._waiters.get(key)
            if waiting:
                keep = []
                for pred, fut in waiting:
                    if fut.done():
                        continue
                    if pred(view):
                        fut.set_result(view)
                    else:
                        keep.append((pred, fut))
                self._waiters[key] = keep
            if kind == "message" and self._chat_waiters:
                keep_chat = []
                for chat, pred, fut in self._chat_waiters:
                    if fut.done():
                        continue
                    if chat == view["chat"] and pred(view):
                        fut.set_result(view)
                    else:
                        keep_chat.append((chat, pred, fut))
                self._chat_waiters = keep_chat
        elif kind == "popup":
            self.popups[data["query"]] = data
            self.answered_at[data["query"]] = time.perf_counter()
            waiter = self._popup_waiters.pop(data["query"], None)
            if waiter is not None and not waiter.done():
                waiter.set_result(data)
        elif kind == "delete":
            self.views.pop((data["chat"], data["message_id"]), None)

    async def until(self, key: Key, pred: Callable[[View], bool], timeout: float = WAIT) -> View:
        """The message's view once ``pred`` holds (at once if it holds now)."""
        view = self.views.get(key)
        if view is not None and pred(view):
            return view
        fut: asyncio.Future[View] = asyncio.get_running_loop().create_future()
        self._waiters.setdefault(key, []).append((pred, fut))
        try:
            return await asyncio.wait_for(fut, timeout)
        except TimeoutError:
            raise AssertionError(
                f"message {key} did not change as awaited in {timeout} s; now: "
                f"{self.views.get(key, {}).get('caption')!r}"
            ) from None

    async def new_message(
        self, chat: int, pred: Callable[[View], bool], timeout: float = WAIT
    ) -> View:
        """The next new bot message in ``chat`` that satisfies ``pred``."""
        fut: asyncio.Future[View] = asyncio.get_running_loop().create_future()
        self._chat_waiters.append((chat, pred, fut))
        try:
            return await asyncio.wait_for(fut, timeout)
        except TimeoutError:
            raise AssertionError(f"no such message in chat {chat} within {timeout} s") from None

    async def popup(self, query: str, timeout: float = WAIT) -> dict[str, Any] | None:
        """The answer to a callback query, or None if none came in time."""
        if query in self.popups:
            return self.popups[query]
        fut = self._popup_waiters.get(query)
        if fut is None:
            fut = self._popup_waiters[query] = asyncio.get_running_loop().create_future()
        try:
            return await asyncio.wait_for(asyncio.shield(fut), timeout)
        except TimeoutError:
            return None


class ObservedWorld(World):
    """The emulator's world, feeding its events to a :class:`Watch`."""

    def __init__(self, **kwargs: Any) -> None:
        self.watch = Watch()
        super().__init__(**kwargs)

    def emit(self, kind: str, **data: Any) -> None:
        super().emit(kind, **data)
        self.watch.feed(kind, data)


def observed_emulator(limits: Limits | None = None) -> Emulator:
    """An emulator (flood limits off unless given) whose world is an :class:`ObservedWorld`."""
    return Emulator(ObservedWorld(limits=limits or Limits.off()))


# -- reading a board ---------------------------------------------------------------------------


def datas(view: View) -> list[tuple[int, int, str]]:
    return [
        (r, c, b["callback_data"])
        for r, row in enumerate(view.get("buttons") or [])
        for c, b in enumerate(row)
        if b.get("callback_data")
    ]


def with_op(view: View, op: str) -> list[tuple[int, int, str]]:
    return [d for d in datas(view) if d[2].startswith(op + ":")]


def move_buttons(view: View) -> list[tuple[int, int, str]]:
    """What a player taps to move: move buttons, else the first step of one (a spot…)."""
    return with_op(view, "p") or selections(view)


def selections(view: View) -> list[tuple[int, int, str]]:
    """Keyboard steps that pick part of a move (a Sprouts spot, a big Boxes board's box):
    a move is made of these and then, sometimes, a move button."""
    out = []
    for r, c, data in with_op(view, "c"):
        arg = data.split(":")[3] if data.count(":") >= 3 else ""
        if arg[:1] in ("s", "b") and arg[1:2].isdigit():
            out.append((r, c, data))
    return out


def navigation(view: View) -> list[tuple[int, int, str]]:
    """Keyboard steps that move a Dots window (when no free point is in view)."""
    return [d for d in with_op(view, "c") if d[2].rsplit(":", 1)[-1] in ("l", "r", "u", "d")]


def moved_from(v: int | None) -> Callable[[View], bool]:
    """Whether a board has moved on from version ``v`` (or ended)."""
    return lambda m: finished(m) or version(m) != v


def other_buttons(buttons: object) -> Callable[[View], bool]:
    """Whether a board shows other buttons than ``buttons`` (a selection or window step)."""
    return lambda m: bool(m["buttons"] != buttons)


def changed_from(v: int | None, buttons: object) -> Callable[[View], bool]:
    """Whether a board has moved on from version ``v`` or shows other buttons."""
    moved, other = moved_from(v), other_buttons(buttons)
    return lambda m: moved(m) or other(m)


def version(view: View) -> int | None:
    for _, _, data in datas(view):
        parts = data.split(":")
        if len(parts) >= 3 and parts[2].isdigit() and parts[0] != "N":
            return int(parts[2])
    return None


def match_id(view: View) -> str | None:
    for _, _, data in datas(view):
        parts = data.split(":")
        if len(parts) >= 3 and parts[0] != "N":
            return parts[1]
    return None


def finished(view: View) -> bool:
    return not with_op(view, "p") and not with_op(view, "c")


def is_board(view: View) -> bool:
    return bool(view.get("media")) and view["from"]["is_bot"]


def mentioned(view: View) -> list[int]:
    """User ids mentioned in a caption (the player to move is mentioned)."""
    out = []
    for e in view.get("caption_entities") or view.get("entities") or []:
        uid = (e.get("user") or {}).get("id")
        if uid is None and str(e.get("url", "")).startswith("tg://user?id="):
            uid = int(e["url"].split("=", 1)[1])
        if uid is not None:
            out.append(int(uid))
    return out


# -- taps ---------------------------------------------------------------------------------------


@dataclass
class Tap:
    user: int
    data: str
    query: str
    at: float  # perf_counter when the update was queued
    popup: dict[str, Any] | None = None

    @property
    def op(self) -> str:
        return self.data.split(":")[0]

    @property
    def version(self) -> int:
        return int(self.data.split(":")[2])

    @property
    def code(self) -> str:
        parts = self.data.split(":")
        return parts[3] if len(parts) > 3 else ""

    @property
    def accepted(self) -> bool:
        """Answered with no text: the bot's silent acknowledgement of an applied action."""
        return self.popup is not None and not self.popup.get("text")


@dataclass
class Seat:
    user: User
    chat: Chat  # where this person sees the board
    msg: int  # the board's message id there

    @property
    def key(self) -> Key:
        return (self.chat.ref, self.msg)


@dataclass
class Board:
    """One match as the people see it. ``seats`` are the players' views (the same message
    for a group board); ``spectators`` tap the group board without a seat."""

    world: ObservedWorld
    kind: str
    seats: list[Seat]
    spectators: list[User] = field(default_factory=list)
    vs_ai: bool = False
    taps: list[Tap] = field(default_factory=list)
    id: str = ""

    @property
    def watch(self) -> Watch:
        return self.world.watch

    def view(self, seat: Seat) -> View:
        return self.watch.views[seat.key]

    def main(self) -> View:
        return self.view(self.seats[0])

    def press(self, user: User, seat: Seat, r: int, c: int, data: str | None = None) -> Tap:
        view = self.view(seat)
        real = view["buttons"][r][c]["callback_data"]
        query, _ = self.world.press(user, seat.chat, seat.msg, r, c, data)
        assert query is not None
        tap = Tap(user.id, data or real, query.id, time.perf_counter())
        self.taps.append(tap)
        return tap

    def settled_version(self, seats: list[Seat] | None = None) -> int | None:
        """The version every board (of ``seats``) shows, or None while they differ."""
        versions = {version(self.view(s)) for s in seats or self.seats}
        return versions.pop() if len(versions) == 1 else None

    async def same_version(
        self, timeout: float = WAIT, seats: list[Seat] | None = None, nudge: float | None = None
    ) -> int | None:
        """The version every board shows, once they agree. With ``nudge``, a player whose
        board has stayed behind that long taps it, as a person would: a board can miss an
        edit with no error to tell (a replica killed between a move's write and its edits),
        and the bot shows a board again when a tap finds it out of date."""
        deadline = time.monotonic() + timeout
        nudge_at = None if nudge is None else time.monotonic() + nudge
        while True:
            v = self.settled_version(seats)
            if v is not None or self.over(seats):
                return v
            if nudge is not None and nudge_at is not None and time.monotonic() > nudge_at:
                self._tap_stale(seats or self.seats)
                nudge_at = time.monotonic() + nudge
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"boards of match {self.id} disagree: "
                    f"{[self.view(s).get('caption') for s in self.seats]}"
                )
            await asyncio.sleep(0.02)

    def _tap_stale(self, seats: list[Seat]) -> None:
        shown = {s.key: version(self.view(s)) for s in seats}
        newest = max((v for v in shown.values() if v is not None), default=None)
        for seat in seats:
            v = shown[seat.key]
            moves = move_buttons(self.view(seat))
            if newest is not None and v is not None and v < newest and moves:
                r, c, _ = moves[0]
                self.press(seat.user, seat, r, c)

    def over(self, seats: list[Seat] | None = None) -> bool:
        return all(finished(self.view(s)) for s in seats or self.seats)

    async def race(
        self, rng: random.Random, timeout: float = WAIT, patience: float | None = None
    ) -> bool:
        """One round: every player taps move buttons of their board at once (two different
        ones each), every spectator one; returns once the boards moved on (False when the
        match is over). With ``patience``, taps again whenever that long passes without a
        change (taps can be lost while the bot or Redis is down)."""
        v = await self.same_version(timeout, nudge=patience)
        if self.over():
            return False
        first = len(self.taps)
        deadline = time.monotonic() + timeout
        while True:
            before = {s.key: self.view(s)["buttons"] for s in self.seats}
            self._tap_all(rng)
            wait = min(patience or timeout, max(0.01, deadline - time.monotonic()))
            try:
                await self._moved_on(v, before, wait)
                return True
            except AssertionError as e:
                if time.monotonic() < deadline:
                    continue
                answers = [
                    (t.data, t.user, self.watch.popups.get(t.query)) for t in self.taps[first:]
                ]
                raise AssertionError(
                    f"match {self.id} stuck at version {v}: {e}; taps {answers}"
                ) from None

    async def _moved_on(
        self, v: int | None, before: dict[Key, Any], wait: float, seats: list[Seat] | None = None
    ) -> None:
        """Until some board shows another version, or another keyboard (a selection step)."""
        waits = [
            asyncio.ensure_future(self.watch.until(s.key, changed_from(v, before[s.key]), wait))
            for s in seats or self.seats
        ]
        done, pending = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        for p in pending:
            p.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        if not any(d.exception() is None for d in done):
            next(iter(done)).result()  # raises the timeout

    def _tap_all(self, rng: random.Random) -> None:
        for seat in self.seats:
            view = self.view(seat)
            # No free point in the Dots window: one window step, a random one (the first
            # alone may be at an edge, and tapped again and again it would never move).
            steps = navigation(view)
            moves = move_buttons(view) or rng.sample(steps, min(1, len(steps)))
            for r, c, _ in rng.sample(moves, min(2, len(moves))):
                self.press(seat.user, seat, r, c)
        if self.spectators:
            group = self.seats[0]
            moves = move_buttons(self.view(group))
            for user in self.spectators:
                if moves:
                    r, c, _ = rng.choice(moves)
                    self.press(user, group, r, c)

    def locate(self, seat: Seat) -> bool:
        """After a board was deleted: point the seat at the board the bot sent again (the
        newest bot picture of this match in the seat's chat); False while there is none."""
        found = [
            key
            for key, view in self.watch.views.items()
            if key[0] == seat.chat.ref and is_board(view) and match_id(view) == self.id
        ]
        if not found:
            return False
        seat.msg = max(found)[1]
        return True

    async def step(
        self, rng: random.Random, timeout: float = WAIT, only: Seat | None = None
    ) -> Tap | None:
        """One move by whoever is to move (no racing), every tap of it accepted: used to check
        that a match still plays. Selection steps (Sprouts spots, a big board's box) come
        first when the keyboard has no move button. Waits while the bot is thinking; returns
        the tap that made the move. With ``only``, just that seat's board is looked at."""
        seats = [only] if only is not None else self.seats
        deadline = time.monotonic() + timeout
        while True:
            v = await self.same_version(timeout, seats)
            if self.over(seats):
                return None
            for seat in seats:
                view = self.view(seat)
                if not self._to_move(seat, view):
                    continue
                moves = move_buttons(view) or navigation(view)
                if not moves:
                    continue
                r, c, _ = rng.choice(moves)
                before = {s.key: self.view(s)["buttons"] for s in seats}
                tap = self.press(seat.user, seat, r, c)
                tap.popup = await self.watch.popup(tap.query, timeout)
                window_step = tap.data in {d for _, _, d in navigation(view)}
                if not tap.accepted and window_step:
                    break  # the window is at that edge: another way
                if not tap.accepted:
                    raise AssertionError(f"a move of match {self.id} was refused: {tap.popup}")
                if window_step:
                    # Late in a Dots game two windows can look exactly alike (all dots and
                    # captured points), so a window step need not change the keyboard.
                    with contextlib.suppress(AssertionError):
                        await self._moved_on(v, before, min(NAV_WAIT, timeout), seats)
                    if time.monotonic() > deadline:
                        raise AssertionError(f"no move in match {self.id} in {timeout} s")
                    break
                if tap.op == "p":
                    await self.watch.until(seat.key, moved_from(v), timeout)
                    return tap
                try:
                    await self._moved_on(v, before, timeout, seats)
                except AssertionError as e:
                    raise AssertionError(f"{e} (after tap {tap.data} by {seat.user.id})") from e
                if self.settled_version(seats) != v or self.over(seats):
                    return tap
                break  # a selection step: the next tap completes the move
            else:
                if not self.vs_ai:
                    caption = self.main().get("caption")
                    raise AssertionError(f"nobody may move in match {self.id}: {caption}")
                left = deadline - time.monotonic()  # the bot is to move: wait for its move
                await self.watch.until(self.seats[0].key, moved_from(v), max(0.1, left))

    def _to_move(self, seat: Seat, view: View) -> bool:
        if self.vs_ai:  # "To move: Tetrad bot (easy)" while the bot thinks, if shown at all
            line = next((x for x in (view.get("caption") or "").splitlines() if "move" in x), "")
            return "bot (" not in line
        if seat.chat.type == "private":
            return "Your move" in (view.get("caption") or "")
        ids = mentioned(view)
        return bool(ids) and ids[0] == seat.user.id

    async def collect_popups(self, timeout: float = 20.0) -> None:
        missing = [t for t in self.taps if t.popup is None]
        answers = await asyncio.gather(*(self.watch.popup(t.query, timeout) for t in missing))
        for tap, popup in zip(missing, answers, strict=True):
            tap.popup = popup


async def keyboard_step(board: Board, seat: Seat, r: int, c: int, timeout: float = 30) -> View:
    """Tap a keyboard step that makes no move (a spot, a preview's flip, a window step) and
    wait for the keyboard it leads to."""
    before = board.view(seat)["buttons"]
    tap = board.press(seat.user, seat, r, c)
    tap.popup = await board.watch.popup(tap.query, timeout)
    assert tap.accepted, (tap.data, tap.popup)
    return await board.watch.until(seat.key, other_buttons(before), timeout)


def button_at(view: View, suffix: str) -> tuple[int, int]:
    """Where the button whose data ends with ``suffix`` is (``":s3"``: spot 3's)."""
    found = [(r, c) for r, c, d in datas(view) if d.endswith(suffix)]
    assert found, (suffix, view.get("caption"), datas(view))
    return found[0]


# -- making matches through the bot's UI -------------------------------------------------------


def _bot_name(world: World) -> str:
    return world.bot_username


async def first_board(
    watch: Watch, chat: Chat, pred: Callable[[View], bool], timeout: float = WAIT
) -> View:
    """A bot board in ``chat`` that satisfies ``pred``: one shown already, else the next one
    sent (a waiter for new messages only would miss a board sent before it was set up)."""
    for key, view in list(watch.views.items()):
        if key[0] == chat.ref and is_board(view) and pred(view):
            return view
    return await watch.new_message(chat.ref, lambda m: is_board(m) and pred(m), timeout)


async def group_match(
    world: ObservedWorld,
    kind: str,
    path: str,
    players: list[User],
    spectators: list[User],
    title: str,
) -> Board:
    """A group with two players and some spectators; the first player opens a lobby through
    the ``?startgroup=g_<path>`` deep link's /start, the second joins."""
    a, b = players
    chat = world.create_group(title, a, [b, *spectators], with_bot=True)
    payload = "g_" + path.replace(".", "_")
    world.user_send(a, chat, f"/start@{_bot_name(world)} {payload}")
    lobby = await first_board(world.watch, chat, lambda m: bool(with_op(m, "j")))
    seat = Seat(b, chat, lobby["message_id"])
    r, c, _ = with_op(lobby, "j")[0]
    world.press(b, chat, lobby["message_id"], r, c)
    board = await world.watch.until(seat.key, lambda m: bool(move_buttons(m)))
    seats = [Seat(a, chat, board["message_id"]), seat]
    return Board(world, kind, seats, list(spectators), id=match_id(board) or "")


async def link_match(world: ObservedWorld, kind: str, a: User, b: User) -> Board:
    """A link challenge: a board in each player's private chat."""
    pa, pb = world.chats[a.id], world.chats[b.id]
    world.user_send(a, pa, f"/challenge {kind}")
    text = await world.watch.new_message(pa.ref, lambda m: bool(LINK.search(m.get("text") or "")))
    link = LINK.search(text["text"])
    assert link is not None
    world.open_link(b, link.group(0))
    board_b = await first_board(world.watch, pb, lambda m: bool(move_buttons(m)))
    board_a = await first_board(world.watch, pa, lambda m: match_id(m) == match_id(board_b))
    board_a = await world.watch.until(
        (pa.ref, board_a["message_id"]), lambda m: bool(move_buttons(m))
    )
    seats = [Seat(a, pa, board_a["message_id"]), Seat(b, pb, board_b["message_id"])]
    return Board(world, kind, seats, id=match_id(board_b) or "")


async def ai_match(world: ObservedWorld, kind: str, path: str, user: User) -> Board:
    """A private game against the bot: /new, then the menu button of ``path`` (a finished
    /new menu path such as ``b.3.2.am``), as the quick-game buttons do."""
    chat = world.chats[user.id]
    world.user_send(user, chat, "/new")
    menu = await world.watch.new_message(chat.ref, lambda m: bool(with_op(m, "N")))
    r, c, _ = with_op(menu, "N")[0]
    world.press(user, chat, menu["message_id"], r, c, f"N:{user.id}:0:{path}")
    board = await first_board(world.watch, chat, lambda m: bool(move_buttons(m)))
    seat = Seat(user, chat, board["message_id"])
    return Board(world, kind, [seat], vs_ai=True, id=match_id(board) or "")
