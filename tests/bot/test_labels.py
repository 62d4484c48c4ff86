"""Labels that fit a phone: the picture header's lines measured at the picture's font
(Pillow), and the start and menu keyboards' button texts counted against a phone's row.

Cut-offs players saw: "⚡ Sprouts vs …" (three quick games in one row), "Tetrad bot
(mediu…" and "Точки и квадраты · 3…" in picture headers."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from typing import Any

import pytest

import engine
import render
from bot import pictures
from bot.i18n import Text, t
from bot.match import lobby, menus
from bot.match.actions import Actor, Refused
from bot.match.buttons import MENU, BadCallback, decode
from bot.match.model import Match, Seat
from bot.match.ui import Keyboard
from bot.telegram import challenge
from render.common import NAME_PX, STATUS_PX, font, text_width
from render.strings import say

LANGS = ("en", "ru")
SHORT = {"en": ["Alice", "Bob", "Carol", "Dan"], "ru": ["Алиса", "Борис", "Вера", "Глеб"]}
# As long as a stored name gets (lobby.MAX_NAME), in the widest letters either language has.
LONG = {
    "en": ["Maximilian Wolfgang Montgomery", "Bartholomew Washington-Wells Jr"],
    "ru": ["Александра Константиновна Широ", "Многоуважаемый Шахматный Гроссм"],
}
# A phone's inline keyboard row holds about 40 characters: three buttons to a row on a
# 412-px phone showed "⚡ Sprouts vs …", 12 characters and the ellipsis in a third.
ROW_CHARS = 40


def chars(label: str) -> int:
    """A label's length in narrow characters: an emoji or symbol counts as two."""
    wide = {"So", "Sk"}
    return sum(
        2 if unicodedata.category(c) in wide or 0x2190 <= ord(c) <= 0x2BFF else 1
        for c in label
        if unicodedata.category(c) not in ("Mn", "Me", "Cf")
    )


def room(row: int) -> int:
    """The characters a button's text may have when ``row`` buttons share the row."""
    return (ROW_CHARS - (row - 1)) // row


def menu_screens(private: bool) -> Iterator[tuple[str, menus.Screen | menus.Choice]]:
    """Every screen and finished choice of the /new menu, from its root by its buttons."""
    seen: set[str] = set()
    todo = [""]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        try:
            screen = menus.screen(7, path, private=private)
        except Refused:
            continue
        yield path, screen
        if isinstance(screen, menus.Choice):
            continue
        for row in screen.keyboard:
            for b in row:
                try:
                    tap = decode(b.data) if b.kind == "callback" else None
                except BadCallback:
                    continue
                if tap is not None and tap.kind is MENU:
                    todo.append(tap.value)


def too_long(rows: Keyboard, lang: str) -> list[str]:
    out = []
    for row in rows:
        for b in row:
            label = t(lang, b.text) if isinstance(b.text, Text) else b.text
            if chars(label) > room(len(row)):
                out.append(f"{label!r}: {chars(label)} > {room(len(row))} ({len(row)} in a row)")
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_every_menu_button_fits_a_phone(lang: str) -> None:
    keyboards = [menus.root(7).keyboard, challenge.choose_rows(7)]
    for private in (True, False):
        keyboards += [s.keyboard for _, s in menu_screens(private) if isinstance(s, menus.Screen)]
    assert len(keyboards) > 50
    problems = sorted({p for rows in keyboards for p in too_long(rows, lang)})
    assert problems == []


def test_the_start_keyboard_pairs_each_game_with_its_quick_game() -> None:
    rows = menus.root(7).keyboard
    assert [[t("en", b.text) for b in row] for row in rows] == [  # type: ignore[arg-type]
        ["Dots", "⚡ Dots vs bot"],
        ["Dots and Boxes", "⚡ Boxes vs bot"],
        ["Sprouts", "⚡ Sprouts vs bot"],
    ]


def test_the_budget_catches_the_cut_off_that_was_seen() -> None:
    assert chars("⚡ Sprouts vs bot") > room(3)  # three to a row: cut on a phone
    assert chars("⚡ Sprouts vs bot") <= room(2)


# -- the picture header ----------------------------------------------------------------------


