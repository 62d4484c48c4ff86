"""Telegram Mini App launch data (``initData``), checked as Telegram documents it
(core.telegram.org/bots/webapps, "Validating data received via the Mini App"):

    secret_key = HMAC-SHA256(key=b"WebAppData", msg=bot_token)
    hash = hex(HMAC-SHA256(key=secret_key, msg=data_check_string))

where the data-check-string is every received field but ``hash``, URL-decoded, as
``key=value`` lines sorted by key and joined by ``\\n``. Written here (thirty lines of the
standard library) rather than taken from a package: each validator on PyPI is a small
one-person project, and the check is the documented algorithm itself.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl

MAX_AGE = 24 * 3600.0  # older launch data is refused (the issue: 24 h)
FUTURE_SLACK = 300.0  # clocks differ: an auth_date up to this far ahead is accepted
MAX_LENGTH = 8192  # Telegram's initData is well under 4 KB


class AuthError(Exception):
    """Launch data that proves nothing: ``code`` is "missing", "malformed", "forged" or
    "expired" (each answered 401, nothing changes)."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


@dataclass(frozen=True)
class Launch:
    """Who opened the Mini App (as Telegram signed it) and from where."""

    user: int
    name: str
    language: str | None
    auth_date: int
    start_param: str | None
    chat_type: str | None


def secret_key(token: str) -> bytes:
    return hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()


def data_check_string(fields: dict[str, str]) -> str:
    return "\n".join(f"{k}={fields[k]}" for k in sorted(fields) if k != "hash")


def sign(fields: dict[str, str], token: str) -> str:
    """The ``hash`` Telegram puts on these fields (tests and the bench sign with it)."""
    check = data_check_string(fields).encode()
    return hmac.new(secret_key(token), check, hashlib.sha256).hexdigest()


def validate(init_data: str | None, token: str, *, now: float, max_age: float = MAX_AGE) -> Launch:
    """The person the launch data was signed for, or :class:`AuthError`."""
    if not init_data:
        raise AuthError("missing")
    if len(init_data) > MAX_LENGTH:
        raise AuthError("malformed")
    try:
        pairs = parse_qsl(init_data, keep_blank_values=True, strict_parsing=True)
    except ValueError:
        raise AuthError("malformed") from None
    fields = dict(pairs)
    if len(fields) != len(pairs) or "hash" not in fields:
        raise AuthError("malformed")  # a field twice: which one was signed?
    if not hmac.compare_digest(sign(fields, token), fields["hash"]):
        raise AuthError("forged")
    try:
        auth_date = int(fields["auth_date"])
        user = _user(json.loads(fields["user"]))
    except (KeyError, ValueError, TypeError):
        raise AuthError("malformed") from None
    if not now - max_age <= auth_date <= now + FUTURE_SLACK:
        raise AuthError("expired")
    uid, name, lang = user
    return Launch(uid, name, lang, auth_date, fields.get("start_param"), fields.get("chat_type"))


def _user(data: Any) -> tuple[int, str, str | None]:
    uid = data.get("id") if isinstance(data, dict) else None
    if not isinstance(uid, int) or isinstance(uid, bool):
        raise ValueError("no user")
    first, last = data.get("first_name"), data.get("last_name")
    name = " ".join(str(p) for p in (first, last) if p) or str(data["id"])
    lang = data.get("language_code")
    return data["id"], name[:64], lang if isinstance(lang, str) else None
