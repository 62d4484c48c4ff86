"""The Dots board and its capture machinery: rings through a new dot, captured areas, bases.

The board is a flat list with a one-cell frame of sentinels (index ``(y + 1) * S + x + 1``,
``S = width + 2``), so neighbour steps never need bounds checks and nothing is ever enclosed
with the frame inside it: edge dots cannot be captured.

Only rings through the new dot can change anything, so each move traces the boundary of the
faces next to it (Moore neighbour tracing over the player's live dots) and floods the inside
of the rings it finds: the work is proportional to the rings and the areas they enclose.
A union–find over each player's live dots tells how many new rings a move closes
(``groups around the dot − distinct components``), so the trace of the one open side, which
may run round a whole large group, is cut short as soon as the closed rings are all found.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

EMPTY = -1
FRAME = 2  # the sentinel ring outside the board


@dataclass(slots=True)
class Region:
    """A ring of one player's live dots and the points strictly inside it (board indices)."""

    owner: int
    ring: list[int]
    inside: list[int]
    ply: int  # the move that closed the ring (0-based index into the move list)
    credited: int  # the move the ring is credited to (the owner's next move for intrusions)
    # A ring closed by the field's edge ("capturable" edge): its outline in order, the
    # owner's dots with the edge points it runs along (``ring`` holds the dots alone).
    outline: list[int] | None = None
    _set: set[int] | None = field(default=None, repr=False)

    def contains(self, i: int) -> bool:
        if self._set is None:
            self._set = set(self.inside)
        return i in self._set


@dataclass(slots=True)
class _Walk:
    """One side's boundary trace, paused every few steps so the sides advance together."""

    cell: int
    back: int  # the direction the trace came from
    path: list[int]
    area2: int  # twice the signed area swept so far
    open: bool = True


FRAME_MARK = -1  # the frame's flood mark: a flood that reaches it was not held by its ring


