"""Puzzle progress: each person's puzzle rating (Glicko-2, as match ratings, see
:mod:`storage.glicko`), streak, solved set and the puzzle in hand; each puzzle's own rating.

Keys (the person's in their hash slot):

- ``t:u:{user}`` field ``z:<game>``: ``{"r","rd","s","n","t"}`` (the rating, as
  :class:`storage.users.UserRating`) plus ``"k"`` streak, ``"kb"`` best streak, ``"ok"``
  puzzles solved, ``"p"`` the puzzle in hand, ``"a"`` its attempt number (a board's buttons
  carry it, so an older board's are stale), ``"x"`` the attempt's rating is settled (its
  first answer, or a hint, decided it) and ``"d"`` the puzzle is solved.
- ``t:u:{user}:zs:<game>``: the set of puzzle ids solved.
- ``t:u:{user}:zg:<game>``: the set of puzzle ids the person answered as a group's daily
  puzzle (each is rated once, whichever group asked it).
- ``t:pz:<game>``: hash of puzzle id → its rating ``{"r","rd","s","n"}`` (absent: the
  starting rating the caller knows from the puzzle's difficulty).

Rules: the first answer of an attempt is rated (right: the person beats the puzzle; wrong:
the puzzle wins), later answers are not; a hint before any answer settles the attempt
unrated. Storage knows no puzzle contents: the caller says which puzzle and its start rating.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, cast

from redis.asyncio.client import Pipeline

from storage import glicko
from storage._base import Part, dumps, guarded, load_object, start_writes, text, watched
from storage.errors import CorruptRecord
from storage.keys import check_match_id, check_name
from storage.users import UserRating


def _field(game: str) -> str:
    return f"z:{check_name('game', game)}"


@dataclass(frozen=True, slots=True)
class PuzzleState:
    """One person's puzzle record for one game."""

    rating: UserRating = field(default_factory=UserRating)
    streak: int = 0
    best_streak: int = 0
    solved: int = 0
    puzzle: str | None = None
    attempt: int = 0
    settled: bool = False
    done: bool = False

    def to_json(self) -> dict[str, Any]:
        d = self.rating.to_json()
        d.update(k=self.streak, kb=self.best_streak, ok=self.solved, a=self.attempt)
        if self.puzzle is not None:
            d["p"] = self.puzzle
        if self.settled:
            d["x"] = 1
        if self.done:
            d["d"] = 1
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> PuzzleState:
        return cls(
            UserRating.from_json(d),
            int(d.get("k", 0)),
            int(d.get("kb", 0)),
            int(d.get("ok", 0)),
            None if d.get("p") is None else str(d["p"]),
            int(d.get("a", 0)),
            bool(d.get("x")),
            bool(d.get("d")),
        )


@dataclass(frozen=True, slots=True)
class Answer:
    """What one answer did: ``rated`` when it changed the ratings (``before``/``after`` the
    person's); ``state`` the record after it."""

    solved: bool
    rated: bool
    before: UserRating
    after: UserRating
    state: PuzzleState


class Stale(Exception):
    """The board answered is not the person's puzzle in hand (an older one, or solved)."""


def _parse_state(key: str, raw: bytes | None) -> PuzzleState:
    if raw is None:
        return PuzzleState()
    try:
        return PuzzleState.from_json(load_object(key, raw))
    except (KeyError, TypeError, ValueError) as e:
        raise CorruptRecord(key, f"bad puzzle record ({e!r})") from e


def _parse_rating(key: str, raw: bytes | None, start: float) -> glicko.Rating:
    if raw is None:
        return glicko.Rating(start)
    try:
        d = load_object(key, raw)
        return glicko.Rating(float(d["r"]), float(d["rd"]), float(d["s"]))
    except (KeyError, TypeError, ValueError) as e:
        raise CorruptRecord(key, f"bad puzzle rating ({e!r})") from e


