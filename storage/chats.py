"""Per-chat data: the settings dict in ``t:c:{chat}``.

The chat's other keys belong to the modules that write them: the index of its lobby and
active matches ``t:c:{chat}:m`` (:mod:`storage.matches`, ``store.matches.active_in_chat``) and
its leaderboards ``t:lb:<game>:{chat}`` (:mod:`storage.ratings`, ``store.ratings.top``).
"""

from __future__ import annotations

from redis.asyncio import Redis

from storage.config import Config
from storage.keys import Keys
from storage.settings import SettingsStore


class Chats(SettingsStore):
    """``store.chats``: ``get``/``update``/``patch``/``clear`` of a chat's settings."""

    def __init__(self, client: Redis, keys: Keys, config: Config) -> None:
        super().__init__(client, keys.chat, config)
