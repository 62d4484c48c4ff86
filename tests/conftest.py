"""Shared fixtures: a real redis-server (tests/fixtures/redis.py) and the playground emulator
with the real bot (tests/fixtures/playground.py); ports for servers a test starts itself in
tests/fixtures/ports.py (the suite runs on pytest-xdist workers: see README)."""

import importlib.util

import pytest

pytest_plugins = [
    name
    for name in ("tests.fixtures.redis", "tests.fixtures.playground", "tests.fixtures.ci")
    if importlib.util.find_spec(name) is not None
]


def pytest_collection_modifyitems(items: list) -> None:  # type: ignore[type-arg]
    """Tests marked slow (opt-in, minutes each) are not held to the suite's 300 s timeout."""
    for item in items:
        if item.get_closest_marker("slow") is not None:
            item.add_marker(pytest.mark.timeout(3600))


def pytest_sessionstart(session) -> None:  # type: ignore[no-untyped-def]
    """The engines' compiled kernels, compiled (the first run on a checkout: tens of seconds)
    or loaded once here, so that no test's own time limit pays for it."""
    from bot.warmup import warm_engines

    warm_engines()
