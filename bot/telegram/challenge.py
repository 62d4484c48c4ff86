"""Challenge a friend by link: ``/challenge``, the "friend" choice of the private /new menu,
and the deep links ``t.me/<bot>?start=<token>`` / ``?startgroup=<payload>`` that come back.

The token is single-use and expires (storage.challenges); the creator's board waits in their
private chat, and the friend who opens the link gets a board of their own in theirs.
"""

from __future__ import annotations

import contextlib
import html
import logging
from urllib.parse import urlencode

from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.constants import ChatType, ParseMode
from telegram.error import TelegramError
from telegram.helpers import create_deep_linked_url

import storage
from bot.i18n import Text, t
from bot.match import buttons, links, menus, turns
from bot.match.actions import Actor, Refused
from bot.match.effects import Refresh, Say
from bot.match.model import Match
from bot.match.ui import Button, Keyboard
from bot.telegram import act
from bot.telegram.common import Context, actor_of, language, reply, svc_of
from bot.telegram.create import create_match
from bot.telegram.keyboards import markup
from bot.telegram.services import Services

log = logging.getLogger(__name__)
TOKEN_TTL = 24 * 3600
KIND_WORDS = {
    "d": ("dots", "точки"),
    "b": ("boxes", "квадраты", "палочки"),
    "s": ("sprouts", "рассада"),
}


def _quick_path(code: str) -> str:
    """The /new menu path of a game's quick preset, without the opponent."""
    return menus.QUICK[code].rsplit(".", 1)[0]


async def challenge_command(update: Update, context: Context) -> None:
    """``/challenge [dots|boxes|sprouts]``: one tap (or none) to a link for a friend."""
    svc = svc_of(context)
    user, chat = update.effective_user, update.effective_chat
    if user is None or chat is None:
        return
    lang = await language(svc, user, chat.id)
    wanted = (context.args or [""])[0].lower()
    code = next((c for c, words in KIND_WORDS.items() if wanted and wanted in words), None)
    if code is not None:
        choice = menus.screen(user.id, _quick_path(code) + ".g", private=True)
        assert isinstance(choice, menus.Choice)
        actor = actor_of(user, lang)
        if chat.type == ChatType.PRIVATE:
            await create(svc, context.bot, actor, choice, chat.id, lang)
        else:
            await act.perform(
                svc, context.bot, await create_match(svc, actor, choice, chat.id, True, lang)
            )
        return
    rows = choose_rows(user.id)
    await reply(update.effective_message, t(lang, "link.choose"), reply_markup=markup(rows, lang))


def choose_rows(user: int) -> Keyboard:
    """``/challenge``'s games, one to a row: three in a row cut "Точки и квадраты" short."""
    return [
        [Button(Text(f"game.{kind}"), buttons.menu(user, _quick_path(c) + ".g"))]
        for c, kind in menus.KINDS.items()
    ]


