"""Mini Apps in the emulator: the initData signer against Telegram's documented check, web_app
buttons where the Bot API takes them (and its error where not), direct links, the menu button
and the launch URL a panel opens."""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import time
from urllib.parse import parse_qs, parse_qsl, urlsplit

import aiohttp
import pytest
from telegram import (
    Bot,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InlineQueryResultArticle,
    InputTextMessageContent,
    MenuButtonWebApp,
    WebAppInfo,
)
from telegram.error import BadRequest

from playground.miniapp import sign_init_data
from playground.server import Emulator
from playground.world import PlaygroundError
from tests.playground.conftest import started

APP = "https://tetrad.example/app/"
BUTTON_TYPE_INVALID = re.compile("button_type_invalid", re.IGNORECASE)
ONLY_HTTPS = re.compile("only https links are allowed", re.IGNORECASE)

# The documented example of @tma.js/init-data (docs.telegram-mini-apps.com, "Validating"):
# this initData is valid for this bot token.
VECTOR_TOKEN = "5768337691:AAH5YkoiEuPk8-FZa32hStHTqXiLPtAEhx8"
VECTOR = (
    "query_id=AAHdF6IQAAAAAN0XohDhrOrc"
    "&user=%7B%22id%22%3A279058397%2C%22first_name%22%3A%22Vladislav%22%2C%22last_name%22"
    "%3A%22Kibenko%22%2C%22username%22%3A%22vdkfrost%22%2C%22language_code%22%3A%22ru%22"
    "%2C%22is_premium%22%3Atrue%7D"
    "&auth_date=1662771648"
    "&hash=c501b71e775f74ce10e377dea85a7ea24ecd640b223ea86dfe453e0eaed2e2b2"
)


def telegram_check(init_data: str, token: str) -> dict[str, str] | None:
    """Telegram's check as core.telegram.org/bots/webapps words it, written here on its own:
    the fields but ``hash``, sorted, ``key=<value>`` joined by line feeds, HMAC-SHA-256 with
    the key HMAC-SHA-256(key="WebAppData", msg=token), hex, compared with ``hash``."""
    fields = dict(parse_qsl(init_data, keep_blank_values=True, strict_parsing=True))
    received = fields.pop("hash", "")
    check = "\n".join(f"{key}={fields[key]}" for key in sorted(fields))
    key = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
    expected = hmac.new(key, check.encode(), hashlib.sha256).hexdigest()
    return fields if hmac.compare_digest(expected, received) else None


def web_app_keyboard(url: str = APP) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup([[InlineKeyboardButton("🖐 Open board", web_app=WebAppInfo(url))]])


def test_the_check_and_the_signer_agree_with_the_documented_vector() -> None:
    fields = telegram_check(VECTOR, VECTOR_TOKEN)
    assert fields is not None and json.loads(fields["user"])["id"] == 279058397
    assert telegram_check(VECTOR, VECTOR_TOKEN[:-1] + "y") is None
    assert telegram_check(VECTOR.replace("1662771648", "1662771649"), VECTOR_TOKEN) is None
    signed = sign_init_data(VECTOR_TOKEN, {k: v for k, v in fields.items()})
    assert signed == VECTOR  # the same bytes: Telegram's encoding and field order kept


async def test_init_data_per_launch_kind(emulator: Emulator) -> None:
    world = emulator.world
    alice = started(world, "alice", "ru")
    bob = world.add_user("bob")
    group = world.create_group("Friends", alice, [bob], with_bot=True)

    button = telegram_check(world.web_app_init_data(alice), world.token)
    assert button is not None
    assert set(button) == {"query_id", "user", "auth_date"}
    user = json.loads(button["user"])
    assert user == {
        "id": alice.id,
        "first_name": alice.first_name,
        "username": "alice",
        "language_code": "ru",
        "allows_write_to_pm": True,
    }
    assert abs(int(button["auth_date"]) - time.time()) < 60

    link = telegram_check(
        world.web_app_init_data(bob, start_param="m_42", chat=group, auth_date=1_700_000_000),
        world.token,
    )
    assert link is not None
    assert set(link) == {"user", "chat_instance", "chat_type", "start_param", "auth_date"}
    assert link["chat_type"] == "group" and link["chat_instance"] == group.instance
    assert link["start_param"] == "m_42" and link["auth_date"] == "1700000000"
    assert "allows_write_to_pm" not in json.loads(link["user"])  # bob never started the bot
    private = telegram_check(world.web_app_init_data(alice, chat=alice.id), world.token)
    assert private is not None and private["chat_type"] == "sender"

    # the variants a server test needs: another token (forged), tampering, a query id kept
    forged = world.web_app_init_data(alice, token=f"{world.bot_id}:{'x' * 35}")
    assert telegram_check(forged, world.token) is None
    tampered = world.web_app_init_data(alice).replace(str(alice.id), str(bob.id))
    assert telegram_check(tampered, world.token) is None
    kept = telegram_check(world.web_app_init_data("alice", query_id="Q1"), world.token)
    assert kept is not None and kept["query_id"] == "Q1"


