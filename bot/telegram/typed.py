"""Typed moves: `/m h12` anywhere, plain text in a private chat, or a reply to a board."""

from __future__ import annotations

import html

from telegram import Bot, Message, Update, User
from telegram.constants import ChatType

from bot.i18n import t
from bot.match import typed
from bot.match.actions import Play
from bot.match.model import Match
from bot.telegram import act, lessons, puzzles, stored
from bot.telegram.common import Context, actor_of, language, reply, svc_of
from bot.telegram.keyboards import markup
from bot.telegram.services import Services


async def move_command(update: Update, context: Context) -> None:
    """`/m h12`: a typed move, for groups where the bot sees only commands."""
    text = " ".join(context.args or [])
    await _typed_move(update, context, text)


async def text_message(update: Update, context: Context) -> None:
    """Plain text in a private chat, or a reply to a board message: a typed move."""
    message = update.effective_message
    if message is None or not message.text:
        return
    await _typed_move(update, context, message.text)


async def _typed_move(update: Update, context: Context, text: str) -> None:
    svc = svc_of(context)
    user, chat, message = update.effective_user, update.effective_chat, update.effective_message
    if user is None or chat is None or message is None:
        return
    lang = await language(svc, user, chat.id)
    if not text.strip():
        await reply(message, t(lang, "move.usage"))
        return
    here = await live_here(svc, chat.id)
    replied = message.reply_to_message
    on_board = (
        next((m for m in here if _shows(m, chat.id, replied.message_id)), None)
        if replied is not None
        else None
    )
    if on_board is not None:
        await play(svc, context.bot, on_board.id, user, lang, text[:64], message)
        return
    if replied is None and chat.type != ChatType.PRIVATE and not typed.mine(here, user.id):
        return  # a group's /m with no game of theirs: not for us to answer
    await _to_the_game_it_fits(svc, context.bot, user, lang, text[:64], message, here)


async def _to_the_game_it_fits(
    svc: Services,
    bot: Bot,
    user: User,
    lang: str,
    text: str,
    message: Message,
    here: list[Match],
) -> None:
    """The one game where the move is legal gets it; several ask which; none say why."""
    theirs = typed.mine(here, user.id)
    if not theirs:
        puzzle = await puzzles.in_hand(svc, user.id) if message.chat.id == user.id else None
        if puzzle is not None:  # a puzzle is answered on its board, never typed
            await reply(message, t(lang, "puzzle.typed", id=puzzle.id))
            return
        task = await lessons.in_hand(svc, user.id) if message.chat.id == user.id else None
        if task is not None:  # so is a lesson's task
            await reply(message, t(lang, "learn.typed"))
            return
        await reply(message, t(lang, "move.none_here"))
        return
    to_move = typed.waiting(theirs, user.id)
    if not to_move:
        await reply(message, t(lang, "move.none_waiting", games=games_list(theirs, user.id, lang)))
        return
    fits = [(m, move) for m in to_move if (move := typed.fit(m, text)) is not None]
    if len(fits) == 1 or (not fits and len(to_move) == 1):
        # the only game waiting explains why the move does not fit it
        match_id = fits[0][0].id if fits else to_move[0].id
        await play(svc, bot, match_id, user, lang, text, message)
        return
    shown = html.escape(text.strip()[:40])
    if not fits:
        games = games_list(to_move, user.id, lang)
        await reply(message, t(lang, "move.fits_none", move=shown, games=games))
        return
    rows = typed.chooser(fits, user.id, lang)
    await reply(message, t(lang, "move.choose", move=shown), reply_markup=markup(rows, lang))


async def play(
    svc: Services, bot: Bot, match_id: str, user: User, lang: str, text: str, message: Message
) -> None:
    outcome = await act.act(
        svc,
        match_id,
        actor_of(user, lang),
        Play(text=text),
        request=f"{message.chat.id}:{message.message_id}",
    )
    if outcome.refused is not None:
        await reply(message, t(lang, outcome.refused.text))
        return
    await act.perform(svc, bot, outcome)


async def live_here(svc: Services, chat_id: int) -> list[Match]:
    """The lobbies and games in progress shown in a chat, decoded (unreadable ones left
    out), oldest first: the order a player lists and chooses them in."""
    out: list[Match] = []
    for record in await svc.store.matches.live_in_chat(chat_id):
        try:
            out.append(stored.load(record, svc))
        except ValueError:
            continue
    return sorted(out, key=lambda m: (m.created, m.id))


def games_list(matches: list[Match], user: int, lang: str) -> str:
    """The player's games, one line each (HTML-escaped: names are the players' own)."""
    return "\n".join(html.escape(typed.line(m, user, lang)) for m in matches)


def _shows(match: Match, chat_id: int, message_id: int) -> bool:
    return any(p.chat == chat_id and p.msg == message_id for p in match.places)