class Puzzles(Part):
    """``store.puzzles``: ``state``, ``solved_ids``, ``ratings``; ``begin`` a puzzle,
    ``answer`` it, take a ``hint``."""

    def _solved_key(self, user_id: int, game: str) -> str:
        return f"{self._keys.user(user_id)}:zs:{check_name('game', game)}"

    def _ratings_key(self, game: str) -> str:
        return f"{self._keys.prefix}:pz:{check_name('game', game)}"

    @guarded
    async def state(self, user_id: int, game: str) -> PuzzleState:
        key = self._keys.user(user_id)
        return _parse_state(key, cast("bytes | None", await self._r.hget(key, _field(game))))

    @guarded
    async def solved_ids(self, user_id: int, game: str) -> set[str]:
        members = cast(set[bytes], await self._r.smembers(self._solved_key(user_id, game)))
        return {text(m) for m in members}

    @guarded
    async def ratings(self, game: str) -> dict[str, float]:
        """The live rating of every puzzle rated so far (the others keep their start)."""
        key = self._ratings_key(game)
        raw = cast(dict[bytes, bytes], await self._r.hgetall(key))
        return {text(k): _parse_rating(key, v, 0.0).rating for k, v in raw.items()}

    async def _change(
        self, user_id: int, game: str, fn: Callable[[PuzzleState], PuzzleState]
    ) -> PuzzleState:
        return await self._rewrite(
            self._keys.user(user_id), _field(game), _parse_state, PuzzleState.to_json, fn
        )

    @guarded
    async def begin(
        self, user_id: int, game: str, puzzle_id: str, *, after: int | None = None
    ) -> PuzzleState:
        """Put ``puzzle_id`` in the person's hand as a new attempt (older boards go stale).
        ``after``: only if the attempt in hand is still this one (else :class:`Stale`)."""
        check_match_id(puzzle_id)

        def start(s: PuzzleState) -> PuzzleState:
            if after is not None and s.attempt != after:
                raise Stale(puzzle_id)
            return replace(s, puzzle=puzzle_id, attempt=s.attempt + 1, settled=False, done=False)

        return await self._change(user_id, game, start)

    @guarded
    async def hint(self, user_id: int, game: str, puzzle_id: str, attempt: int) -> PuzzleState:
        """A hint on the puzzle in hand: the attempt is settled without a rating change."""

        def take(s: PuzzleState) -> PuzzleState:
            if s.puzzle != puzzle_id or s.attempt != attempt or s.done:
                raise Stale(puzzle_id)
            return replace(s, settled=True)

        return await self._change(user_id, game, take)

    @guarded
    async def answer(
        self,
        user_id: int,
        game: str,
        puzzle_id: str,
        attempt: int,
        *,
        solved: bool,
        start_rating: float,
    ) -> Answer:
        """Record an answer to the puzzle in hand (:class:`Stale` for any other board)."""
        key, name = self._keys.user(user_id), _field(game)
        solved_key, ratings_key = self._solved_key(user_id, game), self._ratings_key(game)
        now = self._clock()

        async def body(pipe: Pipeline) -> Answer:
            s = _parse_state(key, cast("bytes | None", await pipe.hget(key, name)))
            if s.puzzle != puzzle_id or s.attempt != attempt or s.done:
                raise Stale(puzzle_id)
            raw = cast("bytes | None", await pipe.hget(ratings_key, puzzle_id))
            theirs = _parse_rating(ratings_key, raw, start_rating)
            rated = not s.settled
            before, after = s.rating, s.rating
            start_writes(pipe)
            if rated:
                after = _rate(pipe, ratings_key, puzzle_id, s.rating, theirs, solved, now)
            new_state = _answered(s, after, solved=solved, rated=rated)
            pipe.hset(key, name, dumps(new_state.to_json()))
            if solved:
                pipe.sadd(solved_key, puzzle_id)
            await pipe.execute()
            return Answer(solved, rated, before, after, new_state)

        return await watched(
            self._r,
            [key],
            body,
            attempts=self._config.max_attempts,
            what=f"puzzle answer of {key}",
        )

    @guarded
    async def answer_once(
        self, user_id: int, game: str, puzzle_id: str, *, solved: bool, start_rating: float
    ) -> Answer:
        """An answer to a group's daily puzzle: rated the first time the person answers that
        puzzle in any group (later ones, in another group, are not); the puzzle in hand in
        the private chat is left as it is."""
        check_match_id(puzzle_id)
        key, name = self._keys.user(user_id), _field(game)
        solved_key, ratings_key = self._solved_key(user_id, game), self._ratings_key(game)
        once_key = f"{self._keys.user(user_id)}:zg:{check_name('game', game)}"
        now = self._clock()

        async def body(pipe: Pipeline) -> Answer:
            s = _parse_state(key, cast("bytes | None", await pipe.hget(key, name)))
            rated = not await pipe.sismember(once_key, puzzle_id)
            raw = cast("bytes | None", await pipe.hget(ratings_key, puzzle_id))
            theirs = _parse_rating(ratings_key, raw, start_rating)
            after = s.rating
            start_writes(pipe)
            if rated:
                after = _rate(pipe, ratings_key, puzzle_id, s.rating, theirs, solved, now)
                pipe.sadd(once_key, puzzle_id)
            new_state = _answered(s, after, solved=solved, rated=rated)
            new_state = replace(new_state, settled=s.settled, done=s.done)  # the private hand
            pipe.hset(key, name, dumps(new_state.to_json()))
            if solved:
                pipe.sadd(solved_key, puzzle_id)
            await pipe.execute()
            return Answer(solved, rated, s.rating, after, new_state)

        return await watched(
            self._r,
            [key, once_key],
            body,
            attempts=self._config.max_attempts,
            what=f"group puzzle answer of {key}",
        )


def _rate(
    pipe: Pipeline,
    ratings_key: str,
    puzzle_id: str,
    before: UserRating,
    theirs: glicko.Rating,
    solved: bool,
    now: float,
) -> UserRating:
    """One rated answer: the person's new rating (returned) and the puzzle's (queued)."""
    mine = glicko.Rating(before.rating, before.rd, before.volatility).aged(
        0 if before.last is None else (now - before.last) / glicko.PERIOD
    )
    score = 1.0 if solved else 0.0
    new = glicko.update(mine, [(theirs, score)])
    after = UserRating(new.rating, new.rd, new.volatility, before.games + 1, now).rounded()
    puzzle = glicko.update(theirs, [(mine, 1.0 - score)])
    rating = {
        "r": round(puzzle.rating, 3),
        "rd": round(puzzle.rd, 3),
        "s": round(puzzle.volatility, 8),
    }
    pipe.hset(ratings_key, puzzle_id, dumps(rating))
    return after


def _answered(s: PuzzleState, after: UserRating, *, solved: bool, rated: bool) -> PuzzleState:
    """The record after an answer: the rating, the streak (a rated solve adds one, a wrong
    answer ends it), the solved count; the attempt settled, done if solved."""
    streak = s.streak + 1 if solved and rated else (s.streak if solved else 0)
    return replace(
        s,
        rating=after,
        streak=streak,
        best_streak=max(s.best_streak, streak),
        solved=s.solved + (1 if solved else 0),
        settled=True,
        done=solved,
    )
