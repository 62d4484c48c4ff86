"""``redis+sentinel://`` store URLs: a primary found, and found again after a failover, by
Redis Sentinel, through redis-py's own :mod:`redis.asyncio.sentinel`.

The form is ``redis+sentinel://[[user]:password@]host1[:port1],host2[:port2],.../service[/db]``
(a sentinel's port defaults to 26379, the database to 0). The password is the primary's and
its replicas' (``requirepass``); the sentinels themselves are asked without one. A
connection asks the sentinels for the primary's address whenever it opens its socket, so
after a failover the client's retries reach the promoted replica on their own (see
:class:`PrimaryConnection` for the retries redis-py itself would aim at the dead primary).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.sentinel import Sentinel, SentinelConnectionPool, SentinelManagedConnection

SCHEME = "redis+sentinel"
DEFAULT_PORT = 26379
_HOST = re.compile(r"(?:\[(?P<v6>[0-9A-Fa-f:.]+)\]|(?P<name>[A-Za-z0-9_.-]+))(?::(?P<port>\d+))?")
_SERVICE = re.compile(r"[A-Za-z0-9_.-]{1,64}")


@dataclass(frozen=True, slots=True)
class SentinelURL:
    """The parts of a ``redis+sentinel://`` URL."""

    sentinels: tuple[tuple[str, int], ...]
    service: str
    db: int = 0
    username: str | None = None
    password: str | None = None


def parse(url: str) -> SentinelURL:
    """The URL's parts; :class:`ValueError` saying what is wrong with it otherwise."""
    prefix = SCHEME + "://"
    if not url.startswith(prefix):
        raise ValueError(f"a Sentinel URL starts with {prefix}")
    rest, _, query = url[len(prefix) :].partition("?")
    if query:
        raise ValueError("a Sentinel URL takes no ?options")
    netloc, _, path = rest.partition("/")
    userinfo, _, hosts = netloc.rpartition("@")
    username = password = None
    if userinfo:
        user, colon, secret = userinfo.partition(":")
        username = unquote(user) or None
        password = unquote(secret) if colon else None
    sentinels = []
    for part in hosts.split(","):
        found = _HOST.fullmatch(part.strip())
        if found is None:
            raise ValueError(f"{part.strip()!r} is not a sentinel host[:port]")
        port = int(found["port"] or DEFAULT_PORT)
        if not 0 < port < 65536:
            raise ValueError(f"sentinel port {port} is not from 1 to 65535")
        sentinels.append((found["v6"] or found["name"], port))
    service, _, db_text = path.strip("/").partition("/")
    if not _SERVICE.fullmatch(service):
        raise ValueError("the path must name the monitored primary: /mymaster or /mymaster/0")
    if db_text and not db_text.isdigit():
        raise ValueError(f"the database after the primary's name is a number, not {db_text!r}")
    return SentinelURL(tuple(sentinels), service, int(db_text or 0), username, password)


class PrimaryConnection(SentinelManagedConnection):
    """A connection to the primary that asks the sentinels where it is at every socket it
    opens. redis-py 8.2 asks only when a pool hands out a closed connection: a command whose
    connection drops under it (the blocking pop a queue worker waits in, a write in flight
    when the primary dies) retries the socket to the address it had, so its retries went on
    hitting the dead primary after the promotion until they ran out ("Upkeep task failed",
    "Error processing job" in the workers; redis/redis-py#3874)."""

    async def _connect(self) -> None:
        pool = self.connection_pool
        if pool.is_master:
            self.host, self.port = await pool.get_master_address()
        await super()._connect()  # type: ignore[no-untyped-call]  # redis-py leaves it bare


class BlockingSentinelPool(SentinelConnectionPool, BlockingConnectionPool):
    """redis-py's Sentinel pool, waiting for a free connection (as our plain pool does)
    rather than failing at ``max_connections``; closing it closes its sentinel clients too."""

    async def aclose(self) -> None:
        try:
            await super().aclose()
        finally:
            await self.sentinel_manager.aclose()


def sentinel_client(url: str, **options: Any) -> Redis:
    """A client of the primary that ``url``'s sentinels name; ``options`` as for a pool
    (``max_connections``, ``timeout`` for a free connection, socket settings, ``retry``)."""
    parts = parse(url)
    sentinel_options = {
        k: v for k, v in options.items() if k in ("socket_timeout", "socket_connect_timeout")
    }
    sentinels = Sentinel(parts.sentinels, sentinel_kwargs=sentinel_options)
    client: Redis = sentinels.master_for(
        parts.service,
        connection_pool_class=BlockingSentinelPool,
        connection_class=PrimaryConnection,
        db=parts.db,
        username=parts.username,
        password=parts.password,
        **options,
    )
    return client
