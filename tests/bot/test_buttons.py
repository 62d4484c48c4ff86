"""The button table: the wire forms of buttons already sent in chats, decoding, routing."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.match import actions, buttons
from bot.match.callback import MAX_BYTES, BadCallback
from bot.telegram.buttons import ROUTES

# Data as the bot wrote it before the table existed (boards already in chats carry these).
OLD_ACTIONS = {
    "j:k3F9aXz1:0": actions.Join(),
    "j:k3F9aXz1:0:d.q.-": actions.Join(),
    "l:k3F9aXz1:2": actions.Leave(),
    "s:k3F9aXz1:2": actions.Start(),
    "x:k3F9aXz1:2": actions.Cancel(),
    "b:k3F9aXz1:2:medium": actions.AddBot("medium"),
    "p:k3F9aXz1:41:12.7": actions.Play(code="12.7"),
    "c:k3F9aXz1:41:menu": actions.Cursor("menu"),
    "c:k3F9aXz1:41:g8.7": actions.Cursor("g8.7"),
    "a:k3F9aXz1:41:r": actions.Resign(False),
    "a:k3F9aXz1:41:R": actions.Resign(True),
    "a:k3F9aXz1:41:d": actions.OfferDraw(),
    "a:k3F9aXz1:41:e": actions.OfferDraw(scores=True),
    "a:k3F9aXz1:41:y": actions.AnswerDraw(True),
    "a:k3F9aXz1:41:n": actions.AnswerDraw(False),
    "a:k3F9aXz1:41:s": actions.Stop(),
    "a:k3F9aXz1:41:f": actions.Done(),
    "a:k3F9aXz1:41:g": actions.Ground(),
    "a:k3F9aXz1:41:t": actions.ClaimTime(),
}
OLD_ROUTED = {
    "a:k3F9aXz1:41:x": (buttons.REMATCH, ""),
    "a:k3F9aXz1:41:c": (buttons.RECORD, ""),
    "n:k3F9aXz1:41:taken_box": (buttons.INFO, "taken_box"),
    "N:123456789:0:b.3.2.am": (buttons.MENU, "b.3.2.am"),
    "N:123456789:0": (buttons.MENU, ""),
    "L:123456789:0:ru": (buttons.LANGUAGE, "ru"),
}


@pytest.mark.parametrize("data", sorted(OLD_ACTIONS))
def test_old_action_buttons_decode_to_their_action(data: str) -> None:
    tap = buttons.decode(data)
    assert tap.action() == OLD_ACTIONS[data]
    assert tap.kind.checks_version
    assert (tap.subject, tap.version) == ("k3F9aXz1", int(data.split(":")[2]))
    # and the table writes them exactly as before
    assert buttons.On(tap.subject, tap.version)(tap.kind, tap.value) == data


@pytest.mark.parametrize("data", sorted(OLD_ROUTED))
def test_old_routed_buttons_decode_to_their_kind(data: str) -> None:
    tap = buttons.decode(data)
    kind, value = OLD_ROUTED[data]
    assert (tap.kind, tap.value) == (kind, value)
    assert not tap.kind.checks_version
    assert tap.kind.data(tap.subject, tap.version, tap.value) == data
    with pytest.raises(ValueError):
        tap.action()


def test_every_kind_is_an_action_or_has_a_handler() -> None:
    routed = {k for k in buttons.KINDS if k.action is None}
    assert routed == set(ROUTES)
    assert len({k.name for k in buttons.KINDS}) == len(buttons.KINDS)


@pytest.mark.parametrize(
    "data", ["a:k3F9aXz1:41:zz", "a:k3F9aXz1:41", "q:k3F9aXz1:41", "P:k3F9aXz1:1:1.1"]
)
def test_data_no_button_carries_is_refused(data: str) -> None:
    with pytest.raises(BadCallback):
        buttons.decode(data)


def test_a_kind_refuses_a_value_it_has_no_field_for() -> None:
    on = buttons.On("k3F9aXz1", 3)
    with pytest.raises(ValueError):
        on(buttons.RESIGN, "x")
    with pytest.raises(ValueError):
        on(buttons.LEAVE, "x")
    with pytest.raises(ValueError):
        on(buttons.PLAY)


def test_data_stays_within_64_bytes() -> None:
    longest_id = "A" * 24
    assert len(buttons.RESIGN_SURE.data(longest_id, 999_999_999).encode()) <= MAX_BYTES
    with pytest.raises(ValueError):
        buttons.PLAY.data(longest_id, 999_999_999, "1" * 40)


@given(st.text(max_size=80))
def test_anything_either_decodes_or_is_refused(data: str) -> None:
    try:
        tap = buttons.decode(data)
    except BadCallback:
        return
    assert tap.kind in buttons.KINDS
