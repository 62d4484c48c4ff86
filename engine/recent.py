"""A small least-recently-used map, safe across threads: the caches of engines, pictures and
the bot (pictures are drawn in worker threads) all keep "the last few" of something."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class _Making(Generic[V]):
    """A value one thread is making; the others asking for it wait on ``done``."""

    def __init__(self) -> None:
        self.done = threading.Event()
        self.value: V | None = None


class Recent(Generic[K, V]):
    """At most ``size`` entries; reading or writing one makes it the newest."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()
        self._making: dict[K, _Making[V]] = {}

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

    def make_once(self, key: K, make: Callable[[], V]) -> V:
        """The value kept under ``key``, made by ``make()`` and kept when there is none. A
        thread asking for a key another thread is making meanwhile waits for that value
        instead of making it a second time (a Рассада curve previewed in a picture's thread
        and played in a tap's thread at the same moment is routed once). If the maker fails,
        a waiter makes it itself."""
        while True:
            with self._lock:
                value = self._items.get(key)
                if value is not None:
                    self._items.move_to_end(key)
                    return value
                making = self._making.get(key)
                mine = making is None
                if making is None:
                    making = self._making[key] = _Making()
            if not mine:
                making.done.wait()
                if making.value is not None:
                    return making.value
                continue  # its maker failed
            try:
                value = make()
                with self._lock:
                    value = self._items.setdefault(key, value)
                    self._trim(key)
                making.value = value
                return value
            finally:
                with self._lock:
                    del self._making[key]
                making.done.set()

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def __len__(self) -> int:
        return len(self._items)

    def _trim(self, newest: K) -> None:
        self._items.move_to_end(newest)
        while len(self._items) > self.size:
            self._items.popitem(last=False)
