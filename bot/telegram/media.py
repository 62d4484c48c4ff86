"""Board pictures as Telegram files: upload a picture once, then reuse its file_id.

A board shown in two private chats (a link challenge) is uploaded once. Inline messages cannot
take uploads at all, so their pictures go to a storage chat first (``STORAGE_CHAT_ID``, one or
more chats the bot may post in, used in turn) and the inline message is edited to that file_id.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Hashable
from typing import Any

from telegram import Bot, Message

from bot.telegram.services import Services


class NoStorageChat(Exception):
    """Inline play needs STORAGE_CHAT_ID, and it is not set."""


def remember(svc: Services, key: Hashable, sent: Message | dict[str, Any] | bool | None) -> None:
    """Keep the file_id of a photo Telegram now holds (a sent or edited message, as a
    Message or as the Bot API's own JSON answer)."""
    if isinstance(sent, Message) and sent.photo:
        svc.file_ids.put(key, sent.photo[-1].file_id)
    elif isinstance(sent, dict):
        sizes = sent.get("photo")
        if isinstance(sizes, list) and sizes and isinstance(sizes[-1], dict):
            file_id = sizes[-1].get("file_id")
            if isinstance(file_id, str):
                svc.file_ids.put(key, file_id)


async def photo(
    svc: Services, bot: Bot, key: Hashable, png: Callable[[], Awaitable[bytes]], *, inline: bool
) -> str | bytes:
    """A file_id when Telegram has the picture already, else the bytes to upload; for an
    inline message always a file_id (uploaded through the storage chat)."""
    file_id = svc.file_ids.get(key)
    if file_id is not None:
        return file_id
    if not inline:
        return await png()
    return await upload(svc, bot, key, await png())


async def upload(svc: Services, bot: Bot, key: Hashable, data: bytes) -> str:
    chats = svc.settings.storage_chats
    if not chats:
        raise NoStorageChat("set STORAGE_CHAT_ID to play in inline messages")
    chat = chats[svc.file_ids.next_turn() % len(chats)]
    sent = await bot.send_photo(chat, data, disable_notification=True)
    file_id = sent.photo[-1].file_id
    svc.file_ids.put(key, file_id)
    return file_id
