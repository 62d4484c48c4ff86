"""Launch data signed as Telegram signs it, written here from Telegram's documentation
(core.telegram.org/bots/webapps, "Validating data received via the Mini App") and not with
the code under test: secret = HMAC-SHA256(key="WebAppData", msg=token); hash =
HMAC-SHA256(key=secret, msg=the sorted key=value lines but hash)."""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from urllib.parse import urlencode


def init_data(
    token: str,
    user: int,
    first_name: str = "Alice",
    *,
    auth_date: float | None = None,
    start_param: str | None = None,
    lang: str = "en",
    extra: dict[str, str] | None = None,
) -> str:
    fields = {
        "auth_date": str(int(time.time() if auth_date is None else auth_date)),
        "query_id": "AAHdF6IQAAAAAN0XohDhrOrc",
        "user": json.dumps(
            {"id": user, "first_name": first_name, "language_code": lang},
            separators=(",", ":"),
            ensure_ascii=False,
        ),
        **({"start_param": start_param} if start_param else {}),
        **(extra or {}),
    }
    check = "\n".join(f"{k}={fields[k]}" for k in sorted(fields))
    secret = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
    fields["hash"] = hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()
    return urlencode(fields)
