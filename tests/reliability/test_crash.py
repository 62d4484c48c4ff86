"""A crash at any instant loses no turn (#32): the bot is killed (SIGKILL) at each instant of
a move's life, started again, and the game goes on by itself, with no tap.

Each instant is hit every run, not by chance: the Bot API call that follows it is held up
by the emulator (a ``timeout`` fault: the call hangs and is never carried out; a ``slow``
one: it is carried out at once and only its answer hangs), and the bot is killed while it
waits for that answer. After the restart, without any tap:

* the board shows the stored position within 2 s of the first update the restarted bot
  handles (a /help from someone else, sent as soon as it is up); after a rematch tap, the
  new match's board does;
* against the bot: the bot's move is made and shown within the AI watchdog's time (the AI
  lease: the turn's deadline falls due when the dead process's lease runs out);
* at the end: the replay and the record arrive.

Instants against the bot: just after a move tap is answered (held: the "typing" action);
during the think (the board edit that shows the person's move while the bot thinks); between
the stored move and its board edit (held, not carried out); during the board edit (carried
out, answer held); during the replay's send; during the rematch's first board. Between two
people: after the tap is answered (its board edit held), during the board edit, during the
replay, during the rematch. Every instant it runs is hit in every run.

Each game plays them: Точки и квадраты, Точки (ended by resigning: a quick board holds 225
points) and Рассада (a move picked spot by spot, with a preview when several curves join
the spots; the steps before the move's tap are taken before the fault is set). Each restart
costs a start of the bot, so the short form hits each instant once, spread over the games
(:data:`SHORT`); ``TETRAD_FULL=1`` runs every instant of every game.
"""

from __future__ import annotations

import asyncio
import inspect
import random
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import engine
import storage
from playground.faults import Fault
from playground.server import Emulator
from tests.reliability.cluster import NO_ROUTES, Cluster, Env
from tests.reliability.conftest import FULL
from tests.reliability.people import (
    Board,
    ObservedWorld,
    Seat,
    ai_match,
    button_at,
    datas,
    finished,
    first_board,
    group_match,
    is_board,
    keyboard_step,
    match_id,
    navigation,
    selections,
    version,
    with_op,
)

# Each restart waits for the bot's worker pools to warm up: about 4 s on a quiet machine,
# 20-30 s beside two CPU burners (the test against the bot restarts 6 times, 194 s there).
pytestmark = pytest.mark.timeout(900)

AI_SCALE = 0.05  # the replicas' AI_TIME_SCALE (the cluster's default)
WATCHDOG = 5.0 + 4 * 1.8 * AI_SCALE  # bot.telegram.act.ai_lease at that scale
HOLD = 60.0  # seconds a held-up call hangs: far longer than any instant needs
SEEN_WITHIN = 2.0  # the board is current this soon after the first update handled
EDITS = ["editMessageMedia", "editMessageCaption", "editMessageReplyMarkup"]
# The restarted bot's AI workers start with its first think (numba kernels load, a few
# seconds on a busy machine): the bot's move may come this long after it is up.
AFTER_READY = 10.0
SEND_LEASE = 3.0  # bot.telegram.boards.SEND_LEASE: a first board's send, held by the dead


@dataclass
class Instant:
    name: str
    kind: str  # the fault that holds the call up: "timeout" (never done) or "slow" (done)
    methods: list[str]
    show_after: str = "60"  # the replicas' AI_SHOW_AFTER for this instant


# In this order, each restart starts the bot as the next instant needs it; the bot's move
# after a restart starts its AI workers, so no cold start delays the next instant's think.
AI_INSTANTS = [
    Instant("tap answered", "timeout", ["sendChatAction"]),
    Instant("AI move stored, board not edited", "timeout", EDITS),
    Instant("AI board edit", "slow", EDITS),
    Instant("AI thinking", "timeout", EDITS, show_after="0"),
]
PEOPLE_INSTANTS = [
    Instant("tap answered", "timeout", EDITS),
    Instant("board edit", "slow", EDITS),
]
REPLAY = Instant("replay send", "timeout", ["sendAnimation"])
REMATCH = Instant("rematch", "timeout", ["sendPhoto"])


@dataclass(frozen=True)
class Game:
    kind: str
    path: str  # the /new menu path of the game, without its opponent
    resigns: bool = False  # ended by resigning (a full game takes too many moves)


# Рассада with 5 spots lasts 10 moves at least: the ending comes after the four AI instants.
GAMES = [Game("boxes", "b.3.2"), Game("dots", "d.q.-", resigns=True), Game("sprouts", "s.5.-")]


@dataclass(frozen=True)
class Short:
    """The short form's share of one game: its instants against the bot and between people,
    and whether its ending (replay, rematch) runs in each."""

    vs_ai: tuple[str, ...]
    people: tuple[str, ...]
    ai_ends: bool = False
    people_ends: bool = False


