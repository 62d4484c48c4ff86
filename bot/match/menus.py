"""The `/new` menu: choose a game, its size and variants, then the opponent (and, on the
way, a clock).

The menu is stateless: each button carries the path chosen so far (:data:`buttons.MENU`), so
it survives restarts and needs no storage. Only the user who opened the menu may use it.

A path is ``<game>.<size>.<variants>.<opponent>[.<clock>]``: the opponent ``o`` is the
opponent screen, ``c`` the clock screen, ``g`` the friends or the group, ``a<level>`` the
bot; the clock is a code of :data:`clocks.CLOCKS` (none when left out). Menus sent before
clocks came after the opponent carry ``g<clock>`` (a lobby with a per-move clock): still read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import engine
from bot import rules
from bot.i18n import Text
from bot.match.actions import Refused
from bot.match.buttons import menu
from bot.match.clocks import CLOCKS, NO_CLOCK, Control, name
from bot.match.ui import Button, Keyboard

KINDS = {"d": "dots", "b": "boxes", "s": "sprouts"}
DOTS_SIZES: dict[str, dict[str, Any]] = {
    "q": {"preset": "quick"},
    "t": {"preset": "tournament"},
    "m": {"preset": "modern"},
    "s": {"width": 10, "height": 10},
    "l": {"width": 20, "height": 20},
}
DOTS_FLAGS = (("g", "grounding", True), ("t", "scoring", "territory"), ("e", "edge", "capturable"))
BOX_BOARDS: dict[str, dict[str, Any]] = {
    "3": {"rows": 3, "cols": 3},
    "35": {"rows": 3, "cols": 5},
    "4": {"rows": 4, "cols": 4},  # no longer offered; kept for menus sent before
    "5": {"rows": 5, "cols": 5},  # 6×6 dots: the usual school Палочки
    "8": {"rows": 8, "cols": 8},
    "x": {"shape": "cross"},
    "r": {"shape": "ring"},
    "d": {"shape": "diamond"},
    "h": {"shape": "heart"},
}
BOX_RECTANGLES = ("3", "35", "5", "8")  # offered, with the shapes
BOX_BORDER = "p"  # Палочки: the outline drawn from the start (a flag after the player count)
SPROUT_SPOTS = tuple(range(2, 11))
# One tap from /new: a quick game against the bot at medium level.
QUICK = {"d": "d.q.-.am", "b": "b.3.2.am", "s": "s.4.-.am"}


# A level's menu letter is its first, but where an earlier level has that letter already.
LEVEL_LETTERS = {"expert": "x"}


def level_codes(kind: str) -> dict[str, str]:
    """The AI levels the menu offers for a game (the engine's facts), by their menu letter."""
    return {LEVEL_LETTERS.get(level, level[0]): level for level in engine.facts_of(kind).levels}


@dataclass(frozen=True)
class Choice:
    """A finished menu path: what to create and against whom."""

    kind: str
    options: dict[str, Any]
    ai_level: str | None  # None: a lobby for friends / the group
    clock: Control = NO_CLOCK
    # the path of the same game for friends (a link's "play in a group"): follows from the rest
    lobby: str = field(default="", compare=False)


@dataclass(frozen=True)
class Screen:
    text: Text
    keyboard: Keyboard


def _cb(user: int, path: str) -> str:
    return menu(user, path)


def root(user: int) -> Screen:
    """A row per game: its menu, and beside it the quick game against the bot. Three quick
    buttons in one row left a third of a phone's width each: "⚡ Sprouts vs …"."""
    rows: Keyboard = [
        [
            Button(Text(f"game.{kind}"), _cb(user, code)),
            Button(Text(f"menu.quick_{kind}"), _cb(user, QUICK[code])),
        ]
        for code, kind in KINDS.items()
    ]
    return Screen(Text("menu.choose_game"), rows)


def screen(user: int, path: str, *, private: bool) -> Screen | Choice:
    """The screen for a partial path, or the finished Choice."""
    parts = path.split(".") if path else []
    if not parts:
        return root(user)
    code = parts[0]
    if code not in KINDS:
        raise Refused("err.bad_button")
    kind = KINDS[code]
    if len(parts) == 1:
        return _size_screen(user, code)
    size = parts[1]
    if len(parts) == 2:
        return _variant_screen(user, code, size, "-")
    flags = parts[2]
    if len(parts) == 3:
        return _variant_screen(user, code, size, flags)
    opponent = parts[3]
    options = build_options(kind, code, size, flags)
    base = ".".join(parts[:3])
    if len(parts) > 5 or (len(parts) == 5 and parts[4] not in CLOCKS):
        raise Refused("err.bad_button")
    clock = parts[4] if len(parts) == 5 and CLOCKS[parts[4]] else ""
    if opponent[0] == "g" and opponent[1:] in CLOCKS and not clock:  # an older menu's lobby
        clock, opponent = opponent[1:] if CLOCKS[opponent[1:]] else "", "g"
    then = f".{clock}" if clock else ""
    if opponent == "o":
        return _opponent_screen(user, base, then, kind, private=private)
    if opponent == "c":
        return _clock_screen(user, base, clock)
    choice = Choice(kind, options, None, CLOCKS[clock or "0"], f"{base}.g{then}")
    if opponent == "g":
        return choice
    levels = level_codes(kind)
    if len(opponent) == 2 and opponent[0] == "a" and opponent[1] in levels:
        return Choice(kind, options, levels[opponent[1]], choice.clock, choice.lobby)
    raise Refused("err.bad_button")


def lobby_path(path: str) -> str:
    """The full menu path of a group lobby link's payload: older links name the game only
    (``d.q.-``), newer ones the opponent and the clock too (``d.q.-.g.t3i2``)."""
    return path if path.count(".") >= 3 else f"{path}.g"


def build_options(kind: str, code: str, size: str, flags: str) -> dict[str, Any]:
    try:
        if code == "d":
            options = dict(DOTS_SIZES[size])
            for letter, key, value in DOTS_FLAGS:
                if letter in flags:
                    if "preset" in options:  # variants apply on top of the preset's size
                        options = _dots_preset_options(options["preset"])
                    options[key] = value
            return options
        if code == "b":
            options = dict(BOX_BOARDS[size])
            count = flags.removesuffix(BOX_BORDER)
            players = 2 if count in ("", "-") else int(count)
            if not 2 <= players <= 4:
                raise ValueError(players)
            options["players"] = players
            if flags.endswith(BOX_BORDER):
                options["border"] = True
            return options
        spots = int(size)
        if spots not in SPROUT_SPOTS:
            raise ValueError(spots)
        return {"spots": spots, "misere": "m" in flags}
    except (KeyError, ValueError) as e:
        raise Refused("err.bad_button") from e


def _dots_preset_options(preset: str) -> dict[str, Any]:
    return dict(engine.game_class("dots").PRESETS[preset])


def _size_screen(user: int, code: str) -> Screen:
    if code == "d":
        rows = [[Button(Text(f"menu.dots_{k}"), _cb(user, f"d.{k}"))] for k in DOTS_SIZES]
    elif code == "b":
        rows = [
            [_box_size_button(user, k) for k in BOX_RECTANGLES],
            [
                Button(Text(f"shape.{BOX_BOARDS[k]['shape']}"), _cb(user, f"b.{k}.2"))
                for k in "xrdh"
            ],
        ]
    else:
        rows = [
            [Button(str(n), _cb(user, f"s.{n}")) for n in SPROUT_SPOTS[i : i + 5]]
            for i in range(0, len(SPROUT_SPOTS), 5)
        ]
    rows.append([Button(Text("btn.back"), _cb(user, "")), rules.button(KINDS[code])])
    return Screen(Text(f"menu.size_{KINDS[code]}"), rows)


def _box_size_button(user: int, code: str) -> Button:
    board = BOX_BOARDS[code]
    return Button(f"{board['rows']}×{board['cols']}", _cb(user, f"b.{code}.2"))


def _variant_screen(user: int, code: str, size: str, flags: str) -> Screen:
    base = f"{code}.{size}"
    rows: Keyboard = []
    if code == "d":
        for letter, key, _ in DOTS_FLAGS:
            on = letter in flags
            toggled = flags.replace(letter, "") if on else flags.replace("-", "") + letter
            mark = "☑" if on else "☐"
            rows.append(
                [Button(Text(f"menu.flag_{key}", mark=mark), _cb(user, f"{base}.{toggled or '-'}"))]
            )
    elif code == "b":
        border = flags.endswith(BOX_BORDER)
        count = flags.removesuffix(BOX_BORDER)
        keep = BOX_BORDER if border else ""
        rows = [
            [
                Button(
                    Text("menu.players", n=n, mark="●" if count == str(n) else "○"),
                    _cb(user, f"{base}.{n}{keep}"),
                )
                for n in (2, 3, 4)
            ],
            [
                Button(
                    Text("menu.flag_border", mark="☑" if border else "☐"),
                    _cb(user, f"{base}.{count}{'' if border else BOX_BORDER}"),
                )
            ],
        ]
    else:
        on = "m" in flags
        rows.append(
            [
                Button(
                    Text("menu.flag_misere", mark="☑" if on else "☐"),
                    _cb(user, f"{base}.{'-' if on else 'm'}"),
                )
            ]
        )
    rows.append([Button(Text("btn.next"), _cb(user, f"{base}.{flags}.o"))])
    rows.append([Button(Text("btn.back"), _cb(user, code)), rules.button(KINDS[code])])
    return Screen(Text(f"menu.variants_{KINDS[code]}"), rows)


def _opponent_screen(user: int, base: str, then: str, kind: str, *, private: bool) -> Screen:
    """The bot's levels, the friends or the group, and the clock chosen so far (``then``:
    ``.<clock code>`` or empty), which each of them carries on."""
    bots = [
        Button(Text(f"menu.vs_{level}"), _cb(user, f"{base}.a{code}{then}"))
        for code, level in level_codes(kind).items()
    ]
    per_row = 3 if len(bots) <= 3 else 2  # four names in one row do not fit a phone
    rows: Keyboard = [bots[k : k + per_row] for k in range(0, len(bots), per_row)]
    friends = "menu.vs_friend" if private else "menu.vs_group"
    rows.append([Button(Text(friends), _cb(user, f"{base}.g{then}"))])
    clock = CLOCKS[then[1:] or "0"]
    rows.append([Button(Text("menu.clock", clock=name(clock)), _cb(user, f"{base}.c{then}"))])
    rows.append([Button(Text("btn.back"), _cb(user, base.rsplit(".", 1)[0]))])
    return Screen(Text("menu.choose_opponent"), rows)


def _clock_screen(user: int, base: str, chosen: str) -> Screen:
    """None, the per-move clocks and the whole-game ones; a choice goes back to the opponent
    screen with the clock on."""

    def pick(code: str) -> Button:
        mark = "● " if code == (chosen or "0") else ""
        then = f".{code}" if CLOCKS[code] else ""
        clock = name(CLOCKS[code]) if CLOCKS[code] else Text("menu.no_clock")
        return Button(
            Text("menu.clock_pick", mark=mark, clock=clock),
            _cb(user, f"{base}.o{then}"),
        )

    # Two per-move clocks to a row and one whole-game clock ("5 min per game + 3 s"): more
    # to a row cut the labels short on a phone.
    per_move = [k for k, c in CLOCKS.items() if c.per_move]
    whole = [k for k, c in CLOCKS.items() if c.total]
    rows: Keyboard = [[pick("0")]]
    rows += [[pick(k) for k in per_move[i : i + 2]] for i in range(0, len(per_move), 2)]
    rows += [[pick(k)] for k in whole]
    rows.append([Button(Text("btn.back"), _cb(user, f"{base}.o{'.' + chosen if chosen else ''}"))])
    return Screen(Text("menu.choose_clock"), rows)
