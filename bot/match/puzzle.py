"""The /puzzle flow's pure part: a puzzle shown as a board with the game's own keyboard, a
tap read as a move, the next puzzle at the person's level, and the words of each step.

A puzzle is shown through a stand-in :class:`Match` (the puzzle's position, the person in
the seat to move), so the game UI's keyboard (:mod:`bot.match.ui`), its selection steps (a
Рассада spot → spot → curve) and the board picture are the ones matches use; only its
buttons' wire form differs (:class:`buttons.PuzzleOn`). A puzzle keeps no cursor: each step
button carries the selection it was drawn with (:func:`pack`), and the step is applied to it.
"""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol, cast

from bot.i18n import Text
from bot.match import dotspuzzle, ui
from bot.match.actions import Refused
from bot.match.buttons import PUZZLE_HINT, PUZZLE_NEXT, PUZZLE_PLAY, PUZZLE_STEP, Kind, PuzzleOn
from bot.match.model import Cursor, Match, Place, Seat
from bot.match.ui import Button, Keyboard, PictureView
from engine.core import Game
from engine.puzzles import Puzzle

NEAREST = 5  # the next puzzle is drawn from this many unsolved ones nearest the person's level
# one packed cursor entry: "a3", "i-1", or a pair (a Точки window's corner) "w3.5"
_PART = re.compile(r"^([a-z]{1,3})(-?\d{1,3})(?:\.(-?\d{1,3}))?$")
_PATH = re.compile(r"^\d{0,3}$")


def _entry(k: str, v: object) -> str | None:
    if type(v) is int:
        return f"{k}{v}"
    if isinstance(v, list) and len(v) == 2 and all(type(x) is int for x in v):
        return f"{k}{v[0]}.{v[1]}"
    return None


def pack(cursor: Cursor) -> str:
    """A selection in a step button's data: its whole-number entries and pairs,
    ``a3,b5,i1`` or ``w3.5``."""
    items = sorted((k, _entry(k, v)) for k, v in cursor.items())
    return ",".join(e for _, e in items if e is not None and _PART.match(e))


def unpack(step: str) -> tuple[Cursor, str]:
    """A step button's value → the selection it was drawn with and the step; Refused for data
    no board of ours carries (the selection's meaning is checked by the game UI)."""
    packed, sep, op = step.partition("=")
    parts = [_PART.match(x) for x in packed.split(",")] if packed else []
    if not sep or not op or not all(parts):
        raise Refused("err.bad_button")
    raw: dict[str, Any] = {
        m.group(1): int(m.group(2)) if m.group(3) is None else [int(m.group(2)), int(m.group(3))]
        for m in parts
        if m is not None
    }
    return cast(Cursor, raw), op


class Posed(Protocol):
    """A position posed on a board to find a move in: a puzzle, or a lesson's task."""

    @property
    def game(self) -> str: ...
    @property
    def id(self) -> str: ...
    @property
    def turn(self) -> int: ...
    def start(self) -> Game[Any]: ...


def split_path(value: str) -> tuple[str, str]:
    """A puzzle button's value → the path it was drawn at (:mod:`bot.match.dotspuzzle`) and
    the rest; Refused for a path no board carries."""
    path, sep, rest = value.partition("!") if "!" in value else ("", "", value)
    if sep and (not path or not _PATH.match(path)):
        raise Refused("err.bad_button")
    return path, rest


def stand_in(
    puzzle: Posed,
    user: int,
    name: str,
    opponent: str,
    lang: str,
    cursor: Cursor | None = None,
    path: str = "",
) -> Match:
    """The position (a puzzle's, a lesson task's) as an active match: ``user`` sits in the
    seat to move, its one place holds ``cursor`` (the selection a step button carried; a Точки
    puzzle's window opens on the action), the moves of ``path`` played (Refused for one no
    board carries)."""
    seats = [Seat(None, opponent), Seat(None, opponent)]
    seats[puzzle.turn] = Seat(user, name)
    game = puzzle.start()
    if isinstance(puzzle, Puzzle) and dotspuzzle.multi(puzzle):
        for m in dotspuzzle.walk(puzzle, path).moves:
            game.play(game.parse_move(m))
        centre = dotspuzzle.focus(puzzle)
        if centre is not None and not path and "w" not in (cursor or {}):
            cursor = cast(Cursor, {**(cursor or {}), "w": [centre[0] - 4, centre[1] - 3]})
    elif path:
        raise Refused("err.bad_button")
    match = Match(
        id=puzzle.id,
        kind=puzzle.game,
        options=dict(game.options),  # the title names them: "Sprouts · 7 spots"
        players=len(seats),
        seats=seats,
        status="active",
        places=[Place(chat=user, lang=lang, cursor=cursor or Cursor())],
        lang=lang,
    )
    match.attach(game)
    return match


def move_rows(
    match: Match,
    version: int,
    play: Kind = PUZZLE_PLAY,
    step: Kind = PUZZLE_STEP,
    path: str = "",
) -> Keyboard:
    """The game's move buttons for the puzzle at its selection, drawn for ``version`` (the
    person's attempt in a private chat, the day of a group's daily puzzle) at ``path``; a
    lesson's task board gives its own ``play`` and ``step`` kinds."""
    on = PuzzleOn(match.id, version, pack(match.places[0].cursor), play, step, path)
    return ui.get(match.kind).move_rows(match, match.places[0], on)


