"""``tetrad local``: start the emulator, the embedded store and the bot (lands with the
playground issue)."""

from __future__ import annotations

import sys


def run_local(*, host: str, port: int, open_browser: bool) -> int:
    print(
        "tetrad local: the playground emulator has not landed yet; "
        "run the tests with `make test` meanwhile.",
        file=sys.stderr,
    )
    return 1
