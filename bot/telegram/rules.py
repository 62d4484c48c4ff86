"""/rules and the rules buttons: a game's rules text, then its example pictures with their
captions, as one album (sendMediaGroup; captions stay under Telegram's 1024 characters each,
the text under 4096).

``/rules`` alone shows the chooser; ``/rules dots`` (or ``точки``, ``boxes``, ``палочки``,
``sprouts``, ``рассада``…) the page at once; a word naming no game gets a clear answer with
the chooser. A picture is uploaded once per process and then sent by its file_id.
"""

from __future__ import annotations

import asyncio
import html
import logging

from telegram import Bot, InlineKeyboardMarkup, InputMediaPhoto, Message, Update
from telegram.constants import ParseMode
from telegram.error import TelegramError

from bot import examples
from bot import rules as pages
from bot.i18n import t
from bot.match import buttons
from bot.telegram import media
from bot.telegram.common import Context, Langs, asker, reply, svc_of
from bot.telegram.keyboards import markup
from bot.telegram.services import Services

log = logging.getLogger(__name__)
SHOWN_WORD = 40  # characters of an unknown game's name repeated back


async def command(update: Update, context: Context) -> None:
    a = await asker(update, context)
    message = update.effective_message
    if a is None or message is None:
        return
    words = " ".join(context.args or [])
    if not words:
        await reply(message, t(a.lang, "rules.choose"), reply_markup=_chooser(a.lang))
        return
    kind = pages.kind_of(words)
    if kind is None:
        name = html.escape(words[:SHOWN_WORD])
        await reply(message, t(a.lang, "rules.unknown", name=name), reply_markup=_chooser(a.lang))
        return
    await send(a.svc, context.bot, message, kind, a.lang)


async def button(update: Update, context: Context, tap: buttons.Tap, langs: Langs) -> None:
    """A rules button (the chooser's, or a game menu's): the page goes to the button's chat,
    in that chat's language (a refusal: in the tapper's own)."""
    query = update.callback_query
    if query is None:
        return
    svc = svc_of(context)
    message = query.message if isinstance(query.message, Message) else None
    kind = pages.game_of(tap)
    try:
        await query.answer(None if kind is not None and message else t(langs.own, "err.bad_button"))
    except TelegramError as e:
        log.info("rules button answer failed: %s", e)
    if kind is not None and message is not None:
        await send(svc, context.bot, message, kind, langs.here, quote=False)


async def send(
    svc: Services, bot: Bot, message: Message, kind: str, lang: str, *, quote: bool | None = None
) -> None:
    """The page of ``kind`` in ``message``'s chat (and topic): the text, then the
    examples as one album."""
    page = pages.page(kind)
    try:
        await message.reply_text(t(lang, page.text), parse_mode=ParseMode.HTML, do_quote=quote)
        keys = [("rules", example.picture, lang) for example in page.examples]
        album = []
        for key, example in zip(keys, page.examples, strict=True):

            async def png(name: str = example.picture) -> bytes:
                return await asyncio.to_thread(examples.picture, name, lang)

            photo = await media.photo(svc, bot, key, png, inline=False)
            caption = t(lang, example.caption)
            album.append(InputMediaPhoto(photo, caption=caption, parse_mode=ParseMode.HTML))
        sent = await message.reply_media_group(album, do_quote=False)
        for key, one in zip(keys, sent, strict=False):
            media.remember(svc, key, one)
    except TelegramError as e:  # the chat is gone or blocked the bot: nobody to show it to
        log.info("rules of %s not shown in %s: %s", kind, message.chat.id, e)


def _chooser(lang: str) -> InlineKeyboardMarkup | None:
    return markup(pages.chooser(), lang)
