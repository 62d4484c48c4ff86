"""The "🖐 Open board" button every board of a started match gets when the Mini App is set
up (MINIAPP_URL): a ``web_app`` button in private chats; in groups and inline messages,
where Telegram refuses ``web_app`` buttons, a ``url`` button with the Mini App's direct link
``https://t.me/<bot>/<short name>?startapp=<match id>`` (needs MINIAPP_SHORT_NAME); an inline
message's link also carries the key that lets whoever holds it watch (bot/webapp/access.py)."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from bot.i18n import Text
from bot.match.model import Match, Place
from bot.match.ui import Button, Keyboard
from bot.settings import Settings
from bot.telegram.services import Services
from bot.webapp import access

LABEL = Text("app.open_board")


def page_url(miniapp_url: str, match_id: str) -> str:
    """The page for one match: its id in the query (Telegram adds the launch data in the
    hash)."""
    parts = urlsplit(miniapp_url)
    query = urlencode([*parse_qsl(parts.query), ("m", match_id)])
    return urlunsplit(parts._replace(query=query))


def button(settings: Settings, bot_username: str, match: Match, place: Place) -> Button | None:
    if settings.miniapp_url is None or match.status == "lobby" or match.extra.get("cancelled"):
        return None
    private = place.inline is None and not place.group and (place.chat or 0) > 0
    if private:
        return Button(LABEL, page_url(settings.miniapp_url, match.id), "web_app")
    if settings.miniapp_short_name and bot_username:
        param = access.start_param(settings.token or "", match.id, inline=place.inline is not None)
        link = f"https://t.me/{bot_username}/{settings.miniapp_short_name}?startapp={param}"
        return Button(LABEL, link, "url")
    return None


def keyboard(svc: Services, match: Match, place: Place, rows: Keyboard) -> Keyboard:
    """``rows`` with the button as the last row, when there is one."""
    extra = button(svc.settings, svc.bot_username, match, place)
    return rows if extra is None else [*rows, [extra]]