class Board:
    """Dots, captured areas, empty bases and scores; :meth:`place` applies every rule of a move."""

    # Trace steps before a stale union–find is rebuilt: about what a rebuild costs.
    patience = 1024

    def __init__(self, width: int, height: int, edge_walls: bool = False) -> None:
        self.width, self.height = width, height
        self.edge_walls = edge_walls  # the field's edge counts as a wall of every ring
        s = self.stride = width + 2
        n = s * (height + 2)
        self.dot = [FRAME] * n  # EMPTY, a player index, or FRAME
        self.area = [EMPTY] * n  # who captured this point (EMPTY if nobody)
        for y in range(height):
            for x in range(width):
                self.dot[(y + 1) * s + x + 1] = EMPTY
        self.walls = [bytearray(n), bytearray(n)]  # live dots of each player
        self.encl = [bytearray(n), bytearray(n)]  # inside some ring a player once closed
        self.parent = [list(range(n)), list(range(n))]
        self.dirty = [False, False]  # a union–find that may over-merge after dots died
        self.rebuilds = 0
        self.caught = [0, 0]  # enemy dots captured now, per player
        self.territory = [0, 0]  # points inside captured areas, per player
        self.free = width * height
        self.captures: list[Region] = []
        self.bases: list[Region] = []
        # Flood scratch marks (stamps count up from 0); the frame is -1 for good.
        self.blank = [FRAME_MARK if d == FRAME else 0 for d in self.dot]
        self.mark = self.blank[:]
        self.stamp = 0
        self.dirs = (-s, -s + 1, 1, s + 1, s, s - 1, -1, -s - 1)  # clockwise from north
        self.xs = [i % s - 1 for i in range(n)]
        self.ys = [i // s - 1 for i in range(n)]

    # -- copying -----------------------------------------------------------------------------

    def copy(self) -> Board:
        b = Board.__new__(Board)
        b.width, b.height, b.stride = self.width, self.height, self.stride
        b.edge_walls = self.edge_walls
        b.dot, b.area = self.dot[:], self.area[:]
        b.walls = [bytearray(w) for w in self.walls]
        b.encl = [bytearray(e) for e in self.encl]
        b.parent = [p[:] for p in self.parent]
        b.dirty = self.dirty[:]
        b.rebuilds = 0
        b.caught, b.territory, b.free = self.caught[:], self.territory[:], self.free
        b.captures, b.bases = self.captures[:], self.bases[:]
        b.blank, b.mark, b.stamp = self.blank, self.blank[:], 0
        b.dirs, b.xs, b.ys = self.dirs, self.xs, self.ys
        return b

    def index(self, x: int, y: int) -> int:
        return (y + 1) * self.stride + x + 1

    def is_free(self, i: int) -> bool:
        return self.dot[i] == EMPTY and self.area[i] == EMPTY

    # -- union–find over live dots ----------------------------------------------------------

    def _find(self, parent: list[int], i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def _join(self, player: int, i: int) -> None:
        parent, w = self.parent[player], self.walls[player]
        ri = self._find(parent, i)
        for d in self.dirs:
            j = i + d
            if w[j]:
                rj = self._find(parent, j)
                if rj != ri:
                    parent[rj] = ri

    def _rebuild(self, player: int) -> None:
        """Label the player's live dots by component afresh (flat: every dot points at its
        component's first dot)."""
        parent = self.parent[player] = list(range(len(self.dot)))
        w = self.walls[player]
        d = self.dirs
        seen = bytearray(len(w))
        for m in re.finditer(b"\x01", w):
            root = m.start()
            if seen[root]:
                continue
            seen[root] = 1
            stack = [root]
            while stack:
                c = stack.pop()
                parent[c] = root
                for k in d:
                    q = c + k
                    if w[q] and not seen[q]:
                        seen[q] = 1
                        stack.append(q)
        self.dirty[player] = False
        self.rebuilds += 1

    # -- ring detection ---------------------------------------------------------------------

    def _gaps(self, p: int, w: bytearray) -> tuple[list[tuple[int, int, int]], list[int]]:
        """The open sides around ``p``: (wall before, wall after, an orthogonal cell inside),
        clockwise, plus one wall of each wall group. A diagonal cell between two orthogonal
        walls is not a side: those walls touch each other."""
        d = self.dirs
        on = [w[p + d[k]] for k in range(8)]
        for k in (1, 3, 5, 7):  # close the diagonal notch between two orthogonal walls
            if not on[k] and on[k - 1] and on[(k + 1) & 7]:
                on[k] = 2
        if all(on) or not any(on):
            return [], []
        start = next(k for k in range(8) if on[k])
        gaps: list[tuple[int, int, int]] = []
        groups: list[int] = []
        k = start
        for _ in range(8):
            nk = (k + 1) & 7
            if on[k] and not on[nk]:  # a side opens after wall k
                j = nk
                ortho = -1
                while not on[j]:
                    if ortho < 0 and not j & 1:
                        ortho = j
                    j = (j + 1) & 7
                gaps.append((k, j, p + d[ortho]))
                groups.append(p + d[k] if on[k] == 1 else p + d[(k - 1) & 7])
            k = nk
        return gaps, groups

    def rings_through(self, p: int, player: int) -> list[tuple[list[int], list[int]]]:
        """Every new ring closed by the live dot ``p`` of ``player`` (already on the board):
        (ring cycle, inside points), tightest ring per enclosed face, smallest first."""
        w = self.walls[player]
        gaps, groups = self._gaps(p, w)
        enclosed = bool(self.encl[player][p])
        # Outside every ring the player has closed, a new ring needs two groups to join;
        # inside one, even a single side may be the shrunk remainder of the old face.
        if not gaps or (len(gaps) < 2 and not enclosed):
            return []
        # After dots died the union–find may join groups that are apart now: it then
        # expects too many rings (never too few), which only makes the trace run on. So it
        # is rebuilt only when a trace does run on.
        parent = self.parent[player]
        comps = len({self._find(parent, g) for g in groups})
        want = len(gaps) - comps
        if want <= 0 and not enclosed:
            return []
        patience = self.patience
        d, xs, ys = self.dirs, self.xs, self.ys
        walks = [_Walk(p, a, [p], 0) for a, _, _ in gaps]
        found: list[tuple[list[int], int]] = []
        active = len(walks)
        limit = 4 * len(self.dot)
        steps = 0
        while active and (enclosed or len(found) < want):
            for wi, walk in enumerate(walks):
                if not walk.open:
                    continue
                c, back, path, area2 = walk.cell, walk.back, walk.path, walk.area2
                for _ in range(32):
                    k = back + 1
                    while True:
                        k &= 7
                        q = c + d[k]
                        if w[q]:
                            break
                        k += 1
                    area2 += xs[c] * ys[q] - xs[q] * ys[c]
                    if q == p:
                        walk.open = False
                        active -= 1
                        if area2 < 0:
                            found.append((path, wi))
                        break
                    path.append(q)
                    back = (k + 4) & 7
                    c = q
                walk.cell, walk.back, walk.area2 = c, back, area2
                steps += 32
                if steps > patience and self.dirty[player]:
                    self._rebuild(player)
                    parent = self.parent[player]
                    want = len(gaps) - len({self._find(parent, g) for g in groups})
                if steps > limit:  # cannot happen on a consistent board
                    raise RuntimeError("ring trace did not close")
        rings = []
        for path, wi in found:
            cycle = _simple_cycle(path)
            inside = self._fill(gaps[wi][2], cycle)
            if inside is not None:
                rings.append((cycle, inside))
        rings.sort(key=lambda r: len(r[1]))
        return rings

    def _fill(self, start: int, cycle: list[int]) -> list[int] | None:
        """The points strictly inside ``cycle``: a 4-connected flood from ``start`` stopped only
        by the cycle itself, so holes and dots inside the ring are inside too. None when the
        cycle does not hold ``start`` after all: the flood then runs round the frame and off
        the board's frame (seen once, in a search playout, and not reproduced since), and no
        ring is made of it."""
        self.stamp += 2
        edge, seen = self.stamp, self.stamp + 1
        mark = self.mark
        for c in cycle:
            mark[c] = edge
        s = self.stride
        mark[start] = seen
        out = [start]
        stack = [start]
        while stack:
            c = stack.pop()
            for q in (c - s, c + 1, c + s, c - 1):
                m = mark[q]
                if m != edge and m != seen:
                    if m == FRAME_MARK:
                        return None
                    mark[q] = seen
                    out.append(q)
                    stack.append(q)
        return out

    # -- applying a move --------------------------------------------------------------------

    def place(self, p: int, player: int, ply: int, catch: bool = True) -> None:
        """Put ``player``'s dot on the free point ``p`` and apply captures, bases and the
        intrusion rule (the caller has checked legality). ``catch`` False: the ring owner will
        make no next move, so an intruder in their empty ring is not caught (it stays live)."""
        enemy = 1 - player
        self.dot[p] = player
        self.walls[player][p] = 1
        self.free -= 1
        self._join(player, p)
        captured = False
        for cycle, inside in self.rings_through(p, player):
            live = self.walls[enemy]
            if any(live[q] for q in inside):
                self._capture(Region(player, cycle, inside, ply, ply))
                captured = True
            else:
                self._add_base(Region(player, cycle, inside, ply, ply))
        if self.edge_walls:
            for region in self._edge_regions(p, player, ply):
                live = self.walls[enemy]
                if any(live[q] for q in region.inside):
                    self._capture(region)
                    captured = True
                else:
                    self._add_base(region)
        if self.encl[enemy][p]:
            holders = [b for b in self.bases if b.owner == enemy and b.contains(p)]
            if holders:
                if captured:  # the intruder's own capture stands; the empty rings dissolve
                    self.bases = [b for b in self.bases if b not in holders]
                elif catch:
                    base = min(holders, key=lambda b: len(b.inside))
                    # Credited to the ring owner's next move, as tournament records have it.
                    self._capture(Region(enemy, base.ring, base.inside, ply, ply + 1))

    def _add_base(self, base: Region) -> None:
        """Keep an empty ring that still holds free points; its first inside point is made a
        free one, so the base is known to be gone once that point is captured."""
        inside, area = base.inside, self.area
        k = next((k for k, q in enumerate(inside) if area[q] == EMPTY), -1)
        if k < 0:
            return
        inside[0], inside[k] = inside[k], inside[0]
        self.bases.append(base)
        enc = self.encl[base.owner]
        for q in inside:
            enc[q] = 1

    def _capture(self, region: Region) -> None:
        owner, enemy = region.owner, 1 - region.owner
        dot, area = self.dot, self.area
        mine, theirs = self.walls[owner], self.walls[enemy]
        caught, territory = self.caught, self.territory
        freed: list[int] = []
        for q in region.inside:
            old = area[q]
            if old == owner:
                continue
            area[q] = owner
            territory[owner] += 1
            if old != EMPTY:
                territory[old] -= 1
            o = dot[q]
            if o == EMPTY:
                if old == EMPTY:
                    self.free -= 1
            elif o == enemy:  # live until now, even inside the enemy's own area
                theirs[q] = 0
                caught[owner] += 1
            elif old == enemy:  # the owner's own dot, freed from an earlier enemy capture
                caught[enemy] -= 1
                mine[q] = 1
                freed.append(q)
        self.dirty[enemy] = True
        for q in freed:
            self._join(owner, q)
        self.captures.append(region)
        self.bases = [b for b in self.bases if self._base_holds(b)]

    def _base_holds(self, base: Region) -> bool:
        w = self.walls[base.owner]
        return self.area[base.inside[0]] == EMPTY and all(w[c] for c in base.ring)

    # -- the field's edge as a wall ("capturable" edge) ------------------------------------

    def _edge_regions(self, p: int, player: int, ply: int) -> list[Region]:
        """The parts of the field the new dot ``p`` cuts off against the edge. The dot splits
        the face it stood in; of the parts that reach the edge, the largest stays open (the
        outside) and each other one is enclosed by the player's dots and the edge, with what
        it holds (two equal largest parts: neither is enclosed, the cut is ambiguous). Parts
        off the edge are the ordinary rings of :meth:`rings_through`."""
        w = self.walls[player]
        d = self.dirs
        on = [w[p + k] or self.dot[p + k] == FRAME for k in d]
        if sum(1 for k in range(8) if on[k] and not on[(k + 1) & 7]) < 2:
            return []  # one open side: nothing is cut off
        parts = self._parts_round(p, w)
        if parts is None:
            return []
        edged = [part for part, edge in parts if edge]
        if len(edged) < 2:
            return []
        sizes = sorted((len(part) for part in edged), reverse=True)
        if sizes[0] == sizes[1]:
            return []
        biggest = max(edged, key=len)
        regions = []
        for part in edged:
            if part is biggest:
                continue
            inside = self._holes_filled(part)
            cut = set(part)
            s = self.stride
            into = next(q for q in (p - s, p + 1, p + s, p - 1) if q in cut)
            outline = self._edge_outline(p, player, into)
            ring = [c for c in outline if w[c]]
            regions.append(Region(player, ring, inside, ply, ply, outline))
        return regions

    # Not split (C901): the ring walk of every move: one pass, inlined.
    def _parts_round(self, p: int, w: bytearray) -> list[tuple[list[int], bool]] | None:  # noqa: C901
        """The parts the dot ``p`` cuts its face into (4-connected points that are not the
        player's live dots), each with whether it reaches the edge; None when all sides are
        one part. They grow side by side from ``p``'s sides a step each in turn, and the work
        stops once one part is left growing, already reaches the edge and is the largest:
        the outside is rarely walked whole (it is returned as far as it got)."""
        s = self.stride
        dot = self.dot
        owner: dict[int, int] = {}
        parent: list[int] = []
        cells: list[list[int]] = []
        fronts: list[list[int]] = []
        edge: list[bool] = []
        for q in (p - s, p + 1, p + s, p - 1):
            if dot[q] == FRAME or w[q] or q in owner:
                continue
            owner[q] = len(cells)
            parent.append(len(cells))
            cells.append([q])
            fronts.append([q])
            edge.append(self._on_edge(q))

        def root(k: int) -> int:
            while parent[k] != k:
                k = parent[k]
            return k

        if len(cells) < 2:
            return None
        while True:
            live = [k for k in range(len(cells)) if parent[k] == k and fronts[k]]
            roots = {root(k) for k in range(len(cells))}
            if len(roots) < 2:
                return None
            done = [len(cells[k]) for k in roots if not fronts[k]]
            if not live or (
                len(live) == 1 and edge[live[0]] and len(cells[live[0]]) > max(done, default=0)
            ):
                return [(cells[k], edge[k]) for k in roots]
            for k in live:
                if parent[k] != k:
                    continue
                nxt: list[int] = []
                for c in fronts[k]:
                    for r in (c - s, c + 1, c + s, c - 1):
                        if dot[r] == FRAME or w[r]:
                            continue
                        o = owner.get(r)
                        if o is None:
                            owner[r] = k
                            cells[k].append(r)
                            nxt.append(r)
                            if not edge[k] and self._on_edge(r):
                                edge[k] = True
                        elif (j := root(o)) != k:  # two sides meet: one part after all
                            parent[j] = k
                            edge[k] = edge[k] or edge[j]
                            cells[k] += cells[j]
                            for c2 in cells[j]:
                                owner[c2] = k
                            nxt += fronts[j]
                            cells[j], fronts[j] = [], []
                fronts[k] = nxt

    def _on_edge(self, i: int) -> bool:
        x, y = self.xs[i], self.ys[i]
        return x == 0 or y == 0 or x == self.width - 1 or y == self.height - 1

    def _holes_filled(self, part: list[int]) -> list[int]:
        """``part`` and everything it surrounds: the points the edge cannot reach without
        crossing it."""
        s = self.stride
        inner = set(part)
        edge = [
            i
            for i in range(len(self.dot))
            if self.dot[i] != FRAME and self._on_edge(i) and i not in inner
        ]
        reached = set(edge)
        stack = edge[:]
        while stack:
            c = stack.pop()
            for r in (c - s, c + 1, c + s, c - 1):
                if r not in reached and r not in inner and self.dot[r] != FRAME:
                    reached.add(r)
                    stack.append(r)
        return [i for i in range(len(self.dot)) if self.dot[i] != FRAME and i not in reached]

    def _edge_outline(self, p: int, player: int, into: int) -> list[int]:
        """The boundary of the part holding ``into`` (a side of ``p``), traced round from
        ``p`` over the player's dots and the frame, with frame points moved onto the edge:
        the polygon the picture draws, running along the edge where the edge is the wall."""
        w, h = self.width, self.height
        walls = self.walls[player]
        steps = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))

        def wall(x: int, y: int) -> bool:
            if x < -1 or y < -1 or x > w or y > h:
                return False
            if x in (-1, w) or y in (-1, h):
                return True
            return bool(walls[self.index(x, y)])

        px, py = self.xs[p], self.ys[p]
        k = steps.index((self.xs[into] - px, self.ys[into] - py))
        while not wall(px + steps[k][0], py + steps[k][1]):  # the wall before the side
            k = (k - 1) & 7
        cx, cy, back = px, py, k
        path: list[tuple[int, int]] = []
        first = -1
        for _ in range(8 * (w + 2) * (h + 2)):
            k = back + 1
            while True:
                k &= 7
                if wall(cx + steps[k][0], cy + steps[k][1]):
                    break
                k += 1
            if (cx, cy) == (px, py):  # back at the start: done once leaving it as at first
                if first < 0:
                    first = k
                elif k == first:
                    break
            path.append((cx, cy))
            cx, cy = cx + steps[k][0], cy + steps[k][1]
            back = (k + 4) & 7
        points: list[int] = []
        for x, y in path:
            i = self.index(min(max(x, 0), w - 1), min(max(y, 0), h - 1))
            if not points or points[-1] != i:
                points.append(i)
        if len(points) > 1 and points[0] == points[-1]:
            points.pop()
        return _simple_cycle(points)

    # -- what-if, for the AI ----------------------------------------------------------------

    def gain(self, p: int, player: int) -> int:
        """Enemy live dots that ``player`` would capture by playing the free point ``p`` now,
        or ``-1`` when the dot would be captured at once inside an enemy empty base."""
        enemy = 1 - player
        w = self.walls[player]
        self.dot[p] = player
        w[p] = 1
        rebuilds = self.rebuilds
        try:
            rings = self.rings_through(p, player)
        finally:
            self.dot[p] = EMPTY
            w[p] = 0
            if self.rebuilds != rebuilds:  # it labelled the probe dot too: not to be trusted
                self.dirty[player] = True
        live = self.walls[enemy]
        total = 0
        seen: set[int] = set()
        for _, inside in rings:
            n = 0
            for q in inside:
                if live[q] and q not in seen:
                    n += 1
                    seen.add(q)
            total += n
        if (
            total == 0
            and self.encl[enemy][p]
            and any(b.owner == enemy and b.contains(p) for b in self.bases)
        ):
            return -1
        return total


def _simple_cycle(path: list[int]) -> list[int]:
    """Drop the excursions of a boundary walk (into peninsulas and round islands attached to
    the ring), leaving the ring itself: each repeated point cuts the loop since its first visit."""
    where: dict[int, int] = {}
    out: list[int] = []
    for c in path:
        k = where.get(c)
        if k is None:
            where[c] = len(out)
            out.append(c)
        else:
            for dropped in out[k + 1 :]:
                del where[dropped]
            del out[k + 1 :]
    return out
