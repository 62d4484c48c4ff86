"""python-telegram-bot's own ``Bot`` against the emulator: results parse into its types and
Telegram's errors come out as its exceptions, with Telegram's descriptions."""

from __future__ import annotations

import asyncio

import pytest
from telegram import (
    Bot,
    BotCommand,
    BotCommandScopeAllGroupChats,
    BotCommandScopeChat,
    ChatMemberAdministrator,
    ChatMemberOwner,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaPhoto,
    Message,
)
from telegram.error import BadRequest, ChatMigrated, Conflict, Forbidden, RetryAfter

from playground.server import Emulator
from tests.playground.conftest import png, started

NOT_MODIFIED = (
    "message is not modified: specified new message content and reply markup are exactly the "
    "same as a current content and reply markup of the message"
)
TOO_OLD = "query is too old and response timeout expired or query id is invalid"


def keyboard(*rows: list[str]) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        [[InlineKeyboardButton(t, callback_data=t) for t in row] for row in rows]
    )


def error_text(e: pytest.ExceptionInfo[Exception]) -> str:
    return str(e.value).lower()


async def test_updates_long_poll_and_offsets(emulator: Emulator, tg: Bot) -> None:
    world = emulator.world
    alice = world.add_user("alice", "ru")
    assert await tg.get_updates(timeout=0) == ()

    async def later() -> None:
        await asyncio.sleep(0.2)
        world.user_send(alice, world.chats[alice.id], "/start hello")

    task = asyncio.create_task(later())
    updates = await tg.get_updates(timeout=5)
    await task
    assert len(updates) == 1
    msg = updates[0].message
    assert msg is not None and msg.text == "/start hello"
    assert msg.from_user is not None and msg.from_user.language_code == "ru"
    assert msg.entities[0].type == "bot_command" and msg.entities[0].length == len("/start")
    again = await tg.get_updates(timeout=0)
    assert again[0].update_id == updates[0].update_id  # not confirmed yet
    assert await tg.get_updates(offset=updates[0].update_id + 1, timeout=0) == ()


async def test_a_second_poller_terminates_the_first(emulator: Emulator, tg: Bot) -> None:
    first = asyncio.create_task(tg.get_updates(timeout=5))
    await asyncio.sleep(0.2)
    async with Bot(tg.token, base_url=tg.base_url.removesuffix(tg.token)) as other:
        await other.get_updates(timeout=0)
    with pytest.raises(Conflict, match="terminated by other getUpdates request"):
        await first


async def test_cannot_write_first_and_blocked(emulator: Emulator, tg: Bot) -> None:
    world = emulator.world
    bob = world.add_user("bob")
    with pytest.raises(Forbidden, match="bot can't initiate conversation with a user"):
        await tg.send_message(bob.id, "hi")
    world.user_send(bob, world.chats[bob.id], "/start")
    await tg.send_message(bob.id, "hi")
    world.set_blocked(bob, True)
    with pytest.raises(Forbidden, match="bot was blocked by the user"):
        await tg.send_message(bob.id, "hi again")
    updates = await tg.get_updates(timeout=0)
    member = updates[-1].my_chat_member
    assert member is not None and member.new_chat_member.status == "kicked"


async def test_text_and_caption_limits(emulator: Emulator, tg: Bot) -> None:
    alice = started(emulator.world, "alice")
    emulator.world.limits.enabled = False
    await tg.send_message(alice.id, "я" * 4096)
    with pytest.raises(BadRequest) as e:
        await tg.send_message(alice.id, "я" * 4097)
    assert error_text(e) == "message is too long"
    # the limit counts the text after entity parsing
    await tg.send_message(alice.id, "<b>" + "x" * 4096 + "</b>", parse_mode="HTML")
    # and in UTF-16 code units, as Telegram does: an emoji outside the BMP counts twice
    with pytest.raises(BadRequest):
        await tg.send_message(alice.id, "😀" * 2049)
    with pytest.raises(BadRequest) as e:
        await tg.send_message(alice.id, "   ")
    assert error_text(e) == "message text is empty"
    await tg.send_photo(alice.id, png(), caption="c" * 1024)
    with pytest.raises(BadRequest) as e:
        await tg.send_photo(alice.id, png(), caption="c" * 1025)
    assert error_text(e) == "message caption is too long"
    with pytest.raises(BadRequest, match=r"(?i)can't parse entities"):
        await tg.send_message(alice.id, "1.5", parse_mode="MarkdownV2")


