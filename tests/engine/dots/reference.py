"""A slow, independent Dots referee for cross-checking the engine on random games.

It finds rings without boundary tracing: for each bounded face next to the new dot (a
4-connected flood of points that are not the player's live dots), the points the outside
cannot reach past the walls bordering that face are enclosed; the walls among them that touch
the outside form the tightest ring, which is new when it runs through the new dot. The rules
applied to each ring (capture, empty base, intrusion) are written from the rule text again.
"""

from __future__ import annotations

from dataclasses import dataclass

Point = tuple[int, int]
ORTHO = ((0, -1), (1, 0), (0, 1), (-1, 0))
ALL8 = (*ORTHO, (1, -1), (1, 1), (-1, 1), (-1, -1))


@dataclass
class RefBase:
    owner: int
    ring: frozenset[Point]
    inside: frozenset[Point]


class Referee:
    def __init__(self, width: int, height: int) -> None:
        self.w, self.h = width, height
        self.dot: dict[Point, int] = {}
        self.area: dict[Point, int] = {}
        self.bases: list[RefBase] = []

    def on_board(self, p: Point) -> bool:
        return 0 <= p[0] < self.w and 0 <= p[1] < self.h

    def live(self, p: Point, player: int) -> bool:
        return self.dot.get(p) == player and self.area.get(p, player) == player

    def scores(self) -> tuple[int, int]:
        s = [0, 0]
        for p, who in self.area.items():
            d = self.dot.get(p)
            if d is not None and d != who:
                s[who] += 1
        return (s[0], s[1])

    def _rings(self, p: Point, player: int) -> list[tuple[frozenset[Point], frozenset[Point]]]:
        walls = {q for q in self.dot if self.live(q, player)}
        found: dict[frozenset[Point], frozenset[Point]] = {}
        for dx, dy in ORTHO:
            n = (p[0] + dx, p[1] + dy)
            if not self.on_board(n) or n in walls:
                continue
            face = {n}
            stack = [n]
            bounded = True
            while stack:
                c = stack.pop()
                for ex, ey in ORTHO:
                    q = (c[0] + ex, c[1] + ey)
                    if not self.on_board(q):
                        bounded = False
                    elif q not in walls and q not in face:
                        face.add(q)
                        stack.append(q)
            if not bounded:
                continue
            border = {
                (c[0] + ex, c[1] + ey)
                for c in face
                for ex, ey in ORTHO
                if (c[0] + ex, c[1] + ey) in walls
            }
            outside = {(-1, -1)}
            stack = [(-1, -1)]
            while stack:
                c = stack.pop()
                for ex, ey in ORTHO:
                    q = (c[0] + ex, c[1] + ey)
                    inside_frame = -1 <= q[0] <= self.w and -1 <= q[1] <= self.h
                    if inside_frame and q not in border and q not in outside:
                        outside.add(q)
                        stack.append(q)
            ring = frozenset(
                b for b in border if any((b[0] + ex, b[1] + ey) in outside for ex, ey in ALL8)
            )
            if p not in ring:
                continue
            inside = frozenset(
                (x, y)
                for x in range(self.w)
                for y in range(self.h)
                if (x, y) not in outside and (x, y) not in ring
            )
            found[inside] = ring
        return sorted(((r, i) for i, r in found.items()), key=lambda ri: len(ri[1]))

    def _capture(self, owner: int, inside: frozenset[Point]) -> None:
        for q in inside:
            self.area[q] = owner
        self.bases = [
            b
            for b in self.bases
            if all(self.live(c, b.owner) for c in b.ring)
            and any(q not in self.area for q in b.inside)
        ]

    def free(self) -> int:
        return sum(
            (x, y) not in self.dot and (x, y) not in self.area
            for x in range(self.w)
            for y in range(self.h)
        )

    def play(self, p: Point, player: int) -> None:
        # Tournament rules, comment 1: an intruder is caught at the ring owner's next move,
        # so a dot on the last free point (the game ends) is never caught.
        owner_moves_again = self.free() > 1
        enemy = 1 - player
        self.dot[p] = player
        captured = False
        for ring, inside in self._rings(p, player):
            if any(self.live(q, enemy) for q in inside):
                self._capture(player, inside)
                captured = True
            elif any(q not in self.area and q not in self.dot for q in inside) or any(
                q not in self.area for q in inside
            ):
                self.bases.append(RefBase(player, ring, inside))
        holders = [b for b in self.bases if b.owner == enemy and p in b.inside]
        if holders:
            if captured:
                self.bases = [b for b in self.bases if b not in holders]
            elif owner_moves_again:
                self._capture(enemy, min(holders, key=lambda b: len(b.inside)).inside)