def board_keyboard(match: Match, attempt: int, path: str = "") -> Keyboard:
    """The game's move buttons for the puzzle at its selection, then Hint and Skip."""
    return [
        *move_rows(match, attempt, path=path),
        [
            Button(Text("puzzle.btn.hint"), PUZZLE_HINT.data(match.id, attempt)),
            Button(Text("puzzle.btn.skip"), PUZZLE_NEXT.data(match.id, attempt)),
        ],
    ]


def next_keyboard(puzzle_id: str, attempt: int) -> Keyboard:
    return [[Button(Text("puzzle.btn.next"), PUZZLE_NEXT.data(puzzle_id, attempt))]]


def step(match: Match, op: str) -> str | None:
    """A keyboard step on the puzzle's board (Refused if it makes no sense here); the move in
    the engine's notation when the selection leaves only one (it is the answer, as a match
    plays it), else None and the board is drawn again."""
    game_ui, place = ui.get(match.kind), match.places[0]
    game_ui.cursor(match, place, op)
    move = game_ui.auto_move(match, place)
    return None if move is None else str(match.game.format_move(move))


def picture_view(match: Match) -> PictureView:
    """What the game UI adds to the puzzle's picture for its selection (a curve's preview)."""
    return ui.get(match.kind).picture_view(match, match.places[0])


def selection_line(match: Match) -> list[Text]:
    """The caption line about the selection in progress ("now the second spot…"), if any."""
    hint = ui.get(match.kind).hint(match, match.places[0])
    return [] if hint is None else [hint]


def said(match: Match, notation: str) -> Text | str:
    """A move as captions say it (Рассада in words: "3–5, round 4")."""
    return ui.get(match.kind).say_move(match, match.game.parse_move(notation))


def read_move(match: Match, code: str) -> str:
    """A move button's code → the move in the engine's notation (Refused if no legal move)."""
    game = match.game
    move = ui.get(match.kind).decode(match, code)
    if not game.is_legal(move):
        raise Refused("info.drawn")
    return str(game.format_move(move))


def day_of(now: float) -> int:
    """The UTC day of ``now``: days since 1970-01-01 (a group's daily puzzle changes at 00:00
    UTC)."""
    return int(now // 86400)


def daily(bank: Sequence[Puzzle], chat: int, day: int) -> Puzzle | None:
    """The chat's puzzle of ``day``: one of the bank's, the same one for the chat all day, on
    every replica (a digest of the chat and the day, not Python's salted hash)."""
    if not bank:
        return None
    digest = hashlib.sha256(f"{chat}:{day}".encode()).digest()
    ordered = sorted(bank, key=lambda p: p.id)
    return ordered[int.from_bytes(digest[:8], "big") % len(ordered)]


def choose(
    bank: Iterable[Puzzle],
    live: Mapping[str, float],
    solved: set[str],
    level: float,
    rng: random.Random,
    current: str | None = None,
) -> Puzzle | None:
    """The next puzzle: one of the :data:`NEAREST` unsolved ones whose rating (``live``, else
    its start) is closest to ``level``; once all are solved, any but the current one."""
    pool = [p for p in bank if p.id != current]
    fresh = [p for p in pool if p.id not in solved] or pool
    if not fresh:
        return None
    fresh.sort(key=lambda p: abs(live.get(p.id, p.rating) - level))
    return rng.choice(fresh[:NEAREST])


def margin(value: int) -> Text:
    """A net score as words: "2 boxes ahead", "level", "1 box behind"."""
    if value == 0:
        return Text("puzzle.level")
    key = "puzzle.ahead" if value > 0 else "puzzle.behind"
    return Text(key, boxes=Text("count.boxes_margin", n=abs(value)))


def win_or_loss(value: int) -> Text:
    """A Рассада value (+1, -1 for the player to move) as words."""
    return Text("puzzle.win" if value > 0 else "puzzle.loss")


def reached(value: int) -> Text:
    """A Точки lesson task's verdict (1: the search proves the goal, 0: a defence holds)."""
    return Text("learn.dots.reached" if value > 0 else "learn.dots.missed")


# Each game's values in words: net boxes, who wins, or whether a Точки goal is reached.
_OUTCOMES: dict[str, Callable[[int], Text]] = {
    "boxes": margin,
    "sprouts": win_or_loss,
    "dots": reached,
}


def outcome(game: str, value: int) -> Text:
    """A position's value for the player to move, as that game's captions say it."""
    return _OUTCOMES[game](value)


def task(puzzle: Puzzle, rating: float) -> list[Text]:
    """The caption of a fresh puzzle: what it is and what to find."""
    title = Text(
        "puzzle.title", id=puzzle.id, game=Text(f"game.{puzzle.game}"), rating=round(rating)
    )
    if dotspuzzle.multi(puzzle):
        return [title, dotspuzzle.goal(puzzle)]
    return [title, Text(f"puzzle.goal.{puzzle.game}", net=outcome(puzzle.game, puzzle.value))]


def rating_line(before: float, after: float, rated: bool) -> Text:
    if not rated:
        return Text("puzzle.unrated", rating=round(after))
    delta = round(after) - round(before)
    return Text("puzzle.rating", before=round(before), after=round(after), delta=f"{delta:+d}")


def wrong(puzzle: Puzzle, move: Text | str, got: int) -> Text:
    """Why a move is not the answer: what best play leaves the player after it."""
    game = puzzle.game
    return Text(
        f"puzzle.wrong.{game}",
        move=move,
        got=outcome(game, got),
        best=outcome(game, puzzle.value),
    )


def solved(puzzle: Puzzle, move: Text | str, streak: int) -> list[Text]:
    return [
        Text(f"puzzle.solved.{puzzle.game}", move=move, net=outcome(puzzle.game, puzzle.value)),
        Text("puzzle.streak", n=streak),
    ]
