"""Точки keyboard: a window of the board (8×7 points) with arrows, a jump to the last move and
a map of the whole board. A free point is one tap; any point is at most three (map → window →
point). The picture frames the window; the window stays where the player left it (only the
arrows, 🎯 and the map move it), so the buttons never shift under the thumb."""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations, pairwise
from typing import Any

from bot.i18n import Text
from bot.match.actions import Refused
from bot.match.buttons import INFO, PLAY, STEP, On
from bot.match.model import Match, Place
from bot.match.ui import Button, Keyboard, PictureView, Plain, register
from engine.dots import Move

W, H = 8, 7  # window size in points: 8 buttons per row is Telegram's maximum
MARKS = ("🟠", "🔵")
LAST = ("🔶", "🔷")
DEAD = "✖"
STEP_X, STEP_Y = W - 2, H - 2  # overlap two points so neighbours stay in view

Box = tuple[int, int, int, int]  # x0, y0, width, height in points


def _size(match: Match) -> tuple[int, int]:
    g: Any = match.game
    return g.width, g.height


def _clamp(match: Match, x: int, y: int) -> tuple[int, int]:
    width, height = _size(match)
    return max(0, min(x, width - W)), max(0, min(y, height - H))


def _centred(match: Match, x: int, y: int) -> tuple[int, int]:
    return _clamp(match, x - W // 2, y - H // 2)


def _stored(place: Place) -> tuple[int, int] | None:
    w = place.cursor.get("w")
    if isinstance(w, list) and len(w) == 2 and all(isinstance(v, int) for v in w):
        return w[0], w[1]
    return None


def _window(match: Match, place: Place) -> tuple[int, int]:
    w = _stored(place)
    if w is not None:
        return _clamp(match, *w)
    return _first(match, match.game.last_move)  # type: ignore[attr-defined]


def _first(match: Match, last: Any) -> tuple[int, int]:
    """The window of a board nobody has moved yet: on the last move, else the first-move zone
    or the middle."""
    if last is not None:
        return _centred(match, last.x, last.y)
    zone = match.game.zone  # type: ignore[attr-defined]
    if zone is not None:
        return _centred(match, zone.x + zone.width // 2, zone.y + zone.height // 2)
    width, height = _size(match)
    return _centred(match, width // 2, height // 2)


def _moves(match: Match) -> bool:
    """Whether the board is bigger than one window (so there is a window to move and frame)."""
    width, height = _size(match)
    return width > W or height > H


def _stops(length: int, size: int) -> list[int]:
    """Window corners along one side, as evenly spread as whole points allow: as few as cover
    it (no gap between neighbours)."""
    if length <= size:
        return [0]
    span = length - size
    n = -(-span // size)  # gaps between corners
    return [(i * span + n // 2) // n for i in range(n + 1)]


@lru_cache(maxsize=32)
def map_windows(width: int, height: int) -> tuple[Box, ...]:
    """The windows the map offers, row by row from the top: together they cover the board and
    no two overlap by more than half a window. Empty when that cannot be (a board a little
    bigger than a window: the arrows reach it all in two taps) or one window is the board."""
    xs, ys = _stops(width, W), _stops(height, H)
    if len(xs) * len(ys) == 1:
        return ()
    w, h = min(W, width), min(H, height)
    boxes = tuple((x, y, w, h) for y in ys for x in xs)
    for a, b in combinations(boxes, 2):
        ox = min(a[0] + w, b[0] + w) - max(a[0], b[0])
        oy = min(a[1] + h, b[1] + h) - max(a[1], b[1])
        if ox > 0 and oy > 0 and 2 * ox * oy > w * h:
            return ()
    return boxes


def _cuts(stops: list[int], size: int, length: int) -> list[tuple[int, int]]:
    """Each window's own stretch of one side (start, length): neighbours split their overlap
    in the middle, so the stretches tile the side and each lies inside its window."""
    bounds = [0] + [(a + size + b) // 2 for a, b in pairwise(stops)] + [length]
    return [(a, b - a) for a, b in pairwise(bounds)]


@lru_cache(maxsize=32)
def map_cells(width: int, height: int) -> tuple[Box, ...]:
    """The map picture's numbered parts, in the order of :func:`map_windows`: part k lies
    inside window k and the parts tile the board."""
    if not map_windows(width, height):
        return ()
    xs, ys = _cuts(_stops(width, W), W, width), _cuts(_stops(height, H), H, height)
    return tuple((x, y, w, h) for y, h in ys for x, w in xs)


class DotsUI(Plain):
    cursor_needs_turn = False
    slow_moves = False

    def title(self, match: Match) -> list[Text | str]:
        width, height = _size(match)
        return [Text("game.dots"), f"{width}×{height}"]

    def move_rows(self, match: Match, place: Place, on: On) -> Keyboard:
        if place.cursor.get("map") and map_windows(*_size(match)):
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
        if _moves(match):
            nav = [
                Button("◀", on(STEP, "l")),
                Button("▲", on(STEP, "u")),
                Button("▼", on(STEP, "d")),
                Button("▶", on(STEP, "r")),
                Button("🎯", on(STEP, "t")),
            ]
            if map_windows(width, height):
                nav.append(Button("🗺", on(STEP, "m")))
            rows.append(nav)
        return rows

    def _map(self, match: Match, on: On) -> Keyboard:
        """A button per offered window, numbered as the map picture numbers them, laid out as
        the windows lie on the board."""
        boxes = map_windows(*_size(match))
        rows: Keyboard = []
        for k, (x, y, _, _) in enumerate(boxes):
            if not rows or boxes[k - 1][1] != y:
                rows.append([])
            rows[-1].append(Button(str(k + 1), on(STEP, f"g{x}.{y}")))
        rows.append([Button(Text("btn.back"), on(STEP, "k"))])
        return rows

    def decode(self, match: Match, code: str) -> Any:
        x, y = _ints(code)
        width, height = _size(match)
        if not (0 <= x < width and 0 <= y < height):
            raise Refused("err.bad_button")
        return _move(match.game, x, y)

    def cursor(self, match: Match, place: Place, op: str) -> None:
        """Move the window (refused, changing nothing, when the step makes no sense: an edge,
        no map on this board, a map tap after the map closed or for a window it never offered)."""
        x0, y0 = _window(match, place)
        steps = {"l": (-STEP_X, 0), "r": (STEP_X, 0), "u": (0, -STEP_Y), "d": (0, STEP_Y)}
        if op in steps:
            dx, dy = steps[op]
            nx, ny = _clamp(match, x0 + dx, y0 + dy)
            if (nx, ny) == (x0, y0):
                raise Refused("info.edge")
            window = [nx, ny]
        elif op == "t":
            last = match.game.last_move  # type: ignore[attr-defined]
            if last is None:
                raise Refused("info.no_moves")
            window = list(_centred(match, last.x, last.y))
        elif op == "m":
            if not map_windows(*_size(match)):
                raise Refused("err.bad_button")
            place.cursor["map"] = 1
            window = [x0, y0]
        elif op == "k":
            window = [x0, y0]
        elif op.startswith("g"):
            x, y = _ints(op[1:])
            if not place.cursor.get("map"):
                raise Refused("info.map_closed")
            if (x, y) not in {b[:2] for b in map_windows(*_size(match))}:
                raise Refused("err.bad_button")
            window = [x, y]
        else:
            raise Refused("err.bad_button")
        if op != "m":
            place.cursor.pop("map", None)
        place.cursor["w"] = window

    def after_move(self, match: Match, move: Any) -> None:
        """Pin every window where it is: a move never moves one. A board whose window nobody
        has moved yet keeps the window it showed before the move if the move is in it (the
        player tapped there), else it is centred on the move (the bot opened the game)."""
        moves = match.game.moves
        before = moves[-2] if len(moves) >= 2 else None
        for place in match.places:
            if _stored(place) is not None:
                continue
            x0, y0 = _first(match, before)
            if x0 <= move.x < x0 + W and y0 <= move.y < y0 + H:
                place.cursor["w"] = [x0, y0]
            else:
                place.cursor["w"] = list(_centred(match, move.x, move.y))

    def hint(self, match: Match, place: Place) -> Text | None:
        if place.cursor.get("map") and map_windows(*_size(match)):
            return Text("dots.map_hint")
        return None

    def picture_view(self, match: Match, place: Place) -> PictureView:
        """The map's numbered parts while the map is open, else the window's frame."""
        if not _moves(match):
            return {}
        if place.cursor.get("map"):
            cells = map_cells(*_size(match))
            if cells:
                return {"map": [list(c) for c in cells]}
        x0, y0 = _window(match, place)
        return {"window": [x0, y0, W, H]}


def _ints(code: str) -> tuple[int, int]:
    parts = code.split(".")
    if len(parts) != 2 or not all(p.isdigit() and len(p) <= 3 for p in parts):
        raise Refused("err.bad_button")
    return int(parts[0]), int(parts[1])


def _move(game: Any, x: int, y: int) -> Any:
    return Move(x, y)


register("dots", DotsUI())
