"""Every Redis key name in one place (the layout is documented in storage/README.md).

Names carry a Redis Cluster hash tag (the part in braces) so that all keys of one match, one
chat or one user hash to the same slot. Everything that ends up inside a key name is checked
here first, so a crafted callback or deep link can never address a key it should not.
"""

from __future__ import annotations

import re

from storage.errors import InvalidRecord

_MATCH_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
_NAME = re.compile(r"[a-z0-9_]{1,24}")
_LEASE = re.compile(r"[A-Za-z0-9_.:-]{1,128}")


def check_match_id(match_id: object) -> str:
    if not isinstance(match_id, str) or not _MATCH_ID.fullmatch(match_id):
        raise InvalidRecord(f"match id must be 1–32 characters of A-Z a-z 0-9 _ -: {match_id!r}")
    return match_id


def check_name(what: str, name: object) -> str:
    """Game kinds, AI levels and deadline kinds: short lowercase words."""
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise InvalidRecord(f"{what} must be 1–24 characters of a-z 0-9 _: {name!r}")
    return name


def check_int_id(what: str, value: object) -> int:
    """Telegram chat and user ids are integers (chats may be negative)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidRecord(f"{what} must be an integer: {value!r}")
    return value


def check_lease_name(name: object) -> str:
    if not isinstance(name, str) or not _LEASE.fullmatch(name):
        raise InvalidRecord(f"lease name must be 1–128 characters of A-Z a-z 0-9 _ . : -: {name!r}")
    return name


class Keys:
    """Builds key names under one prefix (default ``t``); see storage/README.md."""

    def __init__(self, prefix: str = "t") -> None:
        if not re.fullmatch(r"[A-Za-z0-9_.-]{1,32}", prefix):
            raise ValueError(f"bad key prefix {prefix!r}")
        self.prefix = prefix
        self.lobbies = f"{prefix}:lobbies"
        self.due = f"{prefix}:due"

    def match(self, match_id: str) -> str:
        return f"{self.prefix}:m:{{{check_match_id(match_id)}}}"

    def result(self, match_id: str) -> str:
        """Marker holding the outcome recorded for a finished match (idempotent ratings)."""
        return f"{self.prefix}:m:{{{check_match_id(match_id)}}}:res"

    def live(self, match_id: str) -> str:
        """The pub/sub channel a match's every write announces its new revision on."""
        return f"{self.prefix}:live:{{{check_match_id(match_id)}}}"

    def match_streams(self, match_id: str) -> str:
        """The Mini App live streams open on a match, by when each lapses (storage.streams)."""
        return f"{self.match(match_id)}:ls"

    def user_streams(self, user_id: int) -> str:
        """The Mini App live streams a person has open, by when each lapses."""
        return f"{self.user(user_id)}:ls"

    def chat(self, chat_id: int) -> str:
        return f"{self.prefix}:c:{{{check_int_id('chat id', chat_id)}}}"

    def chat_matches(self, chat_id: int) -> str:
        return f"{self.prefix}:c:{{{check_int_id('chat id', chat_id)}}}:m"

    def user(self, user_id: int) -> str:
        return f"{self.prefix}:u:{{{check_int_id('user id', user_id)}}}"

    def board(self, game: str, chat_id: int | None = None) -> str:
        game = check_name("game", game)
        if chat_id is None:
            return f"{self.prefix}:lb:{game}"
        return f"{self.prefix}:lb:{game}:{{{check_int_id('chat id', chat_id)}}}"

    def challenge(self, token: str) -> str:
        return f"{self.prefix}:ch:{{{token}}}"

    def route(self, digest: str) -> str:
        """A routed Рассада curve, by a hex digest of its drawing and move (storage.routes)."""
        if not re.fullmatch(r"[0-9a-f]{16,64}", digest):
            raise InvalidRecord(f"a route digest must be 16–64 hex digits: {digest!r}")
        return f"{self.prefix}:rt:{digest}"

    def lease(self, name: str) -> str:
        return f"{self.prefix}:lk:{{{check_lease_name(name)}}}"
