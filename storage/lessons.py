"""Lesson progress (/learn): per person and game, the lessons done, the tasks solved and the
task in hand with its attempt (a task board's buttons carry it, so an older board is stale).

Key: ``t:u:{user}`` field ``l:<game>``: ``{"v": 1, "d": [lesson ids done], "ok": [task ids
solved], "t": the task in hand, "a": its attempt, "f": 1 once it is solved}``. ``v`` is the
schema version: a record of another version is refused (:class:`UnknownVersion`), never
misread. Storage knows no course: the caller says which lesson a task is of and its tasks.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, cast

from storage._base import Part, guarded, load_object
from storage.errors import CorruptRecord, UnknownVersion
from storage.keys import check_match_id, check_name

VERSION = 1


def _field(game: str) -> str:
    return f"l:{check_name('game', game)}"


@dataclass(frozen=True, slots=True)
class LessonState:
    """One person's course record for one game."""

    done: frozenset[str] = frozenset()
    solved: frozenset[str] = frozenset()
    task: str | None = None
    attempt: int = 0
    finished: bool = False

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "v": VERSION,
            "d": sorted(self.done),
            "ok": sorted(self.solved),
            "a": self.attempt,
        }
        if self.task is not None:
            d["t"] = self.task
        if self.finished:
            d["f"] = 1
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> LessonState:
        return cls(
            frozenset(str(x) for x in d["d"]),
            frozenset(str(x) for x in d["ok"]),
            None if d.get("t") is None else str(d["t"]),
            int(d["a"]),
            bool(d.get("f")),
        )

    def in_hand(self, task_id: str, attempt: int) -> bool:
        """The board of ``task_id`` drawn for ``attempt`` is the person's unsolved task."""
        return self.task == task_id and self.attempt == attempt and not self.finished


class Stale(Exception):
    """The task board answered is not the person's task in hand (an older one, or solved)."""


def _parse(key: str, raw: bytes | None) -> LessonState:
    if raw is None:
        return LessonState()
    d = load_object(key, raw)
    if d.get("v") != VERSION:
        raise UnknownVersion(key, d.get("v"), VERSION)
    try:
        return LessonState.from_json(d)
    except (KeyError, TypeError, ValueError) as e:
        raise CorruptRecord(key, f"bad lesson record ({e!r})") from e


class Lessons(Part):
    """``store.lessons``: ``state``, ``done_counts``; ``begin`` a task, ``solve`` it."""

    @guarded
    async def state(self, user_id: int, game: str) -> LessonState:
        key = self._keys.user(user_id)
        return _parse(key, cast("bytes | None", await self._r.hget(key, _field(game))))

    @guarded
    async def done_counts(self, user_id: int, games: Sequence[str]) -> dict[str, int]:
        """How many lessons the person has done in each of ``games`` (one round trip)."""
        key = self._keys.user(user_id)
        raws = cast("list[bytes | None]", await self._r.hmget(key, [_field(g) for g in games]))
        return {g: len(_parse(key, raw).done) for g, raw in zip(games, raws, strict=True)}

    async def _change(
        self, user_id: int, game: str, fn: Callable[[LessonState], LessonState]
    ) -> LessonState:
        return await self._rewrite(
            self._keys.user(user_id), _field(game), _parse, LessonState.to_json, fn
        )

    @guarded
    async def begin(self, user_id: int, game: str, task_id: str) -> LessonState:
        """Put ``task_id`` in the person's hand as a new attempt (older boards go stale)."""
        check_match_id(task_id)

        def start(s: LessonState) -> LessonState:
            return replace(s, task=task_id, attempt=s.attempt + 1, finished=False)

        return await self._change(user_id, game, start)

    @guarded
    async def solve(
        self,
        user_id: int,
        game: str,
        task_id: str,
        attempt: int,
        *,
        lesson: str,
        tasks: Sequence[str],
    ) -> LessonState:
        """The task in hand is solved (:class:`Stale` for any other board); its lesson is done
        once every one of its ``tasks`` is."""
        check_match_id(lesson)

        def solved(s: LessonState) -> LessonState:
            if not s.in_hand(task_id, attempt):
                raise Stale(task_id)
            ok = s.solved | {task_id}
            done = s.done | ({lesson} if set(tasks) <= ok else set())
            return replace(s, solved=ok, done=done, finished=True)

        return await self._change(user_id, game, solved)