def games() -> Iterator[tuple[str, dict[str, Any], str | None]]:
    """Each game the menu can start: its kind, options and the bot's level (None: people)."""
    seen = set()
    for private in (True, False):
        for _, choice in menu_screens(private):
            if isinstance(choice, menus.Choice):
                key = (choice.kind, repr(sorted(choice.options.items())), choice.ai_level)
                if key not in seen:
                    seen.add(key)
                    yield choice.kind, choice.options, choice.ai_level


def match_of(kind: str, options: dict[str, Any], level: str | None, names: list[str]) -> Match:
    match, _ = lobby.new_match(
        match_id="m1",
        kind=kind,
        options=dict(options),
        creator=Actor(1, names[0]),
        chat=1,
        group=level is None,
        lang="en",
        now=0.0,
        ai_level=level,
    )
    for i in range(len(match.seats), match.players):
        match.seats.append(Seat(i + 1, lobby.clean_name(names[i % len(names)])))
    if match.status == "lobby":
        lobby.start(match, 0.0)
    return match


# A game's positions after its first moves, by (kind, options, plies before, moves): the
# matches that differ only by their seats (levels, names) share them, reloaded from the
# record instead of played again (a Рассада move routes its curve: most of the tests' time).
_PLAYED: dict[tuple[str, str, int, int], dict[str, Any]] = {}


def play(match: Match, moves: int) -> None:
    key = (match.kind, repr(sorted(match.options.items())), match.game.ply, moves)
    if key not in _PLAYED:
        game = match.game
        for _ in range(moves):
            if game.over:
                break
            game.play(game.legal_moves()[0])
        _PLAYED[key] = game.to_json()
    match.attach(engine.load(_PLAYED[key]))


def headers(lang: str, names: list[str]) -> Iterator[tuple[Match, Any, render.HeaderText]]:
    for kind, options, level in games():
        match = match_of(kind, options, level, names)
        for moves in (0, 3, 12):  # a fresh board, a few moves, a long counter
            play(match, moves)
            view = pictures.view_of(match, lang)
            yield match, view, render.header_text(match.game, view)
        if not match.game.over:  # a small Рассада may have ended by itself
            match.game.resign(match.game.turn)
        view = pictures.view_of(match, lang)
        yield match, view, render.header_text(match.game, view)


@pytest.mark.parametrize("lang", LANGS)
def test_every_header_shows_its_title_and_names_whole(lang: str) -> None:
    """All games × sizes × variants × players × bot levels or people: the title, the bot's
    name, people's usual names and the status line are drawn whole."""
    count = 0
    for match, view, words in headers(lang, SHORT[lang]):
        count += 1
        what = f"{view['title']} ({match.id}, {view['players']})"
        assert words.title == view["title"], what
        assert list(words.names) == view["players"], what
        assert "…" not in words.status, what
    assert count > 300


@pytest.mark.parametrize("lang", LANGS)
def test_long_names_end_in_an_ellipsis_and_the_status_keeps_its_words(lang: str) -> None:
    for match, view, words in headers(lang, LONG[lang]):
        assert words.title == view["title"]
        over, turn = match.game.over, match.game.turn
        rows = zip(words.names, view["players"], words.name_rooms, strict=True)
        for i, (shown, full, space) in enumerate(rows):
            # at the picture's font (1280 px: the scale is 1), bold for the seat to move
            assert text_width(shown, font(NAME_PX, bold=not over and turn == i)) <= space
            if shown != full:
                assert shown.endswith("…") and full.startswith(shown[:-1].rstrip()), shown
                # still a name: "Max…" in a quarter of the width, much more in a half
                assert len(shown) >= (4 if len(words.names) > 2 else 12), shown
            else:
                assert match.seats[view["players"].index(full)].is_ai or len(full) < 20
        assert text_width(words.status, font(STATUS_PX, bold=over)) <= words.status_room
        result = match.game.result
        if result is not None:  # the reason and the score stay, however long the names
            reason = say(lang, f"how.{result.reason}", loser="").strip(" :")
            assert reason in words.status, words.status
            assert (" : " in words.status) == match.facts.scored, words.status


def test_the_bot_is_named_by_level_alone_or_numbered_among_several() -> None:
    alone = match_of("boxes", {"rows": 3, "cols": 3}, "medium", ["Alice"])
    assert pictures.picture_names(alone, "ru") == ["Alice", "Бот (средний)"]
    many = match_of("boxes", {"rows": 3, "cols": 3, "players": 4}, "hard", ["Alice"])
    assert pictures.picture_names(many, "en") == ["Alice", "Bot 1", "Bot 2", "Bot 3"]
