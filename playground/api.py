"""The Bot API methods: Telegram's parameters in, Telegram's results and errors out.

Parameters arrive as a query string, a form (python-telegram-bot sends objects as JSON
strings in forms), JSON or multipart with uploads; ``Params`` reads them all the same way.
"""

from __future__ import annotations

import builtins
import ipaddress
import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import aiohttp

from playground.entities import parse
from playground.files import StoredFile
from playground.limits import (
    CALLBACK_ANSWER_TEXT_MAX,
    COMMANDS_MAX,
    INLINE_RESULTS_MAX,
    NOT_FOUND,
    WEBHOOK_CONFLICT,
    ApiError,
    bad_request,
    check_caption,
    check_inline_keyboard,
    check_text,
)
from playground.miniapp import MiniAppError, check_app_url
from playground.world import Chat, Message, World

CHAT_ACTIONS = {
    "typing",
    "upload_photo",
    "record_video",
    "upload_video",
    "record_voice",
    "upload_voice",
    "upload_document",
    "choose_sticker",
    "find_location",
    "record_video_note",
    "upload_video_note",
}
MEDIA_GROUP = (2, 10)  # the items an album may hold
POLL_TIMEOUT_MAX = 50.0


@dataclass
class Upload:
    data: bytes
    filename: str | None
    content_type: str | None


@dataclass
class Params:
    values: dict[str, Any]
    uploads: dict[str, Upload] = field(default_factory=dict)

    def raw(self, name: str) -> Any:
        return self.values.get(name)

    def has(self, name: str) -> bool:
        return self.values.get(name) not in (None, "")

    def require(self, name: str) -> Any:
        if not self.has(name) and name not in self.uploads:
            if name == "chat_id":
                raise bad_request("chat_id is empty")
            if name == "text":
                raise bad_request("message text is empty")
            raise bad_request(f'parameter "{name}" is required')
        return self.values.get(name)

    def str(self, name: str, default: str | None = None) -> str | None:
        value = self.values.get(name)
        return default if value is None else str(value)

    # Below here ``str``, ``int`` and ``bool`` in the class body name the methods above, so
    # the annotations spell out the builtins.
    def int(self, name: builtins.str, default: builtins.int | None = None) -> builtins.int | None:
        value = self.values.get(name)
        if value in (None, ""):
            return default
        try:
            return int(value)
        except (TypeError, ValueError):
            raise bad_request(f'field "{name}" must be of type Integer') from None

    def bool(self, name: builtins.str) -> builtins.bool:
        value = self.values.get(name)
        if isinstance(value, str):
            return value.lower() in ("true", "1")
        return bool(value)

    def json(self, name: builtins.str) -> Any:
        value = self.values.get(name)
        if isinstance(value, str):
            try:
                return json.loads(value)
            except ValueError:
                raise bad_request(f"can't parse {name} JSON object") from None
        return value


_ADMIN_RIGHTS = (
    *("can_manage_chat", "can_delete_messages", "can_manage_video_chats", "can_restrict_members"),
    *("can_promote_members", "can_change_info", "can_invite_users", "can_post_stories"),
    *("can_edit_stories", "can_delete_stories", "can_pin_messages"),
)


def _member(status: str, user: dict[str, Any], anonymous: bool = False) -> dict[str, Any]:
    """A ChatMember object with the fields the Bot API gives its status."""
    member: dict[str, Any] = {"status": status, "user": user}
    if status == "creator":
        member["is_anonymous"] = anonymous
    elif status == "administrator":
        member |= {"can_be_edited": False, "is_anonymous": anonymous}
        member |= {right: right != "can_promote_members" for right in _ADMIN_RIGHTS}
    return member


def _is_loopback(url: str) -> bool:
    host = urlsplit(url).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


Method = Callable[[Params], Awaitable[Any]]


