"""The scenario client API, driven against the test-only mini bot: what people see."""

from __future__ import annotations

import asyncio
import io

import pytest
from PIL import Image

from playground.client import PlaygroundClient, PlaygroundClientError
from playground.server import Emulator
from tests.fixtures.playground import ScenarioClient


def color_of(png: bytes) -> tuple[int, int, int]:
    with Image.open(io.BytesIO(png)) as im:
        return im.convert("RGB").getpixel((5, 5))  # type: ignore[return-value]


async def test_press_by_text_popups_and_photos(mini: ScenarioClient) -> None:
    alice = await mini.user("alice", lang="ru")
    await alice.send("/board")
    board = await alice.private.last_message()
    assert board.caption == "Board: red" and board.button_texts == [["Red", "Blue"], ["Alert"]]
    assert color_of(await alice.private.last_photo()) == (220, 40, 40)
    popup = await alice.press("Blue")
    assert popup is not None and popup.text == "You chose Blue" and not popup.show_alert
    edited = await alice.private.last_message()
    assert edited.message_id == board.message_id and edited.edited
    assert edited.caption == "Board: blue"
    assert color_of(await alice.private.last_photo()) == (40, 80, 220)
    alert = await alice.press_button(1, 0)
    assert alert is not None and alert.show_alert and alert.text == "This is an alert"
    assert [p.text for p in alice.popups] == ["You chose Blue", "This is an alert"]
    with pytest.raises(PlaygroundClientError, match="no single button"):
        await alice.press("Green")


async def test_deep_link_and_wait_for(mini: ScenarioClient) -> None:
    bob = await mini.user("bob")
    seq = await mini.seq()
    await bob.open_link(f"https://t.me/{mini.bot_username}?start=ch_42", settle=False)
    reply = await mini.wait_for(lambda m: m.from_bot, after=seq, chat=bob.private)
    assert reply.text == "Mini bot here: ch_42"


async def test_group_startgroup_link_and_privacy(mini: ScenarioClient) -> None:
    alice, bob = await mini.user("alice"), await mini.user("bob")
    friends = await mini.group("friends", members=[alice, bob], bot=False)
    await alice.open_link(f"https://t.me/{mini.bot_username}?startgroup=g1", group=friends)
    msgs = await friends.messages()
    assert any(m.service and "added Tetrad" in m.service for m in msgs)
    assert msgs[-1].from_bot and msgs[-1].text == "Mini bot here: g1"
    await bob.send("/start", friends)
    assert (await friends.last_message()).text == "Mini bot here"
    await bob.press("Red", chat=friends)
    assert (await friends.last_message()).text == "You chose Red"


async def test_inline_mode_into_a_dialog(mini: ScenarioClient) -> None:
    alice, bob = await mini.user("alice"), await mini.user("bob")
    dialog = await alice.dialog(bob)
    answer = await alice.inline("dots", dialog)
    assert answer.answered and [r.title for r in answer.results] == ["Play dots"]
    posted = await alice.choose(answer, "Play dots")
    assert posted.via_bot == mini.bot_username and posted.text == "Let's play dots!"
    assert posted.inline_message_id
    popup = await bob.press("Blue", chat=dialog)
    assert popup is not None and popup.text == "You chose Blue"
    assert (await dialog.last_message()).text == "Bob chose Blue"


async def test_flood_control_slows_the_bot_but_it_gets_through(mini: ScenarioClient) -> None:
    alice = await mini.user("alice")
    await mini.set_limits(private_burst=1, private_per_second=2)
    await alice.send("/start", settle=False)
    await alice.send("/start", settle=False)
    await mini.settle(timeout=15)
    replies = [m for m in await alice.private.messages() if m.from_bot]
    assert len(replies) == 2
    requests = await mini.bot_requests()
    assert any(r.get("error_code") == 429 for r in requests)


async def test_settle_waits_for_the_work_a_bot_reports(emulator: Emulator) -> None:
    """A bot in this process that says it is still handling an update (drawing a board, say,
    with no request for many quiet windows) has not settled until it says it is done."""
    work = [1]
    emulator.world.bot_work = lambda: work[0]
    async with PlaygroundClient(emulator.url, quiet=0.05) as client:
        settled = asyncio.ensure_future(client.settle(timeout=60))
        await asyncio.sleep(0.5)  # ten quiet windows without a request
        assert not settled.done()
        work[0] = 0
        await settled
