"""Точки keyboard: a window of the board (8×7 points) with arrows, a jump to the last move and
a map of the whole board. A free point is one tap; any point is at most three (map → region →
point). Window steps change only the keyboard, never the picture."""

from __future__ import annotations

from typing import Any

from bot.i18n import Text
from bot.match.actions import Refused
from bot.match.buttons import INFO, PLAY, STEP, On
from bot.match.model import Match, Place
from bot.match.ui import Button, Keyboard, Plain, register
from engine.dots import Move

W, H = 8, 7  # window size in points: 8 buttons per row is Telegram's maximum
MARKS = ("🟠", "🔵")
LAST = ("🔶", "🔷")
DEAD = "✖"
STEP_X, STEP_Y = W - 2, H - 2  # overlap two points so neighbours stay in view


def _size(match: Match) -> tuple[int, int]:
    g: Any = match.game
    return g.width, g.height


def _clamp(match: Match, x: int, y: int) -> tuple[int, int]:
    width, height = _size(match)
    return max(0, min(x, width - W)), max(0, min(y, height - H))


def _centred(match: Match, x: int, y: int) -> tuple[int, int]:
    return _clamp(match, x - W // 2, y - H // 2)


def _window(match: Match, place: Place) -> tuple[int, int]:
    w = place.cursor.get("w")
    if isinstance(w, list) and len(w) == 2 and all(isinstance(v, int) for v in w):
        return _clamp(match, w[0], w[1])
    g: Any = match.game
    last = g.last_move
    if last is not None:
        return _centred(match, last.x, last.y)
    zone = g.zone
    if zone is not None:
        return _centred(match, zone.x + zone.width // 2, zone.y + zone.height // 2)
    width, height = _size(match)
    return _centred(match, width // 2, height // 2)


class DotsUI(Plain):
    cursor_needs_turn = False
    slow_moves = False

    def title(self, match: Match) -> list[Text | str]:
        width, height = _size(match)
        return [Text("game.dots"), f"{width}×{height}"]

    def move_rows(self, match: Match, place: Place, on: On) -> Keyboard:
        if place.cursor.get("map"):
            return self._map(match, on)
        g: Any = match.game
        width, height = _size(match)
        x0, y0 = _window(match, place)
        last = g.last_move
        rows: Keyboard = []
        for y in range(y0, min(y0 + H, height)):
            row = []
            for x in range(x0, min(x0 + W, width)):
                cell = g.cell(x, y)
                if cell.dot is not None:
                    is_last = last is not None and (last.x, last.y) == (x, y)
                    mark = (LAST if is_last else MARKS)[cell.dot] if not cell.captured else DEAD
                    row.append(Button(mark, on(INFO, "taken")))
                elif cell.dead:
                    row.append(Button(DEAD, on(INFO, "dead")))
                else:
                    row.append(Button(g.format_move(_move(g, x, y)), on(PLAY, f"{x}.{y}")))
            rows.append(row)
        if width > W or height > H:
            rows.append(
                [
                    Button("◀", on(STEP, "l")),
                    Button("▲", on(STEP, "u")),
                    Button("▼", on(STEP, "d")),
                    Button("▶", on(STEP, "r")),
                    Button("🎯", on(STEP, "t")),
                    Button("🗺", on(STEP, "m")),
                ]
            )
        return rows

    def _map(self, match: Match, on: On) -> Keyboard:
        g: Any = match.game
        width, height = _size(match)
        xs = list(range(0, max(1, width - W + 1), W))
        if xs[-1] != max(0, width - W):
            xs.append(max(0, width - W))
        ys = list(range(0, max(1, height - H + 1), H))
        if ys[-1] != max(0, height - H):
            ys.append(max(0, height - H))
        rows: Keyboard = []
        for y in ys:
            row = []
            for x in xs:
                cx, cy = min(x + W // 2, width - 1), min(y + H // 2, height - 1)
                row.append(Button(g.format_move(_move(g, cx, cy)), on(STEP, f"g{x}.{y}")))
            rows.append(row)
        rows.append([Button(Text("btn.back"), on(STEP, "k"))])
        return rows

    def decode(self, match: Match, code: str) -> Any:
        x, y = _ints(code)
        width, height = _size(match)
        if not (0 <= x < width and 0 <= y < height):
            raise Refused("err.bad_button")
        return _move(match.game, x, y)

    def cursor(self, match: Match, place: Place, op: str) -> None:
        x0, y0 = _window(match, place)
        steps = {"l": (-STEP_X, 0), "r": (STEP_X, 0), "u": (0, -STEP_Y), "d": (0, STEP_Y)}
        place.cursor.pop("map", None)
        if op in steps:
            dx, dy = steps[op]
            nx, ny = _clamp(match, x0 + dx, y0 + dy)
            if (nx, ny) == (x0, y0):
                raise Refused("info.edge")
            place.cursor["w"] = [nx, ny]
        elif op == "t":
            last = match.game.last_move  # type: ignore[attr-defined]
            if last is None:
                raise Refused("info.no_moves")
            place.cursor["w"] = list(_centred(match, last.x, last.y))
        elif op == "m":
            place.cursor["map"] = 1
            place.cursor["w"] = [x0, y0]
        elif op == "k":
            place.cursor["w"] = [x0, y0]
        elif op.startswith("g"):
            x, y = _ints(op[1:])
            place.cursor["w"] = list(_clamp(match, x, y))
        else:
            raise Refused("err.bad_button")

    def after_move(self, match: Match, move: Any) -> None:
        """Keep the last move in view: a window that does not show it is centred on it."""
        for place in match.places:
            place.cursor.pop("map", None)
            x0, y0 = _window(match, place)
            if not (x0 <= move.x < x0 + W and y0 <= move.y < y0 + H):
                place.cursor["w"] = list(_centred(match, move.x, move.y))


def _ints(code: str) -> tuple[int, int]:
    parts = code.split(".")
    if len(parts) != 2 or not all(p.isdigit() and len(p) <= 3 for p in parts):
        raise Refused("err.bad_button")
    return int(parts[0]), int(parts[1])


def _move(game: Any, x: int, y: int) -> Any:
    return Move(x, y)


register("dots", DotsUI())
