"""What a puzzle's board takes in Telegram, in a private chat and in a group alike: the
stand-in match, its picture, captions, popups and redrawing the board at a new selection."""

from __future__ import annotations

import asyncio
import contextlib

from telegram import CallbackQuery, InlineKeyboardMarkup, InputMediaPhoto
from telegram.constants import ParseMode
from telegram.error import TelegramError

from bot import pictures
from bot.i18n import Text, t
from bot.match import puzzle as flow
from bot.match.model import Cursor, Match
from bot.match.puzzle import Posed
from bot.match.ui import PictureView
from bot.telegram.services import Services
from engine.puzzles import Puzzle


def stand_in(p: Posed, user: int, name: str, lang: str, cursor: Cursor | None = None) -> Match:
    return flow.stand_in(p, user, name, t(lang, "puzzle.opponent"), lang, cursor)


async def rating_of(svc: Services, p: Puzzle) -> float:
    """The puzzle's live rating (its start until it is first rated), as its title shows it."""
    return (await svc.store.puzzles.ratings(p.game)).get(p.id, p.rating)


async def picture(
    match: Match, lang: str, p: Posed, *, played: str | None = None, status: str | None = None
) -> bytes:
    """The puzzle's board at its selection, or after ``played`` (the answer) is drawn; in a
    worker thread, as a Рассада curve takes a while to route and a picture to draw.
    ``status``: the header's line (a lesson task's), else the puzzle's id and state."""

    def draw() -> bytes:
        if played is not None:
            match.game.play(match.game.parse_move(played))
        key = "puzzle.picture" if played is None else "puzzle.picture.solved"
        view: PictureView = {"lang": lang, "status": status or t(lang, key, id=p.id)}
        if played is None:
            view.update(flow.picture_view(match))
        return pictures.board_png(match, view)

    return await asyncio.to_thread(draw)


async def redraw(
    query: CallbackQuery,
    match: Match,
    p: Posed,
    shown: PictureView,
    caption: str,
    keyboard: InlineKeyboardMarkup | None,
    status: str | None = None,
) -> None:
    """The board at ``match``'s selection: its words and keys only when the picture would be
    the one ``shown`` (no curve's preview, or the same one), else the picture drawn again."""
    with contextlib.suppress(TelegramError):
        if flow.picture_view(match) == shown:
            await query.edit_message_caption(
                caption, parse_mode=ParseMode.HTML, reply_markup=keyboard
            )
            return
        png = await picture(match, match.lang, p, status=status)
        await query.edit_message_media(
            InputMediaPhoto(png, caption=caption, parse_mode=ParseMode.HTML),
            reply_markup=keyboard,
        )


def lines(lang: str, texts: list[Text]) -> str:
    return "\n".join(t(lang, x) for x in texts)


async def popup(query: CallbackQuery, lang: str, text: Text | None) -> None:
    with contextlib.suppress(TelegramError):
        await query.answer(None if text is None else t(lang, text))
