"""The simulated Telegram: users, chats, groups, messages, files and the bot's update queue.

Everything here runs inside one event loop and never awaits while it changes state, so every
method is atomic. People act through the ``user_*`` methods (the web page and the test
client); the bot acts through the ``bot_*`` methods (the Bot API in api.py). Every change is
appended to an event log that the page and the test client follow.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import secrets
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, urlsplit

from playground.entities import auto_entities
from playground.faults import Faults
from playground.files import FileStore, StoredFile
from playground.limits import (
    NOT_MODIFIED,
    QUERY_TOO_OLD,
    FloodControl,
    Limits,
    bad_request,
    forbidden,
)
from playground.miniapp import (
    Launch,
    MiniApp,
    MiniAppError,
    check_start_param,
    make_mini_app,
    new_query_id,
    new_session,
    sign_init_data,
    user_json,
)

BOT_ID = 6_000_000_001
FIRST_USER_ID = 7_000_000_001
FIRST_GROUP_ID = -4_000_000_001
FIRST_SUPERGROUP_ID = -1_000_000_000_001
FIRST_DIALOG_ID = 9_000_000_000_001  # user-to-user chats; never shown to the bot
FIRST_CHANNEL_ID = -1_002_000_000_001  # private channels only the bot posts in
DEFAULT_UPDATES = (
    "message",
    "edited_message",
    "callback_query",
    "inline_query",
    "chosen_inline_result",
    "my_chat_member",
)
EVENT_LOG_SIZE = 5000
REPLY_PREVIEW_CHARS = 120  # of the replied message, in its quote (the page shortens it further)


class PlaygroundError(Exception):
    """A person asked for something the simulated world cannot do (unknown user, chat...)."""


# Who a message of an anonymous group administrator comes from (Telegram's own helper bot).
ANONYMOUS_ADMIN: dict[str, Any] = {
    "id": 1087968824,
    "is_bot": True,
    "first_name": "Group",
    "username": "GroupAnonymousBot",
}


@dataclass
class User:
    id: int
    first_name: str
    username: str
    language_code: str
    started: bool = False  # has a private chat with the bot
    blocked: bool = False  # has blocked the bot

    def to_api(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "is_bot": False,
            "first_name": self.first_name,
            "username": self.username,
            "language_code": self.language_code,
        }


@dataclass
class Message:
    chat_ref: int
    message_id: int
    sender: int  # a user id, or BOT_ID
    date: int
    text: str | None = None
    entities: list[dict[str, Any]] = field(default_factory=list)
    caption: str | None = None
    caption_entities: list[dict[str, Any]] = field(default_factory=list)
    media: StoredFile | None = None
    media_kind: str | None = None
    reply_markup: dict[str, Any] | None = None
    via_bot: bool = False
    reply_to: int | None = None
    edit_date: int | None = None
    inline_message_id: str | None = None
    service: dict[str, Any] | None = None
    media_group_id: str | None = None  # the album it was sent in (sendMediaGroup)

    def content(self) -> tuple[Any, ...]:
        """What 'message is not modified' compares."""
        media = self.media.file_id if self.media else None
        return (self.text, self.entities, self.caption, self.caption_entities, media)


@dataclass
class Chat:
    ref: int  # stable handle for the page and the tests (a migrated group keeps it)
    id: int  # the id the bot uses now
    # "private" (with the bot), "dialog" (two people), "group", "supergroup", "channel" (a
    # private one with the bot as its only member: nobody's chat list shows it)
    type: str
    title: str
    members: list[int] = field(default_factory=list)
    creator: int | None = None
    admins: list[int] = field(default_factory=list)  # promoted members (not the creator)
    anonymous: list[int] = field(default_factory=list)  # admins who post as the group
    bot_member: bool = False
    privacy: bool = True
    messages: dict[int, Message] = field(default_factory=dict)
    next_message_id: int = 1
    instance: str = field(default_factory=lambda: str(secrets.randbits(62)))

    @property
    def is_group(self) -> bool:
        return self.type in ("group", "supergroup")


@dataclass
class CallbackQuery:
    id: str
    user: int
    chat_ref: int
    message_id: int
    inline_message_id: str | None
    created: float
    answered: bool = False


@dataclass
class InlineQuery:
    id: str
    user: int
    chat_ref: int
    query: str
    created: float
    answered: bool = False
    results: list[dict[str, Any]] = field(default_factory=list)
    next_offset: str = ""


class World:
    def __init__(
        self,
        *,
        token: str | None = None,
        bot_username: str = "tetrad_play_bot",
        bot_name: str = "Tetrad",
        limits: Limits | None = None,
    ) -> None:
        self.token = token or f"{BOT_ID}:{secrets.token_urlsafe(30)}"
        self.bot_id = int(self.token.split(":", 1)[0])
        self.bot_username = bot_username
        self.bot_name = bot_name
        self.limits = limits or Limits()
        self.flood = FloodControl(self.limits)
        self.faults = Faults()  # injected Bot API failures (see faults.py)
        self.files = FileStore()
        self.users: dict[int, User] = {}
        self.chats: dict[int, Chat] = {}  # by ref
        self._chat_ids: dict[int, int] = {}  # current bot-facing id -> ref
        self.migrated: dict[int, int] = {}  # old group id -> supergroup id
        self.inline_messages: dict[str, tuple[int, int]] = {}
        self.callback_queries: dict[str, CallbackQuery] = {}
        self.inline_queries: dict[str, InlineQuery] = {}
        self.commands: dict[tuple[str, str], list[dict[str, str]]] = {}
        self.webhook: dict[str, Any] | None = None
        self.webhook_error: tuple[int, str] | None = None
        self.allowed_updates: tuple[str, ...] = DEFAULT_UPDATES
        self.updates: deque[dict[str, Any]] = deque()
        self._next_update_id = 1
        self.events: deque[dict[str, Any]] = deque(maxlen=EVENT_LOG_SIZE)
        self._seq = 0
        self._tick = asyncio.Event()
        self._ids = itertools.count(1)
        self.bot_inflight = 0
        # A bot running in this process may say how much work it has under way (updates it
        # took and is still handling): the time between two of its requests (a picture
        # being drawn) is then seen as busy, not quiet.
        self.bot_work: Callable[[], int] | None = None
        self.bot_last_activity = time.monotonic()
        self.bot_seen = False  # the bot has polled or set a webhook at least once
        self.bot_backoff_until = 0.0  # a bot told to retry after N s is still busy until then
        self.mini_app: MiniApp | None = None  # what BotFather's /newapp would set (/pg/miniapp)
        self.menu_buttons: dict[int | None, dict[str, Any]] = {}  # chat id (None: default)
        self.launches: dict[str, Launch] = {}  # Mini App sessions by id

    # ------------------------------------------------------------------ events and waiting
    def emit(self, kind: str, **data: Any) -> None:
        self._seq += 1
        self.events.append({"seq": self._seq, "type": kind, **data})
        self._wake()

    def _wake(self) -> None:
        self._tick.set()
        self._tick = asyncio.Event()

    @property
    def seq(self) -> int:
        return self._seq

    async def changed(self, timeout: float) -> None:
        """Wait until the next event or update (or the timeout)."""
        tick = self._tick
        # asyncio.timeout, not wait_for: on 3.11 wait_for swallows a cancellation that comes
        # while the event is already set, and the webhook deliverer then never stopped.
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                await tick.wait()

    def events_after(self, seq: int) -> list[dict[str, Any]]:
        return [e for e in self.events if e["seq"] > seq]

    def bot_busy(self) -> bool:
        """True while the bot has updates to fetch, requests running or (as it tells us, see
        ``bot_work``) work under way."""
        pending = bool(self.updates) and self.bot_seen
        backing_off = time.monotonic() < self.bot_backoff_until
        working = self.bot_work is not None and self.bot_work() > 0
        return pending or self.bot_inflight > 0 or backing_off or working

    # ------------------------------------------------------------------ the bot
    def bot_api_user(self) -> dict[str, Any]:
        return {
            "id": self.bot_id,
            "is_bot": True,
            "first_name": self.bot_name,
            "username": self.bot_username,
        }

    def get_me(self) -> dict[str, Any]:
        return self.bot_api_user() | {
            "can_join_groups": True,
            "can_read_all_group_messages": False,
            "supports_inline_queries": True,
            "can_connect_to_business": False,
            "has_main_web_app": False,
        }

    def push_update(self, kind: str, payload: dict[str, Any]) -> None:
        if kind not in self.allowed_updates:
            return
        update = {"update_id": self._next_update_id, kind: payload}
        self._next_update_id += 1
        self.updates.append(update)
        self._wake()

    def take_updates(self, offset: int | None, limit: int) -> list[dict[str, Any]]:
        """getUpdates: forget updates below ``offset``, return the next ``limit``."""
        if offset is not None:
            if offset < 0:  # -N: the last N updates only
                while len(self.updates) > -offset:
                    self.updates.popleft()
            else:
                while self.updates and self.updates[0]["update_id"] < offset:
                    self.updates.popleft()
        return list(itertools.islice(self.updates, limit))

    def confirm_update(self, update_id: int) -> None:
        """A webhook delivery succeeded (deliveries run concurrently, so in any order)."""
        for i, update in enumerate(self.updates):
            if update["update_id"] == update_id:
                del self.updates[i]
                break
        self._wake()

    def set_allowed_updates(self, allowed: list[str] | None) -> None:
        if allowed is not None:
            self.allowed_updates = tuple(allowed) if allowed else DEFAULT_UPDATES

    def drop_pending(self) -> None:
        self.updates.clear()
        self._wake()

    # ------------------------------------------------------------------ people and chats
    def add_user(self, name: str, lang: str = "en", first_name: str | None = None) -> User:
        for u in self.users.values():
            if u.username == name:
                return u
        uid = FIRST_USER_ID + len(self.users)
        user = User(uid, first_name or name.capitalize(), name, lang)
        self.users[uid] = user
        chat = Chat(uid, uid, "private", user.first_name, members=[uid])
        self._add_chat(chat)
        self.emit("user", user=self.user_view(user))
        return user

    def user(self, ref: int | str) -> User:
        if isinstance(ref, str) and not ref.lstrip("-").isdigit():
            for u in self.users.values():
                if u.username == ref:
                    return u
            raise PlaygroundError(f"no user {ref!r}")
        user = self.users.get(int(ref))
        if user is None:
            raise PlaygroundError(f"no user {ref!r}")
        return user

    def chat(self, ref: int | str) -> Chat:
        chat = self.chats.get(int(ref))
        if chat is None:
            raise PlaygroundError(f"no chat {ref!r}")
        return chat

    def _add_chat(self, chat: Chat) -> Chat:
        self.chats[chat.ref] = chat
        self._chat_ids[chat.id] = chat.ref
        return chat

    def dialog(self, a: User, b: User) -> Chat:
        """The private chat between two people (the bot never sees it)."""
        for chat in self.chats.values():
            if chat.type == "dialog" and set(chat.members) == {a.id, b.id}:
                return chat
        ref = FIRST_DIALOG_ID + len(self.chats)
        chat = self._add_chat(Chat(ref, ref, "dialog", "", members=[a.id, b.id]))
        self.emit("chat", chat=self.chat_view(chat))
        return chat

    def create_group(
        self,
        title: str,
        creator: User,
        members: list[User],
        *,
        with_bot: bool,
        privacy: bool = True,
    ) -> Chat:
        ids = [creator.id] + [m.id for m in members if m.id != creator.id]
        gid = FIRST_GROUP_ID - sum(1 for c in self.chats.values() if c.is_group)
        chat = self._add_chat(Chat(gid, gid, "group", title, ids, creator.id, privacy=privacy))
        self._service(chat, creator.id, {"group_chat_created": True}, to_bot=False)
        self.emit("chat", chat=self.chat_view(chat))
        if with_bot:
            self.add_bot_to_group(chat, creator)
        return chat

    def create_channel(self, title: str) -> Chat:
        """A private channel with the bot as its administrator and no one else, as the
        storage chat for inline-message pictures should be: the bot posts there, nobody's
        chat list shows it (a group for it would sit in its creator's list)."""
        n = sum(1 for c in self.chats.values() if c.type == "channel")
        cid = FIRST_CHANNEL_ID - n
        chat = self._add_chat(Chat(cid, cid, "channel", title, bot_member=True))
        self.emit("chat", chat=self.chat_view(chat))
        return chat

    def add_member(self, chat: Chat, user: User, by: User) -> None:
        if user.id in chat.members:
            return
        chat.members.append(user.id)
        self._service(chat, by.id, {"new_chat_members": [user.to_api()]})
        self.emit("chat", chat=self.chat_view(chat))

    def remove_member(self, chat: Chat, user: User, by: User) -> None:
        if user.id not in chat.members:
            return
        chat.members.remove(user.id)
        self._service(chat, by.id, {"left_chat_member": user.to_api()})
        self.emit("chat", chat=self.chat_view(chat))

    def add_bot_to_group(self, chat: Chat, by: User) -> None:
        if chat.bot_member:
            return
        chat.bot_member = True
        self._my_chat_member(chat, by, "left", "member")
        self._service(chat, by.id, {"new_chat_members": [self.bot_api_user()]})
        self.emit("chat", chat=self.chat_view(chat))

    def remove_bot_from_group(self, chat: Chat, by: User) -> None:
        if not chat.bot_member:
            return
        self._service(chat, by.id, {"left_chat_member": self.bot_api_user()})
        chat.bot_member = False
        self._my_chat_member(chat, by, "member", "left")
        self.emit("chat", chat=self.chat_view(chat))

    def set_admin(self, chat: Chat, user: User, on: bool, anonymous: bool = False) -> None:
        """Promote a member to administrator (or demote them), as a group's owner does; an
        anonymous one's messages come from GroupAnonymousBot, signed by the group."""
        if not chat.is_group or user.id not in chat.members:
            raise PlaygroundError("only a member of a group can be an administrator")
        if on and user.id not in chat.admins:
            chat.admins.append(user.id)
        elif not on and user.id in chat.admins:
            chat.admins.remove(user.id)
        if on and anonymous and user.id not in chat.anonymous:
            chat.anonymous.append(user.id)
        elif (not on or not anonymous) and user.id in chat.anonymous:
            chat.anonymous.remove(user.id)
        self.emit("chat", chat=self.chat_view(chat))

    def member_status(self, chat: Chat, user_id: int) -> str:
        """What getChatMember says of a user: creator, administrator, member or left (the
        creator who left a group is no administrator of it any more)."""
        if user_id not in chat.members:
            return "left"
        if user_id == chat.creator or chat.type == "private":
            return "creator"
        return "administrator" if user_id in chat.admins else "member"

    def set_privacy(self, chat: Chat, on: bool) -> None:
        chat.privacy = on
        self.emit("chat", chat=self.chat_view(chat))

    def migrate(self, chat: Chat, by: User) -> int:
        """Upgrade a group to a supergroup: the bot must switch to the new id."""
        if chat.type != "group":
            raise PlaygroundError("only a basic group can be upgraded")
        old = chat.id
        new = FIRST_SUPERGROUP_ID - len(self.migrated)
        self._service(chat, by.id, {"migrate_to_chat_id": new})
        del self._chat_ids[old]
        chat.id, chat.type = new, "supergroup"
        self._chat_ids[new] = chat.ref
        self.migrated[old] = new
        self._service(chat, by.id, {"migrate_from_chat_id": old})
        self.emit("chat", chat=self.chat_view(chat))
        return new

    def set_blocked(self, user: User, blocked: bool) -> None:
        if user.blocked == blocked:
            return
        user.blocked = blocked
        chat = self.chats[user.id]
        old, new = ("member", "kicked") if blocked else ("kicked", "member")
        self._my_chat_member(chat, user, old, new)
        self.emit("chat", chat=self.chat_view(chat))

    def _my_chat_member(self, chat: Chat, by: User, old: str, new: str) -> None:
        def member(status: str) -> dict[str, Any]:
            out: dict[str, Any] = {"status": status, "user": self.bot_api_user()}
            if status == "kicked":
                out["until_date"] = 0
            return out

        self.push_update(
            "my_chat_member",
            {
                "chat": self.chat_api(chat),
                "from": by.to_api(),
                "date": int(time.time()),
                "old_chat_member": member(old),
                "new_chat_member": member(new),
            },
        )

    # ------------------------------------------------------------------ what people do
    def _new_message(self, chat: Chat, sender: int, **fields: Any) -> Message:
        msg = Message(chat.ref, chat.next_message_id, sender, int(time.time()), **fields)
        chat.next_message_id += 1
        chat.messages[msg.message_id] = msg
        return msg

    def _service(
        self, chat: Chat, sender: int, service: dict[str, Any], to_bot: bool = True
    ) -> None:
        msg = self._new_message(chat, sender, service=service)
        self.emit("message", chat=chat.ref, message=self.message_view(msg))
        if to_bot and chat.bot_member:
            self.push_update("message", self.message_api(msg))

    def _check_can_write(self, user: User, chat: Chat) -> None:
        if user.id not in chat.members:
            raise PlaygroundError(f"{user.username} is not in {chat.title or chat.ref}")
        if chat.type == "private" and user.blocked:
            raise PlaygroundError("unblock the bot first")

    def user_send(self, user: User, chat: Chat, text: str, reply_to: int | None = None) -> Message:
        self._check_can_write(user, chat)
        if not text.strip():
            raise PlaygroundError("empty message")
        if reply_to is not None and reply_to not in chat.messages:
            raise PlaygroundError(f"no message {reply_to} in this chat")
        if chat.type == "private":
            user.started = True
        msg = self._new_message(
            chat, user.id, text=text, entities=auto_entities(text, []), reply_to=reply_to
        )
        self.emit("message", chat=chat.ref, message=self.message_view(msg))
        if self._bot_sees(chat, msg):
            self.push_update("message", self.message_api(msg))
        return msg

    def _bot_sees(self, chat: Chat, msg: Message) -> bool:
        if chat.type == "private":
            return True
        if not chat.is_group or not chat.bot_member:
            return False
        if not chat.privacy or msg.via_bot or msg.service:
            return True
        if msg.reply_to is not None:
            target = chat.messages.get(msg.reply_to)
            if target is not None and target.sender == self.bot_id:
                return True
        text = msg.text or ""
        if text.startswith("/"):
            word = text.split(maxsplit=1)[0]
            _, _, to = word.partition("@")
            return not to or to.lower() == self.bot_username.lower()
        return False

    def _button(
        self, user: User, chat: Chat, message_id: int, row: int, col: int
    ) -> dict[str, Any]:
        if user.id not in chat.members:
            raise PlaygroundError(f"{user.username} is not in this chat")
        msg = chat.messages.get(message_id)
        if msg is None:
            raise PlaygroundError(f"no message {message_id}")
        rows = (msg.reply_markup or {}).get("inline_keyboard") or []
        try:
            button: dict[str, Any] = rows[row][col]
        except IndexError:
            raise PlaygroundError(f"no button at row {row}, column {col}") from None
        return button

    def press(
        self,
        user: User,
        chat: Chat,
        message_id: int,
        row: int,
        col: int,
        forged: str | None = None,
    ) -> tuple[CallbackQuery | None, dict[str, Any]]:
        """Press an inline button; a callback button makes a callback query for the bot.

        ``forged`` replaces the button's data, as a modified client could: the bot must
        refuse such data without changing anything."""
        button = self._button(user, chat, message_id, row, col)
        msg = chat.messages[message_id]
        if "callback_data" not in button:
            return None, button  # url / web_app / switch_inline_query: the client's business
        query = CallbackQuery(
            str(secrets.randbits(63)),
            user.id,
            chat.ref,
            message_id,
            msg.inline_message_id,
            time.monotonic(),
        )
        self.callback_queries[query.id] = query
        payload: dict[str, Any] = {
            "id": query.id,
            "from": user.to_api(),
            "chat_instance": chat.instance,
            "data": button["callback_data"] if forged is None else forged,
        }
        if msg.inline_message_id:
            payload["inline_message_id"] = msg.inline_message_id
        else:
            payload["message"] = self.message_api(msg)
        self.push_update("callback_query", payload)
        self.emit("press", user=user.id, chat=chat.ref, message_id=message_id, query=query.id)
        return query, button

    def bot_link(self, url: str) -> tuple[str | None, dict[str, str]]:
        """A t.me link to this bot: the Mini App short name in its path (if any) and its
        query (``start``, ``startgroup``, ``startapp``…)."""
        parts = urlsplit(url if "://" in url else "https://" + url)
        name, _, app = parts.path.strip("/").partition("/")
        if (
            parts.hostname not in ("t.me", "telegram.me")
            or name.lower() != self.bot_username.lower()
            or "/" in app
        ):
            raise PlaygroundError(f"not a link to @{self.bot_username}: {url}")
        query = {k: v[0] for k, v in parse_qs(parts.query, keep_blank_values=True).items()}
        return app or None, query

    def is_mini_app_link(self, url: str) -> bool:
        try:
            app, query = self.bot_link(url)
        except PlaygroundError:
            return False
        return app is not None or "startapp" in query

    def open_link(self, user: User, url: str, group: Chat | None = None) -> Message:
        """t.me/<bot>?start=… in the private chat; ?startgroup=… adds the bot to ``group``."""
        if self.is_mini_app_link(url):
            raise PlaygroundError("a Mini App link opens a Mini App: /pg/miniapp/launch")
        _, query = self.bot_link(url)
        if "startgroup" in query:
            if group is None:
                raise PlaygroundError("choose a group for a startgroup link")
            self.add_bot_to_group(group, user)
            payload = query["startgroup"]
            text = f"/start@{self.bot_username}" + (f" {payload}" if payload else "")
            return self.user_send(user, group, text)
        if user.blocked:
            self.set_blocked(user, False)
        payload = query.get("start", "")
        return self.user_send(
            user, self.chats[user.id], "/start" + (f" {payload}" if payload else "")
        )

    # ------------------------------------------------------------------ Mini Apps
    def set_mini_app(self, url: str, short_name: str, title: str = "") -> MiniApp:
        """What BotFather's /newapp records: the URL direct links open, the short name."""
        try:
            self.mini_app = make_mini_app(url, short_name, title or self.bot_name)
        except MiniAppError as e:
            raise PlaygroundError(str(e)) from None
        self.emit("mini_app", app=self.mini_app.to_json())
        return self.mini_app

    def web_app_init_data(
        self,
        user: User | int | str,
        *,
        start_param: str | None = None,
        chat: Chat | int | None = None,
        auth_date: int | None = None,
        query_id: str | None = None,
        token: str | None = None,
    ) -> str:
        """The initData Telegram would give ``user``'s Mini App, signed with the bot token
        (``token``: sign with another one instead, a forgery). Without ``chat`` it is a
        launch from a ``web_app`` button or the menu button (``query_id``, ``user``,
        ``auth_date``); with ``chat`` (the chat a direct link was opened in) it carries
        ``chat_instance``, ``chat_type`` and ``start_param`` instead, as Telegram documents.
        ``auth_date`` defaults to now: pass an old one for an expired launch."""
        person = user if isinstance(user, User) else self.user(user)
        fields: dict[str, str] = {}
        if chat is None:
            fields["query_id"] = query_id or new_query_id()
        elif query_id is not None:
            fields["query_id"] = query_id
        fields["user"] = user_json(self.web_app_user(person))
        if chat is not None:
            where = chat if isinstance(chat, Chat) else self.chat(chat)
            fields["chat_instance"] = where.instance
            fields["chat_type"] = {"private": "sender", "dialog": "private"}.get(
                where.type, where.type
            )
        if start_param:
            fields["start_param"] = start_param
        fields["auth_date"] = str(int(time.time()) if auth_date is None else auth_date)
        return sign_init_data(token or self.token, fields)

    def web_app_user(self, user: User) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": user.id,
            "first_name": user.first_name,
            "username": user.username,
            "language_code": user.language_code,
        }
        if user.started and not user.blocked:
            out["allows_write_to_pm"] = True
        return out

    def _launch(
        self,
        user: User,
        chat: Chat,
        kind: str,
        app_url: str,
        theme: str,
        *,
        start_param: str | None = None,
        link_chat: Chat | None = None,
        title: str = "",
    ) -> Launch:
        if theme not in ("light", "dark"):
            raise PlaygroundError('theme is "light" or "dark"')
        init = self.web_app_init_data(user, start_param=start_param, chat=link_chat)
        launch = Launch(
            new_session(),
            user.id,
            chat.ref,
            kind,
            app_url,
            init,
            start_param,
            title or self.bot_name,
            theme,
        )
        self.launches[launch.session] = launch
        self.emit(
            "miniapp",
            session=launch.session,
            user=user.id,
            chat=chat.ref,
            event="open",
            data={"kind": kind, "url": app_url, "start_param": start_param},
        )
        return launch

    def launch_button(
        self, user: User, chat: Chat, message_id: int, row: int, col: int, theme: str = "light"
    ) -> Launch:
        """Press a ``web_app`` button: its Mini App opens (the bot gets no update)."""
        button = self._button(user, chat, message_id, row, col)
        app = button.get("web_app")
        if not isinstance(app, dict) or not isinstance(app.get("url"), str):
            raise PlaygroundError("that button does not open a Mini App")
        return self._launch(user, chat, "button", app["url"], theme)

    def launch_link(self, user: User, url: str, chat: Chat, theme: str = "light") -> Launch:
        """Follow ``t.me/<bot>/<short_name>?startapp=…`` (or ``t.me/<bot>?startapp=…``, the
        bot's main Mini App) in ``chat``."""
        if user.id not in chat.members:
            raise PlaygroundError(f"{user.username} is not in this chat")
        app_name, query = self.bot_link(url)
        app = self.mini_app
        if app is None:
            raise PlaygroundError(f"@{self.bot_username} has no Mini App (POST /pg/miniapp)")
        if app_name is not None and app_name.lower() != app.short_name.lower():
            raise PlaygroundError(f"@{self.bot_username} has no Mini App {app_name!r}")
        try:
            start = check_start_param(query.get("startapp", ""))
        except MiniAppError as e:
            raise PlaygroundError(str(e)) from None
        return self._launch(
            user,
            chat,
            "link",
            app.url,
            theme,
            start_param=start or None,
            link_chat=chat,
            title=app.title,
        )

    def launch_menu(self, user: User, theme: str = "light") -> Launch:
        """Tap the menu button of the private chat when the bot made it a Mini App."""
        chat = self.chats[user.id]
        menu = self.menu_button_for(chat)
        if menu.get("type") != "web_app":
            raise PlaygroundError("the menu button of this chat does not open a Mini App")
        return self._launch(user, chat, "menu", menu["web_app"]["url"], theme, title=menu["text"])

    def menu_button_for(self, chat: Chat) -> dict[str, Any]:
        return self.menu_buttons.get(chat.id) or self.menu_buttons.get(None) or {"type": "commands"}

    def mini_app_event(self, session: str, event: str, data: Any = None) -> Launch:
        """Record what passed between a Mini App and its panel (``web_app_*`` methods it
        called, ``*_pressed`` and ``theme_changed`` events it got) as a World event."""
        launch = self.launches.get(session)
        if launch is None:
            raise PlaygroundError(f"no Mini App session {session!r}")
        if not isinstance(event, str) or not event:
            raise PlaygroundError("name the event")
        if event == "web_app_setup_main_button" and isinstance(data, dict):
            launch.main_button = dict(data)
        if event in ("web_app_close", "close"):
            launch.closed = True
        self.emit(
            "miniapp", session=session, user=launch.user, chat=launch.chat, event=event, data=data
        )
        return launch

    def inline_query(self, user: User, chat: Chat, query: str, offset: str = "") -> InlineQuery:
        if user.id not in chat.members:
            raise PlaygroundError(f"{user.username} is not in this chat")
        iq = InlineQuery(str(secrets.randbits(63)), user.id, chat.ref, query, time.monotonic())
        self.inline_queries[iq.id] = iq
        chat_type = {"private": "sender", "dialog": "private"}.get(chat.type, chat.type)
        self.push_update(
            "inline_query",
            {
                "id": iq.id,
                "from": user.to_api(),
                "query": query,
                "offset": offset,
                "chat_type": chat_type,
            },
        )
        return iq

    def choose_inline(self, user: User, query_id: str, result_id: str) -> Message:
        """Post the chosen result into the chat as a message 'via @bot'."""
        iq = self.inline_queries.get(query_id)
        if iq is None or iq.user != user.id or not iq.answered:
            raise PlaygroundError("that inline query has no results")
        result = next((r for r in iq.results if str(r.get("id")) == result_id), None)
        if result is None:
            raise PlaygroundError(f"no inline result {result_id!r}")
        chat = self.chats[iq.chat_ref]
        fields = self._inline_result_content(result)
        msg = self._new_message(chat, user.id, via_bot=True, **fields)
        if msg.reply_markup is not None:
            msg.inline_message_id = secrets.token_urlsafe(18)
            self.inline_messages[msg.inline_message_id] = (chat.ref, msg.message_id)
        self.emit("message", chat=chat.ref, message=self.message_view(msg))
        chosen: dict[str, Any] = {"result_id": result_id, "from": user.to_api(), "query": iq.query}
        if msg.inline_message_id:
            chosen["inline_message_id"] = msg.inline_message_id
        self.push_update("chosen_inline_result", chosen)
        if chat.type != "private" and self._bot_sees(chat, msg):
            self.push_update("message", self.message_api(msg))
        return msg

    def _inline_result_content(self, result: dict[str, Any]) -> dict[str, Any]:
        fields: dict[str, Any] = {"reply_markup": result.get("reply_markup")}
        content = result.get("input_message_content")
        kind = result.get("type")
        if content is not None:
            fields["text"] = content.get("message_text", "")
            fields["entities"] = content.get("_entities", [])
        elif kind in ("photo", "gif", "mpeg4_gif", "document"):
            file_id = (
                result.get("photo_file_id")
                or result.get("gif_file_id")
                or result.get("mpeg4_file_id")
                or result.get("document_file_id")
            )
            stored = result.get("_stored")
            fields["media"] = stored if stored is not None else self.files.get(file_id)
            fields["media_kind"] = {"gif": "animation", "mpeg4_gif": "animation"}.get(kind, kind)
            fields["caption"] = result.get("caption")
            fields["caption_entities"] = result.get("_caption_entities", [])
        else:
            fields["text"] = result.get("title", "")
        return fields

    # ------------------------------------------------------------------ what the bot does
    def resolve_chat(self, chat_id: Any) -> Chat:
        """The chat the bot names, with Telegram's errors for every way it can be wrong."""
        try:
            cid = int(chat_id)
        except (TypeError, ValueError):
            raise bad_request("chat not found") from None
        if cid in self.migrated:
            raise bad_request(
                "group chat was upgraded to a supergroup chat",
                migrate_to_chat_id=self.migrated[cid],
            )
        ref = self._chat_ids.get(cid)
        chat = self.chats.get(ref) if ref is not None else None
        if chat is None or chat.type == "dialog":
            raise bad_request("chat not found")
        if chat.type == "private":
            user = self.users[chat.ref]
            if user.blocked:
                raise forbidden("bot was blocked by the user")
            if not user.started:
                raise forbidden("bot can't initiate conversation with a user")
        elif not chat.bot_member:
            kind = chat.type if chat.type in ("supergroup", "channel") else "group"
            raise forbidden(f"bot is not a member of the {kind} chat")
        return chat

    def bot_message(self, chat: Chat, message_id: Any, *, what: str = "edit") -> Message:
        try:
            msg = chat.messages.get(int(message_id))
        except (TypeError, ValueError):
            msg = None
        if msg is None:
            raise bad_request(f"message to {what} not found")
        return msg

    def inline_message(self, inline_message_id: str) -> Message:
        where = self.inline_messages.get(inline_message_id)
        if where is None:
            raise bad_request("MESSAGE_ID_INVALID")
        return self.chats[where[0]].messages[where[1]]

    def count_flood(self, chat: Chat) -> None:
        self.flood.hit(chat.id, chat.type == "private")

    def bot_send(self, chat: Chat, **fields: Any) -> Message:
        reply_to = fields.get("reply_to")
        if reply_to is not None and reply_to not in chat.messages:
            if not fields.pop("allow_without_reply", False):
                raise bad_request("message to be replied not found")
            fields["reply_to"] = None
        fields.pop("allow_without_reply", None)
        self.count_flood(chat)
        msg = self._new_message(chat, self.bot_id, **fields)
        self.emit("message", chat=chat.ref, message=self.message_view(msg))
        return msg

    def bot_send_album(
        self, chat: Chat, items: list[dict[str, Any]], **fields: Any
    ) -> list[Message]:
        """An album (sendMediaGroup): its messages in a row, sharing one ``media_group_id``,
        all or none. The flood limits count it once, as the one call it is (an album of ten
        in a private chat goes through, as in Telegram)."""
        reply_to = fields.get("reply_to")
        if reply_to is not None and reply_to not in chat.messages:
            if not fields.get("allow_without_reply"):
                raise bad_request("message to be replied not found")
            reply_to = None
        self.count_flood(chat)
        group = str(secrets.randbits(60))
        sent = []
        for item in items:
            msg = self._new_message(
                chat, self.bot_id, reply_to=reply_to, media_group_id=group, **item
            )
            self.emit("message", chat=chat.ref, message=self.message_view(msg))
            sent.append(msg)
        return sent

    def bot_edit(self, msg: Message, changes: dict[str, Any], *, inline: bool = False) -> Message:
        """Apply an edit; raise 'message is not modified' when nothing would change.

        The bot edits its own messages by chat and id, and messages sent via it (by a
        person, from inline mode) only by inline_message_id."""
        if not (msg.sender == self.bot_id or (inline and msg.via_bot)):
            raise bad_request("message can't be edited")
        before = (msg.content(), msg.reply_markup)
        after_fields = {**{k: getattr(msg, k) for k in changes}, **changes}
        probe = Message(**{**msg.__dict__, **after_fields})
        if (probe.content(), probe.reply_markup) == before:
            raise bad_request(NOT_MODIFIED)
        chat = self.chats[msg.chat_ref]
        self.count_flood(chat)
        for key, value in changes.items():
            setattr(msg, key, value)
        msg.edit_date = int(time.time())
        self.emit("edit", chat=chat.ref, message=self.message_view(msg))
        return msg

    def bot_delete(self, chat: Chat, message_id: Any) -> None:
        msg = self.bot_message(chat, message_id, what="delete")
        if msg.sender != self.bot_id and chat.type != "private":
            raise bad_request("message can't be deleted")
        del chat.messages[msg.message_id]
        if msg.inline_message_id:
            self.inline_messages.pop(msg.inline_message_id, None)
        self.emit("delete", chat=chat.ref, message_id=msg.message_id)

    def answer_callback(
        self, query_id: str, text: str | None, show_alert: bool, url: str | None
    ) -> None:
        query = self.callback_queries.get(query_id)
        too_old = query is None or query.answered
        if query is not None and time.monotonic() - query.created > self.limits.callback_query_ttl:
            too_old = True
        if too_old or query is None:
            raise bad_request(QUERY_TOO_OLD)
        query.answered = True
        self.emit(
            "popup",
            user=query.user,
            chat=query.chat_ref,
            query=query_id,
            text=text or "",
            show_alert=show_alert,
            url=url,
        )

    def answer_inline(self, query_id: str, results: list[dict[str, Any]], next_offset: str) -> None:
        iq = self.inline_queries.get(query_id)
        if (
            iq is None
            or iq.answered
            or time.monotonic() - iq.created > self.limits.inline_query_ttl
        ):
            raise bad_request(QUERY_TOO_OLD)
        iq.answered, iq.results, iq.next_offset = True, results, next_offset
        self.emit(
            "inline_results",
            user=iq.user,
            chat=iq.chat_ref,
            query=query_id,
            results=[self.inline_result_view(r) for r in results],
            next_offset=next_offset,
        )

    def chat_action(self, chat: Chat, action: str) -> None:
        self.emit("action", chat=chat.ref, action=action)

    # ------------------------------------------------------------------ commands
    def scope_key(self, scope: dict[str, Any] | None) -> str:
        scope = dict(scope or {"type": "default"})
        if "chat_id" in scope:
            scope["chat_id"] = self.resolve_chat(scope["chat_id"]).id
        return json.dumps(scope, sort_keys=True)

    def commands_for(self, user: User, chat: Chat) -> list[dict[str, str]]:
        """The command menu the person sees (Telegram's scope and language fallback)."""
        scopes: list[dict[str, Any]] = []
        if chat.is_group:
            scopes.append({"type": "chat_member", "chat_id": chat.id, "user_id": user.id})
            scopes.append({"type": "chat", "chat_id": chat.id})
            scopes.append({"type": "all_group_chats"})
        elif chat.type == "private":
            scopes.append({"type": "chat", "chat_id": chat.id})
            scopes.append({"type": "all_private_chats"})
        scopes.append({"type": "default"})
        for scope in scopes:
            key = json.dumps(scope, sort_keys=True)
            for lang in (user.language_code, ""):
                found = self.commands.get((key, lang))
                if found:
                    return found
        return []

    # ------------------------------------------------------------------ Bot API shapes
    def chat_api(self, chat: Chat) -> dict[str, Any]:
        if chat.type == "private":
            user = self.users[chat.ref]
            return {
                "id": chat.id,
                "type": "private",
                "first_name": user.first_name,
                "username": user.username,
            }
        return {"id": chat.id, "type": chat.type, "title": chat.title}

    def _sender_fields(self, chat: Chat, msg: Message) -> dict[str, Any]:
        """Who a message shows as sent by: a channel and an anonymous admin sign as the chat."""
        if chat.type == "channel":  # a channel post is signed by the channel, from nobody
            return {"sender_chat": self.chat_api(chat)}
        if msg.sender in chat.anonymous and msg.sender in chat.admins:
            return {"from": dict(ANONYMOUS_ADMIN), "sender_chat": self.chat_api(chat)}
        if msg.sender == self.bot_id:
            return {"from": self.bot_api_user()}
        return {"from": self.users[msg.sender].to_api()}

    def message_api(self, msg: Message, nested: bool = True) -> dict[str, Any]:
        chat = self.chats[msg.chat_ref]
        out: dict[str, Any] = {
            "message_id": msg.message_id,
            **self._sender_fields(chat, msg),
            "chat": self.chat_api(chat),
            "date": msg.date,
        }
        if msg.edit_date:
            out["edit_date"] = msg.edit_date
        if msg.text is not None:
            out["text"] = msg.text
            if msg.entities:
                out["entities"] = msg.entities
        if msg.media is not None and msg.media_kind:
            out[msg.media_kind] = msg.media.to_api()
            if msg.media_kind == "animation":  # Telegram sends an animation as a document too
                out["document"] = msg.media.to_api()
        if msg.caption:
            out["caption"] = msg.caption
            if msg.caption_entities:
                out["caption_entities"] = msg.caption_entities
        if msg.reply_markup and "inline_keyboard" in msg.reply_markup:
            out["reply_markup"] = msg.reply_markup
        if msg.via_bot:
            out["via_bot"] = self.bot_api_user()
        if msg.media_group_id is not None:
            out["media_group_id"] = msg.media_group_id
        if msg.reply_to is not None and nested:
            target = chat.messages.get(msg.reply_to)
            if target is not None:
                out["reply_to_message"] = self.message_api(target, nested=False)
        if msg.service:
            out.update(msg.service)
        return out

    # ------------------------------------------------------------------ views for the page
    def user_view(self, user: User) -> dict[str, Any]:
        return {
            "id": user.id,
            "username": user.username,
            "first_name": user.first_name,
            "lang": user.language_code,
            "blocked": user.blocked,
            "started": user.started,
        }

    def chat_view(self, chat: Chat) -> dict[str, Any]:
        return {
            "ref": chat.ref,
            "id": chat.id,
            "type": chat.type,
            "title": chat.title,
            "members": list(chat.members),
            "bot_member": chat.bot_member or chat.type == "private",
            "privacy": chat.privacy,
            "admins": [m for m in chat.members if self.member_status(chat, m) != "member"],
            "blocked": self.users[chat.ref].blocked if chat.type == "private" else False,
            "menu_button": self.menu_button_for(chat) if chat.type == "private" else None,
        }

    def chat_title_for(self, chat: Chat, user: User) -> str:
        if chat.type == "private":
            return self.bot_name
        if chat.type == "dialog":
            other = next(m for m in chat.members if m != user.id)
            return self.users[other].first_name
        return chat.title

    def message_view(self, msg: Message) -> dict[str, Any]:
        if msg.sender == self.bot_id:
            sender = {"id": self.bot_id, "name": self.bot_name, "is_bot": True}
        else:
            u = self.users[msg.sender]
            sender = {"id": u.id, "name": u.first_name, "username": u.username, "is_bot": False}
        view: dict[str, Any] = {
            "chat": msg.chat_ref,
            "message_id": msg.message_id,
            "from": sender,
            "date": msg.date,
            "text": msg.text,
            "entities": msg.entities,
            "caption": msg.caption,
            "caption_entities": msg.caption_entities,
            "buttons": (msg.reply_markup or {}).get("inline_keyboard") or [],
            "via_bot": self.bot_username if msg.via_bot else None,
            "reply_to": msg.reply_to,
            "reply_preview": self._reply_preview(msg),
            "edited": msg.edit_date is not None,
            "inline_message_id": msg.inline_message_id,
            "service": self._service_text(msg),
            "media": None,
            "media_group": msg.media_group_id,
        }
        if msg.media is not None:
            big = msg.media.largest
            view["media"] = {
                "kind": msg.media_kind,
                "file_id": big.file_id,
                "url": f"/pg/files/{big.file_id}",
                "width": big.width,
                "height": big.height,
                "file_name": msg.media.file_name,
            }
        return view

    def _reply_preview(self, msg: Message) -> dict[str, Any] | None:
        """The quote a client shows above a reply: who wrote the message replied to and the
        start of it (a picture's thumbnail), or that it was deleted."""
        if msg.reply_to is None:
            return None
        target = self.chats[msg.chat_ref].messages.get(msg.reply_to)
        if target is None:
            return {"message_id": msg.reply_to, "deleted": True}
        if target.sender == self.bot_id:
            name = self.bot_name
        else:
            name = self.users[target.sender].first_name
        kind = target.media_kind
        words = {"photo": "Photo", "animation": "GIF", "document": "File"}
        body = target.text or target.caption or (words.get(kind or "", "") if kind else "")
        body = " ".join(body.split())
        thumb = None
        if target.media is not None and kind in ("photo", "animation"):
            thumb = f"/pg/files/{target.media.largest.file_id}"
        return {
            "message_id": target.message_id,
            "name": name,
            "text": body[:REPLY_PREVIEW_CHARS],
            "thumb": thumb,
            "deleted": False,
        }

    def _service_text(self, msg: Message) -> str | None:
        s = msg.service
        if not s:
            return None
        who = self.users[msg.sender].first_name if msg.sender in self.users else self.bot_name

        def names(users: list[dict[str, Any]]) -> str:
            return ", ".join(u["first_name"] for u in users)

        if "new_chat_members" in s:
            return f"{who} added {names(s['new_chat_members'])}"
        if "left_chat_member" in s:
            return f"{who} removed {s['left_chat_member']['first_name']}"
        if "group_chat_created" in s:
            return f"{who} created the group"
        if "migrate_to_chat_id" in s:
            return "The group was upgraded to a supergroup"
        if "migrate_from_chat_id" in s:
            return "Supergroup created from a group"
        return json.dumps(s)

    def inline_result_view(self, result: dict[str, Any]) -> dict[str, Any]:
        kind = result.get("type", "article")
        thumb = result.get("thumbnail_url") or result.get("photo_url")
        stored = result.get("_stored")
        if stored is not None:
            thumb = f"/pg/files/{stored.largest.file_id}"
        return {
            "id": str(result.get("id")),
            "type": kind,
            "title": result.get("title") or result.get("caption") or kind,
            "description": result.get("description", ""),
            "thumbnail": thumb,
        }

    def new_id(self) -> int:
        return next(self._ids)