# Each restart costs the bot's start on a busy machine, so the short form hits every instant
# once per run, spread over the games (the same instant in another game adds no new path).
SHORT = {
    "boxes": Short(("tap answered", "AI thinking"), ("tap answered",), True, True),
    "dots": Short(("AI move stored, board not edited",), ("board edit",)),
    "sprouts": Short(("AI board edit",), ("tap answered",)),
}
assert {n for s in SHORT.values() for n in s.vs_ai} == {i.name for i in AI_INSTANTS}
assert {n for s in SHORT.values() for n in s.people} == {i.name for i in PEOPLE_INSTANTS}


def chosen(game: Game, *, vs_ai: bool) -> list[Instant]:
    instants = AI_INSTANTS if vs_ai else PEOPLE_INSTANTS
    if FULL:
        return instants
    names = SHORT[game.kind].vs_ai if vs_ai else SHORT[game.kind].people
    return [i for i in instants if i.name in names]


def ends_too(game: Game, *, vs_ai: bool) -> bool:
    """Whether the replay and rematch instants run for this game in this form."""
    return FULL or (SHORT[game.kind].ai_ends if vs_ai else SHORT[game.kind].people_ends)


games = pytest.mark.parametrize("game", GAMES, ids=[g.kind for g in GAMES])


async def stored(redis_url: str, mid: str) -> dict[str, Any]:
    async with await storage.connect(redis_url) as store:
        record = await store.matches.get(mid)
    assert record is not None, mid
    return record


async def hold(world: ObservedWorld, instant: Instant) -> Fault:
    return world.faults.add(
        instant.kind, methods=instant.methods, rate=1.0, seconds=600, delay=HOLD
    )


async def until(pred: Any, timeout: float, what: str, step: float = 0.02) -> float:
    """Poll ``pred`` (sync or async) until it holds; the time it took."""
    t0 = time.monotonic()
    while True:
        got = pred()
        if inspect.isawaitable(got):
            got = await got
        if got:
            return time.monotonic() - t0
        if time.monotonic() - t0 > timeout:
            raise AssertionError(f"{what}: not within {timeout:.1f} s")
        await asyncio.sleep(step)


class Crasher:
    """One bot replica that the test kills at an instant and starts again."""

    def __init__(
        self, emu: Emulator, world: ObservedWorld, redis_url: str, tmp: Path, game: Game
    ) -> None:
        self.emu = emu
        self.world = world
        self.redis_url = redis_url
        # Route workers only where curves are routed: each restart starts the pools again.
        env: Env = {} if game.kind == "sprouts" else NO_ROUTES
        self.cluster = Cluster(emu, redis_url, tmp, 1, **env)
        self.prober = world.add_user("prober")
        self.report: list[str] = []
        self.killed = time.monotonic()

    async def story(self) -> str:
        """The bot's last calls and the deadlines in Redis: what a failure needs to tell."""
        calls = [(r["method"], r.get("fault"), r.get("ok")) for r in list(self.emu.requests)[-25:]]
        async with await storage.connect(self.redis_url) as store:
            due = await store.client.zrange("t:due", 0, -1, withscores=True)
        return f"last calls {calls}; deadlines {due}"

    def note(self, line: str) -> None:
        self.report.append(line)
        print(line)

    @property
    def bot(self) -> Any:
        return self.cluster.bots[0]

    async def kill_when_held(
        self, fault: Fault, instant: Instant, what: str, at: Any = None
    ) -> float:
        """Kill the bot once the fault holds a call (and ``at``, sync or async, holds)."""
        await until(lambda: fault.injected > 0, 60, f"{what}: {instant.methods} never called")
        if at is not None:
            await until(at, 60, f"{what}: the instant never came")
        self.bot.kill()
        killed = self.killed = time.monotonic()
        self.world.faults.clear()
        return killed

    async def restart(self, show_after: str = "60") -> float:
        """Start the bot again (with the AI_SHOW_AFTER the next instant needs); when the
        first update it handled was answered."""
        self.bot.env["AI_SHOW_AFTER"] = show_after
        self.bot.start()
        await self.bot.wait_ready()
        chat = self.world.chats[self.prober.id]
        self.world.user_send(self.prober, chat, "/help")
        await self.world.watch.new_message(chat.ref, lambda m: not is_board(m), timeout=30)
        self.note(f"restarted: first update handled {time.monotonic() - self.killed:.1f} s after")
        return time.monotonic()

    async def board_current(self, board: Board, seat: Seat, since: float, what: str) -> None:
        """The board shows the stored position within SEEN_WITHIN of ``since``."""

        async def shows_stored() -> bool:
            record = await stored(self.redis_url, board.id)
            view = board.view(seat)
            if record["status"] == "finished":
                return finished(view)
            return version(view) == record["version"]

        await until(shows_stored, 30, f"{what}: board shows the stored position")
        late = time.monotonic() - since
        self.note(f"{what}: board current {late:.1f} s after the first update handled")
        assert late <= SEEN_WITHIN, f"{what}: the board was current {late:.1f} s after restart"

    async def person_to_move(self, board: Board) -> bool:
        """The stored match waits for the person, and the board shows it (or it ended)."""
        record = await stored(self.redis_url, board.id)
        view = board.view(board.seats[0])
        if record["status"] == "finished":
            return finished(view)
        ai = next(i for i, s in enumerate(record["seats"]) if s.get("ai"))
        return version(view) == record["version"] and turn_of(record) != ai

    async def bot_moves(
        self, board: Board, killed: float, ready: float, what: str, extra: float = 0.0
    ) -> None:
        """Without a tap, the bot's move shows: the person is to move again (or it ended),
        within the watchdog's time of the kill (or soon after the restart, if that is later);
        ``extra``: a lease the dead process held that the move's board waits for too."""
        bound = max(killed + WATCHDOG + extra, ready) + AFTER_READY - time.monotonic()
        await until(lambda: self.person_to_move(board), max(bound, 0.5), f"{what}: the bot's move")
        self.note(f"{what}: bot moved {time.monotonic() - killed:.1f} s after the kill")


