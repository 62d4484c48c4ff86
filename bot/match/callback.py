"""Callback data grammar (≤ 64 bytes, ASCII): ``<op>:<match id>:<version>[:<arg>]``.

The version makes stale buttons harmless; anything that does not parse is refused.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_BYTES = 64
_OP = re.compile(r"^[a-zA-Z]{1,3}$")
_ID = re.compile(r"^[A-Za-z0-9_-]{1,24}$")
_ARG = re.compile(r"^[A-Za-z0-9_.,+=!-]{0,40}$")


class BadCallback(ValueError):
    """Callback data that no button of ours produced."""


@dataclass(frozen=True)
class Callback:
    op: str
    match: str
    version: int
    arg: str = ""

    def encode(self) -> str:
        data = f"{self.op}:{self.match}:{self.version}"
        if self.arg:
            data += f":{self.arg}"
        if len(data.encode()) > MAX_BYTES:
            raise ValueError(f"callback data too long: {data!r}")
        return data


def parse(data: str | None) -> Callback:
    if not data or len(data) > MAX_BYTES:
        raise BadCallback("empty or too long")
    parts = data.split(":")
    if len(parts) not in (3, 4):
        raise BadCallback("wrong number of fields")
    op, match, version = parts[0], parts[1], parts[2]
    arg = parts[3] if len(parts) == 4 else ""
    if not (_OP.match(op) and _ID.match(match) and version.isdigit() and len(version) <= 9):
        raise BadCallback("malformed field")
    if not _ARG.match(arg):
        raise BadCallback("malformed argument")
    return Callback(op, match, int(version), arg)
