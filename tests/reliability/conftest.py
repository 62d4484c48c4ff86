"""Fixtures of the reliability suite: an emulator whose events the test follows in-process,
and the full/short switch (``TETRAD_FULL=1`` runs the full form)."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator

import pytest

from playground.server import Emulator
from tests.reliability.people import ObservedWorld, observed_emulator

FULL = os.environ.get("TETRAD_FULL", "") not in ("", "0")


def scale(short: int, full: int) -> int:
    """A size for the short form (CI) or the full form."""
    return full if FULL else short


@pytest.fixture
async def emu() -> AsyncIterator[Emulator]:
    emulator = observed_emulator()
    await emulator.start()
    try:
        yield emulator
    finally:
        await emulator.stop()


@pytest.fixture
def world(emu: Emulator) -> ObservedWorld:
    assert isinstance(emu.world, ObservedWorld)
    return emu.world


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The full form runs for many minutes per test: lift the suite's 300 s timeout."""
    if FULL:
        for item in items:
            if "tests/reliability/" in str(item.fspath):
                item.add_marker(pytest.mark.timeout(3600))
