"""Lifetimes and limits a deployment may tune; the defaults are the product's."""

from __future__ import annotations

from dataclasses import dataclass

HOUR = 3600.0
DAY = 24 * HOUR


@dataclass(frozen=True, slots=True)
class Config:
    # A lobby nobody touches for this long disappears (every write restarts the clock).
    lobby_ttl: float = DAY
    # Finished matches stay this long for replays and exports, then disappear.
    finished_ttl: float = 7 * DAY
    # Default validity of a challenge link.
    challenge_ttl: float = DAY
    # How long a used or expired challenge token is remembered, so the bot can say "used" or
    # "expired" rather than "unknown".
    challenge_memory: float = 7 * DAY
    # How long the outcome of a finished match is remembered (retries inside it do not count
    # the result twice).
    result_memory: float = 30 * DAY
    # Optimistic updates that lose this many races in a row give up with Contention.
    max_attempts: int = 200
    # A match write waits up to this long (seconds) for a replica to have it, when the primary
    # has replicas; then it stands on the primary alone (counted). 0: never wait.
    replica_wait: float = 0.5
    # First part of every key name (lets two deployments share one Redis).
    prefix: str = "t"

    def __post_init__(self) -> None:
        for name in ("lobby_ttl", "finished_ttl", "challenge_ttl", "result_memory"):
            if getattr(self, name) <= 0:
                raise ValueError(f"{name} must be positive")
        if self.challenge_memory < 0:
            raise ValueError("challenge_memory must not be negative")
        if not 0 <= self.replica_wait <= 4:  # under the client's 5 s socket timeout
            raise ValueError("replica_wait must be from 0 to 4 seconds")
        if self.max_attempts < 1:
            raise ValueError("max_attempts must be at least 1")