@pytest.mark.parametrize(
    ("markup", "error"),
    [
        (keyboard(["x" * 65]), "button_data_invalid"),
        (InlineKeyboardMarkup([[InlineKeyboardButton("a", callback_data="")]]), None),
        (keyboard([str(i) for i in range(9)]), "reply markup is too long"),
        (
            keyboard(*[[f"{r}.{c}" for c in range(8)] for r in range(13)]),
            "reply markup is too long",
        ),
    ],
)
async def test_keyboard_limits(
    emulator: Emulator, tg: Bot, markup: InlineKeyboardMarkup, error: str | None
) -> None:
    alice = started(emulator.world, "alice")
    with pytest.raises(BadRequest) as e:
        await tg.send_message(alice.id, "keys", reply_markup=markup)
    assert error_text(e) == (error or "button_data_invalid")


async def test_largest_allowed_keyboard(emulator: Emulator, tg: Bot) -> None:
    alice = started(emulator.world, "alice")
    data = "é" * 32  # 64 bytes
    rows = [[f"{r}.{c}" for c in range(8)] for r in range(12)] + [["a", "b", "c", data]]
    msg = await tg.send_message(alice.id, "keys", reply_markup=keyboard(*rows))
    assert msg.reply_markup is not None
    assert sum(len(r) for r in msg.reply_markup.inline_keyboard) == 100


async def test_photo_rules(emulator: Emulator, tg: Bot) -> None:
    alice = started(emulator.world, "alice")
    msg = await tg.send_photo(alice.id, png(300, 200))
    assert (msg.photo[-1].width, msg.photo[-1].height) == (300, 200)
    for w, h in [(5001, 5000), (2100, 100)]:
        with pytest.raises(BadRequest) as e:
            await tg.send_photo(alice.id, png(w, h))
        assert error_text(e) == "photo_invalid_dimensions"
    with pytest.raises(BadRequest) as e:
        await tg.send_photo(alice.id, b"not a picture")
    assert error_text(e) == "image_process_failed"
    # a photo sent before can be sent again by file_id
    again = await tg.send_photo(alice.id, msg.photo[-1].file_id)
    assert again.photo[-1].file_unique_id == msg.photo[-1].file_unique_id
    with pytest.raises(BadRequest, match=r"(?i)wrong file identifier"):
        await tg.send_photo(alice.id, "AgACnope")


async def test_edits_and_not_modified(emulator: Emulator, tg: Bot) -> None:
    alice = started(emulator.world, "alice")
    emulator.world.limits.enabled = False
    text = await tg.send_message(alice.id, "one", reply_markup=keyboard(["a"]))
    with pytest.raises(BadRequest) as e:
        await tg.edit_message_text("one", alice.id, text.message_id, reply_markup=keyboard(["a"]))
    assert error_text(e) == NOT_MODIFIED
    edited = await tg.edit_message_text(
        "two", alice.id, text.message_id, reply_markup=keyboard(["a"])
    )
    assert isinstance(edited, type(text)) and edited.text == "two" and edited.edit_date
    # dropping the keyboard is a change; dropping it twice is not
    await tg.edit_message_reply_markup(alice.id, text.message_id)
    with pytest.raises(BadRequest) as e:
        await tg.edit_message_reply_markup(alice.id, text.message_id)
    assert error_text(e) == NOT_MODIFIED

    photo = await tg.send_photo(alice.id, png(), caption="cap")
    with pytest.raises(BadRequest) as e:
        await tg.edit_message_caption(alice.id, photo.message_id, caption="cap")
    assert error_text(e) == NOT_MODIFIED
    with pytest.raises(BadRequest) as e:
        await tg.edit_message_caption(alice.id, text.message_id, caption="x")
    assert error_text(e) == "there is no caption in the message to edit"
    with pytest.raises(BadRequest) as e:
        await tg.edit_message_text("x", alice.id, photo.message_id)
    assert error_text(e) == "there is no text in the message to edit"
    same = InputMediaPhoto(photo.photo[-1].file_id, caption="cap")
    with pytest.raises(BadRequest) as e:
        await tg.edit_message_media(same, alice.id, photo.message_id)
    assert error_text(e) == NOT_MODIFIED
    new = await tg.edit_message_media(
        InputMediaPhoto(png(80, 80, "blue"), caption="new"), alice.id, photo.message_id
    )
    assert isinstance(new, Message)  # a bot's own message edited: the Message, not True
    assert new.caption == "new" and new.photo[-1].width == 80
    with pytest.raises(BadRequest) as e:
        await tg.edit_message_text("x", alice.id, 999)
    assert error_text(e) == "message to edit not found"
    user_msg = next(iter(emulator.world.chats[alice.id].messages.values()))
    with pytest.raises(BadRequest) as e:
        await tg.edit_message_text("x", alice.id, user_msg.message_id)
    assert error_text(e) == "message can't be edited"
    assert await tg.delete_message(alice.id, text.message_id) is True
    with pytest.raises(BadRequest) as e:
        await tg.delete_message(alice.id, text.message_id)
    assert error_text(e) == "message to delete not found"


