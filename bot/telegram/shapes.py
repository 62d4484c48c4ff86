"""The shape of an update as Telegram sends it: the fields the bot (and python-telegram-bot's
filters) read, with their JSON types.

python-telegram-bot builds its objects from whatever JSON it is given, so a webhook request
with a string for a user id, a list for a chat or a date past the year 3000 would get as far
as a handler and fail there. Telegram never sends such updates; the webhook refuses them at
the door (400) instead. Fields the bot never reads are not checked (parsing them may still
fail, which the webhook also refuses).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

MAX_ID = 2**53  # Telegram's ids fit in 52 bits
MAX_DATE = 2**33  # seconds: far enough
MAX_NESTING = 3  # a message inside a message inside a message (replies, pinned…)


@dataclass(frozen=True)
class Int:
    low: int = -MAX_ID
    high: int = MAX_ID

    def ok(self, value: Any, depth: int) -> bool:
        return type(value) is int and self.low <= value <= self.high


@dataclass(frozen=True)
class Str:
    shortest: int = 0

    def ok(self, value: Any, depth: int) -> bool:
        return isinstance(value, str) and len(value) >= self.shortest


@dataclass(frozen=True)
class Bool:
    def ok(self, value: Any, depth: int) -> bool:
        return isinstance(value, bool)


@dataclass(frozen=True)
class ListOf:
    item: Any

    def ok(self, value: Any, depth: int) -> bool:
        return isinstance(value, list) and all(self.item.ok(v, depth) for v in value)


@dataclass
class Obj:
    """A JSON object: ``required`` fields must be there, ``optional`` ones may be; both with
    the given shapes. Other fields are let through unchecked."""

    required: dict[str, Any] = field(default_factory=dict)
    optional: dict[str, Any] = field(default_factory=dict)

    def ok(self, value: Any, depth: int = 0) -> bool:
        if not isinstance(value, dict) or depth > MAX_NESTING:
            return False
        for name, shape in self.required.items():
            if name not in value or not shape.ok(value[name], depth + 1):
                return False
        for name, shape in self.optional.items():
            if name in value and value[name] is not None and not shape.ok(value[name], depth + 1):
                return False
        return True


ID, DATE, STR, BOOL = Int(), Int(0, MAX_DATE), Str(), Bool()
USER = Obj(
    {"id": ID, "is_bot": BOOL, "first_name": Str(1)},  # never empty (python-telegram-bot's
    # full_name is None for an empty one)
    {"last_name": STR, "username": STR, "language_code": STR},
)
CHAT = Obj({"id": ID, "type": STR}, {"title": STR, "username": STR, "first_name": STR})
ENTITY = Obj(
    {"type": STR, "offset": Int(0), "length": Int(0)},
    {"url": STR, "user": USER, "language": STR, "custom_emoji_id": STR},
)
MESSAGE = Obj(
    {"message_id": ID, "date": DATE, "chat": CHAT},
    {
        "from": USER,
        "sender_chat": CHAT,
        "text": STR,
        "caption": STR,
        "entities": ListOf(ENTITY),
        "caption_entities": ListOf(ENTITY),
        "edit_date": DATE,
        "via_bot": USER,
        "migrate_to_chat_id": ID,
        "migrate_from_chat_id": ID,
        "new_chat_members": ListOf(USER),
        "left_chat_member": USER,
        "inline_message_id": STR,
    },
)
MESSAGE.optional["reply_to_message"] = MESSAGE
MESSAGE.optional["pinned_message"] = MESSAGE
MEMBER = Obj({"status": STR, "user": USER}, {"until_date": DATE})
UPDATES: dict[str, Obj] = {
    "message": MESSAGE,
    "edited_message": MESSAGE,
    "channel_post": MESSAGE,
    "edited_channel_post": MESSAGE,
    "callback_query": Obj(
        {"id": STR, "from": USER, "chat_instance": STR},
        {"message": MESSAGE, "inline_message_id": STR, "data": STR, "game_short_name": STR},
    ),
    "inline_query": Obj({"id": STR, "from": USER, "query": STR, "offset": STR}, {"chat_type": STR}),
    "chosen_inline_result": Obj(
        {"result_id": STR, "from": USER, "query": STR}, {"inline_message_id": STR}
    ),
    "my_chat_member": Obj(
        {
            "chat": CHAT,
            "from": USER,
            "date": DATE,
            "old_chat_member": MEMBER,
            "new_chat_member": MEMBER,
        }
    ),
}
UPDATE = Obj({"update_id": Int(0)}, dict(UPDATES))


def well_formed(data: Any) -> bool:
    """True when ``data`` is an update whose fields the bot reads have Telegram's types."""
    return UPDATE.ok(data)


def drop_tapped_keyboard(update: Any) -> None:
    """Drop the keyboard of the message a callback query came from, before the update is
    built into objects: the bot never reads it, and building a big board's hundred buttons
    cost more than the rest of the update."""
    query = update.get("callback_query") if isinstance(update, dict) else None
    tapped = query.get("message") if isinstance(query, dict) else None
    if isinstance(tapped, dict):
        tapped.pop("reply_markup", None)
