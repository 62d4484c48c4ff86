"""Mini Apps in the emulator: the bot's app (what BotFather's /newapp sets), the initData
Telegram signs for each launch, the launch URL with its hash, and Telegram's theme palettes.

The signature is Telegram's documented one (core.telegram.org/bots/webapps, "Validating data
received via the Mini App"): ``secret = HMAC-SHA256(key=b"WebAppData", msg=bot_token)``,
``hash = hex(HMAC-SHA256(key=secret, msg=data_check_string))``, where the data-check-string
is every other field as ``key=value``, sorted by key, joined by ``\\n``. The newer Ed25519
``signature`` field (third-party validation with Telegram's key) is not produced: nobody but
Telegram holds that key, so a test could not tell a real one from ours anyway.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, urlencode, urlsplit

# What the panel implements of the web protocol: ready, expand, close, main and back
# buttons, haptics, theme and viewport requests, header/background colours, links (6.1) and
# popups (6.2).
VERSION = "6.2"
PLATFORM = "web"
SHORT_NAME = re.compile(r"^[A-Za-z0-9_]{3,30}$")
START_PARAM = re.compile(r"^[A-Za-z0-9_-]{0,512}$")

# Telegram's palettes: the dark one is the documented example of tgWebAppThemeParams, the
# light one the desktop/web client's day theme.
THEMES: dict[str, dict[str, str]] = {
    "light": {
        "accent_text_color": "#2481cc",
        "bg_color": "#ffffff",
        "bottom_bar_bg_color": "#ffffff",
        "button_color": "#2481cc",
        "button_text_color": "#ffffff",
        "destructive_text_color": "#e53935",
        "header_bg_color": "#ffffff",
        "hint_color": "#999999",
        "link_color": "#2481cc",
        "secondary_bg_color": "#efeff3",
        "section_bg_color": "#ffffff",
        "section_header_text_color": "#6d6d72",
        "subtitle_text_color": "#999999",
        "text_color": "#000000",
    },
    "dark": {
        "accent_text_color": "#6ab2f2",
        "bg_color": "#17212b",
        "bottom_bar_bg_color": "#17212b",
        "button_color": "#5288c1",
        "button_text_color": "#ffffff",
        "destructive_text_color": "#ec3942",
        "header_bg_color": "#17212b",
        "hint_color": "#708499",
        "link_color": "#6ab3f3",
        "secondary_bg_color": "#232e3c",
        "section_bg_color": "#17212b",
        "section_header_text_color": "#6ab3f3",
        "subtitle_text_color": "#708499",
        "text_color": "#f5f5f5",
    },
}


class MiniAppError(ValueError):
    """A launch the emulator cannot make (no app set, a bad link or start parameter)."""


def secret_key(token: str) -> bytes:
    return hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()


def data_check_string(fields: Mapping[str, str]) -> str:
    return "\n".join(f"{k}={v}" for k, v in sorted(fields.items()) if k != "hash")


def sign_init_data(token: str, fields: Mapping[str, str]) -> str:
    """``fields`` (in Telegram's order) plus their ``hash``, as the query string a Mini App
    gets in ``tgWebAppData`` (values percent-encoded, spaces as %20 like Telegram)."""
    digest = hmac.new(secret_key(token), data_check_string(fields).encode(), hashlib.sha256)
    pairs = [*fields.items(), ("hash", digest.hexdigest())]
    return urlencode(pairs, quote_via=quote, safe="")


def user_json(user: Mapping[str, Any]) -> str:
    """A WebAppUser as Telegram serialises it: compact JSON, no spaces."""
    return json.dumps(dict(user), ensure_ascii=False, separators=(",", ":"))


@dataclass
class MiniApp:
    """The bot's Mini App as BotFather's /newapp records it: the URL Telegram opens for a
    direct link ``t.me/<bot>/<short_name>?startapp=…`` and its title."""

    url: str
    short_name: str
    title: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"url": self.url, "short_name": self.short_name, "title": self.title}


def check_app_url(url: str, what: str = "Web App URL") -> str:
    """Telegram opens only HTTPS Mini Apps; the playground also opens http:// on this
    machine (the local bot's own server)."""
    parts = urlsplit(url)
    local = parts.hostname in ("localhost", "127.0.0.1", "::1")
    if (parts.scheme == "https" and parts.hostname) or (parts.scheme == "http" and local):
        return url
    raise MiniAppError(f"{what} {url!r} is invalid: Only HTTPS links are allowed")


def make_mini_app(url: str, short_name: str, title: str = "") -> MiniApp:
    if not SHORT_NAME.match(short_name):
        raise MiniAppError("a Mini App short name is 3–30 letters, digits or _")
    return MiniApp(check_app_url(url), short_name, title)


def check_start_param(value: str) -> str:
    if not START_PARAM.match(value):
        raise MiniAppError("startapp is up to 512 characters A–Z, a–z, 0–9, _ and -")
    return value


@dataclass
class Launch:
    """One opening of a Mini App: what the panel loads and what it was signed with."""

    session: str
    user: int
    chat: int  # the chat ref it was opened from
    kind: str  # "button" (inline web_app button), "link" (t.me direct link), "menu"
    app_url: str
    init_data: str
    start_param: str | None = None
    title: str = ""
    theme: str = "light"
    closed: bool = False
    main_button: dict[str, Any] = field(default_factory=dict)

    def url(self, theme: str | None = None) -> str:
        """The app URL with the launch parameters in its hash (and the start parameter
        also as the GET parameter tgWebAppStartParam, as Telegram documents)."""
        palette = THEMES[theme or self.theme]
        base = self.app_url.split("#", 1)[0]  # the launch parameters take the hash
        params = [
            ("tgWebAppData", self.init_data),
            ("tgWebAppVersion", VERSION),
            ("tgWebAppPlatform", PLATFORM),
            ("tgWebAppThemeParams", json.dumps(palette, separators=(",", ":"))),
        ]
        if self.start_param:
            params.append(("tgWebAppStartParam", self.start_param))
            sep = "&" if "?" in base else "?"
            base += sep + urlencode({"tgWebAppStartParam": self.start_param})
        return f"{base}#{urlencode(params, quote_via=quote, safe='')}"

    def to_json(self, theme: str | None = None) -> dict[str, Any]:
        return {
            "session": self.session,
            "user": self.user,
            "chat": self.chat,
            "kind": self.kind,
            "url": self.url(theme),
            "app_url": self.app_url,
            "init_data": self.init_data,
            "start_param": self.start_param,
            "title": self.title,
            "theme": theme or self.theme,
            "themes": THEMES,
        }


def new_session() -> str:
    return secrets.token_urlsafe(12)


def new_query_id() -> str:
    """Telegram's query ids look like ``AAHdF6IQAAAAAN0XohDhrOrc`` (base64url bytes)."""
    return secrets.token_urlsafe(18)