async def test_callback_queries(emulator: Emulator, tg: Bot) -> None:
    world = emulator.world
    alice = started(world, "alice")
    msg = await tg.send_message(alice.id, "pick", reply_markup=keyboard(["x", "y"]))
    query, _ = world.press(alice, world.chats[alice.id], msg.message_id, 0, 1)
    assert query is not None
    updates = await tg.get_updates(timeout=0)
    cq = updates[-1].callback_query
    assert cq is not None and cq.data == "y" and cq.from_user.id == alice.id
    assert cq.message is not None and cq.message.message_id == msg.message_id
    assert await cq.answer("Not your turn", show_alert=True)
    popup = [e for e in world.events if e["type"] == "popup"][-1]
    assert (popup["text"], popup["show_alert"], popup["user"]) == ("Not your turn", True, alice.id)
    with pytest.raises(BadRequest) as e:
        await cq.answer()
    assert error_text(e) == TOO_OLD
    with pytest.raises(BadRequest) as e:
        await tg.answer_callback_query("12345")
    assert error_text(e) == TOO_OLD
    # a query left unanswered too long can no longer be answered
    world.limits.callback_query_ttl = 0.0
    late, _ = world.press(alice, world.chats[alice.id], msg.message_id, 0, 0)
    assert late is not None
    with pytest.raises(BadRequest) as e:
        await tg.answer_callback_query(late.id)
    assert error_text(e) == TOO_OLD


async def test_inline_mode_and_inline_messages(emulator: Emulator, tg: Bot) -> None:
    from telegram import (
        InlineQueryResultArticle,
        InlineQueryResultCachedPhoto,
        InputTextMessageContent,
    )

    world = emulator.world
    alice, bob = started(world, "alice"), world.add_user("bob")
    photo = await tg.send_photo(alice.id, png())
    dialog = world.dialog(alice, bob)
    iq = world.inline_query(alice, dialog, "dots")
    update = (await tg.get_updates(timeout=0))[-1]
    assert update.inline_query is not None and update.inline_query.query == "dots"
    assert update.inline_query.chat_type == "private"
    await update.inline_query.answer(
        [
            InlineQueryResultArticle(
                "dots-1",
                "Play Dots",
                InputTextMessageContent("<b>Dots</b> challenge", parse_mode="HTML"),
                reply_markup=keyboard(["join"]),
            ),
            InlineQueryResultCachedPhoto(
                "pic", photo.photo[-1].file_id, reply_markup=keyboard(["go"])
            ),
        ]
    )
    with pytest.raises(BadRequest) as e:
        await update.inline_query.answer([])
    assert error_text(e) == TOO_OLD
    msg = world.choose_inline(alice, iq.id, "dots-1")
    assert msg.via_bot and msg.text == "Dots challenge" and msg.inline_message_id
    chosen = (await tg.get_updates(timeout=0))[-1].chosen_inline_result
    assert chosen is not None and chosen.result_id == "dots-1"
    assert chosen.inline_message_id == msg.inline_message_id
    # bob presses the button in the inline message: the query names the inline message
    world.press(bob, dialog, msg.message_id, 0, 0)
    cq = (await tg.get_updates(timeout=0))[-1].callback_query
    assert cq is not None and cq.message is None and cq.inline_message_id == msg.inline_message_id
    assert await tg.edit_message_text("Bob joined", inline_message_id=msg.inline_message_id) is True
    assert dialog.messages[msg.message_id].text == "Bob joined"
    # a photo inline message: new media by file_id only, never an upload
    iq2 = world.inline_query(alice, dialog, "pic")
    await tg.answer_inline_query(
        iq2.id,
        [
            InlineQueryResultCachedPhoto(
                "pic", photo.photo[-1].file_id, reply_markup=keyboard(["go"])
            )
        ],
    )
    pic = world.choose_inline(alice, iq2.id, "pic")
    assert pic.inline_message_id is not None
    with pytest.raises(BadRequest, match=r"(?i)uploaded file"):
        await tg.edit_message_media(
            InputMediaPhoto(png(30, 30)), inline_message_id=pic.inline_message_id
        )
    other = await tg.send_photo(alice.id, png(40, 40, "green"))
    assert await tg.edit_message_media(
        InputMediaPhoto(other.photo[-1].file_id), inline_message_id=pic.inline_message_id
    )


