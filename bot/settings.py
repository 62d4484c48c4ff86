"""Settings read once from the environment; a bad value stops the start with one clear line."""

from __future__ import annotations

import math
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

from storage import sentinel
from storage.connect import masked

TELEGRAM_API = "https://api.telegram.org"
LANGUAGES = ("ru", "en")
WORKER_KINDS = ("local", "queue")
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
_TOKEN = re.compile(r"^\d{1,20}:[A-Za-z0-9_-]{20,}$")
_SECRET = re.compile(r"^[A-Za-z0-9_-]{1,256}$")
_SHORT_NAME = re.compile(r"^[A-Za-z0-9_]{3,30}$")


class SettingsError(ValueError):
    """A setting that cannot work; the message names the variable and what is wrong."""


@dataclass(frozen=True, slots=True)
class Settings:
    token: str | None
    api_url: str
    redis_url: str
    webhook_url: str | None
    webhook_secret: str | None
    port: int
    log_level: str
    default_language: str
    ai_time_scale: float = 1.0
    group_edits_per_minute: float = 20.0
    messages_per_second: float = 30.0  # the bot's pace for all chats together
    storage_chats: tuple[int, ...] = ()  # where inline-message pictures are uploaded
    lobby_timeout: float = 6 * 3600.0
    idle_timeout: float = 7 * 86400.0
    ai_show_after: float = 0.6  # a longer think shows the person's own move first
    route_workers: int = 0  # processes that route Рассада curves (0: the bot process does)
    ai_workers: int = 0  # processes that think the bot's moves (0: the pool's own default)
    warm_workers: bool = True  # take updates only once the worker pools are warm
    # Who thinks the bot's moves: "local", this process's own pool; "queue", `tetrad worker`
    # processes through a Redis job queue (bot/telegram/jobs.py), the pool as the fallback.
    workers: str = "local"
    # The Mini App: the public URL of its page (this server's /app/), and the short name
    # BotFather's /newapp gave it (for the t.me direct link of groups and inline messages).
    miniapp_url: str | None = None
    miniapp_short_name: str | None = None

    @property
    def base_url(self) -> str:
        """python-telegram-bot's ``base_url`` (it appends the token)."""
        return f"{self.api_url}/bot"

    @property
    def base_file_url(self) -> str:
        return f"{self.api_url}/file/bot"

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, *, need_token: bool = True) -> Settings:
        env = os.environ if env is None else env

        def get(name: str) -> str | None:
            value = env.get(name, "").strip()
            return value or None

        token = _token(get, need_token)
        api_url = _api_url(get)
        redis_url = get("REDIS_URL") or "redis://localhost:6379/0"
        if not redis_url.startswith("memory://"):
            _require_url("REDIS_URL", redis_url, ("redis", "rediss", "unix", sentinel.SCHEME))
            _check_sentinel_url(redis_url)
        webhook_url, webhook_secret = _webhook(get)

        port_text = get("PORT") or "8080"
        if not port_text.isdigit() or not 0 < int(port_text) < 65536:
            raise SettingsError(f"PORT must be a number from 1 to 65535, not {port_text!r}")
        log_level = _one_of("LOG_LEVEL", (get("LOG_LEVEL") or "INFO").upper(), LOG_LEVELS)
        language = _one_of("DEFAULT_LANGUAGE", (get("DEFAULT_LANGUAGE") or "en").lower(), LANGUAGES)

        ai_time_scale = _number(
            get, "AI_TIME_SCALE", "1", lambda x: 0 < x <= 10, "a number above 0 and up to 10"
        )
        group_rate = _number(get, "GROUP_EDITS_PER_MINUTE", "20", _positive, "a positive number")
        overall_rate = _number(get, "MESSAGES_PER_SECOND", "30", _positive, "a positive number")
        ai_show_after = _number(
            get, "AI_SHOW_AFTER", "0.6", lambda x: 0 <= x <= 3600, "a number of seconds"
        )
        lobby_timeout = _hours(get, "LOBBY_TIMEOUT_HOURS", 6) * 3600
        idle_timeout = _hours(get, "IDLE_TIMEOUT_HOURS", 7 * 24) * 3600

        cores = min(2, os.cpu_count() or 1)
        route_workers = _count(get, "ROUTE_WORKERS", cores, least=0)
        ai_workers = _count(get, "AI_WORKERS", cores, least=1)
        warm_text = get("WARM_WORKERS") or "1"
        if warm_text not in ("0", "1"):
            raise SettingsError(f"WARM_WORKERS must be 1 or 0, not {warm_text!r}")

        workers = _one_of("WORKERS", (get("WORKERS") or "local").lower(), WORKER_KINDS)
        if workers == "queue" and redis_url.startswith("memory://"):
            raise SettingsError("WORKERS=queue needs a Redis server in REDIS_URL, not memory://")

        storage_text = get("STORAGE_CHAT_ID") or ""
        try:
            storage_chats = tuple(int(c) for c in storage_text.split(",") if c.strip())
        except ValueError:
            raise SettingsError(
                f"STORAGE_CHAT_ID must be chat ids separated by commas, not {storage_text!r}"
            ) from None

        miniapp_url = get("MINIAPP_URL")
        if miniapp_url is not None:
            _require_url("MINIAPP_URL", miniapp_url, ("https", "http"))
        short_name = get("MINIAPP_SHORT_NAME")
        if short_name is not None and not _SHORT_NAME.match(short_name):
            raise SettingsError("MINIAPP_SHORT_NAME must be 3–30 characters of A-Z, a-z, 0-9 and _")

        return cls(
            miniapp_url=miniapp_url,
            miniapp_short_name=short_name,
            storage_chats=storage_chats,
            token=token,
            api_url=api_url,
            redis_url=redis_url,
            webhook_url=webhook_url,
            webhook_secret=webhook_secret,
            port=int(port_text),
            log_level=log_level,
            default_language=language,
            ai_time_scale=ai_time_scale,
            group_edits_per_minute=group_rate,
            messages_per_second=overall_rate,
            lobby_timeout=lobby_timeout,
            idle_timeout=idle_timeout,
            ai_show_after=ai_show_after,
            route_workers=route_workers,
            ai_workers=ai_workers,
            warm_workers=warm_text == "1",
            workers=workers,
        )