class BotApi:
    """One instance per emulator; ``call`` runs a method by its (case-insensitive) name."""

    def __init__(self, world: World) -> None:
        self.world = world
        self._poll_generation = 0
        self._session: aiohttp.ClientSession | None = None
        self.methods: dict[str, Method] = {
            name.lower(): getattr(self, "m_" + name)
            for name in (
                *("getMe", "logOut", "close", "getUpdates", "setWebhook", "deleteWebhook"),
                *("getWebhookInfo", "sendMessage", "sendPhoto", "sendAnimation", "sendDocument"),
                *("sendMediaGroup",),
                *("editMessageText", "editMessageCaption", "editMessageMedia"),
                *("editMessageReplyMarkup", "deleteMessage", "answerCallbackQuery"),
                *("answerInlineQuery", "sendChatAction", "setMyCommands", "getMyCommands"),
                *("deleteMyCommands", "getChat", "getChatMember", "getFile", "setMyDescription"),
                *("setMyShortDescription", "setMyName", "setChatMenuButton"),
                *("getChatMenuButton", "getChatAdministrators"),
            )
        }

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()

    async def call(self, method: str, params: Params) -> Any:
        handler = self.methods.get(method.lower())
        if handler is None:
            raise NOT_FOUND
        return await handler(params)

    # ------------------------------------------------------------------ helpers
    async def _fetch(self, url: str) -> bytes:
        """Telegram downloads URLs itself; the playground only reaches this machine."""
        if not _is_loopback(url):
            raise bad_request("wrong file identifier/HTTP URL specified")
        if self._session is None:
            self._session = aiohttp.ClientSession()
        try:
            async with self._session.get(url, timeout=aiohttp.ClientTimeout(total=10)) as r:
                if r.status != 200:
                    raise bad_request("failed to get HTTP URL content")
                return await r.read()
        except (aiohttp.ClientError, TimeoutError):
            raise bad_request("failed to get HTTP URL content") from None

    async def _input_file(
        self, params: Params, value: Any, kind: str, *, allow_upload: bool = True, field: str = ""
    ) -> StoredFile:
        upload: Upload | None = None
        if field and field in params.uploads:
            upload = params.uploads[field]
        elif isinstance(value, str) and value.startswith("attach://"):
            upload = params.uploads.get(value[len("attach://") :])
            if upload is None:
                raise bad_request("can't parse InputMedia: media not found")
        if upload is not None:
            if not allow_upload:
                raise bad_request(
                    "can't use an uploaded file in an inline message: send a file_id or a URL"
                )
            return self.world.files.add(kind, upload.data, upload.filename, upload.content_type)
        if not isinstance(value, str) or not value:
            raise bad_request(f"there is no {kind} in the request")
        if "://" in value:
            data = await self._fetch(value)
            return self.world.files.add(kind, data, value.rsplit("/", 1)[-1] or None, None)
        return self.world.files.get(value)

    def _markup(self, params: Params, chat: Chat | None) -> dict[str, Any] | None:
        """The reply markup for a message in ``chat`` (None: an inline message)."""
        markup = params.json("reply_markup")
        if markup is None:
            return None
        return check_inline_keyboard(markup, web_app=chat is not None and chat.type == "private")

    def _text(self, params: Params, name: str = "text") -> tuple[str, list[dict[str, Any]]]:
        text, entities = parse(
            params.str(name) or "", params.str("parse_mode"), params.json("entities")
        )
        check_text(text)
        return text, entities

    def _caption(self, params: Params) -> tuple[str | None, list[dict[str, Any]]]:
        if not params.has("caption"):
            return None, []
        caption, entities = parse(
            params.str("caption") or "", params.str("parse_mode"), params.json("caption_entities")
        )
        check_caption(caption)
        return caption or None, entities

    def _reply_to(self, params: Params) -> tuple[int | None, bool]:
        reply = params.json("reply_parameters")
        if isinstance(reply, dict):
            message_id = reply.get("message_id", 0)
            if type(message_id) is not int:
                raise bad_request("can't parse reply parameters JSON object")
            return message_id, bool(reply.get("allow_sending_without_reply"))
        return params.int("reply_to_message_id"), params.bool("allow_sending_without_reply")

    def _target(self, params: Params) -> tuple[Message, Chat | None]:
        """The message an edit names: chat_id + message_id, or inline_message_id."""
        if params.has("inline_message_id"):
            return self.world.inline_message(params.str("inline_message_id") or ""), None
        if not params.has("chat_id"):
            raise bad_request("chat_id is empty")
        chat = self.world.resolve_chat(params.raw("chat_id"))
        if not params.has("message_id"):
            raise bad_request("message identifier is not specified")
        return self.world.bot_message(chat, params.raw("message_id")), chat

    def _edit(self, msg: Message, chat: Chat | None, changes: dict[str, Any]) -> Any:
        """Edit; an inline message (no chat) answers True, a chat message the new Message."""
        edited = self.world.bot_edit(msg, changes, inline=chat is None)
        return True if chat is None else self.world.message_api(edited)

    # ------------------------------------------------------------------ bot and updates
    async def m_getMe(self, p: Params) -> Any:
        return self.world.get_me()

    async def m_logOut(self, p: Params) -> Any:
        return True

    async def m_close(self, p: Params) -> Any:
        return True

    async def m_getUpdates(self, p: Params) -> Any:
        world = self.world
        if world.webhook is not None:
            raise ApiError(409, WEBHOOK_CONFLICT)
        world.bot_seen = True
        self._poll_generation += 1
        generation = self._poll_generation
        world.set_allowed_updates(p.json("allowed_updates"))
        offset = p.int("offset")
        limit = max(1, min(100, p.int("limit", 100) or 100))
        deadline = time.monotonic() + min(float(p.int("timeout", 0) or 0), POLL_TIMEOUT_MAX)
        while True:
            updates = world.take_updates(offset, limit)
            if updates or time.monotonic() >= deadline:
                return updates
            await world.changed(deadline - time.monotonic())
            if generation != self._poll_generation:
                raise ApiError(
                    409,
                    "Conflict: terminated by other getUpdates request; "
                    "make sure that only one bot instance is running",
                )

    async def m_setWebhook(self, p: Params) -> Any:
        url = p.str("url") or ""
        world = self.world
        if not url:
            world.webhook = None
            return True
        if not url.startswith(("https://", "http://")):
            raise bad_request("bad webhook: An HTTPS URL must be provided for webhook")
        if not _is_loopback(url):
            raise bad_request("bad webhook: the playground delivers updates to this machine only")
        secret = p.str("secret_token")
        if secret is not None and not (
            1 <= len(secret) <= 256 and all(c.isalnum() or c in "_-" for c in secret)
        ):
            raise bad_request("bad webhook: secret token contains unallowed characters")
        if p.bool("drop_pending_updates"):
            world.drop_pending()
        world.set_allowed_updates(p.json("allowed_updates"))
        world.webhook = {
            "url": url,
            "secret_token": secret,
            "max_connections": p.int("max_connections", 40),
        }
        world.webhook_error = None
        world.bot_seen = True
        world._wake()
        return True

    async def m_deleteWebhook(self, p: Params) -> Any:
        self.world.webhook = None
        if p.bool("drop_pending_updates"):
            self.world.drop_pending()
        return True

    async def m_getWebhookInfo(self, p: Params) -> Any:
        world = self.world
        info: dict[str, Any] = {
            "url": world.webhook["url"] if world.webhook else "",
            "has_custom_certificate": False,
            "pending_update_count": len(world.updates),
        }
        if world.webhook:
            info["max_connections"] = world.webhook["max_connections"]
            info["allowed_updates"] = list(world.allowed_updates)
        if world.webhook_error:
            info["last_error_date"], info["last_error_message"] = world.webhook_error
        return info

    # ------------------------------------------------------------------ sending
    async def m_sendMessage(self, p: Params) -> Any:
        chat = self.world.resolve_chat(p.require("chat_id"))
        p.require("text")
        text, entities = self._text(p)
        markup = self._markup(p, chat)
        reply_to, without = self._reply_to(p)
        msg = self.world.bot_send(
            chat,
            text=text,
            entities=entities,
            reply_markup=markup,
            reply_to=reply_to,
            allow_without_reply=without,
        )
        return self.world.message_api(msg)

    async def _send_media(self, p: Params, kind: str) -> Any:
        chat = self.world.resolve_chat(p.require("chat_id"))
        caption, entities = self._caption(p)
        markup = self._markup(p, chat)
        reply_to, without = self._reply_to(p)
        p.require(kind)
        stored = await self._input_file(p, p.raw(kind), kind, field=kind)
        msg = self.world.bot_send(
            chat,
            media=stored,
            media_kind=kind,
            caption=caption,
            caption_entities=entities,
            reply_markup=markup,
            reply_to=reply_to,
            allow_without_reply=without,
        )
        return self.world.message_api(msg)

    async def m_sendMediaGroup(self, p: Params) -> Any:
        """An album of 2–10 photos (or of documents: the two do not mix), each with its own
        caption; no keyboard. Every item is checked before any is sent, and the messages come
        back as an array sharing one ``media_group_id``."""
        chat = self.world.resolve_chat(p.require("chat_id"))
        p.require("media")
        items = p.json("media")
        if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
            raise bad_request("can't parse media JSON object")
        if not MEDIA_GROUP[0] <= len(items) <= MEDIA_GROUP[1]:
            raise bad_request("wrong number of media specified")
        kinds = {i.get("type") for i in items}
        if not kinds <= {"photo", "document"}:
            raise bad_request(f"can't parse InputMedia: unsupported media type {kinds!r}")
        if len(kinds) > 1:
            raise bad_request("document can't be mixed with other media types")
        reply_to, without = self._reply_to(p)
        album = []
        for item in items:
            if "media" not in item:
                raise bad_request("can't parse InputMedia: Media is not specified")
            caption, entities = parse(
                item.get("caption") or "", item.get("parse_mode"), item.get("caption_entities")
            )
            check_caption(caption)
            stored = await self._input_file(p, item["media"], str(item["type"]))
            album.append(
                {
                    "media": stored,
                    "media_kind": str(item["type"]),
                    "caption": caption or None,
                    "caption_entities": entities,
                }
            )
        sent = self.world.bot_send_album(
            chat, album, reply_to=reply_to, allow_without_reply=without
        )
        return [self.world.message_api(m) for m in sent]

    async def m_sendPhoto(self, p: Params) -> Any:
        return await self._send_media(p, "photo")

    async def m_sendAnimation(self, p: Params) -> Any:
        return await self._send_media(p, "animation")

    async def m_sendDocument(self, p: Params) -> Any:
        return await self._send_media(p, "document")

    async def m_sendChatAction(self, p: Params) -> Any:
        chat = self.world.resolve_chat(p.require("chat_id"))
        action = p.require("action")
        if action not in CHAT_ACTIONS:
            raise bad_request("wrong parameter action in request")
        self.world.chat_action(chat, action)
        return True

    # ------------------------------------------------------------------ editing
    async def m_editMessageText(self, p: Params) -> Any:
        msg, chat = self._target(p)
        if msg.text is None:
            raise bad_request("there is no text in the message to edit")
        p.require("text")
        text, entities = self._text(p)
        changes: dict[str, Any] = {"text": text, "entities": entities}
        changes["reply_markup"] = self._markup(p, chat)
        return self._edit(msg, chat, changes)

    async def m_editMessageCaption(self, p: Params) -> Any:
        msg, chat = self._target(p)
        if msg.media is None:
            raise bad_request("there is no caption in the message to edit")
        caption, entities = self._caption(p)
        changes: dict[str, Any] = {"caption": caption, "caption_entities": entities}
        changes["reply_markup"] = self._markup(p, chat)
        return self._edit(msg, chat, changes)

    async def m_editMessageMedia(self, p: Params) -> Any:
        msg, chat = self._target(p)
        if msg.media is None:
            raise bad_request("there is no media in the message to edit")
        media = p.json("media")
        if not isinstance(media, dict) or "media" not in media:
            raise bad_request("can't parse InputMedia: Media is not specified")
        kind = media.get("type")
        if kind not in ("photo", "animation", "document"):
            raise bad_request(f"can't parse InputMedia: unsupported media type {kind!r}")
        stored = await self._input_file(p, media["media"], kind, allow_upload=chat is not None)
        caption, entities = parse(
            media.get("caption") or "", media.get("parse_mode"), media.get("caption_entities")
        )
        check_caption(caption)
        changes: dict[str, Any] = {
            "media": stored,
            "media_kind": kind,
            "caption": caption or None,
            "caption_entities": entities,
            "reply_markup": self._markup(p, chat),
        }
        return self._edit(msg, chat, changes)

    async def m_editMessageReplyMarkup(self, p: Params) -> Any:
        msg, chat = self._target(p)
        return self._edit(msg, chat, {"reply_markup": self._markup(p, chat)})

    async def m_deleteMessage(self, p: Params) -> Any:
        chat = self.world.resolve_chat(p.require("chat_id"))
        self.world.bot_delete(chat, p.require("message_id"))
        return True

    # ------------------------------------------------------------------ queries
    async def m_answerCallbackQuery(self, p: Params) -> Any:
        text = p.str("text")
        if text is not None and len(text) > CALLBACK_ANSWER_TEXT_MAX:
            raise bad_request("MESSAGE_TOO_LONG")
        self.world.answer_callback(
            p.require("callback_query_id"), text, p.bool("show_alert"), p.str("url")
        )
        return True

    async def m_answerInlineQuery(self, p: Params) -> Any:
        query_id = p.require("inline_query_id")
        results = p.json("results")
        if not isinstance(results, list):
            raise bad_request("can't parse inline query results JSON object")
        if len(results) > INLINE_RESULTS_MAX:
            raise bad_request("RESULTS_TOO_MUCH")
        seen: set[str] = set()
        prepared = []
        for r in results:
            if not isinstance(r, dict) or "id" not in r or "type" not in r:
                raise bad_request("can't parse inline query result")
            rid = str(r["id"])
            if not 1 <= len(rid.encode()) <= 64:
                raise bad_request("RESULT_ID_INVALID")
            if rid in seen:
                raise bad_request("RESULT_ID_DUPLICATE")
            seen.add(rid)
            prepared.append(await self._inline_result(r))
        self.world.answer_inline(query_id, prepared, p.str("next_offset", "") or "")
        return True

    async def _inline_result(self, r: dict[str, Any]) -> dict[str, Any]:
        r = dict(r)
        if "reply_markup" in r:
            check_inline_keyboard(r["reply_markup"])
        content = r.get("input_message_content")
        if isinstance(content, dict) and "message_text" in content:
            text, entities = parse(
                content["message_text"], content.get("parse_mode"), content.get("entities")
            )
            check_text(text)
            r["input_message_content"] = {**content, "message_text": text, "_entities": entities}
        elif content is None:
            kind = r["type"]
            url = r.get("photo_url") or r.get("gif_url") or r.get("document_url")
            file_id = r.get("photo_file_id") or r.get("gif_file_id") or r.get("document_file_id")
            if kind in ("photo", "gif", "document"):
                if file_id:
                    r["_stored"] = self.world.files.get(file_id)
                elif url:
                    stored_kind = {"gif": "animation"}.get(kind, kind)
                    r["_stored"] = self.world.files.add(
                        stored_kind, await self._fetch(url), None, None
                    )
            caption, entities = parse(
                r.get("caption") or "", r.get("parse_mode"), r.get("caption_entities")
            )
            check_caption(caption)
            r["caption"], r["_caption_entities"] = caption or None, entities
        return r

    # ------------------------------------------------------------------ commands
    def _commands_key(self, p: Params) -> tuple[str, str]:
        lang = p.str("language_code", "") or ""
        if lang and (len(lang) != 2 or not lang.isalpha()):
            raise bad_request("invalid language code specified")
        return self.world.scope_key(p.json("scope")), lang

    async def m_setMyCommands(self, p: Params) -> Any:
        commands = p.json("commands")
        if not isinstance(commands, list) or len(commands) > COMMANDS_MAX:
            raise bad_request("can't parse commands JSON object")
        clean = []
        for c in commands:
            name = c.get("command", "") if isinstance(c, dict) else ""
            desc = c.get("description", "") if isinstance(c, dict) else ""
            if not (1 <= len(name) <= 32) or not all(
                ch.islower() or ch.isdigit() or ch == "_" for ch in name
            ):
                raise bad_request("BOT_COMMAND_INVALID")
            if not 1 <= len(desc) <= 256:
                raise bad_request("command description must be non-empty")
            clean.append({"command": name, "description": desc})
        key = self._commands_key(p)
        if clean:
            self.world.commands[key] = clean
        else:
            self.world.commands.pop(key, None)
        self.world.emit("commands")
        return True

    async def m_getMyCommands(self, p: Params) -> Any:
        return self.world.commands.get(self._commands_key(p), [])

    async def m_deleteMyCommands(self, p: Params) -> Any:
        self.world.commands.pop(self._commands_key(p), None)
        self.world.emit("commands")
        return True

    async def m_setMyDescription(self, p: Params) -> Any:
        return True

    async def m_setMyShortDescription(self, p: Params) -> Any:
        return True

    async def m_setMyName(self, p: Params) -> Any:
        return True

    # ------------------------------------------------------------------ the menu button
    def _menu_chat(self, p: Params) -> int | None:
        """The private chat a menu-button call names (None: the default for all)."""
        if not p.has("chat_id"):
            return None
        chat = self.world.resolve_chat(p.raw("chat_id"))
        if chat.type != "private":
            raise bad_request("chat not found")  # a menu button exists in private chats only
        return chat.id

    async def m_setChatMenuButton(self, p: Params) -> Any:
        where = self._menu_chat(p)
        button = p.json("menu_button")
        if button is None:
            button = {"type": "default"}
        if not isinstance(button, dict) or button.get("type") not in (
            "commands",
            "web_app",
            "default",
        ):
            raise bad_request("can't parse menu button JSON object")
        if button["type"] == "web_app":
            info = button.get("web_app")
            url = info.get("url") if isinstance(info, dict) else None
            if not isinstance(url, str) or not isinstance(button.get("text"), str):
                raise bad_request("can't parse menu button JSON object")
            try:
                check_app_url(url)
            except MiniAppError as e:
                raise bad_request(f"menu button {e}") from None
            button = {"type": "web_app", "text": button["text"], "web_app": {"url": url}}
        if button["type"] == "default":
            self.world.menu_buttons.pop(where, None)
        else:
            self.world.menu_buttons[where] = {
                k: button[k] for k in ("type", "text", "web_app") if k in button
            }
        self.world.emit("menu_button", chat=where)
        return True

    async def m_getChatMenuButton(self, p: Params) -> Any:
        where = self._menu_chat(p)
        button = self.world.menu_buttons.get(where)
        if button is None and where is not None:
            button = self.world.menu_buttons.get(None)
        return button or {"type": "commands"}

    # ------------------------------------------------------------------ chats and files
    async def m_getChat(self, p: Params) -> Any:
        chat = self.world.resolve_chat(p.require("chat_id"))
        info = self.world.chat_api(chat) | {
            "accent_color_id": 0,
            "max_reaction_count": 11,
            "accepted_gift_types": {
                "unlimited_gifts": False,
                "limited_gifts": False,
                "unique_gifts": False,
                "premium_subscription": False,
                "gifts_from_channels": False,
            },
        }
        if chat.is_group:
            info["permissions"] = {"can_send_messages": True}
        return info

    async def m_getChatMember(self, p: Params) -> Any:
        chat = self.world.resolve_chat(p.require("chat_id"))
        user_id = p.int("user_id")
        if user_id == self.world.bot_id:
            status = "administrator" if chat.type == "channel" else "member"
            return {"status": status, "user": self.world.bot_api_user()}
        user = self.world.users.get(user_id or 0)
        if user is None:
            raise bad_request("user not found")
        status = self.world.member_status(chat, user.id)
        return _member(status, user.to_api(), user.id in chat.anonymous)

    async def m_getChatAdministrators(self, p: Params) -> Any:
        """The group's owner and administrators who are still in it (the bot is never one
        here); a private chat answers as Telegram does, with an error."""
        chat = self.world.resolve_chat(p.require("chat_id"))
        if not chat.is_group:
            raise bad_request("there are no administrators in the private chat")
        statuses = ((self.world.users[m], self.world.member_status(chat, m)) for m in chat.members)
        return [
            _member(s, u.to_api(), u.id in chat.anonymous)
            for u, s in statuses
            if s in ("creator", "administrator")
        ]

    async def m_getFile(self, p: Params) -> Any:
        return self.world.files.get(p.require("file_id")).to_file()