async def test_group_privacy_mode(emulator: Emulator, tg: Bot) -> None:
    world = emulator.world
    alice, bob = world.add_user("alice"), world.add_user("bob")
    group = world.create_group("friends", alice, [bob], with_bot=True)
    kinds = [u.to_dict() for u in await tg.get_updates(timeout=0)]
    assert any("my_chat_member" in u for u in kinds)
    assert any(u.get("message", {}).get("new_chat_members") for u in kinds)
    offset = (await tg.get_updates(timeout=0))[-1].update_id + 1
    bot_name = world.bot_username

    async def seen(text: str, reply_to: int | None = None) -> bool:
        nonlocal offset
        world.user_send(alice, group, text, reply_to)
        updates = await tg.get_updates(offset=offset, timeout=0)
        if updates:
            offset = updates[-1].update_id + 1
        return bool(updates)

    assert not await seen("hello everyone")
    assert await seen("/new")
    assert await seen(f"/new@{bot_name} dots")
    assert not await seen("/new@some_other_bot")
    mine = await tg.send_message(group.id, "board")
    assert await seen("nice move", reply_to=mine.message_id)
    world.set_privacy(group, False)
    assert await seen("hello everyone")


async def test_migration_to_supergroup(emulator: Emulator, tg: Bot) -> None:
    world = emulator.world
    alice = world.add_user("alice")
    group = world.create_group("g", alice, [], with_bot=True)
    old = group.id
    new = world.migrate(group, alice)
    with pytest.raises(ChatMigrated) as e:
        await tg.send_message(old, "hi")
    assert e.value.new_chat_id == new
    msg = await tg.send_message(new, "hi")
    assert msg.chat.type == "supergroup" and str(new).startswith("-100")
    texts = [u.message.to_dict() for u in await tg.get_updates(timeout=0) if u.message]
    assert any(m.get("migrate_to_chat_id") == new for m in texts)
    assert any(m.get("migrate_from_chat_id") == old for m in texts)


async def test_bot_not_in_group(emulator: Emulator, tg: Bot) -> None:
    world = emulator.world
    alice = world.add_user("alice")
    group = world.create_group("g", alice, [], with_bot=False)
    with pytest.raises(Forbidden, match="bot is not a member of the group chat"):
        await tg.send_message(group.id, "hi")


async def test_flood_limits(emulator: Emulator, tg: Bot) -> None:
    world = emulator.world
    alice, bob = started(world, "alice"), world.add_user("bob")
    for _ in range(3):  # a short burst is fine
        await tg.send_message(alice.id, "x")
    with pytest.raises(RetryAfter) as e:
        await tg.send_message(alice.id, "x")
    assert (
        e.value.retry_after == 1 or getattr(e.value.retry_after, "total_seconds", lambda: 0)() == 1
    )
    group = world.create_group("g", alice, [bob], with_bot=True)
    for _ in range(20):
        await tg.send_message(group.id, "y")
    with pytest.raises(RetryAfter):
        await tg.send_message(group.id, "y")
    world.limits.enabled = False
    await tg.send_message(group.id, "free")


