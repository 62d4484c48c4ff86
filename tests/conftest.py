"""Shared fixtures: a real redis-server (tests/fixtures/redis.py) and the playground emulator
with the real bot (tests/fixtures/playground.py)."""

import importlib.util

pytest_plugins = [
    name
    for name in ("tests.fixtures.redis", "tests.fixtures.playground")
    if importlib.util.find_spec(name) is not None
]


def pytest_collection_modifyitems(items: list) -> None:  # type: ignore[type-arg]
    """Tests marked slow (opt-in, minutes each) are not held to the suite's 300 s timeout."""
    import pytest

    for item in items:
        if item.get_closest_marker("slow") is not None:
            item.add_marker(pytest.mark.timeout(3600))