async def create(
    svc: Services,
    bot: Bot,
    actor: Actor,
    choice: menus.Choice,
    chat_id: int,
    lang: str,
) -> act.Outcome:
    """A link-challenge lobby in the creator's private chat: the board, then the link (and
    one to play the same game, clock and all, in a group)."""
    try:
        match = links.new_challenge(
            match_id=storage.new_match_id(),
            kind=choice.kind,
            options=choice.options,
            creator=actor,
            chat=chat_id,
            lang=lang,
            now=svc.clock(),
            clock=choice.clock,
        )
    except Refused as r:
        with contextlib.suppress(TelegramError):
            await bot.send_message(chat_id, t(lang, r.text), parse_mode=ParseMode.HTML)
        return act.Outcome(refused=r)
    token = await svc.store.challenges.create({"m": match.id}, ttl=TOKEN_TTL)
    match.extra["tok"] = token  # to tell "you are in this game already" from "used"
    outcome = await act.create(svc, match, [Refresh()])
    await act.perform(svc, bot, outcome)
    url = create_deep_linked_url(svc.bot_username, token)
    game = t(lang, f"game.{match.kind}")
    share = "https://t.me/share/url?" + urlencode(
        {"url": url, "text": t(lang, "link.share_text", game=game)}
    )
    group_url = create_deep_linked_url(
        svc.bot_username, links.group_payload(choice.lobby), group=True
    )
    buttons = InlineKeyboardMarkup(
        [
            [InlineKeyboardButton(t(lang, "link.share"), url=share)],
            [InlineKeyboardButton(t(lang, "link.group"), url=group_url)],
        ]
    )
    try:
        await bot.send_message(
            chat_id,
            t(
                lang,
                "link.created",
                url=html.escape(url),
                hours=Text("count.hours", n=TOKEN_TTL // 3600),
            ),
            parse_mode=ParseMode.HTML,
            reply_markup=buttons,
            link_preview_options=None,
        )
    except TelegramError as e:
        log.info("challenge link for match %s not sent: %s", match.id, e)
    return outcome


async def start_payload(update: Update, context: Context, payload: str) -> None:
    """``/start <payload>`` from a deep link: a challenge token, or a group lobby."""
    svc = svc_of(context)
    user, chat = update.effective_user, update.effective_chat
    if user is None or chat is None:
        return
    lang = await language(svc, user, chat.id)
    path = links.group_path(payload)
    if path is not None:
        await _group_lobby(update, context, path, lang)
        return
    if chat.type != ChatType.PRIVATE:
        await reply(update.effective_message, t(lang, "link.unknown"))
        return
    refusal = await _open(svc, context.bot, user.id, actor_of(user, lang), chat.id, lang, payload)
    if refusal is not None:
        await reply(update.effective_message, t(lang, refusal))


async def _open(
    svc: Services,
    bot: Bot,
    user_id: int,
    actor: Actor,
    chat_id: int,
    lang: str,
    token: str,
) -> Text | None:
    """Join the match behind ``token``; the reason it cannot be joined otherwise."""
    try:
        payload = await svc.store.challenges.peek(token)
    except storage.UnknownChallenge:
        return Text("link.unknown")
    except storage.ChallengeExpired:
        return Text("link.expired")
    except storage.ChallengeUsed:
        return await _used(svc, token, chat_id)
    match_id = str(payload.get("m", ""))
    record = await svc.store.matches.get(match_id)
    if record is None:
        return Text("link.closed")
    if record.get("by") == user_id:
        if record.get("status") == "lobby":
            return Text("link.own")
        return Text("link.joined")  # not used up: the creator can still send it on
    try:
        await svc.store.challenges.redeem(token)
    except storage.ChallengeUsed:
        return await _used(svc, token, chat_id)
    except storage.ChallengeExpired:
        return Text("link.expired")
    except storage.UnknownChallenge:
        return Text("link.unknown")
    now = svc.clock()

    def step(match: Match) -> turns.Applied:
        effects = links.join_by_link(match, actor, chat_id, lang, now)
        creator = next((p for p in match.places if p.seat == 0), None)
        if creator is not None and creator.chat is not None:
            effects.append(Say(creator.chat, Text("link.accepted", name=html.escape(actor.name))))
        return turns.shown(match, effects, now)

    outcome = await act.run(svc, match_id, step)
    if outcome.refused is not None:
        return outcome.refused.text
    await act.perform(svc, bot, outcome)
    return None


async def _used(svc: Services, token: str, chat_id: int) -> Text:
    """A used link: someone who is in the match already is told where the board is."""
    for match_id in await svc.store.matches.active_in_chat(chat_id):
        record = await svc.store.matches.get(match_id)
        if record is not None and (record.get("x") or {}).get("tok") == token:
            return Text("link.joined")
    return Text("link.used")


async def _group_lobby(update: Update, context: Context, path: str, lang: str) -> None:
    """``?startgroup=g_<path>``: the bot was added to a group with a game in mind."""
    svc = svc_of(context)
    user, chat = update.effective_user, update.effective_chat
    assert user is not None and chat is not None
    try:
        full = menus.lobby_path(path)
        choice = menus.screen(user.id, full, private=chat.type == ChatType.PRIVATE)
    except Refused:
        choice = None
    if not isinstance(choice, menus.Choice):
        await reply(update.effective_message, t(lang, "link.unknown"))
        return
    actor = actor_of(user, lang)
    if chat.type == ChatType.PRIVATE:
        await create(svc, context.bot, actor, choice, chat.id, lang)
        return
    outcome = await create_match(svc, actor, choice, chat.id, True, lang)
    if outcome.refused is not None:
        await reply(update.effective_message, t(lang, outcome.refused.text))
        return
    await act.perform(svc, context.bot, outcome)
