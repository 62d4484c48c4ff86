"""Per-game move input: the keyboard each place shows, button codes → moves, cursor steps.

Every game provides the same small surface (:class:`GameUI`), so the match layer and the
Telegram adapter never branch on the game kind.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Literal, Protocol, TypedDict

from bot.i18n import Text
from bot.match.buttons import On
from bot.match.model import Match, Place


@dataclass(frozen=True)
class Button:
    """An inline button: ``text`` literal or translated; ``data`` the callback string, or for
    the other ``kind``s the URL a ``web_app`` button opens as a Mini App (private chats) or a
    ``url`` button opens (the t.me direct link of the Mini App in groups and inline messages)."""

    text: str | Text
    data: str
    kind: Literal["callback", "web_app", "url"] = "callback"


Keyboard = list[list[Button]]


class PictureView(TypedDict, total=False):
    """What the match layer asks of a place's picture. JSON-safe (it is part of the key that
    decides whether a picture is drawn again); bot.pictures turns it into the renderer's
    :class:`render.view.View`, so the match layer does not import the renderer."""

    lang: str
    labels: bool  # Точки и квадраты: name the free lines and boxes as the keyboard does
    preview: str  # Рассада: a move's notation, drawn as a dashed ghost
    status: str  # the header's status line in place of whose turn it is (a puzzle's task)
    marks: list[str]  # lines (Точки и квадраты) or points (Точки) a lesson page marks
    window: list[int]  # Точки: the keyboard's window [x0, y0, w, h], framed
    map: list[list[int]]  # Точки: the map's numbered parts, each [x0, y0, w, h]


class GameUI(Protocol):
    # Keyboard steps that prepare a move (a Sprouts selection) belong to the player to move;
    # steps that only look around (the Dots window) are open to every player.
    cursor_needs_turn: bool
    # Moves that take long to apply (a Sprouts curve is routed: up to seconds) are applied in
    # a worker thread, so the event loop keeps answering other chats meanwhile.
    slow_moves: bool

    def move_rows(self, match: Match, place: Place, on: On) -> Keyboard:
        """The move buttons (and navigation) of this place's keyboard."""

    def decode(self, match: Match, code: str) -> Any:
        """A button's move code → the engine move (raise Refused for a malformed code)."""

    def cursor(self, match: Match, place: Place, op: str) -> None:
        """Apply a keyboard-only step to ``place.cursor`` (raise Refused if it makes no sense)."""

    def after_move(self, match: Match, move: Any) -> None:
        """Adjust the places' cursors after a move (e.g. keep the last move in the window)."""

    def picture_view(self, match: Match, place: Place) -> PictureView:
        """Extra JSON-safe view options for the renderer for this place (a preview…)."""

    def hint(self, match: Match, place: Place) -> Text | None:
        """A caption line about the selection in progress, if any."""

    def auto_move(self, match: Match, place: Place) -> Any | None:
        """The move a finished selection stands for when there is no choice left."""

    def say_move(self, match: Match, move: Any) -> Text | str:
        """How the caption names a move that was played."""

    def title(self, match: Match) -> list[Text | str]:
        """The parts of the caption's title (joined by " · "): the game's name, its size and
        variants."""


class Plain:
    """The parts of a :class:`GameUI` that a game without previews or words of its own
    leaves as they are: moves are said in the engine's notation, nothing is pre-selected."""

    def picture_view(self, match: Match, place: Place) -> PictureView:
        return {}

    def hint(self, match: Match, place: Place) -> Text | None:
        return None

    def say_move(self, match: Match, move: Any) -> Text | str:
        return str(match.game.format_move(move))

    def auto_move(self, match: Match, place: Place) -> Any | None:
        return None


_REGISTRY: dict[str, GameUI] = {}


def register(kind: str, ui: GameUI) -> None:
    _REGISTRY[kind] = ui


def get(kind: str) -> GameUI:
    if kind not in _REGISTRY:
        importlib.import_module(f"bot.match.ui.{kind}")  # the module registers itself
    return _REGISTRY[kind]