def turn_of(record: dict[str, Any]) -> int:
    return int(engine.load(record["game"]).turn)


async def ready_move(
    board: Board, seat: Seat, record: dict[str, Any], rng: random.Random
) -> tuple[int, int]:
    """The steps before a move (a Dots window, a Рассада spot and its preview), so that
    none of them meets the fault set next; the button whose tap makes the move."""
    view = board.view(seat)
    if board.kind == "sprouts":  # two spots; then, if several curves join them, Play
        game: Any = engine.load(record["game"])
        spots = [s.number for s in game.drawing.spots if s.lives]
        pairs = [(a, b) for a in spots for b in game.joinable(a)]
        a, b = rng.choice(pairs)
        view = await keyboard_step(board, seat, *button_at(view, f":s{a}"))
        if len(game.moves_between(a, b)) == 1:
            return button_at(view, f":s{b}")  # joined in one way only: played at once
        view = await keyboard_step(board, seat, *button_at(view, f":s{b}"))
    while not with_op(view, "p"):  # a Dots window with no free point in view
        steps = navigation(view)
        assert steps and not selections(view), view.get("caption")
        view = await keyboard_step(board, seat, *rng.choice(steps)[:2])
    r, c, _ = rng.choice(with_op(view, "p"))
    return r, c


async def tap_move(
    board: Board, seat: Seat, rng: random.Random, instant: Instant, redis_url: str
) -> Fault:
    """A move by ``seat``, its instant's fault set just before the tap that makes it."""
    r, c = await ready_move(board, seat, await stored(redis_url, board.id), rng)
    fault = await hold(board.world, instant)
    tap = board.press(seat.user, seat, r, c)
    tap.popup = await board.watch.popup(tap.query, 30)
    assert tap.accepted, tap.popup
    return fault


async def to_the_end(board: Board, game: Game, rng: random.Random) -> None:
    """Play the match to its end (or resign it, for a game too long to play out)."""
    if not game.resigns:
        while await board.step(rng, timeout=60) is not None and not board.over():
            pass
        return
    await board.same_version(60)
    seat = board.seats[0]
    view = await keyboard_step(board, seat, *button_at(board.view(seat), ":menu"))
    view = await keyboard_step(board, seat, *button_at(view, ":r"))
    r, c = button_at(view, ":R")
    tap = board.press(seat.user, seat, r, c)
    tap.popup = await board.watch.popup(tap.query, 30)
    await board.watch.until(seat.key, finished, 30)


def mover(board: Board, record: dict[str, Any]) -> Seat:
    uid = record["seats"][turn_of(record)].get("u")
    return next(s for s in board.seats if s.user.id == uid)


