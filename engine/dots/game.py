"""Точки (Dots): the rules of a game, its history (moves, STOP, grounding), notation and JSON.

The capture machinery lives in :mod:`engine.dots.rings`; this module adds turns, the first-move
zone and starting cross, the ways a game ends, and the read-only views the renderer draws.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Self, get_args

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
from engine.dots.rings import EMPTY, Board, Region
from engine.facts import LEVELS, Extra, GameFacts, Option

MIN_WIDTH, MAX_WIDTH = 5, 39
MIN_HEIGHT, MAX_HEIGHT = 5, 32
# The option values (the same strings in records and menus); the constructor still checks
# them, for options that come from outside.
Start = Literal["free", "zone", "cross"]
Scoring = Literal["captures", "territory"]
Edge = Literal["safe", "capturable"]  # edge dots never surrounded / the edge walls a ring
STARTS: tuple[Start, ...] = get_args(Start)
SCORINGS: tuple[Scoring, ...] = get_args(Scoring)
EDGES: tuple[Edge, ...] = get_args(Edge)
ZONE = (8, 15)  # the tournament first-move zone, clipped to smaller boards
STOP_SECONDS = 180.0  # how long the other player may go on alone after STOP
# SGF and the JSON move string write a coordinate 0–51 as one letter: a–z, then A–Z.
LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
_NOTATION = re.compile(r"^([a-z]{1,2})\s*(\d{1,3})$")

ILLEGAL_CODES: dict[str, str] = {
    "not_a_move": "that is not a move",
    "off_board": "{point} is off the board",
    "occupied": "{point} is already taken",
    "dead_point": "{point} is inside a captured area",
    "outside_zone": "the first move must be inside the central zone",
    "not_your_turn": "it is not player {player}'s turn",
    "no_such_player": "there is no player {player}",
    "already_stopped": "STOP has already been called",
    "not_stopped": "nobody has called STOP",
    "no_grounding": "grounding is not played in this game",
    "game_over": "the game is over",
    "bad_notation": "{text} is not a point like h12",
}


@dataclass(frozen=True, slots=True)
class Move:
    """A dot at column ``x`` (0 at the left) and row ``y`` (0 at the top)."""

    x: int
    y: int


@dataclass(frozen=True, slots=True)
class Cell:
    """What one point holds: a dot of a player (``dot``), and whether it lies inside a captured
    area and whose (``area``). A dot is captured when ``area`` is the other player."""

    dot: int | None
    area: int | None

    @property
    def empty(self) -> bool:
        return self.dot is None

    @property
    def dead(self) -> bool:
        """No dot can be placed here and a dot here forms no rings for its owner's enemy."""
        return self.area is not None

    @property
    def captured(self) -> bool:
        return self.dot is not None and self.area is not None and self.area != self.dot


@dataclass(frozen=True, slots=True)
class Capture:
    """A ring of ``owner``'s dots that captured ``area`` (every point strictly inside it).

    ``ply`` is the index in :attr:`Game.moves` of the move that made it; ``credited`` is the
    move it belongs to in tournament records: the same move, or for an intruder caught in an
    empty ring the ring owner's next move (``ply + 1``)."""

    owner: int
    ring: tuple[tuple[int, int], ...]
    area: frozenset[tuple[int, int]]
    ply: int
    credited: int

    @property
    def intrusion(self) -> bool:
        return self.credited != self.ply


@dataclass(frozen=True, slots=True)
class Base:
    """An empty ring of ``owner``'s dots: it captured nothing and stays playable; an enemy dot
    placed inside is captured at once unless that dot completes a capture of its own."""

    owner: int
    ring: tuple[tuple[int, int], ...]
    area: frozenset[tuple[int, int]]


@dataclass(frozen=True, slots=True)
class Zone:
    """A rectangle of points: ``x``, ``y`` of its top-left point, and its size."""

    x: int
    y: int
    width: int
    height: int

    def contains(self, x: int, y: int) -> bool:
        return self.x <= x < self.x + self.width and self.y <= y < self.y + self.height


def column_name(x: int) -> str:
    """Columns a–z, then aa, ab, … am for a 39-wide board (case-insensitive when read)."""
    return LETTERS[x] if x < 26 else "a" + LETTERS[x - 26]


