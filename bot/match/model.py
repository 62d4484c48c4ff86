"""The match record: who plays, where the match is shown, the engine state, UI cursors.

A match is stored as one compact JSON document (see storage). ``version`` counts changes a
player can see (moves, joins, endings); callback buttons carry it so a stale button is refused.
UI cursors (the Dots keyboard window, a Sprouts selection in progress) change without bumping it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, TypedDict, cast, get_args

import engine

SCHEMA = 1
Status = Literal["lobby", "active", "finished"]
STATUSES: tuple[Status, ...] = get_args(Status)


class BadMatchRecord(ValueError):
    """A stored match that this version of the bot cannot read."""


# The two small dicts of a record (its "x" and each place's "k") as TypedDicts: stored as they
# were, written as dict literals as before, and mypy names a misspelt key or a wrong value.


class Extra(TypedDict, total=False):
    """Small per-feature state of a match."""

    clock: int  # the move clock, seconds (none when 0 or missing)
    total: int  # the whole-game clock: each player's seconds for the game (none when missing)
    inc: int  # the whole-game clock's increment, seconds added each time a turn is handed on
    left: list[float]  # the whole-game clock: each seat's seconds left at ``turn_since``
    draw: list[int]  # the seats that offered (then agreed to) a draw or an end by the scores
    end_scores: bool  # the offer ends the game by the scores (Точки), not as a draw
    stop_lead: int  # the bot's lead when it called STOP
    stop_limit: float  # seconds the other player may go on alone after STOP
    expired: float  # ``turn_since`` of the turn whose clock ran out
    reminded: float  # ``turn_since`` of the turn the player was reminded of
    pinged: float  # ``turn_since`` of the turn the player was pinged about
    cancelled: bool  # the lobby was cancelled (or timed out)
    ended: bool  # the ending (replay, record) has been sent
    rematch: str  # the rematch's match id
    rq: str  # the last request applied: the same again is AlreadyApplied, not stale
    link: int  # started from a link challenge
    tok: str  # the link challenge's token


class Cursor(TypedDict, total=False):
    """One place's keyboard state (changes without bumping the version)."""

    w: list[int]  # the keyboard window's corner (Точки: x, y; Точки и квадраты: row, column)
    map: int  # Точки: the keyboard shows the whole-board map
    box: list[int]  # Точки и квадраты: the box whose four sides are shown (row, column)
    a: int  # Рассада: the first spot chosen
    b: int  # Рассада: the second spot chosen
    i: int  # Рассада: which of the moves between a and b is previewed
    confirm: list[Any]  # a question waiting for yes or no: [what, user]
    menu: object  # a submenu open (older records; dropped on the next change)


@dataclass
class Seat:
    """A player's chair: a Telegram user, or the bot at some level."""

    user: int | None
    name: str
    level: str | None = None

    @property
    def is_ai(self) -> bool:
        return self.level is not None

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"u": self.user, "n": self.name}
        if self.level is not None:
            d["ai"] = self.level
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Seat:
        return cls(d.get("u"), str(d["n"]), d.get("ai"))


@dataclass
class Place:
    """One message that shows the match: a chat message, or an inline message.

    ``seat`` is set when the place belongs to one player (a link challenge shows the match in
    each player's private chat); ``cursor`` is this place's UI state (keyboard window, selection).
    ``off`` is set when the bot cannot reach the place (blocked by the user): it is not edited
    until the user comes back.
    """

    chat: int | None = None
    msg: int | None = None
    inline: str | None = None
    seat: int | None = None
    lang: str = "en"
    group: bool = False
    cursor: Cursor = field(default_factory=lambda: Cursor())
    off: bool = False

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"l": self.lang}
        for key, value in (
            ("c", self.chat),
            ("m", self.msg),
            ("i", self.inline),
            ("s", self.seat),
        ):
            if value is not None:
                d[key] = value
        if self.group:
            d["g"] = 1
        if self.cursor:
            d["k"] = self.cursor
        if self.off:
            d["o"] = 1
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Place:
        return cls(
            chat=d.get("c"),
            msg=d.get("m"),
            inline=d.get("i"),
            seat=d.get("s"),
            lang=d.get("l", "en"),
            group=bool(d.get("g")),
            cursor=cast(Cursor, dict(d.get("k") or {})),  # read as stored, checked where used
            off=bool(d.get("o")),
        )


