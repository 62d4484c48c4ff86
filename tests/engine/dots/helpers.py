"""Building Dots positions by hand: moves in order, or per-player lists padded with fillers."""

from __future__ import annotations

from collections.abc import Iterable

from engine.dots import Game, Move

Point = tuple[int, int]


def moves(game: Game, points: Iterable[Point]) -> Game:
    """Play the points in order (players alternate as the rules say)."""
    for x, y in points:
        game.play(Move(x, y))
    return game


def board(width: int, height: int, **options: object) -> Game:
    """A game with eight spare columns on the right for fillers: an empty column, three of
    player 1's, an empty one, three of player 0's up to the edge. Solid blocks enclose nothing
    and the empty columns keep them off the position being built."""
    return Game(width + 8, height, **options)  # type: ignore[arg-type]


def play(game: Game, a: Iterable[Point] = (), b: Iterable[Point] = ()) -> Game:
    """Play player 0's points ``a`` and player 1's points ``b`` in their orders, alternating;
    when the player to move has none left (and the other still has), they play a filler."""
    todo = [list(a), list(b)]
    while todo[0] or todo[1]:
        p = game.turn
        if todo[p]:
            x, y = todo[p].pop(0)
        else:
            x, y = _filler(game, p)
        game.play(Move(x, y))
    return game


def _filler(game: Game, player: int) -> Point:
    w = game.width
    columns = (w - 1, w - 2, w - 3) if player == 0 else (w - 7, w - 6, w - 5)
    for x in columns:
        for y in range(game.height):
            if game.cell(x, y).empty:
                return (x, y)
    raise AssertionError("out of filler points; make the board taller")


def diamond(cx: int, cy: int, r: int) -> list[Point]:
    """The points at taxicab distance ``r`` from the centre: a ring of diagonal links."""
    pts = []
    for dx in range(-r, r + 1):
        dy = r - abs(dx)
        pts.append((cx + dx, cy + dy))
        if dy:
            pts.append((cx + dx, cy - dy))
    return pts


def dead(game: Game) -> dict[Point, int]:
    """Every point inside a captured area, with who captured it."""
    return {
        (x, y): c.area
        for x in range(game.width)
        for y in range(game.height)
        if (c := game.cell(x, y)).area is not None
    }