Getter = Callable[[str], str | None]  # a variable's value, None when unset or blank


def _token(get: Getter, need_token: bool) -> str | None:
    token = get("TELEGRAM_BOT_TOKEN")
    if token is None and need_token:
        raise SettingsError("TELEGRAM_BOT_TOKEN is not set (get one from @BotFather)")
    if token is not None and not _TOKEN.match(token):
        raise SettingsError("TELEGRAM_BOT_TOKEN does not look like a bot token (123:ABC…)")
    return token


def _api_url(get: Getter) -> str:
    api_url = (get("TELEGRAM_API_URL") or TELEGRAM_API).rstrip("/")
    if api_url.endswith("/bot"):
        api_url = api_url[: -len("/bot")]
    _require_url("TELEGRAM_API_URL", api_url, ("http", "https"))
    return api_url


def _webhook(get: Getter) -> tuple[str | None, str | None]:
    """The webhook's URL and secret: both or neither."""
    webhook_url = get("WEBHOOK_URL")
    webhook_secret = get("WEBHOOK_SECRET")
    if webhook_url is not None:
        _require_url("WEBHOOK_URL", webhook_url, ("https", "http"))
        if webhook_secret is None:
            raise SettingsError("WEBHOOK_SECRET must be set when WEBHOOK_URL is set")
    if webhook_secret is not None and not _SECRET.match(webhook_secret):
        raise SettingsError("WEBHOOK_SECRET must be 1–256 characters of A-Z, a-z, 0-9, _ and -")
    return webhook_url, webhook_secret


def _one_of(name: str, value: str, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise SettingsError(f"{name} must be one of {', '.join(choices)}")
    return value


def _positive(x: float) -> bool:
    return x > 0


def _number(get: Getter, name: str, default: str, ok: Callable[[float], bool], must: str) -> float:
    """A number setting; text that is no number (or NaN) fails ``ok`` like one out of range."""
    text = get(name) or default
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not ok(value):
        raise SettingsError(f"{name} must be {must}, not {text!r}")
    return value


def _count(get: Getter, name: str, default: int, *, least: int) -> int:
    """A number of worker processes, ``least`` to 64."""
    text = get(name) or str(default)
    if not text.isdigit() or not least <= int(text) <= 64:
        raise SettingsError(
            f"{name} must be a number of processes from {least} to 64, not {text!r}"
        )
    return int(text)


def _hours(get: Getter, name: str, default: float) -> float:
    return _number(
        get, name, str(default), lambda x: 0 < x <= 24 * 365, "a number of hours above 0"
    )


def _check_sentinel_url(url: str) -> None:
    """A ``redis+sentinel://`` REDIS_URL must parse now, not at the first store call."""
    if not url.startswith(sentinel.SCHEME + "://"):
        return
    try:
        sentinel.parse(url)
    except ValueError as e:
        raise SettingsError(f"REDIS_URL {masked(url)!r} is not a Sentinel URL: {e}") from None


def _require_url(name: str, value: str, schemes: tuple[str, ...]) -> None:
    parts = urlsplit(value)
    if parts.scheme not in schemes or (parts.scheme != "unix" and not parts.netloc):
        raise SettingsError(f"{name} must be a {'/'.join(schemes)} URL, not {value!r}")
