"""Matches that start outside one chat: a challenge by link, and a game posted in inline mode.

A link challenge is shown in each player's private chat with the bot, one place per seat, so
each board can speak to its player ("Your move"). An inline game lives in one inline message
that has no chat: typed moves cannot reach it; buttons do.
"""

from __future__ import annotations

from typing import Any

from bot.match import lobby
from bot.match.actions import Actor, Refused
from bot.match.clocks import NO_CLOCK, Control
from bot.match.effects import Effect, Refresh
from bot.match.model import Match, Place

# Deep-link payloads (t.me/<bot>?start=<payload>): a challenge token is 22 URL-safe characters;
# a group lobby link is "g_" plus a /new menu path with "." written as "_".
GROUP_PREFIX = "g_"


def new_challenge(
    *,
    match_id: str,
    kind: str,
    options: dict[str, Any],
    creator: Actor,
    chat: int,
    lang: str,
    now: float,
    clock: Control = NO_CLOCK,
) -> Match:
    """A lobby waiting for the friend who opens the link; shown in the creator's chat only."""
    match, _ = lobby.new_match(
        match_id=match_id,
        kind=kind,
        options=options,
        creator=creator,
        chat=None,
        group=False,
        lang=lang,
        now=now,
        clock=clock,
    )
    match.extra["link"] = 1
    match.places.append(Place(chat=chat, lang=lang, seat=0))
    return match


def join_by_link(match: Match, actor: Actor, chat: int, lang: str, now: float) -> list[Effect]:
    """The friend who opened the link takes a seat and gets a board of their own."""
    if actor.user == match.creator:
        raise Refused("link.own")
    if match.status == "finished":
        raise Refused("link.closed")
    if match.status == "active":
        raise Refused("link.taken")
    effects = lobby.join(match, actor, now)
    seat = match.seat_of(actor.user)
    match.places.append(Place(chat=chat, lang=lang, seat=seat))
    return effects or [Refresh()]


def new_inline(
    *,
    match_id: str,
    kind: str,
    options: dict[str, Any],
    creator: Actor,
    inline_message_id: str,
    lang: str,
    now: float,
) -> Match:
    """A lobby in an inline message (posted 'via @bot' into any chat)."""
    match, _ = lobby.new_match(
        match_id=match_id,
        kind=kind,
        options=options,
        creator=creator,
        chat=None,
        group=True,
        lang=lang,
        now=now,
    )
    match.places.append(Place(inline=inline_message_id, lang=lang, group=True))
    return match


def group_payload(path: str) -> str:
    """The startgroup payload for a /new menu path such as ``d.q.-``."""
    return GROUP_PREFIX + path.replace(".", "_")


def group_path(payload: str) -> str | None:
    """The menu path of a startgroup payload, or None when it is not one."""
    if not payload.startswith(GROUP_PREFIX):
        return None
    return payload[len(GROUP_PREFIX) :].replace("_", ".")
