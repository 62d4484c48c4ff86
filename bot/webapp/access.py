"""Who may open a match's board in the Mini App (read-only unless seated).

The match id travels in links and button data anyone in a chat sees, so holding it proves
nothing. A viewer is entitled when one of these holds, checked in this order (cheapest first):

* they sit at the match (a player);
* the board was sent to their own private chat;
* they opened the inline message's link: an inline board's direct link carries
  ``startapp=<id>-<key>``, the key an HMAC of the id under the bot token, and Telegram signs
  that start parameter into the launch data; the key is honoured only if the match has an
  inline board;
* they are a member of a group the board is in, as Telegram answers ``getChatMember`` now
  (a person who left the group is refused again).

Everyone else gets 403 and nothing is read or changed.
"""

from __future__ import annotations

import hashlib
import hmac
import logging

from telegram import Bot, ChatMemberRestricted
from telegram.error import TelegramError

from bot.match.model import Match
from bot.webapp.auth import Launch

log = logging.getLogger(__name__)
KEY_LENGTH = 16  # hex digits of the link key: 64 bits
SEPARATOR = "-"  # match ids are letters and digits only
MEMBER = {"creator", "administrator", "member"}


def link_key(token: str, match_id: str) -> str:
    """The key an inline board's link carries: only the bot can make it."""
    digest = hmac.new(token.encode(), f"board-link:{match_id}".encode(), hashlib.sha256)
    return digest.hexdigest()[:KEY_LENGTH]


def start_param(token: str, match_id: str, *, inline: bool) -> str:
    """The ``startapp`` value of a board's direct link."""
    return f"{match_id}{SEPARATOR}{link_key(token, match_id)}" if inline else match_id


def holds_link(token: str, match: Match, param: str | None) -> bool:
    """Whether the signed start parameter is this match's inline link."""
    if not param or not any(p.inline is not None for p in match.places):
        return False
    ref, _, key = param.partition(SEPARATOR)
    return ref == match.id and hmac.compare_digest(key, link_key(token, match.id))


def groups_of(match: Match) -> list[int]:
    """The group chats showing the match (and the one it was made in)."""
    chats = {p.chat for p in match.places if p.chat is not None and (p.group or p.chat < 0)}
    if match.chat is not None and match.chat < 0:
        chats.add(match.chat)
    return sorted(chats)


async def is_member(bot: Bot, chat: int, user: int) -> bool:
    try:
        member = await bot.get_chat_member(chat, user)
    except TelegramError as e:  # the bot left the group, the chat is gone…
        log.info("getChatMember(%s, %s) failed: %s", chat, user, e)
        return False
    if isinstance(member, ChatMemberRestricted):
        return member.is_member
    return member.status in MEMBER


async def may_watch(bot: Bot, token: str, match: Match, launch: Launch) -> bool:
    user = launch.user
    if match.seat_of(user) is not None:
        return True
    if any(p.chat == user and not p.group for p in match.places):
        return True
    if holds_link(token, match, launch.start_param):
        return True
    for chat in groups_of(match):
        if await is_member(bot, chat, user):
            return True
    return False
