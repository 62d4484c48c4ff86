"""Точки и квадраты (Dots and Boxes) and Палочки: rules, notation and records.

Rules: players draw one line at a time in turn order; a line that completes one or two boxes
scores them and its player moves again (one extra move even for two boxes); completing a box
is never forced. The game ends when every line is drawn; most boxes wins. Two players with
equal tops draw; of three or four, those who share the top score win together (all of them
level: a draw).

Палочки (``border=True``, the school game): the outline of the field (the figure's edge and
the rim of its holes) is drawn before the first move and belongs to nobody; the players draw
only the lines inside it, and a box is closed by drawn lines and the outline alike (a corner
box needs two lines). The outline is part of the position (``drawn_mask``), so the solver,
the tables and the AI need nothing else to know about it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from engine.boxes.board import Board, board_for
from engine.boxes.shapes import MAX_SIDE, MIN_SIDE, SHAPES, parse_mask, rectangle, shape_mask
from engine.core import (
    BadNotation,
    BadOptions,
    BadRecord,
    GameOver,
    GameResult,
    IllegalMove,
    register,
)
from engine.core import Game as BaseGame
from engine.facts import Extra, GameFacts, Option

RECORD_VERSION = 1
MIN_PLAYERS, MAX_PLAYERS = 2, 4

ILLEGAL_CODES: dict[str, str] = {
    "not_a_move": "that is not a line",
    "off_board": "{line} is outside the board",
    "no_line": "there is no line {line} on this board",
    "drawn": "{line} is already drawn",
    "outline": "{line} is part of the outline, drawn before the game",
    "game_over": "the game is over",
    "no_such_player": "there is no player {player}",
    "bad_notation": "{text} does not name a line (write two neighbouring dots, like b3-c3)",
    "not_adjacent": "{text}: the two dots must be neighbours",
}


@dataclass(frozen=True, slots=True)
class Move:
    """A line: ``Move("h", r, c)`` joins dots (r, c)–(r, c+1), ``Move("v", r, c)`` joins
    (r, c)–(r+1, c); r counts dot rows from the top, c dot columns from the left."""

    orient: str
    r: int
    c: int


_DASHES = str.maketrans({"–": "-", "—": "-", "−": "-", "‐": "-", "→": "-", ":": "-", ",": "-"})
_NOTATION = re.compile(r"([a-z])\s*(\d{1,2})\s*(?:-+|\s)?\s*([a-z])\s*(\d{1,2})")


FACTS = GameFacts(
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    scored=True,
    options=(
        Option("rows", int, 3, low=MIN_SIDE, high=MAX_SIDE),
        Option("cols", int, 3, low=MIN_SIDE, high=MAX_SIDE),
        Option("players", int, 2, low=MIN_PLAYERS, high=MAX_PLAYERS),
        Option("mask", list, None),  # rows of "#" (box) and "." (hole), instead of rows/cols
        Option("shape", str, None, choices=tuple(SHAPES)),
        Option("border", bool, False, choices=(False, True)),  # Палочки
    ),
    extras=frozenset({Extra.DRAW}),
    ai="engine.boxes.ai",
)


@register
class Game(BaseGame[Move]):
    """One game of Dots and Boxes.

    ``Game(rows=3, cols=3, *, players=2, mask=None, shape=None, border=False)``: rows and
    cols count boxes (1..12); ``mask`` (rows of ``#``/``.``) or ``shape`` (a name in
    :data:`engine.boxes.shapes.SHAPES`) picks a shaped board, and then rows/cols may be left
    out (they must match the mask when given). ``border=True`` plays Палочки: the figure's
    outline is drawn from the start.
    """

    kind = "boxes"
    move_type = Move
    facts = FACTS
    PRESETS: ClassVar[dict[str, dict[str, Any]]] = {
        "quick": {"rows": 3, "cols": 3},
        "classic": {"rows": 5, "cols": 5},
        "big": {"rows": 8, "cols": 8},
    }

    def __init__(
        self,
        rows: int | None = None,
        cols: int | None = None,
        *,
        players: int = 2,
        mask: Any = None,
        shape: str | None = None,
        border: bool = False,
    ) -> None:
        if not isinstance(border, bool):
            raise BadOptions("border is true or false")
        if mask is not None and shape is not None:
            raise BadOptions("give a mask or a shape, not both")
        if shape is not None:
            mask_rows = shape_mask(shape)
        elif mask is not None:
            mask_rows = parse_mask(mask)
        else:
            r = 3 if rows is None else rows
            c = 3 if cols is None else cols
            for name, v in (("rows", r), ("cols", c)):
                if not isinstance(v, int) or isinstance(v, bool) or not MIN_SIDE <= v <= MAX_SIDE:
                    raise BadOptions(f"{name} must be a whole number {MIN_SIDE}..{MAX_SIDE}")
            mask_rows = rectangle(r, c)
        if (rows is not None and rows != len(mask_rows)) or (
            cols is not None and cols != len(mask_rows[0])
        ):
            raise BadOptions("rows/cols do not match the mask")
        if not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise BadOptions(f"players must be {MIN_PLAYERS}..{MAX_PLAYERS}")
        self._shape = shape
        self._custom_mask = mask is not None and not all("." not in r for r in mask_rows)
        self.board: Board = board_for(mask_rows)
        self._moves = _move_table(self.board)
        self._players = players
        self._border = border
        self._outline = self.board.outline if border else 0
        self._drawn = self._outline
        self._sides = [
            sum(self._outline >> n & 1 for n in sides) if exists else 0
            for sides, exists in zip(self.board.box_lines, self.board.box_exists, strict=True)
        ]
        if any(self._sides[b] == 4 for b in self.board.boxes):
            raise BadOptions("with the outline drawn, a lone box would have no side to draw")
        self._line_owner = [-1] * self.board.nlines
        self._box_owner = [-1] * (self.board.rows * self.board.cols)
        self._scores = [0] * players
        self._turn = 0
        self._history: list[int] = []
        self._movers: list[int] = []
        self._result: GameResult | None = None

    # -- shared API ---------------------------------------------------------------------

    @property
    def players(self) -> int:
        return self._players

    @property
    def turn(self) -> int:
        return self._turn

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self._scores)

    @property
    def ply(self) -> int:
        return len(self._history)

    @property
    def options(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "rows": self.board.rows,
            "cols": self.board.cols,
            "players": self._players,
        }
        if self._shape is not None:
            d["shape"] = self._shape
        elif self._custom_mask:
            d["mask"] = list(self.board.mask)
        if self._border:  # only when set: Dots and Boxes records stay as they were
            d["border"] = True
        return d

    @property
    def moves(self) -> list[Move]:
        return [self._moves[n] for n in self._history]

    def legal_moves(self) -> list[Move]:
        if self._result is not None:
            return []
        drawn, table = self._drawn, self._moves
        return [table[n] for n in self.board.lines if not drawn >> n & 1]

    def check(self, move: Move) -> None:
        self._line(move)

    def play(self, move: Move) -> None:
        self._draw(self._line(move))

    def _line(self, move: Any) -> int:
        """The number of ``move``'s line, or raise why it cannot be drawn now."""
        if self._result is not None:
            raise GameOver()
        if not isinstance(move, Move):
            raise IllegalMove(f"not a line: {move!r}", code="not_a_move")
        n = self.board.number(move.orient, move.r, move.c) if _is_coord(move) else None
        if n is None:
            raise IllegalMove(f"{move} is outside the board", code="off_board", line=str(move))
        if not self.board.line_boxes[n]:
            text = self.format_move(move)
            raise IllegalMove(f"no line {text} on this board", code="no_line", line=text)
        if self._outline >> n & 1:
            text = self.format_move(move)
            raise IllegalMove(f"{text} is part of the outline", code="outline", line=text)
        if self._drawn >> n & 1:
            text = self.format_move(move)
            raise IllegalMove(f"{text} is already drawn", code="drawn", line=text)
        return n

    def _draw(self, n: int) -> int:
        """Draw line ``n`` (known legal) for the player to move; return boxes completed."""
        player = self._turn
        self._drawn |= 1 << n
        self._line_owner[n] = player
        self._history.append(n)
        self._movers.append(player)
        done = 0
        for b in self.board.line_boxes[n]:
            self._sides[b] += 1
            if self._sides[b] == 4:
                self._box_owner[b] = player
                done += 1
        if done:
            self._scores[player] += done
        else:
            self._turn = (player + 1) % self._players
        if self._drawn == self.board.full:
            self._result = GameResult.by_scores(self._scores)
        return done

    # -- notation -------------------------------------------------------------------------

    def dot_name(self, r: int, c: int) -> str:
        """Dot (r from the top, c from the left) in chess style: column letter, row from the
        bottom starting at 1."""
        return f"{chr(ord('a') + c)}{self.board.rows - r + 1}"

    def format_move(self, move: Move) -> str:
        if not isinstance(move, Move) or not _is_coord(move):
            raise IllegalMove(f"not a line: {move!r}", code="not_a_move")
        n = self.board.number(move.orient, move.r, move.c)
        if n is None:
            raise IllegalMove(f"{move} is outside the board", code="off_board", line=str(move))
        (r1, c1), (r2, c2) = self.board.dots(n)
        # Canonical order: the left dot of a horizontal line, the lower dot of a vertical one.
        if move.orient == "v":
            (r1, c1), (r2, c2) = (r2, c2), (r1, c1)
        return f"{self.dot_name(r1, c1)}-{self.dot_name(r2, c2)}"

    def parse_move(self, text: str) -> Move:
        if not isinstance(text, str):
            raise BadNotation(f"not text: {text!r}", text=repr(text))
        t = text.strip().lower().translate(_DASHES)
        m = _NOTATION.fullmatch(t)
        if m is None:
            raise BadNotation(f"{text!r} does not name a line", text=text[:40])
        a = self._parse_dot(m.group(1), m.group(2), text)
        b = self._parse_dot(m.group(3), m.group(4), text)
        (r1, c1), (r2, c2) = sorted((a, b))
        if r1 == r2 and c2 == c1 + 1:
            return Move("h", r1, c1)
        if c1 == c2 and r2 == r1 + 1:
            return Move("v", r1, c1)
        raise BadNotation(
            f"{text!r}: the dots are not neighbours", code="not_adjacent", text=text[:40]
        )

    def _parse_dot(self, letter: str, number: str, text: str) -> tuple[int, int]:
        c = ord(letter) - ord("a")
        row = int(number)
        if not (0 <= c <= self.board.cols and 1 <= row <= self.board.rows + 1):
            raise BadNotation(f"{text!r}: no dot {letter}{number} on this board", text=text[:40])
        return (self.board.rows + 1 - row, c)

    # -- OpenSpiel numbering -----------------------------------------------------------------

    def to_action(self, move: Move) -> int:
        """OpenSpiel ``dots_and_boxes`` action number (rectangular boards)."""
        self._need_rectangle()
        if not isinstance(move, Move) or not _is_coord(move):
            raise IllegalMove(f"not a line: {move!r}", code="not_a_move")
        n = self.board.number(move.orient, move.r, move.c)
        if n is None:
            raise IllegalMove(f"{move} is outside the board", code="off_board", line=str(move))
        return n

    def from_action(self, action: int) -> Move:
        self._need_rectangle()
        if not isinstance(action, int) or not 0 <= action < self.board.nlines:
            raise IllegalMove(f"no action {action!r}", code="off_board", line=str(action))
        return self._moves[action]

    def _need_rectangle(self) -> None:
        if not self.board.rectangular:
            raise BadOptions("OpenSpiel numbering exists for rectangular boards only")

    # -- read-only views for the renderer and the bot -------------------------------------------

    @property
    def rows(self) -> int:
        return self.board.rows

    @property
    def cols(self) -> int:
        return self.board.cols

    @property
    def mask(self) -> tuple[str, ...]:
        return self.board.mask

    @property
    def shape(self) -> str | None:
        return self._shape

    @property
    def border(self) -> bool:
        """Палочки: the outline was drawn before the first move."""
        return self._border

    def outline_lines(self) -> list[Move]:
        """The lines drawn from the start (the outline in Палочки; none otherwise)."""
        return [self._moves[n] for n in self.board.lines if self._outline >> n & 1]

    def is_outline(self, move: Move) -> bool:
        n = self.board.number(move.orient, move.r, move.c) if _is_coord(move) else None
        return n is not None and bool(self._outline >> n & 1)

    def all_lines(self) -> list[Move]:
        """Every line of the board, drawn or not."""
        return [self._moves[n] for n in self.board.lines]

    def all_boxes(self) -> list[tuple[int, int]]:
        return [divmod(b, self.board.cols) for b in self.board.boxes]

    def has_line(self, move: Move) -> bool:
        n = self.board.number(move.orient, move.r, move.c) if _is_coord(move) else None
        return n is not None and bool(self.board.line_boxes[n])

    def has_box(self, r: int, c: int) -> bool:
        return 0 <= r < self.board.rows and 0 <= c < self.board.cols and self.mask[r][c] == "#"

    def line_owner(self, move: Move) -> int | None:
        """Who drew this line, or None while it is not drawn (or does not exist)."""
        n = self.board.number(move.orient, move.r, move.c) if _is_coord(move) else None
        if n is None or self._line_owner[n] < 0:
            return None
        return self._line_owner[n]

    def box_owner(self, r: int, c: int) -> int | None:
        if not self.has_box(r, c):
            return None
        owner = self._box_owner[r * self.board.cols + c]
        return None if owner < 0 else owner

    def box_sides(self, r: int, c: int) -> int:
        """How many sides of the box are drawn (0..4), the outline's among them."""
        return self._sides[r * self.board.cols + c] if self.has_box(r, c) else 0

    def drawn_lines(self) -> dict[Move, int]:
        """Every drawn line and who drew it, in drawing order."""
        return {self._moves[n]: p for n, p in zip(self._history, self._movers, strict=True)}

    def taken_boxes(self) -> dict[tuple[int, int], int]:
        """Every completed box (r, c) and its owner."""
        cols = self.board.cols
        return {divmod(b, cols): p for b, p in enumerate(self._box_owner) if p >= 0}

    @property
    def last_player(self) -> int | None:
        return self._movers[-1] if self._movers else None

    @property
    def last_turn(self) -> list[Move]:
        """The lines of the latest turn: every line its player drew in a row (a player who
        completes boxes draws several)."""
        if not self._movers:
            return []
        who = self._movers[-1]
        i = len(self._movers)
        while i > 0 and self._movers[i - 1] == who:
            i -= 1
        return [self._moves[n] for n in self._history[i:]]

    def line_move(self, n: int) -> Move:
        """The move of line number ``n`` (see :mod:`engine.boxes.board`)."""
        return self._moves[n]

    def line_number(self, move: Move) -> int:
        """The number of an existing line of this board; raise IllegalMove otherwise."""
        n = self.board.number(move.orient, move.r, move.c) if _is_coord(move) else None
        if n is None or not self.board.line_boxes[n]:
            raise IllegalMove(f"no line {move} on this board", code="no_line", line=str(move))
        return n

    @property
    def drawn_mask(self) -> int:
        """The drawn lines, the outline's among them, as a bit set over line numbers (see
        :mod:`engine.boxes.board`)."""
        return self._drawn

    def sides(self) -> list[int]:
        """Drawn sides per box number r·cols + c (a fresh list)."""
        return list(self._sides)

    # -- records ----------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind, "v": RECORD_VERSION, **self.options}
        d["lines"] = list(self._history)
        if self._result is not None:
            d["end"] = self._result.to_json()
        return d

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        cls.check_record(data, RECORD_VERSION)
        try:
            options = {
                k: data[k]
                for k in ("rows", "cols", "players", "mask", "shape", "border")
                if k in data
            }
            g = cls(**options)
            lines = data["lines"]
            if not isinstance(lines, list):
                raise BadRecord("lines must be a list")
            for n in lines:
                if not isinstance(n, int) or not 0 <= n < g.board.nlines:
                    raise BadRecord(f"bad line number {n!r}")
                g.play(g._moves[n])
        except (KeyError, TypeError, BadOptions, IllegalMove) as e:
            raise BadRecord(f"bad boxes record: {e}") from e
        if "end" in data:
            g._result = GameResult.from_json(data["end"])
        return g

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickle as the compact record (for the AI process pool), not the board tables.
        return (type(self).from_json, (self.to_json(),))

    def copy(self) -> Self:
        g = object.__new__(type(self))
        g.__dict__.update(self.__dict__)
        for name in ("_sides", "_line_owner", "_box_owner", "_scores", "_history", "_movers"):
            setattr(g, name, list(getattr(self, name)))
        return g


def _is_coord(move: Any) -> bool:
    return move.orient in ("h", "v") and type(move.r) is int and type(move.c) is int


def _move_table(board: Board) -> list[Move]:
    """One Move object per line number of a board, shared by every game on it."""
    table: list[Move] | None = getattr(board, "move_objects", None)
    if table is None:
        table = [Move(*board.coords(n)) for n in range(board.nlines)]
        board.move_objects = table  # type: ignore[attr-defined]  # a cache kept on the board
    return table
