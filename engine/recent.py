"""A small least-recently-used map, safe across threads: the caches of engines, pictures and
the bot (pictures are drawn in worker threads) all keep "the last few" of something."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Recent(Generic[K, V]):
    """At most ``size`` entries; reading or writing one makes it the newest."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> None:
        with self._lock:
            self._items[key] = value
            self._trim(key)

    def keep(self, key: K, value: V) -> V:
        """``value`` kept under ``key`` unless one is kept there already: the kept one."""
        with self._lock:
            kept = self._items.setdefault(key, value)
            self._trim(key)
            return kept

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def __len__(self) -> int:
        return len(self._items)

    def _trim(self, newest: K) -> None:
        self._items.move_to_end(newest)
        while len(self._items) > self.size:
            self._items.popitem(last=False)
