"""Telegram's limits and error answers, so the bot meets them here before it meets Telegram.

Descriptions are Telegram's own wording; python-telegram-bot turns them into ``BadRequest``,
``Forbidden``, ``RetryAfter`` and ``ChatMigrated`` exactly as it does against Telegram.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any

from playground.miniapp import MiniAppError, check_app_url

TEXT_MAX = 4096
CAPTION_MAX = 1024
CALLBACK_DATA_MAX = 64
BUTTONS_MAX = 100
BUTTONS_PER_ROW_MAX = 8
CALLBACK_ANSWER_TEXT_MAX = 200
INLINE_RESULTS_MAX = 50
PHOTO_BYTES_MAX = 10 * 1024 * 1024
PHOTO_SIDES_SUM_MAX = 10000
PHOTO_RATIO_MAX = 20
FILE_BYTES_MAX = 50 * 1024 * 1024
COMMANDS_MAX = 100


class ApiError(Exception):
    """An unsuccessful Bot API answer: ``{"ok": false, "error_code", "description", ...}``."""

    def __init__(self, code: int, description: str, **parameters: Any) -> None:
        super().__init__(description)
        self.code = code
        self.description = description
        self.parameters = parameters

    def to_json(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "ok": False,
            "error_code": self.code,
            "description": self.description,
        }
        if self.parameters:
            body["parameters"] = self.parameters
        return body


def bad_request(what: str, **parameters: Any) -> ApiError:
    return ApiError(400, f"Bad Request: {what}", **parameters)


def forbidden(what: str) -> ApiError:
    return ApiError(403, f"Forbidden: {what}")


NOT_FOUND = ApiError(404, "Not Found")
UNAUTHORIZED = ApiError(401, "Unauthorized")
NOT_MODIFIED = (
    "message is not modified: specified new message content and reply markup are exactly "
    "the same as a current content and reply markup of the message"
)
QUERY_TOO_OLD = "query is too old and response timeout expired or query ID is invalid"
WEBHOOK_CONFLICT = (
    "Conflict: can't use getUpdates method while webhook is active; "
    "use deleteWebhook to delete the webhook first"
)


def too_many_requests(retry_after: int) -> ApiError:
    return ApiError(429, f"Too Many Requests: retry after {retry_after}", retry_after=retry_after)


def utf16_len(text: str) -> int:
    """Telegram measures text (and entity offsets) in UTF-16 code units."""
    return len(text.encode("utf-16-le")) // 2


def check_text(text: str) -> None:
    if not text.strip():
        raise bad_request("message text is empty")
    if utf16_len(text) > TEXT_MAX:
        raise bad_request("message is too long")


def check_caption(caption: str) -> None:
    if utf16_len(caption) > CAPTION_MAX:
        raise bad_request("message caption is too long")


_BUTTON_ACTIONS = (
    "url",
    "callback_data",
    "web_app",
    "login_url",
    "switch_inline_query",
    "switch_inline_query_current_chat",
    "switch_inline_query_chosen_chat",
    "copy_text",
    "callback_game",
    "pay",
)


def check_inline_keyboard(markup: object, *, web_app: bool = False) -> dict[str, Any]:
    """Validate an ``InlineKeyboardMarkup`` the way Telegram does before it stores it; the
    markup back, as the JSON object it has been checked to be. ``web_app``: the message is
    in a private chat with the bot, the only place ``web_app`` buttons are allowed (groups,
    channels and inline messages get BUTTON_TYPE_INVALID)."""
    if not isinstance(markup, dict):
        raise bad_request("can't parse reply keyboard markup JSON object")
    if "inline_keyboard" not in markup:
        return markup  # reply keyboards, ForceReply and ReplyKeyboardRemove carry no inline buttons
    rows = markup["inline_keyboard"]
    if not isinstance(rows, list) or not all(isinstance(r, list) for r in rows):
        raise bad_request(
            "can't parse inline keyboard button: InlineKeyboardButton must be an Object"
        )
    total = sum(len(r) for r in rows)
    if total > BUTTONS_MAX or any(len(r) > BUTTONS_PER_ROW_MAX for r in rows):
        raise bad_request("reply markup is too long")
    for row in rows:
        for button in row:
            if not isinstance(button, dict) or not isinstance(button.get("text"), str):
                raise bad_request("can't parse inline keyboard button: Text must be a String")
            actions = [a for a in _BUTTON_ACTIONS if a in button]
            if not actions:
                raise bad_request("text buttons are unallowed in the inline keyboard")
            data = button.get("callback_data")
            if "callback_data" in button and (
                not isinstance(data, str) or not 1 <= len(data.encode()) <= CALLBACK_DATA_MAX
            ):
                raise bad_request("BUTTON_DATA_INVALID")
            url = button.get("url")
            if "url" in button and (
                not isinstance(url, str) or ("://" not in url and not url.startswith("tg:"))
            ):
                raise bad_request("BUTTON_URL_INVALID")
            if "web_app" in button:
                _check_web_app(button["web_app"], web_app)
    return markup


def _check_web_app(info: object, allowed: bool) -> None:
    if not allowed:
        raise bad_request("BUTTON_TYPE_INVALID")
    url = info.get("url") if isinstance(info, dict) else None
    if not isinstance(url, str):
        raise bad_request("can't parse inline keyboard button: WebAppInfo must be an Object")
    try:
        check_app_url(url)
    except MiniAppError as e:
        raise bad_request(f"inline keyboard button {e}") from None


def check_photo_dimensions(width: int, height: int, size: int) -> None:
    if size > PHOTO_BYTES_MAX:
        raise bad_request("file is too big")
    if (
        width <= 0
        or height <= 0
        or width + height > PHOTO_SIDES_SUM_MAX
        or max(width, height) / min(width, height) > PHOTO_RATIO_MAX
    ):
        raise bad_request("PHOTO_INVALID_DIMENSIONS")


@dataclass
class TokenBucket:
    """``capacity`` requests at once, refilled at ``rate`` per second (like aiolimiter)."""

    capacity: float
    rate: float
    tokens: float = -1.0
    stamp: float = 0.0

    def wait(self, now: float) -> float:
        """Refill; return 0 when a token is there, else the seconds until one is."""
        if self.tokens < 0:
            self.tokens, self.stamp = self.capacity, now
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        return 0.0 if self.tokens >= 1 else (1 - self.tokens) / self.rate


@dataclass
class Limits:
    """Flood limits (Telegram's published 'about' figures; thresholds configurable)."""

    enabled: bool = True
    private_per_second: float = 1.0
    private_burst: float = 3.0
    group_per_minute: float = 20.0
    global_per_second: float = 30.0
    callback_query_ttl: float = 15.0
    inline_query_ttl: float = 15.0

    @classmethod
    def off(cls) -> Limits:
        return cls(enabled=False)


@dataclass
class FloodControl:
    """Counts messages the bot sends or edits, per chat and overall, and answers 429."""

    limits: Limits
    clock: Any = time.monotonic
    _chats: dict[int, TokenBucket] = field(default_factory=dict)
    _global: TokenBucket | None = None

    def reset(self) -> None:
        self._chats.clear()
        self._global = None

    def hit(self, chat_id: int, is_private: bool) -> None:
        if not self.limits.enabled:
            return
        now = self.clock()
        lim = self.limits
        if self._global is None:
            self._global = TokenBucket(lim.global_per_second, lim.global_per_second)
        bucket = self._chats.get(chat_id)
        if bucket is None:
            bucket = (
                TokenBucket(lim.private_burst, lim.private_per_second)
                if is_private
                else TokenBucket(lim.group_per_minute, lim.group_per_minute / 60)
            )
            self._chats[chat_id] = bucket
        wait = max(self._global.wait(now), bucket.wait(now))
        if wait > 0:
            raise too_many_requests(max(1, math.ceil(wait)))
        self._global.tokens -= 1
        bucket.tokens -= 1
