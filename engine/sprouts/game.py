"""Рассада (Sprouts) on paper: the playable game.

Two players take turns joining two spots (or a spot to itself) with a curve that crosses no
other curve and passes through no spot, then put a new spot on it. A spot takes at most three
curve ends. Normal play: the player who cannot move loses; misère: the player who makes the
last move loses. The winner scores 1.

The game keeps a planar :class:`~engine.sprouts.drawing.Drawing`; the combinatorial position
is derived from it (:attr:`Game.position`, :meth:`Game.to_glop`). Moves are
:class:`~engine.sprouts.moves.Move` values in the notation of :mod:`engine.sprouts.moves`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, ClassVar, Self

from engine.core import BadOptions, BadRecord, GameOver, GameResult, IllegalMove, register
from engine.core import Game as BaseGame
from engine.facts import Extra, GameFacts, Option
from engine.recent import Recent
from engine.sprouts.drawing import Drawing, DrawingError
from engine.sprouts.moves import Choice, Move, MoveTable, _well_formed, format_move
from engine.sprouts.paper import draw_move
from engine.sprouts.position import Position

RECORD_VERSION = 1
MIN_SPOTS, MAX_SPOTS = 1, 12

ILLEGAL_CODES: dict[str, str] = {
    "not_a_move": "that is not a Sprouts move",
    "no_such_spot": "there is no spot {spot}",
    "dead_spot": "spot {spot} has no lives left",
    "not_joinable": "spots {a} and {b} cannot be joined",
    "no_such_move": "that move is not possible here",
    "ambiguous_move": "{text} could mean several moves: {options}",
    "bad_notation": "{text} is not a move (write two spots, like 1-2)",
    "no_room": "the curve for {move} could not be drawn",
    "game_over": "the game is over",
    "no_such_player": "there is no player {player}",
}


def _table(drawing: Drawing) -> MoveTable:
    """The legal moves of a drawing, built once and shared by every copy of the game."""
    table = drawing.__dict__.get("_moves")
    if table is None:
        table = MoveTable(drawing)
        drawing.__dict__["_moves"] = table
    return table


# The bot rebuilds the game from its record on every tap. Routed children by (drawing, move):
# a previewed curve must outlive the object it was drawn on. Drawings by content: a reloaded
# drawing keeps the faces, position and move table derived on an earlier load. Small, because
# each drawing holds its derived topology and move table.
_routed: Recent[tuple[Any, ...], Drawing] = Recent(32)
_known: Recent[tuple[Any, ...], Drawing] = Recent(16)


def route_here(drawing: Drawing, move: Move) -> Drawing:
    """The drawing after the legal ``move``, routed and checked in this process (raises
    :class:`~engine.sprouts.routing.RoutingError`)."""
    choice = _table(drawing).choice(move)
    if choice is None:
        raise IllegalMove(f"{format_move(move)} is not possible here", code="no_such_move")
    return draw_move(drawing, choice)


Router = Callable[[Drawing, Move], Drawing]
_router: Router = route_here


def set_router(router: Router | None) -> Router:
    """Where new curves are routed from now on (None: in this process); returns the router
    it replaces. Routing is most of a move's cost, tens of milliseconds: a server that must
    keep answering hands it to its worker processes, with a router that gives back exactly
    what :func:`route_here` would (the bot's ``RoutePool``)."""
    global _router
    old, _router = _router, router or route_here
    return old


def _child(drawing: Drawing, move: Move) -> Drawing:
    """The drawing after ``move``, routed once: a previewed curve (drawn on a copy of the
    game, or on an earlier load of the same record) is the very curve that is played, also
    when the play is tapped while the preview is still being routed in another thread."""
    child = _routed.make_once((drawing.content, move), lambda: _router(drawing, move))
    return _known.keep(child.content, child)


FACTS = GameFacts(
    min_players=2,
    max_players=2,
    scored=False,  # the winner is who moved last (or, misère, who did not)
    options=(
        Option("spots", int, 3, low=MIN_SPOTS, high=MAX_SPOTS),
        Option("misere", bool, False, choices=(False, True)),
    ),
    extras=frozenset({Extra.DRAW}),
    ai="engine.sprouts.ai",
)


@register
class Game(BaseGame[Move]):
    """Sprouts with ``spots`` starting spots (1–12); ``misere=True`` for misère play."""

    kind: ClassVar[str] = "sprouts"
    move_type: ClassVar[type] = Move
    facts: ClassVar[GameFacts] = FACTS
    PRESETS: ClassVar[dict[str, dict[str, Any]]] = {
        "quick": {"spots": 3},
        "classic": {"spots": 5},
        "long": {"spots": 8},
        "misere": {"spots": 5, "misere": True},
    }

    def __init__(self, spots: int = 3, *, misere: bool = False) -> None:
        if type(spots) is not int or not MIN_SPOTS <= spots <= MAX_SPOTS:
            raise BadOptions(f"spots must be a whole number {MIN_SPOTS}..{MAX_SPOTS}")
        if type(misere) is not bool:
            raise BadOptions("misere must be true or false")
        self._spots = spots
        self._misere = misere
        self._drawing = Drawing.start(spots)
        self._history: list[Move] = []
        self._result: GameResult | None = None

    # -- shared API ----------------------------------------------------------------------

    @property
    def players(self) -> int:
        return 2

    @property
    def turn(self) -> int:
        return len(self._history) % 2

    @property
    def scores(self) -> tuple[int, ...]:
        return (0, 0) if self._result is None else self._result.scores

    @property
    def ply(self) -> int:
        return len(self._history)

    @property
    def options(self) -> dict[str, Any]:
        return {"spots": self._spots, "misere": self._misere}

    @property
    def moves(self) -> list[Move]:
        return list(self._history)

    @property
    def misere(self) -> bool:
        return self._misere

    @property
    def drawing(self) -> Drawing:
        """Spots (``number``, ``x``, ``y``, ``lives``) and curves (``a``, ``b``, ``points``)."""
        return self._drawing

    @property
    def position(self) -> Position:
        """The combinatorial position derived from the drawing."""
        return self._drawing.position

    def to_glop(self) -> str:
        """The position in GLOP 2.x notation (``position.canonical()`` is the equality key)."""
        return str(self._drawing.position)

    def legal_moves(self) -> list[Move]:
        if self._result is not None:
            return []
        return list(_table(self._drawing).moves)

    def moves_between(self, a: int, b: int) -> list[Move]:
        """The legal moves joining spots ``a`` and ``b`` (either order), in a fixed order."""
        if self._result is not None:
            return []
        lo, hi = (a, b) if a <= b else (b, a)
        return list(_table(self._drawing).between(lo, hi))

    def joinable(self, a: int) -> list[int]:
        """The spots a curve from spot ``a`` can reach now (``a`` itself for a loop)."""
        if self._result is not None:
            return []
        pairs = _table(self._drawing).pairs
        return sorted({b if x == a else x for x, b in pairs if a in (x, b)})

    def describe(self, move: Move) -> Choice:
        """What the keyboard shows about a legal move: ``face`` (region index of
        :attr:`position`), ``inside`` (enclosed spots), ``reach`` (live spots on that
        region's edge besides the ends), ``pmove`` (the position's move)."""
        self.check(move)
        choice = _table(self._drawing).choice(move)
        assert choice is not None  # checked
        return choice

    def check(self, move: Move) -> None:
        if self._result is not None:
            raise GameOver()
        if not _well_formed(move):
            raise IllegalMove(f"not a Sprouts move: {move!r}", code="not_a_move")
        n = len(self._drawing.spots)
        for s in (move.a, move.b):
            if s > n:
                raise IllegalMove(f"there is no spot {s}", code="no_such_spot", spot=s)
            if self._drawing.spots[s - 1].lives == 0:
                raise IllegalMove(f"spot {s} has no lives left", code="dead_spot", spot=s)
        table = _table(self._drawing)
        if (move.a, move.b) not in table.pairs:
            raise IllegalMove(
                f"spots {move.a} and {move.b} cannot be joined",
                code="not_joinable",
                a=move.a,
                b=move.b,
            )
        if table.choice(move) is None:
            raise IllegalMove(f"{format_move(move)} is not possible here", code="no_such_move")

    def play(self, move: Move) -> None:
        self.check(move)
        self._drawing = _child(self._drawing, move)
        self._history.append(move)
        if not _table(self._drawing).pairs:
            mover = 1 - self.turn  # the player who just moved
            winner = 1 - mover if self._misere else mover
            self._result = GameResult(tuple(int(i == winner) for i in range(2)), winner)

    def parse_move(self, text: str) -> Move:
        lives = {s.number: s.lives for s in self._drawing.spots}
        return _table(self._drawing).parse(text, len(self._drawing.spots), lives)

    def format_move(self, move: Move) -> str:
        if not _well_formed(move):
            raise IllegalMove(f"not a Sprouts move: {move!r}", code="not_a_move")
        return format_move(move)

    # -- records -------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind, "v": RECORD_VERSION, **self.options}
        d["moves"] = [m.to_json() for m in self._history]
        d["drawing"] = self._drawing.to_json()
        if self._result is not None:
            d["end"] = self._result.to_json()
        return d

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        """Rebuild a game with its drawing exactly as stored (nothing is routed again)."""
        cls.check_record(data, RECORD_VERSION)
        try:
            g = cls(data["spots"], misere=data.get("misere", False))
            history = [Move.from_json(m) for m in data["moves"]]
            drawing = Drawing.from_json(data["drawing"])
            drawing = _known.keep(drawing.content, drawing)
        except (KeyError, TypeError, ValueError, BadOptions, DrawingError) as e:
            raise BadRecord(f"bad sprouts record: {e}") from e
        if len(drawing.spots) != g._spots + len(history):
            raise BadRecord("the drawing does not match the moves")
        g._drawing = drawing
        g._history = history
        if "end" in data:
            g._result = GameResult.from_json(data["end"])
        return g

    def snapshots(self) -> Iterator[Self]:
        """The past drawn with the present geometry: after k moves, the first k moves' spots
        and curves of the current drawing. A move only appends its spot and its two curves
        and tidying only moves things, so each is that position's drawing, nothing is routed
        again and nothing jumps from frame to frame."""
        d, n = self._drawing, self._spots
        g = type(self)(**self.options)
        for k in range(len(self._history) + 1):
            places = [(s.x, s.y) for s in d.spots[: n + k]]
            g._drawing = Drawing(places, d.curves[: 2 * k], d.width, d.height)
            g._history = self._history[:k]
            g._result = self._result if k == len(self._history) else None
            yield g

    def copy(self) -> Self:
        g = object.__new__(type(self))
        g.__dict__.update(self.__dict__)
        g._history = list(self._history)
        return g

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self).from_json, (self.to_json(),))
