"""Challenge links: single-use, unguessable, expiring tokens mapping a deep link to a payload.

A token is 16 random bytes in URL-safe base64: 22 characters of ``[A-Za-z0-9_-]`` (128 bits),
so ``t.me/<bot>?start=<token>`` fits Telegram's 64-character start parameter with room for a
short prefix. ``t:ch:{token}`` is a hash: ``p`` the payload JSON, ``e`` when it expires, ``u``
when it was redeemed. The key itself outlives the token by ``Config.challenge_memory`` so the
bot can still tell "used" and "expired" from "unknown" for a while.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from typing import Any

from redis import exceptions as rx
from redis.asyncio import Redis

from storage._base import Part, dumps, guarded, is_wrong_type, load_object
from storage.config import Config
from storage.errors import ChallengeExpired, ChallengeUsed, CorruptRecord, UnknownChallenge
from storage.keys import Keys

TOKEN_BYTES = 16
_TOKEN = re.compile(r"[A-Za-z0-9_-]{22}")

# KEYS[1] the token's hash; ARGV[1] now. Marks the token used when it is redeemable now, and
# returns the fields as they were before: payload, expiry, used-at.
_REDEEM = """
local f = redis.call('HMGET', KEYS[1], 'p', 'e', 'u')
local expires = tonumber(f[2])
if f[1] and expires and not f[3] and expires > tonumber(ARGV[1]) then
  redis.call('HSET', KEYS[1], 'u', ARGV[1])
end
return f
"""


class Challenges(Part):
    """``store.challenges``: ``create``, ``peek``, ``redeem`` (once), ``revoke``."""

    def __init__(
        self, client: Redis, keys: Keys, config: Config, clock: Callable[[], float]
    ) -> None:
        super().__init__(client, keys, config, clock)
        self._redeem = client.register_script(_REDEEM)

    @guarded
    async def create(self, payload: dict[str, Any], ttl: float | None = None) -> str:
        """A new token for ``payload``, valid for ``ttl`` seconds (default 24 h)."""
        ttl = self._config.challenge_ttl if ttl is None else ttl
        if ttl <= 0:
            raise ValueError("a challenge needs a positive lifetime")
        data = dumps(payload)
        token = secrets.token_urlsafe(TOKEN_BYTES)
        key = self._keys.challenge(token)
        expires = self._clock() + ttl
        keep_ms = max(1, round((ttl + self._config.challenge_memory) * 1000))
        async with self._r.pipeline(transaction=True) as pipe:
            pipe.hset(key, mapping={"p": data, "e": repr(expires)})
            pipe.pexpire(key, keep_ms)
            await pipe.execute()
        return token

    @guarded
    async def peek(self, token: str) -> dict[str, Any]:
        """The payload of a token that could be redeemed now; does not use it up."""
        key = self._key(token)
        fields = await self._call(key, self._r.hmget(key, ["p", "e", "u"]))
        return self._verdict(token, key, fields, self._clock())

    @guarded
    async def redeem(self, token: str) -> dict[str, Any]:
        """Use the token up and return its payload; of two racing redeemers one wins, the
        other gets :class:`ChallengeUsed`. Raises :class:`UnknownChallenge` or
        :class:`ChallengeExpired` otherwise."""
        key = self._key(token)
        now = self._clock()
        fields = await self._call(key, self._redeem(keys=[key], args=[repr(now)]))
        return self._verdict(token, key, fields, now)

    @guarded
    async def revoke(self, token: str) -> bool:
        """Forget a token (the challenger cancelled); True when there was one."""
        try:
            key = self._key(token)
        except UnknownChallenge:
            return False
        return bool(await self._r.delete(key))

    def _key(self, token: str) -> str:
        if not isinstance(token, str) or not _TOKEN.fullmatch(token):
            raise UnknownChallenge(str(token)[:64])
        return self._keys.challenge(token)

    @staticmethod
    async def _call(key: str, command: Any) -> list[bytes | None]:
        try:
            return list(await command)
        except rx.ResponseError as e:
            if is_wrong_type(e):
                raise CorruptRecord(key, "holds a different Redis type, not a challenge") from e
            raise

    @staticmethod
    def _verdict(token: str, key: str, fields: list[bytes | None], now: float) -> dict[str, Any]:
        payload, expires, used = fields
        if payload is None or expires is None:
            raise UnknownChallenge(token)
        try:
            expires_at = float(expires)
            used_at = None if used is None else float(used)
        except ValueError as e:
            raise CorruptRecord(key, f"bad challenge times ({e})") from e
        if used_at is not None:
            raise ChallengeUsed(token, used_at)
        if expires_at <= now:
            raise ChallengeExpired(token, expires_at)
        return load_object(key, payload)
