"""The shared LRU map behind the engines', pictures' and bot's caches."""

from __future__ import annotations

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