@dataclass
class Match:
    id: str
    kind: str
    options: dict[str, Any]
    players: int
    seats: list[Seat] = field(default_factory=list)
    status: Status = "lobby"
    version: int = 0
    places: list[Place] = field(default_factory=list)
    chat: int | None = None  # the chat the match was created in (None for inline-only)
    creator: int | None = None
    lang: str = "en"
    created: float = 0.0
    updated: float = 0.0
    turn_since: float = 0.0  # when the player to move got the turn (clocks, reminders)
    extra: Extra = field(default_factory=lambda: Extra())  # small per-feature state (offers…)
    state: dict[str, Any] | None = None  # the engine's to_json while no live game is attached
    _game: engine.Game[Any] | None = field(default=None, repr=False, compare=False)

    # -- the engine game ---------------------------------------------------------------

    @property
    def facts(self) -> engine.GameFacts:
        """What the engine says of every game of this kind (players, actions, AI levels)."""
        return engine.facts_of(self.kind)

    @property
    def game(self) -> engine.Game[Any]:
        """The live engine game (parsed once from the stored state, then kept)."""
        if self._game is None:
            if self.state is None:
                self._game = engine.new(self.kind, **self.options)
            else:
                self._game = engine.load(self.state)
        return self._game

    @property
    def has_game(self) -> bool:
        return self.state is not None or self._game is not None

    def attach(self, game: engine.Game[Any]) -> None:
        self._game = game
        self.state = None

    @property
    def to_move(self) -> Seat | None:
        if self.status != "active":
            return None
        return self.seats[self.game.turn]

    def seat_of(self, user: int | None) -> int | None:
        """The seat index of a Telegram user (the first one, if they hold several)."""
        if user is None:
            return None
        for i, seat in enumerate(self.seats):
            if seat.user == user and not seat.is_ai:
                return i
        return None

    @property
    def humans(self) -> list[int]:
        return [s.user for s in self.seats if s.user is not None and not s.is_ai]

    @property
    def vs_ai(self) -> bool:
        return any(s.is_ai for s in self.seats)

    def place_at(self, chat: int | None, msg: int | None, inline: str | None) -> int | None:
        """The index of the place showing the message (chat, msg) or the inline message."""
        for i, p in enumerate(self.places):
            if inline is not None and p.inline == inline:
                return i
            if inline is None and p.chat == chat and p.msg == msg and msg is not None:
                return i
        return None

    def chats(self) -> list[int]:
        return sorted({p.chat for p in self.places if p.chat is not None})

    # -- records ----------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        state = self._game.to_json() if self._game is not None else self.state
        d: dict[str, Any] = {
            "v": SCHEMA,
            "id": self.id,
            "kind": self.kind,
            "opt": self.options,
            "np": self.players,
            "seats": [s.to_json() for s in self.seats],
            "status": self.status,
            "version": self.version,
            "places": [p.to_json() for p in self.places],
            "chats": self.chats(),
            "chat": self.chat,
            "by": self.creator,
            "lang": self.lang,
            "t0": round(self.created, 3),
            "t": round(self.updated, 3),
            "tt": round(self.turn_since, 3),
        }
        if self.extra:
            d["x"] = self.extra
        if state is not None:
            d["game"] = state
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Match:
        if not isinstance(d, dict) or d.get("v") != SCHEMA:
            raise BadMatchRecord(f"unsupported match record version {d.get('v')!r}")
        try:
            m = cls(
                id=str(d["id"]),
                kind=str(d["kind"]),
                options=dict(d.get("opt") or {}),
                players=int(d["np"]),
                seats=[Seat.from_json(s) for s in d.get("seats", [])],
                status=cast(Status, str(d["status"])),  # checked below
                version=int(d["version"]),
                places=[Place.from_json(p) for p in d.get("places", [])],
                chat=d.get("chat"),
                creator=d.get("by"),
                lang=d.get("lang", "en"),
                created=float(d.get("t0", 0.0)),
                updated=float(d.get("t", 0.0)),
                turn_since=float(d.get("tt", 0.0)),
                extra=cast(Extra, dict(d.get("x") or {})),  # as stored, as cursor above
                state=d.get("game"),
            )
        except (KeyError, TypeError, ValueError) as e:
            raise BadMatchRecord(f"bad match record: {e}") from e
        if m.status not in STATUSES:
            raise BadMatchRecord(f"bad match status {m.status!r}")
        return m
