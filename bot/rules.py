"""/rules without Telegram: which game a word names, what a game's rules page holds, and the
buttons that open one (the /rules chooser and the game menus).

A page is the rules text (``rules.<kind>``) and the example pictures of bot/examples.py, each
with its caption (``rules.<example>``). Rules buttons carry ``R:0:0:<kind>``: anyone may tap
them (they only show text), so they name no user and no match.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.i18n import Text
from bot.match import buttons
from bot.match.callback import BadCallback
from bot.match.ui import Button, Keyboard

KINDS = ("dots", "boxes", "sprouts")  # the order of the chooser
# What a player may type after /rules, in either language (any case); "палочки" is the
# school name of Dots and Boxes with the outline drawn.
NAMES: dict[str, str] = {
    "dots": "dots", "точки": "dots",
    "boxes": "boxes", "dots and boxes": "boxes", "квадраты": "boxes", "точки и квадраты": "boxes",
    "палочки": "boxes",
    "sprouts": "sprouts", "рассада": "sprouts",
}  # fmt: skip
# Each game's example pictures, by their names in bot/examples.py (which draws them; this
# module stays free of engine and render, so the game menus can build rules buttons).
PAGES: dict[str, tuple[str, ...]] = {
    "dots": ("dots_capture", "dots_intruder"),
    "boxes": ("boxes_chain", "boxes_border"),
    "sprouts": ("sprouts_join", "sprouts_loop"),
}
MIN_PREFIX = 3  # "dot", "box", "рас" are enough


@dataclass(frozen=True)
class Example:
    picture: str  # a name in bot.examples.EXAMPLES
    caption: Text


@dataclass(frozen=True)
class Page:
    kind: str
    text: Text
    examples: tuple[Example, ...]


def kind_of(word: str) -> str | None:
    """The game typed words name (a name or its first letters: the shortest name that
    starts so wins, "dot" is Dots), else None."""
    word = " ".join(word.lower().replace("ё", "е").split())
    if word in NAMES:
        return NAMES[word]
    if len(word) < MIN_PREFIX:
        return None
    names = sorted((name for name in NAMES if name.startswith(word)), key=len)
    return NAMES[names[0]] if names else None


def page(kind: str) -> Page:
    examples = tuple(Example(name, Text(f"rules.{name}")) for name in PAGES[kind])
    return Page(kind, Text(f"rules.{kind}"), examples)


def button(kind: str) -> Button:
    """The "📖 Rules" button of a game's menu."""
    return Button(Text("rules.button"), _data(kind))


def chooser() -> Keyboard:
    return [[Button(Text(f"game.{kind}"), _data(kind))] for kind in KINDS]


def decode(data: str | None) -> str | None:
    """The game a rules button names; None for anything no rules button carries."""
    try:
        tap = buttons.decode(data)
    except BadCallback:
        return None
    return game_of(tap)


def game_of(tap: buttons.Tap) -> str | None:
    """The game of a decoded rules button (None for another kind or an unknown game)."""
    if tap.kind is not buttons.RULES or tap.value not in KINDS:
        return None
    return tap.value


def _data(kind: str) -> str:
    return buttons.rules(kind)
