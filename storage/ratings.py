"""Results of finished matches: tallies, Glicko-2 ratings (see :mod:`storage.glicko` for why)
and leaderboards, recorded exactly once per match.

``record(match_id, …)`` runs one WATCH/MULTI transaction over the match's result marker
``t:m:{id}:res`` and the players' hashes: if the marker exists the match was recorded before
and the stored outcome is returned unchanged (``repeated=True``), so the bot may retry the
finishing step as often as it likes. Otherwise it writes the marker, every player's tally and
rating, and the leaderboards together.

Rules: ratings are for games between people only; a match with a bot seat is unrated and
counts, for each person, in the tally against that bot level (``vs_ai``). In a game of more
than two players each person is rated against each other person (a better place wins that
pair, an equal place draws), so joint winners draw each other and beat the rest. "Won"
means first place, alone or shared with some (joint winners); "drawn" a first place shared
by every seat; "lost" any other place.

Leaderboards are sorted sets scored by rating: one global per game ``t:lb:<game>`` and one per
chat and game ``t:lb:<game>:{chat}`` listing the people who played a rated game in that chat.
A rating change updates every board the player is on (the last 20 chats they played in).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from redis.asyncio.client import Pipeline

from storage import glicko
from storage._base import Part, dumps, guarded, load_object, loads, start_writes, watched
from storage.errors import CorruptRecord, InvalidRecord
from storage.keys import check_int_id, check_match_id, check_name
from storage.users import (
    PROVISIONAL_RD,
    BestWin,
    UserRating,
    ai_field,
    chats_field,
    parse_rating,
    parse_tally,
    rating_field,
    tally_field,
)

BOARD_CHATS = 20  # chat leaderboards kept up to date per player and game


@dataclass(frozen=True, slots=True)
class AiSeat:
    """A seat played by the bot at ``level`` ("easy", "medium", "hard"…)."""

    level: str


Seat = int | AiSeat


@dataclass(frozen=True, slots=True)
class Change:
    """What one finished match did to one person."""

    user_id: int
    result: str  # "won" | "lost" | "drawn"
    before: UserRating | None = None  # ratings, in rated matches only
    after: UserRating | None = None

    @property
    def delta(self) -> float | None:
        if self.before is None or self.after is None:
            return None
        return self.after.rating - self.before.rating

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"u": self.user_id, "x": self.result}
        if self.before is not None and self.after is not None:
            d["b"], d["a"] = self.before.to_json(), self.after.to_json()
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Change:
        before, after = d.get("b"), d.get("a")
        return cls(
            int(d["u"]),
            str(d["x"]),
            None if before is None else UserRating.from_json(before),
            None if after is None else UserRating.from_json(after),
        )


@dataclass(frozen=True, slots=True)
class Outcome:
    match_id: str
    game: str
    rated: bool
    changes: tuple[Change, ...]
    repeated: bool = False  # True: recorded by an earlier call; this one changed nothing

    def to_json(self) -> dict[str, Any]:
        return {
            "v": 1,
            "g": self.game,
            "rated": self.rated,
            "c": [c.to_json() for c in self.changes],
        }

    @classmethod
    def from_json(cls, key: str, match_id: str, d: dict[str, Any]) -> Outcome:
        if d.get("v") != 1:
            raise CorruptRecord(key, f"unknown result version {d.get('v')!r}")
        try:
            changes = tuple(Change.from_json(c) for c in d["c"])
            return cls(match_id, str(d["g"]), bool(d["rated"]), changes, repeated=True)
        except (KeyError, TypeError, ValueError) as e:
            raise CorruptRecord(key, f"bad result record ({e!r})") from e


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of a leaderboard."""

    user_id: int
    rating: float
    rd: float
    games: int

    @property
    def provisional(self) -> bool:
        return self.rd > PROVISIONAL_RD


def _result(places: Sequence[int], i: int) -> str:
    best = min(places)
    if places[i] != best:
        return "lost"
    return "drawn" if places.count(best) == len(places) else "won"


