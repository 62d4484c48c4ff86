"""A stand-in for the Sprouts engine's drawing, with exactly the surface the renderer reads
(``render.sprouts`` documents it): spots with number, x, y, lives; curves with points; the
shared game API. Curves are smooth arcs but not checked for crossings: the renderer draws
whatever it is given, and these tests are about drawing, not topology."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any

from engine.core import GameResult, IllegalMove


@dataclass
class Spot:
    number: int
    x: float
    y: float
    lives: int = 3


@dataclass
class Curve:
    points: list[tuple[float, float]]


@dataclass
class Drawing:
    spots: list[Spot] = field(default_factory=list)
    curves: list[Curve] = field(default_factory=list)


@dataclass(frozen=True)
class Move:
    a: int
    b: int


class FakeSprouts:
    kind = "sprouts"
    players = 2

    def __init__(self, spots: int = 3, misere: bool = False) -> None:
        self._n, self._misere = spots, misere
        self.drawing = Drawing()
        for i in range(spots):
            ang = 2 * math.pi * i / spots - math.pi / 2
            self.drawing.spots.append(Spot(i + 1, 10 * math.cos(ang), 10 * math.sin(ang)))
        self._moves: list[Move] = []
        self._result: GameResult | None = None

    # -- the shared API -------------------------------------------------------------------
    @property
    def options(self) -> dict[str, Any]:
        return {"spots": self._n, "misere": self._misere}

    @property
    def turn(self) -> int:
        return len(self._moves) % 2

    @property
    def ply(self) -> int:
        return len(self._moves)

    @property
    def moves(self) -> list[Move]:
        return list(self._moves)

    @property
    def scores(self) -> tuple[int, int]:
        return (0, 0) if self._result is None else self._result.scores  # type: ignore[return-value]

    @property
    def over(self) -> bool:
        return self._result is not None

    @property
    def result(self) -> GameResult | None:
        return self._result

    def format_move(self, m: Move) -> str:
        return f"{m.a}-{m.b}"

    def parse_move(self, text: str) -> Move:
        a, _, b = text.partition("-")
        if not (a.isdigit() and b.isdigit()):
            raise IllegalMove(f"not a move: {text!r}", code="bad_notation")
        return Move(int(a), int(b))

    def legal_moves(self) -> list[Move]:
        if self._result is not None:
            return []
        live = [s for s in self.drawing.spots if s.lives > 0]
        out = [Move(s.number, s.number) for s in live if s.lives >= 2]
        out += [Move(a.number, b.number) for a in live for b in live if a.number < b.number]
        return out

    def copy(self) -> FakeSprouts:
        g = FakeSprouts.__new__(FakeSprouts)
        g._n, g._misere = self._n, self._misere
        g.drawing = Drawing(
            [Spot(s.number, s.x, s.y, s.lives) for s in self.drawing.spots],
            [Curve(list(c.points)) for c in self.drawing.curves],
        )
        g._moves, g._result = list(self._moves), self._result
        return g

    def play(self, m: Move) -> None:
        if m not in self.legal_moves():
            raise IllegalMove(f"not a move: {m!r}", code="not_a_move")
        spots = {s.number: s for s in self.drawing.spots}
        a, b = spots[m.a], spots[m.b]
        pts = _loop(a) if a is b else _arc(a, b, len(self._moves))
        mid = pts[len(pts) // 2]
        a.lives -= 1
        b.lives -= 1
        new = Spot(len(spots) + 1, mid[0], mid[1], 1)
        self.drawing.spots.append(new)
        self.drawing.curves.append(Curve(pts))
        self._moves.append(m)
        if not self.legal_moves():
            winner = (len(self._moves) - 1) % 2
            if self._misere:
                winner = 1 - winner
            self._result = GameResult((int(winner == 0), int(winner == 1)), winner, "end")

    def resign(self, player: int) -> None:
        self._result = GameResult((0, 0), 1 - player, "resign", loser=player)

    def replay(self) -> Any:
        g = FakeSprouts(self._n, self._misere)
        yield g
        for m in self._moves:
            g.play(m)
            yield g

    snapshots = replay


def _arc(a: Spot, b: Spot, k: int) -> list[tuple[float, float]]:
    """A bowed curve from a to b (quadratic Bézier, 25 points, odd count so the middle is a
    sample)."""
    dx, dy = b.x - a.x, b.y - a.y
    bow = (0.25 + 0.1 * (k % 3)) * (1 if k % 2 else -1)
    cx, cy = (a.x + b.x) / 2 - dy * bow, (a.y + b.y) / 2 + dx * bow
    out = []
    for i in range(25):
        t = i / 24
        out.append(
            (
                (1 - t) ** 2 * a.x + 2 * (1 - t) * t * cx + t * t * b.x,
                (1 - t) ** 2 * a.y + 2 * (1 - t) * t * cy + t * t * b.y,
            )
        )
    return out


def _loop(a: Spot) -> list[tuple[float, float]]:
    """A small loop from a back to a, away from the middle of the drawing."""
    ang = math.atan2(a.y, a.x) if (a.x, a.y) != (0, 0) else 0.0
    r = 2.0
    cx, cy = a.x + r * math.cos(ang), a.y + r * math.sin(ang)
    start = ang + math.pi
    return [
        (
            cx + r * math.cos(start + 2 * math.pi * i / 24),
            cy + r * math.sin(start + 2 * math.pi * i / 24),
        )
        for i in range(25)
    ]


def random_sprouts(spots: int, moves: int, seed: int, misere: bool = False) -> FakeSprouts:
    g = FakeSprouts(spots, misere)
    rng = random.Random(seed)
    for _ in range(moves):
        legal = g.legal_moves()
        if not legal:
            break
        g.play(legal[rng.randrange(len(legal))])
    return g
