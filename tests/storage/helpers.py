"""Small builders shared by the storage tests."""

from __future__ import annotations

from typing import Any

import storage


def record(
    match_id: str | None = None,
    status: str = "active",
    chats: list[int] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """A minimal match record as the bot would write it (storage reads id/status/chats/v)."""
    return {
        "id": match_id or storage.new_match_id(),
        "status": status,
        "chats": [] if chats is None else chats,
        "v": 1,
        "version": 0,
        **extra,
    }


def bump(rec: dict[str, Any]) -> dict[str, Any]:
    """A typical bot update: one step of the bot's own version counter."""
    rec["version"] += 1
    return rec
