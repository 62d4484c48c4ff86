"""initData as Telegram signs it is accepted for its user; forged, expired, tampered and
malformed data is refused with the reason, whatever it claims."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode

import pytest

from bot.webapp.auth import MAX_AGE, AuthError, sign, validate
from tests.webapp.signing import init_data

TOKEN = "123456:ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghi"
NOW = 1_800_000_000.0


def _code(data: str | None, token: str = TOKEN, now: float = NOW) -> str:
    with pytest.raises(AuthError) as e:
        validate(data, token, now=now)
    return e.value.code


def test_signed_data_names_its_user() -> None:
    data = init_data(TOKEN, 42, "Алиса", auth_date=NOW - 60, start_param="abcdEFGH", lang="ru")
    launch = validate(data, TOKEN, now=NOW)
    assert (launch.user, launch.name, launch.language) == (42, "Алиса", "ru")
    assert launch.start_param == "abcdEFGH" and launch.auth_date == int(NOW - 60)


def test_newer_fields_are_signed_too() -> None:
    """Fields we do not read (Telegram adds some: signature, chat_instance) are part of the
    signed string: accepted when signed, refused when added afterwards."""
    extra = {"chat_instance": "-123", "signature": "c2lnbmF0dXJl"}
    data = init_data(TOKEN, 42, auth_date=NOW, extra=extra)
    assert validate(data, TOKEN, now=NOW).user == 42
    assert _code(init_data(TOKEN, 42, auth_date=NOW) + "&chat_instance=-1") == "forged"


def test_another_bots_token_is_forged() -> None:
    other = "654321:ZYXWVUTSRQPONMLKJIHGFEDCBAzyxwvutsr"
    assert _code(init_data(other, 42, auth_date=NOW)) == "forged"


def test_another_user_in_signed_data_is_forged() -> None:
    """Alice's signature on data that now says Bob: the user field is part of what is signed."""
    fields = dict(parse_qsl(init_data(TOKEN, 1, "Alice", auth_date=NOW)))
    fields["user"] = fields["user"].replace('"id":1', '"id":2')
    assert _code(urlencode(fields)) == "forged"


def test_expired_and_from_the_future() -> None:
    assert _code(init_data(TOKEN, 42, auth_date=NOW - MAX_AGE - 1)) == "expired"
    assert validate(init_data(TOKEN, 42, auth_date=NOW - MAX_AGE + 60), TOKEN, now=NOW)
    assert _code(init_data(TOKEN, 42, auth_date=NOW + 3600)) == "expired"


@pytest.mark.parametrize(
    "data",
    [
        "garbage",
        "a=1&a=2&hash=00",
        "auth_date=1&user=%7B%7D",  # no hash
        "&&&",
        "x" * 9000,
    ],
)
def test_malformed(data: str) -> None:
    assert _code(data) == "malformed"


def test_missing() -> None:
    assert _code(None) == "missing" and _code("") == "missing"


def test_signed_but_unreadable_user_is_malformed() -> None:
    """A correctly signed string whose user field is not a user (our own signer, since
    Telegram never sends one): refused, not a crash."""
    fields = {"auth_date": str(int(NOW)), "user": "[1, 2]"}
    fields["hash"] = sign(fields, TOKEN)
    assert _code(urlencode(fields)) == "malformed"
    fields = {"auth_date": "soon", "user": '{"id": 5}'}
    fields["hash"] = sign(fields, TOKEN)
    assert _code(urlencode(fields)) == "malformed"


def test_one_changed_character_of_the_hash() -> None:
    data = init_data(TOKEN, 42, auth_date=NOW)
    flipped = data[:-1] + ("0" if data[-1] != "0" else "1")
    assert _code(flipped) == "forged"
