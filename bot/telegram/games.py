"""A player's several games in one chat: /games, the "continue it" of /new, and the taps of
the typed-move chooser and of "bring the board down"."""

from __future__ import annotations

import contextlib
import html

from telegram import CallbackQuery, Message, Update
from telegram.constants import ParseMode
from telegram.error import TelegramError

from bot.i18n import t
from bot.match import typed
from bot.match.actions import Refused
from bot.match.buttons import Tap
from bot.match.model import Match
from bot.match.ui import Keyboard
from bot.telegram import act, boards
from bot.telegram.common import Asker, Context, Langs, asker, reply, svc_of
from bot.telegram.keyboards import markup
from bot.telegram.typed import games_list, live_here


async def games_command(update: Update, context: Context) -> None:
    """`/games`: the player's games here, with a button to bring each board down."""
    a = await asker(update, context)
    if a is None:
        return
    theirs = typed.mine(await live_here(a.svc, a.chat.id), a.user.id)
    if not theirs:
        await reply(update.effective_message, t(a.lang, "games.none"))
        return
    text = t(a.lang, "games.title") + "\n" + games_list(theirs, a.user.id, a.lang)
    rows = typed.bring_buttons(theirs, a.user.id, a.lang)
    await reply(update.effective_message, text, reply_markup=markup(rows, a.lang))


async def unfinished(a: Asker, message: Message | None, menu: Keyboard) -> bool:
    """/new while a game of the player's is going on here: offer to continue it (its board
    brought down) above the menu that starts another. False when there is none."""
    going = [
        m for m in typed.mine(await live_here(a.svc, a.chat.id), a.user.id) if m.status == "active"
    ]
    if not going:
        return False
    key = "games.unfinished" if len(going) == 1 else "games.unfinished_many"
    text = t(a.lang, key) + "\n" + games_list(going, a.user.id, a.lang)
    rows = typed.bring_buttons(going, a.user.id, a.lang) + menu
    await reply(message, text, reply_markup=markup(rows, a.lang))
    return True


async def chosen(query: CallbackQuery, tap: Tap, lang: str, match: Match | None) -> None:
    """A game picked for a typed move, and the move played there (through the board's own
    tap path, ``buttons._act``): the chooser says where, with its buttons gone."""
    game = html.escape(typed.versus(match, query.from_user.id, lang)) if match else ""
    text = t(lang, "move.played", move=html.escape(tap.value), game=game)
    with contextlib.suppress(TelegramError):
        await query.edit_message_text(text, parse_mode=ParseMode.HTML)


async def bring(update: Update, context: Context, tap: Tap, langs: Langs) -> None:
    """A game's board sent again at the bottom of the chat, for one of its players."""
    svc = svc_of(context)
    query = update.callback_query
    assert query is not None
    chat_id = query.message.chat.id if query.message is not None else None
    if chat_id is None or not await boards.bring_down(
        svc, context.bot, tap.subject, tap.version, chat_id, query.from_user.id
    ):
        await act.answer(query, langs.own, act.Outcome(refused=Refused("games.stale")))
        return
    await act.answer(query, langs.own, act.Outcome())
