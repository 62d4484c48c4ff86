"""Open a Store from a URL: ``redis://``, ``rediss://``, ``unix://``, a primary found by
Redis Sentinel (``redis+sentinel://``, see :mod:`storage.sentinel`) or the embedded
``memory://``.

A real server gets a bounded connection pool that waits for a free connection rather than
failing, socket timeouts so a dead server cannot hang a handler, TCP keepalive and a health
check on idle connections, and redis-py's Retry with exponential backoff and jitter on
connection errors and timeouts (1.75–3.5 s in all with the defaults, which covers a Redis
restart or a failover; then :class:`~storage.errors.Unavailable`). Retried writes are safe: every
multi-step write is a single script or MULTI/EXEC, and match writes recognise their own repeat.

``memory://`` is fakeredis in this process, for ``tetrad local`` and quick tries. Plain
``memory://`` is a fresh empty store on every connect; ``memory://<name>`` is shared by every
Store in this process that uses the same name (they see the same data).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypedDict, Unpack
from urllib.parse import urlsplit, urlunsplit

from redis import exceptions as rx
from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.retry import Retry
from redis.backoff import EqualJitterBackoff

from storage.config import Config
from storage.errors import StorageError, Unavailable
from storage.schema import Migrations
from storage.sentinel import SCHEME as SENTINEL_SCHEME
from storage.sentinel import sentinel_client
from storage.store import Store

if TYPE_CHECKING:
    import fakeredis

_MEMORY_SERVERS: dict[str, fakeredis.FakeServer] = {}
_MEMORY_NAME = re.compile(r"[A-Za-z0-9_.-]{0,64}")
MEMORY_VERSION = (7, 0)  # behave like the Redis 7 we deploy


class BadURL(StorageError, ValueError):
    """A store URL that names no backend we know."""


def masked(url: str) -> str:
    """The URL with its password replaced by ``***``, for logs and errors."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    user = parts.username or ""
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}"))


def memory_client(name: str = "") -> Redis:
    """A fakeredis client; a non-empty ``name`` shares one in-process server."""
    import fakeredis  # only the embedded store needs it (and Lua through lupa)

    if not _MEMORY_NAME.fullmatch(name):
        raise BadURL(f"memory store names are up to 64 of A-Z a-z 0-9 _ . -: {name!r}")
    if name:
        server = _MEMORY_SERVERS.get(name)
        if server is None:
            server = _MEMORY_SERVERS[name] = fakeredis.FakeServer(version=MEMORY_VERSION)
    else:
        server = fakeredis.FakeServer(version=MEMORY_VERSION)
    return fakeredis.FakeAsyncRedis(server=server)


def drop_memory(name: str) -> None:
    """Forget a named in-process store (tests use one name per test)."""
    _MEMORY_SERVERS.pop(name, None)


class ClientOptions(TypedDict, total=False):
    """:func:`redis_client`'s settings, as :func:`connect` passes them on."""

    socket_timeout: float
    connect_timeout: float
    retries: int
    max_connections: int
    health_check_interval: int


def pool_options(
    *,
    socket_timeout: float = 5.0,
    connect_timeout: float = 3.0,
    retries: int = 6,
    max_connections: int = 64,
    health_check_interval: int = 30,
) -> dict[str, Any]:
    """The connection pool's settings described above, for a plain or a Sentinel pool."""
    # pauses of 0.1, 0.2, 0.4, 0.8, 1, 1 s, each shortened by up to half at random: with the
    # default 6 retries an operation rides out 1.75–3.5 s of outage (a restart, a failover)
    retry = Retry(EqualJitterBackoff(cap=1.0, base=0.05), retries)
    return {
        "max_connections": max_connections,
        "timeout": socket_timeout,  # waiting for a free connection from the pool
        "socket_timeout": socket_timeout,
        "socket_connect_timeout": connect_timeout,
        "socket_keepalive": True,
        "health_check_interval": health_check_interval,
        "retry": retry,
        "retry_on_error": [rx.ConnectionError, rx.TimeoutError],
        "client_name": "tetrad",
    }


def redis_client(url: str, **client_options: Unpack[ClientOptions]) -> Redis:
    """A redis-py asyncio client for a real server, with the settings described above."""
    options = pool_options(**client_options)
    if url.startswith(SENTINEL_SCHEME + "://"):
        return sentinel_client(url, **options)
    return Redis.from_pool(BlockingConnectionPool.from_url(url, **options))


async def connect(
    url: str,
    *,
    config: Config | None = None,
    migrations: Migrations | None = None,
    clock: Callable[[], float] = time.time,
    check: bool = True,
    **client_options: Unpack[ClientOptions],
) -> Store:
    """Open the store at ``url``; with ``check`` (default) fail now with
    :class:`~storage.errors.Unavailable` when the server does not answer."""
    scheme = urlsplit(url).scheme
    if scheme == "memory":
        if client_options:
            raise TypeError(f"memory:// takes no client options: {sorted(client_options)}")
        client, backend = memory_client(url[len("memory://") :].strip("/")), "memory"
    elif scheme in ("redis", "rediss", "unix", SENTINEL_SCHEME):
        try:
            client = redis_client(url, **client_options)
        except ValueError as e:
            raise BadURL(f"bad Redis URL {masked(url)!r}: {e}") from e
        backend = "redis"
    else:
        raise BadURL(
            "store URL must be redis://, rediss://, unix://, redis+sentinel:// or memory://, "
            f"not {masked(url)!r}"
        )
    store = Store(
        client,
        backend=backend,
        url=masked(url),
        config=config,
        migrations=migrations,
        clock=clock,
    )
    if check and not await store.ping():
        await store.close()
        raise Unavailable(f"Redis at {masked(url)} does not answer")
    return store
