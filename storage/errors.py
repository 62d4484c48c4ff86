"""Every error storage raises on purpose, so the bot can catch exactly what it can explain.

Redis' own exceptions never leave this package: a server that cannot be reached after the
client's retries becomes :class:`Unavailable`; data that is not ours becomes
:class:`CorruptRecord`.
"""

from __future__ import annotations


class StorageError(Exception):
    """Base class of every error this package raises on purpose."""


class Unavailable(StorageError):
    """The Redis server could not be reached (after the client's retries with backoff)."""


class CorruptRecord(StorageError):
    """What is stored under a key is not a record we can read: bad JSON, a foreign value, the
    wrong Redis type. Only that one key is affected; the message names it."""

    def __init__(self, key: str, reason: str) -> None:
        super().__init__(f"{key}: {reason}")
        self.key = key
        self.reason = reason


class UnknownVersion(CorruptRecord):
    """A record whose schema version ``v`` is newer than this code, or older without a
    registered migration path."""

    def __init__(self, key: str, version: object, current: int) -> None:
        super().__init__(
            key, f"schema version {version!r} is not {current} and no migration leads there"
        )
        self.version = version
        self.current = current


class InvalidRecord(StorageError, ValueError):
    """The caller asked to store something storage cannot index or key (missing ``id``, an
    unknown ``status``, an id with characters that do not belong in a key…)."""


class NotFound(StorageError, LookupError):
    """Base class of "there is nothing under this name"."""


class MatchNotFound(NotFound):
    def __init__(self, match_id: str) -> None:
        super().__init__(f"no match {match_id!r}")
        self.match_id = match_id


class MatchExists(StorageError):
    """``create`` with an id that is taken (pick a fresh :func:`storage.new_match_id`)."""

    def __init__(self, match_id: str) -> None:
        super().__init__(f"match {match_id!r} already exists")
        self.match_id = match_id


class Contention(StorageError):
    """An optimistic update lost the race too many times in a row; nothing was written."""


class ChallengeError(StorageError):
    """Base class of the reasons a challenge link cannot be used."""

    def __init__(self, token: str, reason: str) -> None:
        super().__init__(reason)
        self.token = token


class UnknownChallenge(ChallengeError, NotFound):
    """No such token: mistyped, forged, or forgotten long after it expired."""

    def __init__(self, token: str) -> None:
        super().__init__(token, "unknown challenge token")


class ChallengeUsed(ChallengeError):
    """The token was redeemed already (challenge links are single-use)."""

    def __init__(self, token: str, used_at: float) -> None:
        super().__init__(token, "challenge already used")
        self.used_at = used_at


class ChallengeExpired(ChallengeError):
    def __init__(self, token: str, expired_at: float) -> None:
        super().__init__(token, "challenge expired")
        self.expired_at = expired_at


class LeaseBusy(StorageError):
    """Someone else holds the lease (another replica is doing that work right now)."""

    def __init__(self, name: str) -> None:
        super().__init__(f"lease {name!r} is held elsewhere")
        self.name = name


class LeaseLost(StorageError):
    """Our lease expired or was taken over before we renewed or released it."""

    def __init__(self, name: str) -> None:
        super().__init__(f"lease {name!r} was lost")
        self.name = name


class TooMany(StorageError):
    """No live stream admitted: ``who`` ("user" or "match") has as many open as allowed."""

    def __init__(self, who: str) -> None:
        super().__init__(f"too many live streams per {who}")
        self.who = who