async def test_commands_by_scope_and_language(emulator: Emulator, tg: Bot) -> None:
    world = emulator.world
    alice = world.add_user("alice", "ru")
    group = world.create_group("g", alice, [], with_bot=True)
    await tg.set_my_commands([BotCommand("new", "New game")])
    await tg.set_my_commands([BotCommand("new", "Новая игра")], language_code="ru")
    await tg.set_my_commands([BotCommand("join", "Join")], scope=BotCommandScopeAllGroupChats())
    assert [c.description for c in await tg.get_my_commands(language_code="ru")] == ["Новая игра"]
    assert world.commands_for(alice, world.chats[alice.id])[0]["description"] == "Новая игра"
    assert world.commands_for(alice, group)[0]["command"] == "join"
    await tg.set_my_commands([BotCommand("stop", "Stop")], scope=BotCommandScopeChat(group.id))
    assert world.commands_for(alice, group)[0]["command"] == "stop"
    await tg.delete_my_commands(scope=BotCommandScopeChat(group.id))
    assert world.commands_for(alice, group)[0]["command"] == "join"
    with pytest.raises(BadRequest):
        await tg.set_my_commands([BotCommand("Bad Name", "x")])


async def test_get_chat_and_member(emulator: Emulator, tg: Bot) -> None:
    world = emulator.world
    alice, bob = started(world, "alice"), world.add_user("bob")
    group = world.create_group("Friends", alice, [bob], with_bot=True)
    chat = await tg.get_chat(group.id)
    assert (chat.title, chat.type) == ("Friends", "group")
    assert (await tg.get_chat_member(group.id, alice.id)).status == "creator"
    assert (await tg.get_chat_member(group.id, bob.id)).status == "member"
    world.remove_member(group, bob, alice)
    assert (await tg.get_chat_member(group.id, bob.id)).status == "left"
    assert (await tg.get_chat(alice.id)).username == "alice"


async def test_chat_administrators(emulator: Emulator, tg: Bot) -> None:
    """getChatAdministrators and getChatMember as PTB parses them: the owner and promoted
    members while they are in the group; none left when the owner leaves."""
    world = emulator.world
    alice, bob = started(world, "alice"), world.add_user("bob")
    carol = world.add_user("carol")
    group = world.create_group("Friends", alice, [bob, carol], with_bot=True)
    world.set_admin(group, bob, True)
    admins = await tg.get_chat_administrators(group.id)
    assert [(type(a), a.user.id) for a in admins] == [
        (ChatMemberOwner, alice.id),
        (ChatMemberAdministrator, bob.id),
    ]
    member = await tg.get_chat_member(group.id, bob.id)
    assert isinstance(member, ChatMemberAdministrator) and member.can_change_info
    assert (await tg.get_chat_member(group.id, carol.id)).status == "member"
    world.set_admin(group, bob, False)
    world.remove_member(group, alice, alice)
    assert await tg.get_chat_administrators(group.id) == ()
    with pytest.raises(BadRequest, match="private chat"):
        await tg.get_chat_administrators(alice.id)


async def test_documents_and_animations(emulator: Emulator, tg: Bot) -> None:
    import io

    from PIL import Image

    alice = started(emulator.world, "alice")
    emulator.world.limits.enabled = False
    doc = await tg.send_document(alice.id, b"1. e4 e5", filename="game.txt", caption="record")
    assert doc.document is not None and doc.document.file_name == "game.txt"
    assert bytes(await (await doc.document.get_file()).download_as_bytearray()) == b"1. e4 e5"
    frames = [Image.new("RGB", (40, 30), c) for c in ("red", "blue")]
    gif = io.BytesIO()
    frames[0].save(gif, "GIF", save_all=True, append_images=frames[1:])
    anim = await tg.send_animation(alice.id, gif.getvalue(), filename="replay.gif")
    assert anim.animation is not None and (anim.animation.width, anim.animation.height) == (40, 30)


async def test_inline_sent_message_is_edited_only_by_inline_id(emulator: Emulator, tg: Bot) -> None:
    from telegram import InlineQueryResultArticle, InputTextMessageContent

    world = emulator.world
    alice = started(world, "alice")
    group = world.create_group("g", alice, [], with_bot=True)
    iq = world.inline_query(alice, group, "")
    await tg.answer_inline_query(
        iq.id,
        [
            InlineQueryResultArticle(
                "a", "A", InputTextMessageContent("hi"), reply_markup=keyboard(["x"])
            )
        ],
    )
    msg = world.choose_inline(alice, iq.id, "a")
    update = (await tg.get_updates(timeout=0))[-1]
    assert update.message is not None and update.message.via_bot is not None  # seen in privacy mode
    with pytest.raises(BadRequest) as e:
        await tg.edit_message_text("by id", group.id, msg.message_id)
    assert error_text(e) == "message can't be edited"
    assert await tg.edit_message_text("by inline id", inline_message_id=msg.inline_message_id)