async def test_web_app_buttons_only_in_private_chats(emulator: Emulator, tg: Bot) -> None:
    world = emulator.world
    alice = started(world, "alice")
    group = world.create_group("Friends", alice, [], with_bot=True)
    sent = await tg.send_message(alice.id, "board", reply_markup=web_app_keyboard())
    assert sent.reply_markup is not None
    assert sent.reply_markup.inline_keyboard[0][0].web_app == WebAppInfo(APP)
    with pytest.raises(BadRequest, match=BUTTON_TYPE_INVALID):
        await tg.send_message(group.id, "board", reply_markup=web_app_keyboard())
    plain = await tg.send_message(group.id, "board")
    with pytest.raises(BadRequest, match=BUTTON_TYPE_INVALID):
        await tg.edit_message_reply_markup(
            group.id, plain.message_id, reply_markup=web_app_keyboard()
        )
    # an inline result's keyboard can land in any chat: refused too
    iq = world.inline_query(alice, group, "dots")
    result = InlineQueryResultArticle(
        "1", "Dots", InputTextMessageContent("Dots!"), reply_markup=web_app_keyboard()
    )
    with pytest.raises(BadRequest, match=BUTTON_TYPE_INVALID):
        await tg.answer_inline_query(iq.id, [result])
    # HTTPS only, except this machine (the local bot's own server)
    with pytest.raises(BadRequest, match=ONLY_HTTPS):
        await tg.send_message(
            alice.id, "x", reply_markup=web_app_keyboard("http://tetrad.example/")
        )
    await tg.send_message(alice.id, "x", reply_markup=web_app_keyboard("http://127.0.0.1:9/app"))
    # the group gets the direct link as a url button instead
    link = f"https://t.me/{world.bot_username}/board?startapp=m_1"
    markup = InlineKeyboardMarkup([[InlineKeyboardButton("🖐 Open board", url=link)]])
    assert (await tg.send_message(group.id, "board", reply_markup=markup)).reply_markup == markup