def _pair_score(mine: int, theirs: int) -> float:
    return 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0


def _check_seats(seats: Sequence[Seat], places: Sequence[int]) -> None:
    if len(seats) < 2 or len(seats) != len(places):
        raise InvalidRecord("a result needs one place per seat and at least two seats")
    for p in places:
        if isinstance(p, bool) or not isinstance(p, int) or p < 0:
            raise InvalidRecord(f"places are non-negative integers, not {p!r}")
    humans = []
    for s in seats:
        if isinstance(s, AiSeat):
            check_name("AI level", s.level)
        else:
            humans.append(check_int_id("user id", s))
    if len(set(humans)) != len(humans):
        raise InvalidRecord("one person holds two seats; such a match cannot be recorded")


@dataclass(slots=True)
class _Player:
    """One person of a finished match: what is stored, and what to write back."""

    user_id: int
    seat: int
    key: str
    row: list[bytes | None]  # rating, tally, board chats, then one tally per AI level
    writes: dict[str, bytes] = field(default_factory=dict)
    boards: list[int | None] = field(default_factory=list)  # None: the global board
    board_score: float = 0.0


def _score(
    match_id: str,
    game: str,
    players: list[_Player],
    places: Sequence[int],
    levels: list[str],
    rated: bool,
    chat_id: int | None,
    now: float,
) -> Outcome:
    """Work out every player's new tally and rating and fill in their writes."""
    before = [parse_rating(p.key, p.row[0]) or UserRating() for p in players]
    aged = [
        glicko.Rating(r.rating, r.rd, r.volatility).aged(
            0 if r.last is None else (now - r.last) / glicko.PERIOD
        )
        for r in before
    ]
    changes = []
    for n, p in enumerate(players):
        result = _result(places, p.seat)
        if levels:  # against the bot: its own tallies, no rating
            for level, raw in zip(levels, p.row[3:], strict=True):
                tally = parse_tally(p.key, raw)[0].add(result)
                p.writes[ai_field(game, level)] = dumps(tally.to_json())
            changes.append(Change(p.user_id, result))
            continue
        tally, best = parse_tally(p.key, p.row[1])
        change = Change(p.user_id, result)
        if rated:
            others = [m for m in range(len(players)) if m != n]
            mine = places[p.seat]
            games = [(aged[m], _pair_score(mine, places[players[m].seat])) for m in others]
            new = glicko.update(aged[n], games)
            after = UserRating(
                new.rating, new.rd, new.volatility, before[n].games + 1, now
            ).rounded()
            change = Change(p.user_id, result, before[n], after)
            if result == "won":
                beaten = [m for m in others if places[players[m].seat] > mine]
                top = max(beaten, key=lambda m: before[m].rating)
                if best is None or before[top].rating > best.rating:
                    best = BestWin(before[top].rating, players[top].user_id, match_id)
            chats = _board_chats(p.key, p.row[2], chat_id)
            p.writes[rating_field(game)] = dumps(after.to_json())
            p.writes[chats_field(game)] = dumps(chats)
            p.boards, p.board_score = [None, *chats], after.rating
        record = tally.add(result).to_json()
        if best is not None:
            record["b"] = best.to_json()
        p.writes[tally_field(game)] = dumps(record)
        changes.append(change)
    return Outcome(match_id, game, rated, tuple(changes))


def _board_chats(key: str, raw: bytes | None, chat_id: int | None) -> list[int]:
    """The chats whose leaderboards list the player, with ``chat_id`` moved to the end."""
    chats = [] if raw is None else loads(key, raw)
    if not isinstance(chats, list) or not all(isinstance(c, int) for c in chats):
        raise CorruptRecord(key, "the list of leaderboard chats is not a list of ids")
    if chat_id is not None:
        chats = [c for c in chats if c != chat_id] + [chat_id]
    return chats[-BOARD_CHATS:]


