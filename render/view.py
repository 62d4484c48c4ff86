"""What a picture is drawn from: the ``view`` options and the game surfaces the renderers read.

``View`` is a ``TypedDict`` (``total=False``: every key optional), not a dataclass: views are
built as dict literals in the bot, the benches and the tests, merged with ``{**view, ...}``
and sent as JSON to the replay worker process, and all of that keeps working as it is, while
mypy now rejects a misspelt key or a value of the wrong type where a view is written. The
renderers still check values at run time (a view may come from a stored record), so a bad
value is ignored there rather than raised.

The games: Точки and Точки и квадраты are drawn from their engine classes themselves (the
renderers read much of their board API); Рассада through :class:`SproutsShown`, the small
surface ``render.sprouts`` documents (the tests draw stand-in drawings through it), and the
header and the replay through :class:`Shown`, the part of the one engine API they share.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Protocol, TypedDict

from engine.core import GameResult


class View(TypedDict, total=False):
    """The options of one picture (see :mod:`render`)."""

    lang: str  # "ru" | "en"; anything else draws in English
    title: str  # replaces the game's name in the header
    players: Sequence[str]  # a name per seat; missing or empty ones read "Player k"
    status: str  # replaces the header's status line (whose turn, the result)
    last: bool  # mark the last move (default True)
    size: int  # the long side in pixels (default 1280, clamped)
    window: Sequence[int]  # Точки: the keyboard's viewport [x0, y0, w, h], y from the top
    map: Sequence[Sequence[int]]  # Точки: the map's parts [x0, y0, w, h], numbered from 1
    labels: bool  # Точки и квадраты: free lines and boxes named as the keyboard names them
    # Точки и квадраты: lines (the game's notation, drawn or free) marked with the last move's
    # halo in its place; Точки: points ringed as the last move is: what a lesson page points
    # at. Рассада: the first one, a move not yet played, drawn as the preview is (unless the
    # view has a preview of its own).
    marks: Sequence[str]
    # Рассада: a candidate move drawn as a dashed ghost. The renderer wants the game's move;
    # the bot's JSON-safe views carry its notation, which bot.pictures parses.
    preview: object
    extent: Sequence[float]  # Рассада: [x0, y0, x1, y1] in drawing units the frame must hold
    theme: str  # SVG only: "light" (default) or "dark" (see render.svg)


class Shown(Protocol):
    """The shared game API the header and the replay read (every engine game has it)."""

    @property
    def kind(self) -> str: ...
    @property
    def players(self) -> int: ...
    @property
    def turn(self) -> int: ...
    @property
    def ply(self) -> int: ...
    @property
    def scores(self) -> tuple[int, ...]: ...
    @property
    def over(self) -> bool: ...
    @property
    def result(self) -> GameResult | None: ...
    def snapshots(self) -> Iterator[Any]:
        """The game at each ply (one object advanced step by step)."""
        ...


class SpotLike(Protocol):
    """A Рассада spot: its number, its place (any scale, y down) and its lives (0–3)."""

    @property
    def number(self) -> int: ...
    @property
    def x(self) -> float: ...
    @property
    def y(self) -> float: ...
    @property
    def lives(self) -> int: ...


class CurveLike(Protocol):
    """A Рассада curve: a polyline whose ends are spots, in the spots' units."""

    @property
    def points(self) -> Sequence[tuple[float, float]]: ...


class DrawingLike(Protocol):
    @property
    def spots(self) -> Sequence[SpotLike]: ...
    @property
    def curves(self) -> Sequence[CurveLike]: ...


class SproutsMoveLike(Protocol):
    """A Рассада move as the header names it: the two spots its curve joins."""

    @property
    def a(self) -> int: ...
    @property
    def b(self) -> int: ...


class SproutsShown(Shown, Protocol):
    """What ``render.sprouts`` reads of a Рассада game; ``copy`` and ``play`` draw a preview
    (the candidate is played on a copy)."""

    @property
    def drawing(self) -> DrawingLike: ...
    @property
    def moves(self) -> Sequence[SproutsMoveLike]: ...
    @property
    def options(self) -> Mapping[str, Any]: ...
    def copy(self) -> SproutsShown: ...
    def play(self, move: Any) -> None: ...
    def parse_move(self, text: str) -> Any:
        """The move ``text`` names (raises the engine's EngineError if none): a view's marks
        are notation."""
        ...
