"""The schema version of match records and the bot's migrations from older versions.

Storage does not know what is inside a match; the bot does. So the bot tells storage which
version it writes (``current``) and registers one function per step ``v -> v + 1``. A record
read with an older ``v`` is brought up to date step by step before the bot sees it (and is
written back in the new shape on its next update); a newer or unreachable ``v`` is refused
with :class:`~storage.errors.UnknownVersion` instead of being misread.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from storage.errors import CorruptRecord, InvalidRecord, UnknownVersion

Record = dict[str, Any]
Step = Callable[[Record], Record]


class Migrations:
    """``Migrations(current=3)``; ``@m.step(1)`` registers the upgrade from v1 to v2."""

    def __init__(self, current: int = 1) -> None:
        if isinstance(current, bool) or not isinstance(current, int) or current < 1:
            raise ValueError(f"schema version must be a positive integer, not {current!r}")
        self.current = current
        self._steps: dict[int, Step] = {}

    def step(self, from_version: int) -> Callable[[Step], Step]:
        """Decorator: ``fn(record) -> record`` upgrades a record from ``from_version`` to the
        next version (storage sets ``v`` afterwards)."""

        def register(fn: Step) -> Step:
            self.add(from_version, fn)
            return fn

        return register

    def add(self, from_version: int, fn: Step) -> None:
        if not isinstance(from_version, int) or not 1 <= from_version < self.current:
            raise ValueError(f"a step must start at a version from 1 to {self.current - 1}")
        if from_version in self._steps:
            raise ValueError(f"a step from v{from_version} is already registered")
        self._steps[from_version] = fn

    def check_current(self, record: Record) -> None:
        """A record about to be written must carry the current version."""
        if record.get("v") != self.current:
            raise InvalidRecord(f"record v must be {self.current}, not {record.get('v')!r}")

    def upgrade(self, key: str, record: Record) -> Record:
        """Bring a record read from ``key`` to the current version, or refuse it."""
        v = record.get("v")
        if isinstance(v, bool) or not isinstance(v, int) or v > self.current or v < 1:
            raise UnknownVersion(key, v, self.current)
        while v < self.current:
            fn = self._steps.get(v)
            if fn is None:
                raise UnknownVersion(key, v, self.current)
            try:
                record = fn(record)
            except Exception as e:
                raise CorruptRecord(key, f"migration from v{v} failed: {e!r}") from e
            if not isinstance(record, dict):
                raise CorruptRecord(key, f"migration from v{v} did not return a dict")
            v += 1
            record["v"] = v
        return record
