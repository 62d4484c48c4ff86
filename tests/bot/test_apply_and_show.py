"""``turns.apply_and_show``: the adapter's one call per action gives apply's effects and the
views of exactly the places they refresh, as ``views.place_view`` draws them."""

from __future__ import annotations

import pytest

from bot.match import links, turns, views
from bot.match.actions import Actor, Cursor, Play, Refused
from bot.match.effects import Refresh
from bot.match.model import Match

ALICE, BOB = Actor(1, "Alice"), Actor(2, "Bob")
NOW = 1_000_000.0


def _dots_match() -> Match:
    """A link game: a board in each player's private chat (two places)."""
    match = links.new_challenge(
        match_id="abc123",
        kind="dots",
        options={"width": 10, "height": 10},
        creator=ALICE,
        chat=ALICE.user,
        lang="en",
        now=NOW,
    )
    match.places[0].msg = 7  # the creator's board was sent
    links.join_by_link(match, BOB, BOB.user, "en", NOW)
    assert match.status == "active" and len(match.places) == 2
    return match


def test_a_move_gives_the_view_of_every_place() -> None:
    match = _dots_match()
    applied = turns.apply_and_show(match, ALICE, Play(code="4.4"), now=NOW, version=match.version)
    assert any(isinstance(e, Refresh) for e in applied.effects)
    assert set(applied.views) == {0, 1}
    for i, view in applied.views.items():
        assert view == views.place_view(match, i, NOW)
        assert applied.view(i) is view  # drawn once, kept


def test_a_keyboard_step_gives_the_view_of_its_place_only() -> None:
    match = _dots_match()
    before = match.version
    applied = turns.apply_and_show(match, BOB, Cursor("menu"), now=NOW, place=1)
    assert match.version == before
    assert list(applied.views) == [1]
    assert applied.views[1].keyboard == views.keyboard(match, 1)


def test_a_refusal_is_apply_s_and_changes_nothing() -> None:
    match = _dots_match()
    before = match.to_json()
    with pytest.raises(Refused) as refused:
        turns.apply_and_show(match, ALICE, Play(code="4.4"), now=NOW, version=match.version - 1)
    assert refused.value.text.key == "err.stale"
    assert match.to_json() == before


def test_places_with_nowhere_to_show_are_left_out() -> None:
    match = _dots_match()
    match.places[0].off = True  # the user blocked the bot
    applied = turns.apply_and_show(match, ALICE, Play(code="4.4"), now=NOW, version=match.version)
    assert set(applied.views) == {1}
