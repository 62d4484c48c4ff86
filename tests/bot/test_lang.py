"""/lang through the emulator: a group's language is set by its administrators (asked through
getChatMember / getChatAdministrators, answered by the emulator) or by anyone when none is
visible; its boards switch at their next edit while each person's popups keep their own
language; a person's /lang switches their running boards in their private chat."""

from __future__ import annotations

from bot.i18n import t
from playground.client import ChatHandle, MessageView, UserHandle
from tests.bot.helpers import buttons, quick_game, tap_move, version, wait_message
from tests.fixtures.playground import ScenarioClient


async def _ru_lobby_board(bob: UserHandle, alice: UserHandle, group: ChatHandle) -> MessageView:
    """Bob (Russian) starts a Dots game in the group; Alice joins: the board is in Russian."""
    await bob.send("/new", group)
    for key in ("game.dots", "menu.dots_s", "btn.next", "menu.vs_group"):
        await bob.press(t("ru", key), chat=group)
    lobby = await group.last_with_buttons()
    await alice.press(t("ru", "btn.join"), lobby, group)
    return await wait_message(group, lobby.message_id, lambda m: bool(buttons(m, "p")))


async def test_group_language_by_an_admin_popups_stay_personal(pg: ScenarioClient) -> None:
    await pg.set_limits(enabled=False)
    alice = await pg.user("alice", lang="en")  # creates the group: its owner
    bob = await pg.user("bob", lang="ru")
    carol = await pg.user("carol", lang="en")
    group = await pg.group("Club", members=[alice, bob, carol])
    await bob.send("/lang", group)  # a plain member, with an owner in sight: refused
    assert (await group.last_message()).text == t("ru", "lang.admins_only")
    board = await _ru_lobby_board(bob, alice, group)
    assert t("ru", "caption.to_move", who="Bob") in (board.caption or ""), board.caption

    await alice.send("/lang", group)
    chooser = await group.last_with_buttons()
    assert chooser.text == t("en", "lang.choose_group")
    popup = await bob.press("English", chooser, group)  # the chooser is Alice's
    assert popup is not None and popup.text == t("ru", "err.bad_button")
    await alice.press("English", chooser, group)
    assert (await group.last_message()).text == t("en", "lang.set_group")
    # the running board changes at its next edit: Bob's move redraws it in English
    assert (await wait_message(group, board.message_id, lambda m: True)).caption == board.caption
    board = await tap_move(bob, group, board)
    assert t("en", "caption.to_move", who="Alice") in (board.caption or ""), board.caption
    # ... while Bob's popups stay Russian, and a new reply in the group is English
    r, c = buttons(board, "p")[0]
    popup = await bob.press_button(r, c, board, group)
    assert popup is not None and popup.text == t("ru", "err.not_your_turn"), popup
    await bob.send("/lang", group)
    assert (await group.last_message()).text == t("en", "lang.admins_only")

    # an administrator the owner promotes may set it too; demoted, no longer
    await group.set_admin(carol)
    await carol.send("/lang", group)
    await carol.press("Русский", await group.last_with_buttons(), group)
    assert (await group.last_message()).text == t("ru", "lang.set_group")
    await group.set_admin(carol, on=False)
    await carol.send("/lang", group)
    assert (await group.last_message()).text == t("ru", "lang.admins_only")


async def test_anyone_sets_the_language_of_a_group_without_visible_admins(
    pg: ScenarioClient,
) -> None:
    alice = await pg.user("alice", lang="en")
    bob = await pg.user("bob", lang="en")
    group = await pg.group("Club", members=[alice, bob])
    await group.remove(alice, by=alice)  # the owner leaves: nobody administers it
    await bob.send("/lang", group)
    chooser = await group.last_with_buttons()
    assert chooser.text == t("en", "lang.choose_group")
    popup = await bob.press("Русский", chooser, group)
    assert popup is not None and popup.text == ""  # a popup in Bob's own language: none
    assert (await group.last_message()).text == t("ru", "lang.set_group")


async def test_private_lang_switches_running_boards_at_their_next_edit(
    pg: ScenarioClient,
) -> None:
    await pg.set_limits(enabled=False)
    alice = await pg.user("alice", lang="en")
    board = await quick_game(alice, t("en", "menu.quick_dots"))
    assert t("en", "caption.to_move", who="Alice") in (board.caption or ""), board.caption
    await alice.send("/lang")
    await alice.press("Русский")
    assert (await alice.private.last_message()).text == t("ru", "lang.set")
    v = version(board)
    board = await tap_move(alice, alice.private, board)
    board = await wait_message(
        alice.private,
        board.message_id,
        lambda m: version(m) not in (v, (v or 0) + 1) and bool(buttons(m, "p")),
    )
    assert t("ru", "caption.to_move", who="Alice") in (board.caption or ""), board.caption
    assert t("ru", "btn.more") in [b.text for row in board.buttons for b in row]


async def test_a_russian_group_answers_an_english_tap_in_english(pg: ScenarioClient) -> None:
    """The group's language names its menus; a popup (someone else's menu, an info button)
    is in the tapper's own language."""
    alice = await pg.user("alice", lang="ru")
    bob = await pg.user("bob", lang="en")
    group = await pg.group("Клуб", members=[alice, bob])
    await alice.send("/lang", group)
    await alice.press("Русский", await group.last_with_buttons(), group)
    await bob.send("/new", group)
    menu = await group.last_with_buttons()
    assert menu.text == t("ru", "menu.choose_game")  # Bob's menu, in the group's language
    await alice.send("/new", group)
    alices = await group.last_with_buttons()
    popup = await bob.press(t("ru", "game.dots"), alices, group)
    assert popup is not None and popup.text == t("en", "err.not_your_menu"), popup


async def test_an_anonymous_admin_sets_the_group_language(pg: ScenarioClient) -> None:
    """An anonymous administrator's /lang is signed by the group (from GroupAnonymousBot); the
    chooser it gets is the group's: their own tap (from their account) sets it, and so may
    another administrator's, while a plain member's is refused."""
    alice = await pg.user("alice", lang="en")  # the owner
    bob = await pg.user("bob", lang="en")
    carol = await pg.user("carol", lang="en")
    group = await pg.group("Club", members=[alice, bob, carol])
    await group.set_admin(bob, anonymous=True)
    await bob.send("/lang", group)
    chooser = await group.last_with_buttons()
    assert chooser.text == t("en", "lang.choose_group")
    popup = await carol.press("Русский", chooser, group)  # a plain member
    assert popup is not None and popup.text == t("en", "lang.admins_only")
    await bob.press("Русский", chooser, group)
    assert (await group.last_message()).text == t("ru", "lang.set_group")
    await bob.send("/lang", group)
    await alice.press("English", await group.last_with_buttons(), group)  # another admin
    assert (await group.last_message()).text == t("en", "lang.set_group")