@games
async def test_crash_at_each_instant_against_the_bot(
    game: Game, emu: Emulator, world: ObservedWorld, redis_url: str, tmp_path: Path
) -> None:
    c = Crasher(emu, world, redis_url, tmp_path, game)
    rng = random.Random(3)
    instants = chosen(game, vs_ai=True)
    async with c.cluster:
        user = world.add_user("crash_ai")
        board = await ai_match(world, game.kind, game.path + ".ae", user)
        seat = board.seats[0]
        for k, instant in enumerate(instants):
            what = f"{game.kind} vs bot, {instant.name}"
            after = instants[k + 1].show_after if k + 1 < len(instants) else "60"
            await until(lambda: c.person_to_move(board), 60, f"{what}: the person's turn")
            before = await stored(redis_url, board.id)
            fault = await tap_move(board, seat, rng, instant, redis_url)
            at = None
            if instant.name.startswith("AI move stored"):
                # The edit held first can be another than the AI move's (a board shown again
                # late, after the last restart, on a busy machine): kill once the move is in.
                async def at(v: int = before["version"]) -> bool:
                    return int((await stored(redis_url, board.id))["version"]) >= v + 2

            killed = await c.kill_when_held(fault, instant, what, at)
            at_kill = await stored(redis_url, board.id)
            if instant.name == "AI thinking":  # the think ran, its move was not stored
                assert at_kill["version"] == before["version"] + 1, what
            if instant.name.startswith("AI move stored"):
                assert at_kill["version"] >= before["version"] + 2, what
            ready = await c.restart(after)
            await c.board_current(board, seat, ready, what)
            await c.bot_moves(board, killed, ready, what)
        if ends_too(game, vs_ai=True):
            await end_and_rematch(c, board, game, rng, vs_ai=True)
    print("\n" + "\n".join(c.report))


async def end_and_rematch(
    c: Crasher, board: Board, game: Game, rng: random.Random, *, vs_ai: bool
) -> None:
    """The replay instant (killed while the replay is sent), then the rematch instant."""
    world, seat = c.world, board.seats[0]
    who = f"{game.kind} vs bot" if vs_ai else f"{game.kind}, people"
    fault = await hold(world, REPLAY)  # only the ending sends an animation
    await to_the_end(board, game, rng)
    killed = await c.kill_when_held(fault, REPLAY, f"{who}, replay")
    ready = await c.restart()
    await c.board_current(board, seat, ready, f"{who}, replay")

    def ending_sent() -> bool:
        return any(
            (v.get("media") or {}).get("kind") == "document"
            for k, v in world.watch.views.items()
            if k[0] == seat.chat.ref
        )

    await until(ending_sent, max(killed + WATCHDOG, ready) + 10 - time.monotonic(), "ending")
    c.note(f"{who}, replay: ending sent {time.monotonic() - killed:.1f} s after the kill")

    # The rematch: its first board is held; after the restart it arrives by itself.
    fault = await hold(world, REMATCH)
    view = board.view(seat)
    again = [(r, col) for r, col, d in datas(view) if d.startswith("a:") and d.endswith(":x")]
    assert again, view.get("caption")
    tap = board.press(seat.user, seat, *again[0])
    tap.popup = await board.watch.popup(tap.query, 30)
    killed = await c.kill_when_held(fault, REMATCH, f"{who}, rematch")
    ready = await c.restart()
    # The restarted bot shows the new board at once (its show deadline is looked at on
    # start-up), often before the first update is answered: look at what is shown already.
    shown = any(
        k[0] == seat.chat.ref and is_board(v) and match_id(v) not in (None, board.id)
        for k, v in world.watch.views.items()
    )
    try:
        new = await first_board(
            world.watch, seat.chat, lambda m: match_id(m) not in (None, board.id), 30
        )
    except AssertionError as e:
        raise AssertionError(f"{who}, rematch: {e}; {await c.story()}") from None
    when = "before" if shown else "after"
    c.note(f"{who}, rematch: its board came {when} the first update was answered")
    seats = [Seat(s.user, s.chat, new["message_id"]) for s in board.seats]
    rematch = Board(world, board.kind, seats, vs_ai=vs_ai, id=match_id(new) or "")
    await c.board_current(rematch, rematch.seats[0], ready, f"{who}, rematch")
    if vs_ai:  # seats rotate: the bot opens the rematch, by itself
        await c.bot_moves(rematch, killed, ready, f"{who}, rematch", extra=SEND_LEASE)


@games
async def test_crash_at_each_instant_between_people(
    game: Game, emu: Emulator, world: ObservedWorld, redis_url: str, tmp_path: Path
) -> None:
    c = Crasher(emu, world, redis_url, tmp_path, game)
    rng = random.Random(5)
    async with c.cluster:
        a, b = world.add_user("crash_a"), world.add_user("crash_b")
        board = await group_match(world, game.kind, game.path, [a, b], [], "crash club")
        seat = board.seats[0]
        for instant in chosen(game, vs_ai=False):
            what = f"{game.kind}, people, {instant.name}"
            await board.same_version(60)
            record = await stored(redis_url, board.id)
            fault = await tap_move(board, mover(board, record), rng, instant, redis_url)
            await c.kill_when_held(fault, instant, what)
            ready = await c.restart()
            await c.board_current(board, seat, ready, what)
            await board.step(rng, timeout=30)  # and the game plays on
        if ends_too(game, vs_ai=False):
            await end_and_rematch(c, board, game, rng, vs_ai=False)
    print("\n" + "\n".join(c.report))