class Ratings(Part):
    """``store.ratings``: ``record`` a finished match once; ``get``, ``top``, ``rank``."""

    @guarded
    async def record(
        self,
        match_id: str,
        game: str,
        seats: Sequence[Seat],
        places: Sequence[int],
        *,
        chat_id: int | None = None,
        rated: bool = True,
    ) -> Outcome:
        """Count a finished match for its players, exactly once per ``match_id``.

        ``seats`` are user ids or :class:`AiSeat`; ``places[i]`` is seat i's final place
        (0 = first; equal places tie). ``chat_id`` is the group where it was played, for that
        chat's leaderboard. Returns what changed; a repeated call returns the first outcome.
        """
        check_match_id(match_id)
        check_name("game", game)
        _check_seats(seats, places)
        if chat_id is not None:
            check_int_id("chat id", chat_id)
        result_key = self._keys.result(match_id)
        humans = [(i, s) for i, s in enumerate(seats) if not isinstance(s, AiSeat)]
        levels = sorted({s.level for s in seats if isinstance(s, AiSeat)})
        is_rated = rated and not levels and len(humans) >= 2
        user_keys = [self._keys.user(uid) for _, uid in humans]
        now = self._clock()

        async def body(pipe: Pipeline) -> Outcome:
            raw = await pipe.get(result_key)
            if raw is not None:
                return Outcome.from_json(result_key, match_id, load_object(result_key, raw))
            fields = [rating_field(game), tally_field(game), chats_field(game)]
            fields += [ai_field(game, level) for level in levels]
            rows = [cast(list[bytes | None], await pipe.hmget(key, fields)) for key in user_keys]
            players = [
                _Player(uid, i, key, row)
                for (i, uid), key, row in zip(humans, user_keys, rows, strict=True)
            ]
            outcome = _score(match_id, game, players, places, levels, is_rated, chat_id, now)
            start_writes(pipe)
            memory = int(self._config.result_memory * 1000)
            pipe.set(result_key, dumps(outcome.to_json()), px=memory)
            for p in players:
                # redis-py wants a Mapping keyed by str | bytes; a dict keyed by str is one
                pipe.hset(p.key, mapping=p.writes)  # type: ignore[arg-type]
                for chat in p.boards:
                    pipe.zadd(self._keys.board(game, chat), {str(p.user_id): p.board_score})
            await pipe.execute()
            return outcome

        return await watched(
            self._r,
            [result_key, *user_keys],
            body,
            attempts=self._config.max_attempts,
            what=f"result of match {match_id}",
        )

    @guarded
    async def get(self, user_id: int, game: str) -> UserRating:
        """The user's rating in ``game`` (the starting rating before their first rated game)."""
        key = self._keys.user(user_id)
        raw = await self._r.hget(key, rating_field(check_name("game", game)))
        return parse_rating(key, cast("bytes | None", raw)) or UserRating()

    @guarded
    async def top(self, game: str, chat_id: int | None = None, n: int = 10) -> list[Standing]:
        """The best ``n`` rated players of ``game``, globally or in one chat."""
        if n <= 0:
            return []
        board = self._keys.board(game, chat_id)
        reply = await self._r.zrevrange(board, 0, n - 1, withscores=True)
        rows = cast(list[tuple[bytes, float]], reply)
        async with self._r.pipeline(transaction=False) as pipe:
            for member, _ in rows:
                pipe.hget(self._keys.user(int(member)), rating_field(game))
            ratings = await pipe.execute()
        standings = []
        for (member, score), raw in zip(rows, ratings, strict=True):
            uid = int(member)
            r = parse_rating(self._keys.user(uid), raw) or UserRating(score)
            standings.append(Standing(uid, score, r.rd, r.games))
        return standings

    @guarded
    async def rank(self, user_id: int, game: str, chat_id: int | None = None) -> int | None:
        """1-based place of the user on the board, None when not on it."""
        place = await self._r.zrevrank(self._keys.board(game, chat_id), str(user_id))
        return None if place is None else cast(int, place) + 1
