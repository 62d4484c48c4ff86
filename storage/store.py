"""The Store: one connection and the parts of the data the bot uses."""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from types import TracebackType

from redis import exceptions as rx
from redis.asyncio import Redis

from storage import settings
from storage._base import guarded
from storage.challenges import Challenges
from storage.chats import Chats
from storage.config import Config
from storage.daily import DailyPuzzles
from storage.deadlines import Deadlines
from storage.keys import Keys
from storage.lessons import Lessons
from storage.live import Live
from storage.locks import Lease, Leases
from storage.matches import Matches
from storage.puzzles import Puzzles
from storage.ratings import Ratings
from storage.replicas import ReplicaWait
from storage.routes import Routes
from storage.schema import Migrations, Record
from storage.settings import Doc
from storage.streams import Streams
from storage.users import Users


class Store:
    """Everything the bot keeps, behind one Redis client. Build it with
    :func:`storage.connect`; use it as ``async with`` or ``await store.close()``."""

    def __init__(
        self,
        client: Redis,
        *,
        backend: str,
        url: str,
        config: Config | None = None,
        migrations: Migrations | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.client = client  # the raw redis.asyncio client: for tests, tools and bench only
        self.backend = backend  # "redis" or "memory"
        self.url = url  # with any password masked
        self.config = config or Config()
        self.keys = Keys(self.config.prefix)
        self.clock = clock
        # match writes wait for a replica (storage/replicas.py); the embedded store has none
        wait = self.config.replica_wait if backend == "redis" else 0.0
        self.replicas = ReplicaWait(client, wait)
        self.matches = Matches(
            client, self.keys, self.config, migrations or Migrations(), clock, self.replicas
        )
        self.chats = Chats(client, self.keys, self.config)
        self.users = Users(client, self.keys, self.config)
        self.ratings = Ratings(client, self.keys, self.config, clock)
        self.puzzles = Puzzles(client, self.keys, self.config, clock)  # /puzzle progress
        self.lessons = Lessons(client, self.keys, self.config, clock)  # /learn progress
        self.daily = DailyPuzzles(client, self.keys, self.config, clock)  # a group's daily puzzle
        self.challenges = Challenges(client, self.keys, self.config, clock)
        self.deadlines = Deadlines(client, self.keys, clock)
        self.leases = Leases(client, self.keys)
        self.live = Live(client, self.keys)  # each match write's news (the Mini App)
        self.routes = Routes(client, self.keys)
        self.streams = Streams(client, self.keys, clock)  # the Mini App's open live streams

    @guarded
    async def settings_and_match(
        self, user_id: int, chat_id: int | None, match_id: str
    ) -> tuple[Doc | None, Doc, tuple[str, Record] | None]:
        """A tap's reads in one round trip: the chat's settings (None when ``chat_id`` is
        None), the user's, and the match's revision and record, the ``first`` of
        ``matches.turn`` (None when there is no readable record: the update reads again and
        says why)."""
        chat_key = self.keys.chat(chat_id) if chat_id is not None else None
        user_key = self.keys.user(user_id)
        async with self.client.pipeline(transaction=False) as pipe:
            if chat_key is not None:
                pipe.hget(chat_key, settings.FIELD)
            pipe.hget(user_key, settings.FIELD)
            self.matches.queue_read(pipe, match_id)
            raws = await pipe.execute(raise_on_error=False)
        *docs, match = raws
        user = settings.decode(user_key, settings.field_or_raise(user_key, docs[-1]))
        chat = None
        if chat_key is not None:
            chat = settings.decode(chat_key, settings.field_or_raise(chat_key, docs[0]))
        return chat, user, self.matches.read_from(match_id, match)

    def lease(self, name: str, ttl: float) -> AbstractAsyncContextManager[Lease]:
        """``async with store.lease("ai:" + match_id, 30):`` — raises LeaseBusy when held."""
        return self.leases.hold(name, ttl)

    async def ping(self) -> bool:
        """True when Redis answers (after the client's retries), False when it does not."""
        try:
            return bool(await self.client.ping())
        except (rx.ConnectionError, rx.TimeoutError):
            return False

    async def close(self) -> None:
        await self.live.close()
        await self.client.aclose()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    def __repr__(self) -> str:
        return f"<Store {self.url}>"
