"""Keyboards stay inside Telegram's limits on every board, and every Dots point is at most
three taps away from any window (map → window → point)."""

from __future__ import annotations

from itertools import combinations
from typing import Any

import pytest

from bot.match import buttons, model, views
from bot.match.actions import Actor, Cursor, Refused
from bot.match.menus import DOTS_SIZES
from bot.match.model import Match
from bot.match.turns import apply
from bot.match.ui.dots import H, W, map_cells, map_windows
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


State = tuple[tuple[int, int], bool]  # a Dots board's window and whether its map is open


def _dots_graph(match: Match) -> tuple[dict[State, set[tuple[int, int]]], dict[State, set[State]]]:
    """Every state of place 0's Dots keyboard: the points its buttons play, and the states
    its window buttons lead to, each tap decoded and applied as the bot does (menu and back
    are left out: they lead away from the points and back)."""
    game: Any = match.game
    starts = [
        ((x, y), m)
        for x in range(max(1, game.width - W + 1))
        for y in range(max(1, game.height - H + 1))
        for m in (False, True)
    ]
    shown: dict[State, set[tuple[int, int]]] = {}
    leads: dict[State, set[State]] = {}
    todo = list(starts)
    while todo:
        state = todo.pop()
        if state in shown:
            continue
        shown[state], leads[state] = set(), set()
        for b in (b for row in views.keyboard(_at(match, state), 0) for b in row):
            tap = buttons.decode(b.data)
            if tap.kind is buttons.PLAY:
                x, y = map(int, tap.value.split("."))
                shown[state].add((x, y))
            elif tap.kind is buttons.STEP and tap.value not in ("menu", "back"):
                at = _at(match, state)
                try:
                    apply(at, ALICE, Cursor(tap.value), now=1.0, place=0)
                except Refused:
                    continue  # an edge: the tap changes nothing
                w = at.places[0].cursor["w"]
                nxt = ((w[0], w[1]), bool(at.places[0].cursor.get("map")))
                leads[state].add(nxt)
                todo.append(nxt)
    return shown, leads


def _at(match: Match, state: State) -> Match:
    """``match`` with place 0's keyboard put in ``state`` (taps change only the cursor)."""
    cursor: model.Cursor = {"w": list(state[0])}
    if state[1]:
        cursor["map"] = 1
    match.places[0].cursor = cursor
    return match


@pytest.mark.parametrize("size", sorted(DOTS_SIZES))
def test_every_dots_point_is_at_most_three_taps_away_from_any_window(size: str) -> None:
    """From every window (map open or not) of every board the menu offers, each point of an
    empty board is played within three taps: two window taps at most, then the point."""
    options = DOTS_SIZES[size]
    match = _match("dots", dict(options))
    game: Any = match.game
    shown, leads = _dots_graph(match)
    points = {
        (x, y) for x in range(game.width) for y in range(game.height) if game.cell(x, y).empty
    }
    assert len(points) >= game.width * game.height - 4  # the modern board's starting cross
    for start in shown:
        near = {start} | leads[start]
        near |= {s for n in list(near) for s in leads[n]}
        reached = set().union(*(shown[s] for s in near))
        assert points <= reached, (start, sorted(points - reached)[:5])


@pytest.mark.parametrize("size", sorted(DOTS_SIZES))
def test_dots_map_windows_cover_the_board_and_overlap_by_half_at_most(size: str) -> None:
    match = _match("dots", dict(DOTS_SIZES[size]))
    game: Any = match.game
    windows = map_windows(game.width, game.height)
    if game.width <= 10:  # just bigger than a window: any map would repeat itself
        assert windows == ()
        return
    covered = {(x + i, y + j) for x, y, w, h in windows for i in range(w) for j in range(h)}
    assert covered == {(x, y) for x in range(game.width) for y in range(game.height)}
    for a, b in combinations(windows, 2):
        ox = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
        oy = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
        assert max(0, ox) * max(0, oy) * 2 <= W * H, (a, b)
    parts = map_cells(game.width, game.height)  # the picture's parts tile the board
    assert sum(w * h for _, _, w, h in parts) == game.width * game.height
    for (x, y, w, h), (wx, wy, ww, wh) in zip(parts, windows, strict=True):
        assert wx <= x and x + w <= wx + ww and wy <= y and y + h <= wy + wh


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