async def test_launches_and_their_urls(emulator: Emulator, tg: Bot) -> None:
    world = emulator.world
    alice = started(world, "alice")
    bob = world.add_user("bob")
    group = world.create_group("Friends", alice, [bob], with_bot=True)
    sent = await tg.send_message(alice.id, "board", reply_markup=web_app_keyboard(APP + "?x=1"))
    updates_before = len(world.updates)

    launch = world.launch_button(alice, world.chats[alice.id], sent.message_id, 0, 0, "dark")
    assert len(world.updates) == updates_before  # a web_app button sends the bot nothing
    parts = urlsplit(launch.url())
    assert parts.query == "x=1"  # no start parameter: the app URL as the button has it
    params = {k: v[0] for k, v in parse_qs(parts.fragment).items()}
    assert params["tgWebAppPlatform"] == "web" and params["tgWebAppVersion"]
    assert json.loads(params["tgWebAppThemeParams"])["bg_color"] == "#17212b"
    assert telegram_check(params["tgWebAppData"], world.token) is not None
    assert "tgWebAppStartParam" not in params

    with pytest.raises(PlaygroundError, match="no Mini App"):
        world.launch_link(bob, f"https://t.me/{world.bot_username}/board?startapp=m_1", group)
    world.set_mini_app(APP, "board")
    with pytest.raises(PlaygroundError, match="no Mini App 'other'"):
        world.launch_link(bob, f"https://t.me/{world.bot_username}/other?startapp=m_1", group)
    with pytest.raises(PlaygroundError, match="startapp"):
        world.launch_link(bob, f"https://t.me/{world.bot_username}/board?startapp=a%20b", group)
    with pytest.raises(PlaygroundError, match="Mini App link"):
        world.open_link(bob, f"https://t.me/{world.bot_username}/board?startapp=m_1")
    link = world.launch_link(bob, f"t.me/{world.bot_username}/board?startapp=m_1", group)
    parts = urlsplit(link.url())
    assert parse_qs(parts.query) == {"tgWebAppStartParam": ["m_1"]}  # the GET parameter too
    params = {k: v[0] for k, v in parse_qs(parts.fragment).items()}
    assert params["tgWebAppStartParam"] == "m_1"
    data = telegram_check(params["tgWebAppData"], world.token)
    assert data is not None and data["start_param"] == "m_1" and data["chat_type"] == "group"
    assert json.loads(data["user"])["id"] == bob.id
    opened = [e for e in world.events if e["type"] == "miniapp" and e["event"] == "open"]
    assert [e["data"]["kind"] for e in opened] == ["button", "link"]

    world.mini_app_event(link.session, "web_app_trigger_haptic_feedback", {"type": "impact"})
    world.mini_app_event(link.session, "web_app_close")
    last = [e for e in world.events if e["type"] == "miniapp"][-2:]
    assert [e["event"] for e in last] == ["web_app_trigger_haptic_feedback", "web_app_close"]
    assert last[0]["user"] == bob.id and world.launches[link.session].closed


async def test_menu_button(emulator: Emulator, tg: Bot) -> None:
    world = emulator.world
    alice = started(world, "alice")
    with pytest.raises(PlaygroundError, match="menu button"):
        world.launch_menu(alice)
    await tg.set_chat_menu_button(menu_button=MenuButtonWebApp("Board", WebAppInfo(APP)))
    got = await tg.get_chat_menu_button(alice.id)
    assert isinstance(got, MenuButtonWebApp) and got.web_app.url == APP
    assert world.chat_view(world.chats[alice.id])["menu_button"]["text"] == "Board"
    hash_params = parse_qs(urlsplit(world.launch_menu(alice).url()).fragment)
    data = telegram_check(hash_params["tgWebAppData"][0], world.token)
    assert data is not None and "query_id" in data
    with pytest.raises(BadRequest, match=ONLY_HTTPS):
        await tg.set_chat_menu_button(
            menu_button=MenuButtonWebApp("Board", WebAppInfo("http://tetrad.example/"))
        )


async def test_the_people_api(emulator: Emulator, tg: Bot) -> None:
    """The routes the page and other processes' tests use."""
    world = emulator.world
    alice = started(world, "alice")
    sent = await tg.send_message(alice.id, "board", reply_markup=web_app_keyboard())
    async with aiohttp.ClientSession(emulator.url) as http:
        async with http.post("/pg/miniapp", json={"url": APP, "short_name": "b"}) as r:
            assert r.status == 400 and "short name" in (await r.json())["error"]
        async with http.post("/pg/miniapp", json={"url": APP, "short_name": "board"}) as r:
            body = await r.json()
            assert body["app"]["short_name"] == "board" and "dark" in body["themes"]
        launch_body = {"user": "alice", "chat": alice.id, "message_id": sent.message_id}
        async with http.post("/pg/miniapp/launch", json={**launch_body, "row": 0, "col": 0}) as r:
            launch = await r.json()
        assert launch["kind"] == "button" and launch["url"].startswith(APP + "#tgWebAppData=")
        async with http.post("/pg/miniapp/init_data", json={"user": alice.id}) as r:
            assert telegram_check((await r.json())["init_data"], world.token) is not None
        event = {"session": launch["session"], "event": "web_app_ready"}
        async with http.post("/pg/miniapp/events", json=event) as r:
            assert r.status == 200
        async with http.post("/pg/miniapp/events", json={**event, "session": "nope"}) as r:
            assert r.status == 400
