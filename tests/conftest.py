"""Shared fixtures: a real redis-server (tests/fixtures/redis.py) and the playground emulator
with the real bot (tests/fixtures/playground.py)."""

import importlib.util

pytest_plugins = [
    name
    for name in ("tests.fixtures.redis", "tests.fixtures.playground")
    if importlib.util.find_spec(name) is not None
]
