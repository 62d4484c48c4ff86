"""A group's daily puzzle: the board posted in the chat, who has tried it, and who solved it
first. Each person tries once; the first right answer is the winner, for good.

Key (in the chat's hash slot): ``t:c:{chat}:zd:<game>:<day>`` (``day``: days since
1970-01-01, UTC), a hash: ``p`` the puzzle id, ``m`` the board's message id, ``w`` the first
solver ``{"id","n"}``, ``u:<user>`` ``1`` right / ``0`` wrong. It lapses :data:`KEEP` after
it was last written (a board of an older day is refused by the caller, not by its absence).

Storage knows no puzzle contents: the caller says which puzzle is the chat's and whether an
answer is right.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import cast

from redis.asyncio.client import Pipeline

from storage._base import Part, dumps, guarded, load_object, start_writes, text, watched
from storage.errors import CorruptRecord
from storage.keys import check_int_id, check_match_id, check_name

KEEP = 3 * 86400  # seconds: a day's record outlives its day, for late taps and /stats


@dataclass(frozen=True, slots=True)
class Daily:
    """One chat's puzzle of one day, as stored."""

    puzzle: str | None = None
    message: int | None = None
    winner: str | None = None  # the first solver's name
    winner_id: int | None = None
    tried: frozenset[int] = field(default_factory=frozenset)  # who has had their try


@dataclass(frozen=True, slots=True)
class Try:
    """One person's answer: ``first`` when it made them the winner; ``winner`` the name of
    the first solver (them or an earlier one; None while nobody has solved it)."""

    first: bool
    winner: str | None


class Tried(Exception):
    """The person has already answered this puzzle in this chat."""


def _parse(key: str, raw: dict[bytes, bytes]) -> Daily:
    got = {text(k): v for k, v in raw.items()}
    try:
        winner = None if "w" not in got else load_object(key, got["w"])
        return Daily(
            None if "p" not in got else text(got["p"]),
            None if "m" not in got else int(got["m"]),
            None if winner is None else str(winner["n"]),
            None if winner is None else int(winner["id"]),
            frozenset(int(k[2:]) for k in got if k.startswith("u:")),
        )
    except (KeyError, TypeError, ValueError) as e:
        raise CorruptRecord(key, f"bad daily puzzle ({e!r})") from e


class DailyPuzzles(Part):
    """``store.daily``: ``get`` a chat's puzzle of a day, ``post`` its board, ``answer`` it."""

    def _key(self, chat_id: int, game: str, day: int) -> str:
        check_int_id("day", day)
        return f"{self._keys.chat(chat_id)}:zd:{check_name('game', game)}:{day}"

    @guarded
    async def get(self, chat_id: int, game: str, day: int) -> Daily:
        key = self._key(chat_id, game, day)
        return _parse(key, cast(dict[bytes, bytes], await self._r.hgetall(key)))

    @guarded
    async def post(self, chat_id: int, game: str, day: int, puzzle_id: str, message: int) -> None:
        """The board of the day's puzzle is ``message`` (a later /puzzle points to it)."""
        key = self._key(chat_id, game, day)
        async with self._r.pipeline(transaction=True) as pipe:
            pipe.hset(key, "p", check_match_id(puzzle_id))
            pipe.hset(key, "m", str(check_int_id("message", message)))
            pipe.expire(key, KEEP)
            await pipe.execute()

    @guarded
    async def answer(
        self, chat_id: int, game: str, day: int, user_id: int, name: str, *, solved: bool
    ) -> Try:
        """Record the person's one try (:class:`Tried` if they had one); a right one is the
        winner if nobody solved it before."""
        key, field = self._key(chat_id, game, day), f"u:{check_int_id('user id', user_id)}"

        async def body(pipe: Pipeline) -> Try:
            if await pipe.hexists(key, field):
                raise Tried(key)
            now = _parse(key, cast(dict[bytes, bytes], await pipe.hgetall(key)))
            first = solved and now.winner is None
            start_writes(pipe)
            pipe.hset(key, field, "1" if solved else "0")
            if first:
                pipe.hset(key, "w", dumps({"id": user_id, "n": name}))
            pipe.expire(key, KEEP)
            await pipe.execute()
            return Try(first, name if first else now.winner)

        return await watched(
            self._r, [key], body, attempts=self._config.max_attempts, what=f"daily {key}"
        )
