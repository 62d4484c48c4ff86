"""Shared fixtures: a real redis-server (tests/fixtures/redis.py) and the playground emulator
with the real bot (tests/fixtures/playground.py); ports for servers a test starts itself in
tests/fixtures/ports.py (the suite runs on pytest-xdist workers: see README)."""

import importlib.util
import subprocess
import sys
from collections.abc import Iterator

import pytest

pytest_plugins = [
    name
    for name in (
        "tests.fixtures.redis",
        "tests.fixtures.sentinel",
        "tests.fixtures.playground",
        "tests.fixtures.ci",
        "tests.fixtures.slow",
    )
    if importlib.util.find_spec(name) is not None
]


# The longest tests (a minute or more each on a busy machine): run first, so that on
# parallel workers they overlap the many short tests instead of finishing alone at the end.
LONG_FIRST = ("tests/reliability/",)


def pytest_collection_modifyitems(items: list) -> None:  # type: ignore[type-arg]
    """The :data:`LONG_FIRST` tests go to the front (a stable sort: otherwise in file order).
    Tests marked slow are opt-in: tests/fixtures/slow.py."""
    items.sort(key=lambda item: not any(p in item.nodeid for p in LONG_FIRST))


@pytest.fixture(autouse=True)
def _router_kept() -> Iterator[None]:
    """The Рассада router as each test found it: a test whose bot died without closing its
    route pool would leave every later Рассада move of the worker asking that dead pool
    (one failure then failed a dozen tests after it)."""
    from engine.sprouts import game

    before = game._router
    yield
    if game._router is not before:
        game.set_router(before)
        pytest.fail("the test left another Рассада router installed", pytrace=False)


def pytest_sessionstart(session) -> None:  # type: ignore[no-untyped-def]
    """The engines' compiled kernels, compiled (the first run on a checkout: tens of seconds)
    or loaded once here, so that no test's own time limit pays for it. Точки's kernels (the
    search, the forcing prover, the exact search: 47 + 7 s of CPU to compile, 1 s to load;
    only its engine and lesson tests use them) are compiled once, in
    a second process beside the Рассада ones, before the xdist workers start: otherwise each
    worker compiled them inside its first test of them. Workers only load the Рассада ones."""
    from bot.warmup import warm_engines

    dots = None
    if not hasattr(session.config, "workerinput"):  # the controller, or a run without xdist
        warm_dots = "from bot.warmup import warm_dots; warm_dots()"
        dots = subprocess.Popen([sys.executable, "-c", warm_dots])
    warm_engines(dots=False)
    if dots is not None and dots.wait() != 0:
        raise pytest.UsageError("the Точки search kernels did not compile (see above)")
