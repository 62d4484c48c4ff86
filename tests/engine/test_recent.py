"""The shared LRU map behind the engines', pictures' and bot's caches."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from engine.recent import Recent


def test_the_least_recently_used_entry_goes_first() -> None:
    r: Recent[str, int] = Recent(2)
    r.put("a", 1)
    r.put("b", 2)
    assert r.get("a") == 1  # now "b" is the oldest
    r.put("c", 3)
    assert r.get("b") is None and r.get("a") == 1 and r.get("c") == 3
    assert len(r) == 2


def test_keep_returns_what_is_already_kept() -> None:
    r: Recent[str, list[int]] = Recent(4)
    first, second = [1], [1]
    assert r.keep("k", first) is first
    assert r.keep("k", second) is first
    r.put("k", second)
    assert r.get("k") is second
    r.clear()
    assert r.get("k") is None and len(r) == 0


def test_make_once_makes_a_value_once_while_threads_ask_for_it_together() -> None:
    """The second thread asks while the first is still making the value (both held on
    events, nothing timed): it waits for that value instead of making its own."""
    r: Recent[str, list[int]] = Recent(4)
    started, release, waiting = threading.Event(), threading.Event(), threading.Event()
    made: list[str] = []

    class Watched(threading.Event):
        def wait(self, timeout: float | None = None) -> bool:
            waiting.set()
            return super().wait(timeout)

    def slow() -> list[int]:
        made.append("slow")
        r._making["k"].done = Watched()
        started.set()
        assert release.wait(30)
        return [1]

    def fast() -> list[int]:
        made.append("fast")
        return [2]

    with ThreadPoolExecutor(2) as pool:
        first = pool.submit(r.make_once, "k", slow)
        assert started.wait(30)
        second = pool.submit(r.make_once, "k", fast)
        assert waiting.wait(30)  # the second call waits for the first one's value
        release.set()
        a, b = first.result(30), second.result(30)
    assert made == ["slow"] and a is b and a == [1]
    assert r.make_once("k", fast) is a


def test_make_once_after_a_failed_make_makes_it_again() -> None:
    r: Recent[str, int] = Recent(4)

    def broken() -> int:
        raise ValueError("no room")

    with pytest.raises(ValueError):
        r.make_once("k", broken)
    assert r.make_once("k", lambda: 7) == 7 and not r._making
