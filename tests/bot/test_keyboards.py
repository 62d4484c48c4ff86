"""Keyboards stay inside Telegram's limits on every board, and every Dots point is at most
three taps away (map → region → point)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.match import views
from bot.match.actions import Actor, Cursor
from bot.match.model import Match
from bot.match.turns import apply
from tests.bot.helpers import group_match

ALICE = Actor(1, "Alice")


def _match(kind: str, options: dict[str, Any], moves: int = 0, seed: int = 0) -> Match:
    return group_match(kind, options, moves=moves, seed=seed)


def _check_limits(match: Match) -> None:
    rows = views.keyboard(match, 0)
    flat = [b for row in rows for b in row]
    assert 0 < len(flat) <= 100, len(flat)
    assert all(len(row) <= 8 for row in rows)
    assert all(1 <= len(b.data.encode()) <= 64 for b in flat)


CASES = [
    ("dots", {"preset": "tournament"}),
    ("dots", {"preset": "modern"}),
    ("dots", {"width": 5, "height": 5}),
    ("boxes", {"rows": 5, "cols": 5}),
    ("boxes", {"rows": 12, "cols": 12}),
    ("boxes", {"shape": "heart"}),
]


@pytest.mark.parametrize(("kind", "options"), CASES)
@pytest.mark.parametrize("moves", [0, 30, 400])
def test_keyboards_fit_telegram_limits(kind: str, options: dict[str, Any], moves: int) -> None:
    match = _match(kind, options, moves)
    if match.game.over:
        return
    _check_limits(match)
    for op in ("menu", "back"):
        apply(match, ALICE, Cursor(op), now=1.0, place=0)
        _check_limits(match)


@pytest.mark.parametrize("preset", ["tournament", "modern"])
def test_every_dots_point_is_at_most_three_taps_away(preset: str) -> None:
    match = _match("dots", {"preset": preset})
    game: Any = match.game
    apply(match, ALICE, Cursor("m"), now=1.0, place=0)
    regions = [
        b.data.split(":")[3]
        for row in views.keyboard(match, 0)
        for b in row
        if b.data.split(":")[3].startswith("g")
    ]
    reachable: set[tuple[int, int]] = set()
    for region in regions:
        apply(match, ALICE, Cursor(region), now=1.0, place=0)
        for row in views.keyboard(match, 0):
            for b in row:
                op, arg = b.data.split(":")[0], b.data.split(":")[-1]
                if op == "p":
                    x, y = map(int, arg.split("."))
                    reachable.add((x, y))
        apply(match, ALICE, Cursor("m"), now=1.0, place=0)
    points = {
        (x, y)
        for x in range(game.width)
        for y in range(game.height)
        if game.cell(x, y).empty and not game.cell(x, y).dead
    }
    assert len(points) >= game.width * game.height - 4
    assert points <= reachable, f"unreachable: {sorted(points - reachable)[:5]}"


@pytest.mark.parametrize(
    ("options", "named", "arrows"),
    [
        ({"rows": 5, "cols": 5}, False, False),  # one button per line: the buttons are the board
        ({"shape": "diamond"}, True, False),  # one button per line, but boxes are missing
        ({"shape": "heart"}, True, False),  # boxes by name; the window is the whole board
        ({"rows": 12, "cols": 12}, True, True),  # boxes by name in a window that moves
    ],
)
def test_boxes_pictures_name_what_the_keyboard_names(
    options: dict[str, Any], named: bool, arrows: bool
) -> None:
    match = _match("boxes", options, moves=6)
    view = views.place_view(match, 0)
    assert bool(view.picture.get("labels")) is named
    texts = {b.text for row in view.keyboard for b in row}
    assert ("◀" in texts) is arrows


@pytest.mark.parametrize(("kind", "scored"), [("dots", True), ("boxes", True), ("sprouts", False)])
def test_captions_show_scores_only_where_the_game_keeps_them(kind: str, scored: bool) -> None:
    match = _match(kind, {})
    assert ("<b>Alice</b> — 0" in views.caption(match, match.places[0])) is scored


def test_done_is_shown_only_to_the_player_moving_alone_after_stop() -> None:
    """Against the bot: after the person's STOP the bot moves alone and ends its phase itself
    (no Done for anyone); after the bot's STOP the person moves alone and has Done."""
    done = "✅ Done"
    match = _match("dots", {"width": 10, "height": 10}, moves=4)
    game: Any = match.game
    assert match.seats[1].is_ai
    people_stop = game.copy()
    people_stop.stop(0)
    match.attach(people_stop)
    assert done not in [b.text for row in views.keyboard(match, 0) for b in row]
    bot_stop = game.copy()
    bot_stop.stop(1)
    match.attach(bot_stop)
    assert done in [b.text for row in views.keyboard(match, 0) for b in row]
