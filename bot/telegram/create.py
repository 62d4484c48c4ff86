"""A new match from a finished /new menu choice: a lobby for the chat, or a game against the
bot. Used by the menu's buttons and by /challenge in a group."""

from __future__ import annotations

import storage
from bot.match import lobby, menus
from bot.match.actions import Actor, Refused
from bot.match.effects import Refresh
from bot.telegram import act
from bot.telegram.services import Services


async def create_match(
    svc: Services, actor: Actor, choice: menus.Choice, chat_id: int, group: bool, lang: str
) -> act.Outcome:
    try:
        match, effects = lobby.new_match(
            match_id=storage.new_match_id(),
            kind=choice.kind,
            options=choice.options,
            creator=actor,
            chat=chat_id,
            group=group,
            lang=lang,
            now=svc.clock(),
            ai_level=choice.ai_level,
            clock=choice.clock,
        )
    except Refused as r:
        return act.Outcome(refused=r)
    return await act.create(svc, match, effects or [Refresh()])
