"""Every kind of inline button the bot shows, declared once: its wire form, its free field,
and what a tap on it asks for.

The wire grammar is :mod:`bot.match.callback` (``<op>:<subject>:<version>[:<arg>]``, at most
64 bytes). Several kinds may share an ``op`` and differ by a fixed ``arg`` (the ways to end a
match are all ``a:<id>:<version>:<letter>``); the others carry a value in ``arg`` (a move code,
a keyboard step, a menu path). The forms are the ones buttons already sent in chats carry, so
they must not change: a kind's ``op`` and ``sub`` are its identity on the wire.

A tap on a kind with an ``action`` is that action on the match the button names, at the
version the button was drawn for (:func:`bot.match.turns.apply` refuses a stale one with "the
board changed"). The other kinds are routed by the adapter to a handler of their own (menus,
language, rematch, the record file, info popups); ``tests/bot/test_buttons.py`` checks that
every such kind has one. A new button: a ``Kind`` here, and the line that shows it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from bot.match import actions
from bot.match.actions import Action
from bot.match.callback import MAX_BYTES, BadCallback, parse


@dataclass(frozen=True)
class Kind:
    """One kind of button. ``sub``: the fixed argument that tells it from the other kinds of
    its ``op``; ``field``: the name of its free argument ("" for none; ``optional`` when it may
    be empty); ``subject``: what the id field names (a match, or the user a menu belongs to);
    ``action``: the match action a tap stands for, None for kinds with a handler of their own;
    ``detached``: its message is not a board of the match (the typed-move chooser), so a tap
    acts on the match its data names at no place of it."""

    name: str
    op: str
    sub: str = ""
    field: str = ""
    optional: bool = False
    subject: Literal["match", "user", "anyone", "puzzle", "lesson"] = "match"
    action: Callable[[str], Action] | None = None
    detached: bool = False

    @property
    def checks_version(self) -> bool:
        """A tap acts on the match only at the version its button was drawn for."""
        return self.action is not None

    def data(self, subject: str, version: int = 0, value: str = "") -> str:
        """The callback data of one button of this kind."""
        if self.sub:
            if value:
                raise ValueError(f"button {self.name} takes no value")
            value = self.sub
        elif not self.field and value:
            raise ValueError(f"button {self.name} takes no value")
        elif self.field and not value and not self.optional:
            raise ValueError(f"button {self.name} needs its {self.field}")
        data = f"{self.op}:{subject}:{version}"
        if value:
            data += f":{value}"
        if len(data.encode()) > MAX_BYTES:
            raise ValueError(f"callback data too long: {data!r}")
        return data


# -- lobbies: ``<op>:<match>:<version>`` ---------------------------------------------------------
# A Join button under a game posted in inline mode carries the menu path it was offered with.
JOIN = Kind("join", "j", field="path", optional=True, action=lambda _: actions.Join())
LEAVE = Kind("leave", "l", action=lambda _: actions.Leave())
START = Kind("start", "s", action=lambda _: actions.Start())
CANCEL = Kind("cancel", "x", action=lambda _: actions.Cancel())
ADD_BOT = Kind("add_bot", "b", field="level", action=actions.AddBot)

# -- playing: a move's code (the game UI's compact form) and keyboard-only steps --------------
PLAY = Kind("play", "p", field="code", action=lambda code: actions.Play(code=code))
STEP = Kind("step", "c", field="step", action=actions.Cursor)
# A button that only explains (a drawn line, a taken point): ``what`` names the popup.
INFO = Kind("info", "n", field="what")
INFO_TOPICS = ("none", "drawn", "taken", "dead", "taken_box", "edge", "no_moves")

# -- ways to end a match, and what follows it: ``a:<match>:<version>:<letter>`` --------------
RESIGN = Kind("resign", "a", "r", action=lambda _: actions.Resign(False))
RESIGN_SURE = Kind("resign_sure", "a", "R", action=lambda _: actions.Resign(True))
OFFER_DRAW = Kind("offer_draw", "a", "d", action=lambda _: actions.OfferDraw())
OFFER_END = Kind("offer_end", "a", "e", action=lambda _: actions.OfferDraw(scores=True))
ACCEPT_DRAW = Kind("accept_draw", "a", "y", action=lambda _: actions.AnswerDraw(True))
DECLINE_DRAW = Kind("decline_draw", "a", "n", action=lambda _: actions.AnswerDraw(False))
STOP = Kind("stop", "a", "s", action=lambda _: actions.Stop())
DONE = Kind("done", "a", "f", action=lambda _: actions.Done())
GROUND = Kind("ground", "a", "g", action=lambda _: actions.Ground())
CLAIM_TIME = Kind("claim_time", "a", "t", action=lambda _: actions.ClaimTime())
REMATCH = Kind("rematch", "a", "x")
# A typed move that fits several of the player's games: one button per game plays it there.
CHOSEN = Kind(
    "chosen", "t", field="move", action=lambda text: actions.Play(text=text), detached=True
)
# /games and /new: bring a game's board down to the bottom of the chat (``g:<match>:<version>``;
# a list drawn before the game moved on is stale and refused, as a stale board is).
BRING = Kind("bring", "g")
RECORD = Kind("record", "a", "c")

# -- a user's own screens (no match, no version): ``<op>:<user>:0:<value>`` -------------------
# The /new menu is stateless: each button carries the path chosen so far.
MENU = Kind("menu", "N", field="path", optional=True, subject="user")
LANGUAGE = Kind("language", "L", field="lang", subject="user")
# A game's rules page (``R:0:0:<kind>``): anyone in the chat may open it.
RULES = Kind("rules", "R", field="game", subject="anyone")

# -- /puzzle: ``<op>:<puzzle id>:<attempt>[:<code>]`` (the attempt makes an older board stale) -
PUZZLE_PLAY = Kind("puzzle_play", "z", field="code", subject="puzzle")
# A keyboard step on a puzzle's board (a Рассада selection): ``<selection>=<step>``, the
# selection the board was drawn with (a puzzle board keeps no cursor anywhere else).
PUZZLE_STEP = Kind("puzzle_step", "zc", field="step", subject="puzzle")
PUZZLE_HINT = Kind("puzzle_hint", "zh", subject="puzzle")
PUZZLE_NEXT = Kind("puzzle_next", "zn", subject="puzzle")

# -- /learn: a course's screens and its tasks' boards ------------------------------------------
# The game picker (``y:0:0``) and a game's list of lessons (``y:0:0:<game>``): anyone's, as
# they show only the reader's own marks.
LEARN = Kind("learn", "y", field="game", optional=True, subject="anyone")
# Page n of a lesson (``yp:<lesson>:<n>``) and the start of its task n (``yt:<lesson>:<n>``).
LEARN_PAGE = Kind("learn_page", "yp", subject="lesson")
LEARN_TASK = Kind("learn_task", "yt", subject="lesson")
# A task's board, as a puzzle's (``<op>:<task id>:<attempt>[:<code>]``): a move, a keyboard
# step carrying its selection, the hint.
LEARN_PLAY = Kind("learn_play", "yz", field="code", subject="lesson")
LEARN_STEP = Kind("learn_step", "yc", field="step", subject="lesson")
LEARN_HINT = Kind("learn_hint", "yh", subject="lesson")

KINDS: tuple[Kind, ...] = (
    JOIN,
    LEAVE,
    START,
    CANCEL,
    ADD_BOT,
    PLAY,
    STEP,
    INFO,
    RESIGN,
    RESIGN_SURE,
    OFFER_DRAW,
    OFFER_END,
    ACCEPT_DRAW,
    DECLINE_DRAW,
    STOP,
    DONE,
    GROUND,
    CLAIM_TIME,
    REMATCH,
    RECORD,
    CHOSEN,
    BRING,
    MENU,
    LANGUAGE,
    RULES,
    PUZZLE_PLAY,
    PUZZLE_STEP,
    PUZZLE_HINT,
    PUZZLE_NEXT,
    LEARN,
    LEARN_PAGE,
    LEARN_TASK,
    LEARN_PLAY,
    LEARN_STEP,
    LEARN_HINT,
)
_BY_SUB = {(k.op, k.sub): k for k in KINDS if k.sub}
_BY_OP = {k.op: k for k in KINDS if not k.sub}
assert len(_BY_SUB) + len(_BY_OP) == len(KINDS), "two kinds share a wire form"
assert not set(_BY_OP) & {op for op, _ in _BY_SUB}, "an op is both plain and shared"


@dataclass(frozen=True)
class Tap:
    """A decoded button: its kind, the match (or user) it names, the version it was drawn
    for and its value ("" for kinds without a field)."""

    kind: Kind
    subject: str
    version: int
    value: str = ""

    def action(self) -> Action:
        if self.kind.action is None:
            raise ValueError(f"button {self.kind.name} is not a match action")
        return self.kind.action(self.value)


def decode(data: str | None) -> Tap:
    """The button behind callback data; :class:`BadCallback` for data no button of ours
    carries (an argument where a kind has no field is ignored, as it always was)."""
    cb = parse(data)
    kind = _BY_SUB.get((cb.op, cb.arg)) or _BY_OP.get(cb.op)
    if kind is None:
        raise BadCallback(f"no button {cb.op!r}")
    return Tap(kind, cb.match, cb.version, cb.arg if kind.field else "")


@dataclass(frozen=True)
class On:
    """The buttons of one match as it is now: ``on(PLAY, code)``, ``on(RESIGN)``."""

    match: str
    version: int

    def __call__(self, kind: Kind, value: str = "") -> str:
        return kind.data(self.match, self.version, value)


@dataclass(frozen=True)
class PuzzleOn(On):
    """The buttons of a puzzle's board: a game UI's move buttons (``on(PLAY, code)``) answer
    the puzzle (``match`` is its id, ``version`` the person's attempt); its keyboard steps
    (``on(STEP, op)``) carry ``selection``, the packed cursor the board was drawn with, so
    the step is applied to it; info buttons stay. A lesson task's board is the same with
    its own kinds (``play``, ``step``: :data:`LEARN_PLAY`, :data:`LEARN_STEP`)."""

    selection: str = ""
    play: Kind = PUZZLE_PLAY
    step: Kind = PUZZLE_STEP

    def __call__(self, kind: Kind, value: str = "") -> str:
        if kind is PLAY:
            kind = self.play
        elif kind is STEP:
            kind, value = self.step, f"{self.selection}={value}"
        elif kind is not INFO:
            raise ValueError(f"a puzzle board has no {kind.name} button")
        return kind.data(self.match, self.version, value)


def menu(user: int, path: str = "") -> str:
    """A /new menu button of ``user`` (only they may use it) at ``path``."""
    return MENU.data(str(user), 0, path)


def language(user: int, lang: str) -> str:
    return LANGUAGE.data(str(user), 0, lang)


def rules(kind: str) -> str:
    """A button that opens the rules page of the game ``kind``."""
    return RULES.data("0", 0, kind)