FACTS = GameFacts(
    min_players=2,
    max_players=2,
    scored=True,
    options=(
        Option("width", int, 20, low=MIN_WIDTH, high=MAX_WIDTH),
        Option("height", int, 20, low=MIN_HEIGHT, high=MAX_HEIGHT),
        Option("start", str, "free", choices=STARTS),
        Option("grounding", bool, False, choices=(False, True)),
        Option("scoring", str, "captures", choices=SCORINGS),
        Option("zone_width", int, None, low=1, high=MAX_WIDTH),  # default: ZONE clipped
        Option("zone_height", int, None, low=1, high=MAX_HEIGHT),
        Option("edge", str, "safe", choices=EDGES),
    ),
    extras=frozenset({Extra.DRAW, Extra.END_HERE, Extra.STOP, Extra.GROUND}),
    ai="engine.dots.ai",
    levels=(*LEVELS, "expert"),  # expert: the tree search with the match's whole move time
    record="sgf",
)


@register
class Game(BaseGame[Move]):
    """A game of Точки for two players; player 0 moves first (Black in SGF)."""

    kind = "dots"
    move_type = Move
    facts = FACTS
    PRESETS = {
        "tournament": {"width": 38, "height": 31, "start": "zone", "zone_width": 8,
                       "zone_height": 15},
        "modern": {"width": 39, "height": 32, "start": "cross"},
        "quick": {"width": 15, "height": 15, "start": "free"},
    }  # fmt: skip

    def __init__(
        self,
        width: int = 20,
        height: int = 20,
        *,
        start: Start = "free",
        grounding: bool = False,
        scoring: Scoring = "captures",
        zone_width: int | None = None,
        zone_height: int | None = None,
        edge: Edge = "safe",
    ) -> None:
        for name, value, lo, hi in (
            ("width", width, MIN_WIDTH, MAX_WIDTH),
            ("height", height, MIN_HEIGHT, MAX_HEIGHT),
        ):
            if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
                raise BadOptions(f"{name} must be a whole number from {lo} to {hi}, not {value!r}")
        if start not in STARTS:
            raise BadOptions(f"start must be one of {', '.join(STARTS)}, not {start!r}")
        if scoring not in SCORINGS:
            raise BadOptions(f"scoring must be one of {', '.join(SCORINGS)}, not {scoring!r}")
        if edge not in EDGES:
            raise BadOptions(f"edge must be one of {', '.join(EDGES)}, not {edge!r}")
        if not isinstance(grounding, bool):
            raise BadOptions(f"grounding must be true or false, not {grounding!r}")
        zw = min(ZONE[0], width) if zone_width is None else zone_width
        zh = min(ZONE[1], height) if zone_height is None else zone_height
        for name, value, hi in (("zone_width", zw, width), ("zone_height", zh, height)):
            if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= hi:
                raise BadOptions(f"{name} must be from 1 to the board size {hi}, not {value!r}")
        if zw * zh < 2:
            raise BadOptions("the first-move zone needs room for both first moves")
        self.width, self.height = width, height
        self.start: Start = start
        self.grounding = grounding
        self.scoring: Scoring = scoring
        self.edge: Edge = edge
        self._zone = Zone((width - zw) // 2, (height - zh) // 2, zw, zh)
        self._board = Board(width, height, edge_walls=edge == "capturable")
        self._hist: list[int] = []  # board indices of the moves, in order
        self._count = [0, 0]  # moves made per player
        self._stop: tuple[int, int, float | None] | None = None  # (ply, player, deadline)
        self._held = -1  # the move right before its opponent's STOP (see _catches)
        self._grounded_by: int | None = None
        self._bonus = (0, 0)  # ungrounded dots credited by the ground action
        self._result: GameResult | None = None
        if start == "cross":
            b = self._board
            for x, y, p in self.cross_points():
                b.place(b.index(x, y), p, -1)

    # -- options and views -----------------------------------------------------------------

    @property
    def options(self) -> dict[str, Any]:
        opts: dict[str, Any] = {"width": self.width, "height": self.height, "start": self.start}
        if self.grounding:
            opts["grounding"] = True
        if self.scoring != "captures":
            opts["scoring"] = self.scoring
        if self.edge != "safe":
            opts["edge"] = self.edge
        if self.start == "zone":
            opts["zone_width"], opts["zone_height"] = self._zone.width, self._zone.height
        return opts

    def cross_points(self) -> list[tuple[int, int, int]]:
        """The starting cross (x, y, player) of a "cross" game: a 2×2 square at the centre,
        each player on one diagonal; empty for other starts."""
        if self.start != "cross":
            return []
        x, y = self.width // 2 - 1, self.height // 2 - 1
        return [(x, y, 0), (x + 1, y + 1, 0), (x + 1, y, 1), (x, y + 1, 1)]

    @property
    def players(self) -> int:
        return 2

    @property
    def turn(self) -> int:
        if self._stop is not None:
            return 1 - self._stop[1]
        return len(self._hist) % 2

    @property
    def ply(self) -> int:
        return len(self._hist)

    @property
    def moves(self) -> list[Move]:
        b = self._board
        return [Move(b.xs[i], b.ys[i]) for i in self._hist]

    @property
    def last_move(self) -> Move | None:
        if not self._hist:
            return None
        i = self._hist[-1]
        return Move(self._board.xs[i], self._board.ys[i])

    @property
    def scores(self) -> tuple[int, int]:
        b = self._board
        s = b.caught if self.scoring == "captures" else b.territory
        return (s[0] + self._bonus[0], s[1] + self._bonus[1])

    @property
    def captured_dots(self) -> tuple[int, int]:
        """Enemy dots captured now by each player, whatever the scoring."""
        return (self._board.caught[0], self._board.caught[1])

    @property
    def zone(self) -> Zone | None:
        """The first-move zone while a first move is still due in it, else None."""
        if self.start != "zone" or self._result is not None or self._count[self.turn]:
            return None
        return self._zone

    @property
    def stopped_by(self) -> int | None:
        """The player who called STOP (and places no more dots), or None."""
        return None if self._stop is None else self._stop[1]

    @property
    def stop_ply(self) -> int:
        """How many moves had been played when STOP was called (0 without STOP)."""
        return 0 if self._stop is None else self._stop[0]

    @property
    def deadline(self) -> float | None:
        """When the STOP phase ends, on the caller's clock (None: no STOP or no limit)."""
        return None if self._stop is None else self._stop[2]

    @property
    def grounded_by(self) -> int | None:
        return self._grounded_by

    # -- the AI's fast path (engine.dots.ai, engine.dots.solo): board indices, not Moves ------

    @property
    def board(self) -> Board:
        """The capture board itself (:class:`engine.dots.rings.Board`), not a copy, so the AI
        reads it at full speed: read it, and change only the board of a :meth:`copy` kept as
        scratch. An internal view: the renderer and the bot use :meth:`cell` and the rest."""
        return self._board

    @property
    def move_indices(self) -> tuple[int, ...]:
        """Board indices of the moves played, in order."""
        return tuple(self._hist)

    def recent_indices(self, k: int) -> list[int]:
        """Board indices of the last ``k`` (≥ 1) moves, oldest first."""
        return self._hist[-k:]

    def cell(self, x: int, y: int) -> Cell:
        b = self._board
        i = b.index(x, y)
        d, a = b.dot[i], b.area[i]
        return Cell(None if d == EMPTY else d, None if a == EMPTY else a)

    def _xy(self, i: int) -> tuple[int, int]:
        return (self._board.xs[i], self._board.ys[i])

    def _ring(self, r: Region) -> tuple[tuple[int, int], ...]:
        return tuple(self._xy(i) for i in (r.ring if r.outline is None else r.outline))

    def _area(self, r: Region) -> frozenset[tuple[int, int]]:
        return frozenset(self._xy(i) for i in r.inside)

    @property
    def captures(self) -> tuple[Capture, ...]:
        """Every capture in the order made (later ones may hold earlier ones: draw in order)."""
        return tuple(
            Capture(r.owner, self._ring(r), self._area(r), r.ply, r.credited)
            for r in self._board.captures
        )

    @property
    def bases(self) -> tuple[Base, ...]:
        """The empty rings that stand now."""
        return tuple(Base(r.owner, self._ring(r), self._area(r)) for r in self._board.bases)

    def grounded(self, player: int) -> frozenset[tuple[int, int]]:
        """The player's live dots joined to the board edge by horizontal/vertical steps through
        their own live dots and captured area."""
        return frozenset(self._xy(i) for i in self._ground_wave(player))

    def ungrounded(self, player: int) -> frozenset[tuple[int, int]]:
        """The player's live dots that the ground action would hand to the opponent."""
        b = self._board
        reached = self._ground_wave(player)
        w = b.walls[player]
        return frozenset(self._xy(i) for i in range(len(w)) if w[i] and i not in reached)

    def _ground_wave(self, player: int) -> set[int]:
        b = self._board
        w, area, s = b.walls[player], b.area, b.stride
        edge = [b.index(x, y) for x in range(self.width) for y in (0, self.height - 1)]
        edge += [b.index(x, y) for y in range(1, self.height - 1) for x in (0, self.width - 1)]
        stack = [i for i in edge if w[i]]
        seen = set(stack)
        while stack:
            c = stack.pop()
            for q in (c - s, c + 1, c + s, c - 1):
                if q not in seen and (w[q] or area[q] == player):
                    seen.add(q)
                    stack.append(q)
        return {i for i in seen if w[i]}

    # -- moves -------------------------------------------------------------------------------

    def _zone_due(self) -> bool:
        return self.start == "zone" and not self._count[self.turn]

    def check(self, move: Move) -> None:
        if self._result is not None:
            raise GameOver()
        if not isinstance(move, Move) or type(move.x) is not int or type(move.y) is not int:
            raise IllegalMove(f"not a move: {move!r}", code="not_a_move")
        x, y = move.x, move.y
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise IllegalMove(f"({x}, {y}) is off the board", code="off_board", point=f"{x},{y}")
        b = self._board
        i = b.index(x, y)
        if b.dot[i] != EMPTY:
            point = self.format_move(move)
            raise IllegalMove(f"{point} is already taken", code="occupied", point=point)
        if b.area[i] != EMPTY:
            point = self.format_move(move)
            raise IllegalMove(f"{point} is in a captured area", code="dead_point", point=point)
        if self._zone_due() and not self._zone.contains(x, y):
            raise IllegalMove("the first move must be in the central zone", code="outside_zone")

    def play(self, move: Move) -> None:
        self.check(move)
        self.play_index(self._board.index(move.x, move.y))

    def play_index(self, i: int) -> None:
        """Play a free board index without the checks (the AI's fast path)."""
        player = self.turn
        ply = len(self._hist)
        self._board.place(i, player, ply, self._catches(ply))
        self._hist.append(i)
        self._count[player] += 1
        if self._board.free == 0:
            self._result = GameResult.by_scores(self.scores, "end")

    def _catches(self, ply: int) -> bool:
        """Whether a dot placed now into an empty enemy ring is caught. The tournament rules
        (comment 1) make the ring a capturing one at its owner's next move; the engine credits
        it at once, which gives the same scores, except when that move never comes: the dot
        fills the last free point, the owner has called STOP (the intruder moves alone), or
        the owner calls STOP right after it (``_held``)."""
        return self._stop is None and self._board.free > 1 and ply != self._held

    def legal_moves(self) -> list[Move]:
        if self._result is not None:
            return []
        b = self._board
        xs, ys = b.xs, b.ys
        return [Move(xs[i], ys[i]) for i in self.legal_indices()]

    def legal_indices(self) -> list[int]:
        """Board indices of the legal moves (the AI's fast path)."""
        if self._result is not None:
            return []
        b = self._board
        if self._zone_due():
            z = self._zone
            cells = [
                b.index(x, y) for y in range(z.y, z.y + z.height) for x in range(z.x, z.x + z.width)
            ]
        else:
            cells = [b.index(x, y) for y in range(self.height) for x in range(self.width)]
        dot, area = b.dot, b.area
        return [i for i in cells if dot[i] == EMPTY and area[i] == EMPTY]

    # -- ending actions ----------------------------------------------------------------------

    def stop(self, player: int, now: float | None = None, limit: float = STOP_SECONDS) -> None:
        """``player`` calls STOP (on either turn: the rules tie it to no turn): they place no
        more dots and the other player moves alone until :meth:`finish_stop` (Done, or the
        caller sees ``deadline`` pass). ``now`` is the caller's clock; the engine never reads
        one. An intruder the other player's last move put into ``player``'s empty ring is set
        free: the ring would have caught it at ``player``'s next move, which never comes."""
        self._check_player(player)
        if self._result is not None:
            raise GameOver()
        if self._stop is not None:
            raise IllegalMove("STOP has already been called", code="already_stopped")
        deadline = None if now is None else float(now) + float(limit)
        ply = len(self._hist)
        held = _held_before(ply, player)
        if any(
            r.ply == held and r.credited == ply and r.owner == player for r in self._board.captures
        ):
            again = type(self)(**self.options)
            again._held = held
            for i in self._hist:
                again.play_index(i)
            self._board = again._board
        self._held = held
        self._stop = (ply, player, deadline)

    def expired(self, now: float) -> bool:
        """True when a STOP phase has a deadline and ``now`` (caller's clock) is past it."""
        d = self.deadline
        return d is not None and now >= d

    def finish_stop(self) -> GameResult:
        """End the STOP phase: the scores as they stand decide."""
        if self._result is not None:
            raise GameOver()
        if self._stop is None:
            raise IllegalMove("nobody has called STOP", code="not_stopped")
        self._result = GameResult.by_scores(self.scores, "stop")
        return self._result

    def ground(self, player: int) -> GameResult:
        """Grounding variant: ``player`` ends the game on their turn; their ungrounded live dots
        count as captured by the opponent."""
        self._check_player(player)
        if not self.grounding:
            raise IllegalMove("grounding is not played in this game", code="no_grounding")
        if player != self.turn:
            raise IllegalMove(f"not player {player}'s turn", code="not_your_turn", player=player)
        lost = len(self.ungrounded(player))
        bonus = [0, 0]
        bonus[1 - player] = lost
        self._bonus = (bonus[0], bonus[1])
        self._grounded_by = player
        self._result = GameResult.by_scores(self.scores, "ground")
        return self._result

    def agree(self, draw: bool = False) -> GameResult:
        """Both players agree to end: the scores as they stand decide ("ending by
        agreement"), or with ``draw`` the game is drawn whatever the scores."""
        if self._result is not None:
            raise GameOver()
        if draw:
            self._result = GameResult(self.scores, None, "agreement")
        else:
            self._result = GameResult.by_scores(self.scores, "agreement")
        return self._result

    # -- notation ------------------------------------------------------------------------------

    def parse_move(self, text: str) -> Move:
        """``h12``: column letters from the left (a–z, then aa–am), row number from the bottom."""
        if not isinstance(text, str):
            raise BadNotation(f"not a point: {text!r}", text=repr(text))
        m = _NOTATION.match(text.strip().lower())
        if m is None:
            raise BadNotation(f"not a point: {text!r}", text=text[:20])
        letters, row = m.group(1), int(m.group(2))
        if len(letters) == 1:
            x = LETTERS.index(letters)
        elif letters[0] == "a":
            x = 26 + LETTERS.index(letters[1])
        else:
            raise BadNotation(f"no column {letters!r}", text=text[:20])
        if not (0 <= x < self.width and 1 <= row <= self.height):
            raise BadNotation(f"{text!r} is off the board", text=text[:20])
        return Move(x, self.height - row)

    def format_move(self, move: Move) -> str:
        if not (isinstance(move, Move) and 0 <= move.x < self.width and 0 <= move.y < self.height):
            raise BadNotation(f"not a point on this board: {move!r}", text=repr(move))
        return f"{column_name(move.x)}{self.height - move.y}"

    # -- records -------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        b = self._board
        xs, ys = b.xs, b.ys
        d: dict[str, Any] = {
            "kind": self.kind,
            "v": 1,
            "o": self.options,
            "m": "".join(LETTERS[xs[i]] + LETTERS[ys[i]] for i in self._hist),
        }
        if self._stop is not None:
            d["stop"] = list(self._stop)
        if self._grounded_by is not None:
            d["gnd"] = self._grounded_by
        end = self._end_json()
        if end is not None:
            d["end"] = end
        return d

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        cls.check_record(data, 1)
        try:
            opts = data["o"]
            text = data["m"]
            if not isinstance(opts, dict) or not isinstance(text, str) or len(text) % 2:
                raise BadRecord("bad options or move list")
            g = cls(**opts)
            moves = [
                Move(LETTERS.index(text[k]), LETTERS.index(text[k + 1]))
                for k in range(0, len(text), 2)
            ]
            stop = data.get("stop")
            if stop is not None and not (
                isinstance(stop, list)
                and len(stop) == 3
                and isinstance(stop[0], int)
                and 0 <= stop[0] <= len(moves)
            ):
                raise BadRecord(f"bad STOP record {stop!r}")
            g._rerun(moves, stop, data.get("gnd"))
            if "end" in data:
                g._result = GameResult.from_json(data["end"])
        except BadRecord:
            raise
        except (BadOptions, IllegalMove, KeyError, TypeError, ValueError) as e:
            raise BadRecord(f"bad dots record: {e}") from e
        return g

    def _rerun(self, moves: list[Move], stop: Any, grounded_by: Any) -> None:
        for _ in self._rerun_steps(moves, stop, grounded_by):
            pass

    def _rerun_steps(self, moves: list[Move], stop: Any, grounded_by: Any) -> Iterator[Self]:
        """Apply a history to this fresh game, yielding after each ply (and actions due there)."""
        stop_ply = None if stop is None else stop[0]
        if stop is not None and isinstance(stop[1], int):
            self._held = _held_before(stop[0], stop[1])

        def due(ply: int) -> None:
            if ply == stop_ply:
                self._stop = (ply, int(stop[1]), None if stop[2] is None else float(stop[2]))
                if self._stop[1] not in (0, 1):
                    raise BadRecord(f"bad STOP record {stop!r}")

        due(0)
        if not moves and grounded_by is not None:
            self.ground(int(grounded_by))
        yield self
        for n, m in enumerate(moves, 1):
            self.play(m)
            due(n)
            if n == len(moves) and grounded_by is not None:
                self.ground(int(grounded_by))
            yield self

    def replay(self) -> Iterator[Self]:
        """The game at ply 0, 1, … now, with STOP and grounding applied where they happened."""
        g = type(self)(**self.options)
        return g._rerun_steps(self.moves, self._stop, self._grounded_by)

    def copy(self) -> Self:
        g = type(self).__new__(type(self))
        g.width, g.height = self.width, self.height
        g.start, g.grounding, g.scoring = self.start, self.grounding, self.scoring
        g.edge = self.edge
        g._zone = self._zone
        g._board = self._board.copy()
        g._hist = self._hist[:]
        g._count = self._count[:]
        g._stop, g._grounded_by, g._bonus = self._stop, self._grounded_by, self._bonus
        g._held = self._held
        g._result = self._result
        return g

    def __reduce__(self) -> tuple[Any, ...]:
        return (_load, (self.to_json(),))

    def record(self, comments: Sequence[str] = ()) -> str:
        """The SGF record (:meth:`to_sgf`); the comments are not kept."""
        return self.to_sgf()

    @classmethod
    def from_record(cls, text: str) -> Game:
        return cls.from_sgf(text)

    def to_sgf(self, rings: bool = False) -> str:
        from engine.dots.sgf import write_sgf

        return write_sgf(self, rings=rings)

    @classmethod
    def from_sgf(cls, text: str) -> Game:
        from engine.dots.sgf import read_sgf

        return read_sgf(text)


def _held_before(stop_ply: int, stopper: int) -> int:
    """The move whose intruders a STOP at ``stop_ply`` by ``stopper`` sets free: the one just
    before, when the opponent made it (before a STOP the players alternate); else -1."""
    last = stop_ply - 1
    return last if last >= 0 and last % 2 != stopper else -1


def _load(record: dict[str, Any]) -> Game:
    return Game.from_json(record)
