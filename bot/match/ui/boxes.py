"""Точки и квадраты keyboard.

Up to 5×5 boxes every line is a button, laid out like the board: rows of horizontal lines
alternate with rows of vertical lines. Bigger boards show a window of boxes; tapping a box
shows its four sides. Extra moves after a capture stay one tap each.

Whenever the keyboard names boxes, or the board has a shape, the picture names the open boxes
and dashes the free lines: the buttons' names must be findable on the picture, and a shaped
board's missing boxes must be visible (its dots alone look like a full grid).
"""

from __future__ import annotations

from typing import Any

from bot.i18n import Text
from bot.match.actions import Refused
from bot.match.buttons import INFO, PLAY, STEP, On
from bot.match.model import Match, Place
from bot.match.ui import Button, Keyboard, PictureView, Plain, register
from engine.boxes import Game as BoxesGame
from engine.boxes import Move

FULL_LIMIT = 5  # boards up to 5×5 boxes get one button per line (at most 60 + navigation)
W, H = 8, 6  # box window on bigger boards
MARKS = ("🟠", "🔵", "🟢", "🟣")
H_FREE, V_FREE, DRAWN, NONE = "━", "┃", "·", " "


def _full(game: BoxesGame) -> bool:
    return game.rows <= FULL_LIMIT and game.cols <= FULL_LIMIT


def _code(m: Move) -> str:
    return f"{m.orient}{m.r}.{m.c}"


def _line_button(game: BoxesGame, m: Move, on: On, free: str) -> Button:
    if not game.has_line(m):
        return Button(NONE, on(INFO, "none"))
    if game.line_owner(m) is not None or game.is_outline(m):  # Палочки's outline is drawn
        return Button(DRAWN, on(INFO, "drawn"))
    return Button(free, on(PLAY, _code(m)))


def _clamp(game: BoxesGame, r: int, c: int) -> tuple[int, int]:
    return max(0, min(r, game.rows - H)), max(0, min(c, game.cols - W))


def _window(game: BoxesGame, place: Place) -> tuple[int, int]:
    w = place.cursor.get("w")
    if isinstance(w, list) and len(w) == 2 and all(isinstance(v, int) for v in w):
        return _clamp(game, w[0], w[1])
    last = game.last_turn
    if last:
        m = last[-1]
        return _clamp(game, m.r - H // 2, m.c - W // 2)
    return _clamp(game, (game.rows - H) // 2, (game.cols - W) // 2)


class BoxesUI(Plain):
    cursor_needs_turn = False
    slow_moves = False

    def title(self, match: Match) -> list[Text | str]:
        game: Any = match.game
        name = Text("boxes.palochki") if game.border else Text("game.boxes")
        return [name, Text(f"shape.{game.shape}") if game.shape else f"{game.rows}×{game.cols}"]

    def move_rows(self, match: Match, place: Place, on: On) -> Keyboard:
        game: Any = match.game
        if _full(game):
            rows: Keyboard = []
            for r in range(game.rows + 1):
                rows.append(
                    [_line_button(game, Move("h", r, c), on, H_FREE) for c in range(game.cols)]
                )
                if r < game.rows:
                    rows.append(
                        [
                            _line_button(game, Move("v", r, c), on, V_FREE)
                            for c in range(game.cols + 1)
                        ]
                    )
            return rows
        box = place.cursor.get("box")
        if isinstance(box, list) and len(box) == 2:
            return self._sides(game, box[0], box[1], on)
        return self._boxes(game, place, on)

    def _boxes(self, game: Any, place: Place, on: On) -> Keyboard:
        r0, c0 = _window(game, place)
        rows: Keyboard = []
        for r in range(r0, min(r0 + H, game.rows)):
            row = []
            for c in range(c0, min(c0 + W, game.cols)):
                if not game.has_box(r, c):
                    row.append(Button(NONE, on(INFO, "none")))
                elif (owner := game.box_owner(r, c)) is not None:
                    row.append(Button(MARKS[owner], on(INFO, "taken_box")))
                else:
                    label = game.dot_name(r + 1, c)  # named by its lower-left dot
                    row.append(Button(label, on(STEP, f"b{r}.{c}")))
            rows.append(row)
        if game.rows > H or game.cols > W:  # otherwise the window is the whole board
            rows.append(
                [
                    Button("◀", on(STEP, "l")),
                    Button("▲", on(STEP, "u")),
                    Button("▼", on(STEP, "d")),
                    Button("▶", on(STEP, "r")),
                ]
            )
        return rows

    def _sides(self, game: Any, r: int, c: int, on: On) -> Keyboard:
        top, bottom = Move("h", r, c), Move("h", r + 1, c)
        left, right = Move("v", r, c), Move("v", r, c + 1)
        blank = Button(NONE, on(INFO, "none"))
        return [
            [blank, _line_button(game, top, on, "↑ " + H_FREE), blank],
            [
                _line_button(game, left, on, V_FREE + " ←"),
                Button(game.dot_name(r + 1, c), on(INFO, "none")),
                _line_button(game, right, on, "→ " + V_FREE),
            ],
            [blank, _line_button(game, bottom, on, "↓ " + H_FREE), blank],
            [Button(Text("btn.back"), on(STEP, "k"))],
        ]

    def decode(self, match: Match, code: str) -> Any:
        game: Any = match.game
        if len(code) < 4 or code[0] not in "hv":
            raise Refused("err.bad_button")
        parts = code[1:].split(".")
        if len(parts) != 2 or not all(p.isdigit() and len(p) <= 2 for p in parts):
            raise Refused("err.bad_button")
        move = Move(code[0], int(parts[0]), int(parts[1]))
        if not game.has_line(move):
            raise Refused("err.bad_button")
        return move

    def cursor(self, match: Match, place: Place, op: str) -> None:
        game: Any = match.game
        if _full(game):
            raise Refused("err.bad_button")
        r0, c0 = _window(game, place)
        steps = {"l": (0, -(W - 2)), "r": (0, W - 2), "u": (-(H - 2), 0), "d": (H - 2, 0)}
        if op in steps:
            dr, dc = steps[op]
            nr, nc = _clamp(game, r0 + dr, c0 + dc)
            if (nr, nc) == (r0, c0):
                raise Refused("info.edge")
            place.cursor["w"] = [nr, nc]
            place.cursor.pop("box", None)
        elif op == "k":
            place.cursor.pop("box", None)
        elif op.startswith("b"):
            parts = op[1:].split(".")
            if len(parts) != 2 or not all(p.isdigit() for p in parts):
                raise Refused("err.bad_button")
            r, c = int(parts[0]), int(parts[1])
            if not game.has_box(r, c):
                raise Refused("err.bad_button")
            place.cursor["box"] = [r, c]
            place.cursor["w"] = [r0, c0]
        else:
            raise Refused("err.bad_button")

    def after_move(self, match: Match, move: Any) -> None:
        for place in match.places:
            place.cursor.pop("box", None)

    def picture_view(self, match: Match, place: Place) -> PictureView:
        game: Any = match.game
        shaped = any("." in row for row in game.mask)
        return {"labels": True} if shaped or not _full(game) else {}


register("boxes", BoxesUI())
