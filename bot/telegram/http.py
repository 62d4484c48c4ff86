"""The Bot API transport on aiohttp.

python-telegram-bot talks HTTP through httpx by default; aiohttp (already serving our webhook)
costs several times less CPU per call, and a tap makes two or three calls (the answer, the
edit, sometimes an upload). Semantics follow ``HTTPXRequest`` (multipart when files are
attached, timeouts per call, ``TimedOut``/``NetworkError`` on failure), except that other
parameters go as a JSON body, which the Bot API takes too.
"""

from __future__ import annotations

import json
from typing import Any

import aiohttp
from telegram.error import NetworkError, TimedOut
from telegram.request import BaseRequest, RequestData

from bot.telegram.shapes import drop_tapped_keyboard

POOL_SIZE = 256
TIMEOUT = 5.0  # seconds: connect, read and write, as python-telegram-bot's defaults
MEDIA_WRITE_TIMEOUT = 20.0
JSON_HEADERS = {"Content-Type": "application/json"}


def _seconds(value: Any, default: float | None) -> float | None:
    return default if isinstance(value, type(BaseRequest.DEFAULT_NONE)) else value


class AiohttpRequest(BaseRequest):
    """A :class:`telegram.request.BaseRequest` on one shared ``aiohttp.ClientSession``."""

    def __init__(self, pool_size: int = POOL_SIZE, read_timeout: float | None = TIMEOUT) -> None:
        self._pool_size = pool_size
        self._read_timeout = read_timeout
        self._session: aiohttp.ClientSession | None = None

    @property
    def read_timeout(self) -> float | None:
        return self._read_timeout

    async def initialize(self) -> None:
        if self._session is None or self._session.closed:
            connector = aiohttp.TCPConnector(limit=self._pool_size, ttl_dns_cache=300)
            self._session = aiohttp.ClientSession(
                connector=connector, headers={"User-Agent": self.USER_AGENT}
            )

    async def shutdown(self) -> None:
        if self._session is not None and not self._session.closed:
            await self._session.close()
        self._session = None

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: Any = BaseRequest.DEFAULT_NONE,
        write_timeout: Any = BaseRequest.DEFAULT_NONE,
        connect_timeout: Any = BaseRequest.DEFAULT_NONE,
        pool_timeout: Any = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        if self._session is None or self._session.closed:
            raise RuntimeError("AiohttpRequest is not initialized")
        files = request_data.multipart_data if request_data else None
        params = request_data.json_parameters if request_data else None
        read = _seconds(read_timeout, self._read_timeout)
        write = _seconds(write_timeout, MEDIA_WRITE_TIMEOUT if files else TIMEOUT)
        connect = _seconds(connect_timeout, TIMEOUT)
        pool = _seconds(pool_timeout, 1.0)
        timeout = aiohttp.ClientTimeout(
            total=None,
            connect=None if connect is None or pool is None else connect + pool,
            sock_read=None if read is None or write is None else read + write,
        )
        body: Any = None
        headers = None
        if files:
            form = aiohttp.FormData(quote_fields=False)
            for name, value in (params or {}).items():
                form.add_field(name, value)
            for name, part in files.items():
                filename, content, mime = part if len(part) == 3 else (*part, None)
                form.add_field(name, content, filename=filename, content_type=mime)
            body = form
        elif request_data is not None and params:
            # A JSON body: cheaper to build than a form of JSON-encoded strings, each quoted.
            body = json.dumps(request_data.parameters, ensure_ascii=False).encode()
            headers = JSON_HEADERS
        try:
            async with self._session.request(
                method, url, data=body, headers=headers, timeout=timeout
            ) as res:
                return res.status, await res.read()
        except TimeoutError as err:
            raise TimedOut from err
        except aiohttp.ClientError as err:
            raise NetworkError(f"aiohttp.{err.__class__.__name__}: {err}") from err


class UpdatesRequest(AiohttpRequest):
    """The long-polling transport: as the webhook does, updates lose the keyboard of the
    tapped message before python-telegram-bot builds them into objects."""

    @staticmethod
    def parse_json_payload(payload: bytes) -> dict[str, Any]:
        data = BaseRequest.parse_json_payload(payload)
        result = data.get("result")
        if isinstance(result, list):
            for update in result:
                drop_tapped_keyboard(update)
        return data
