"""A Sprouts drawing on paper: spots and curves, and everything that follows from them.

The drawing is the truth the players see; the combinatorial :class:`Position` is *derived*
from it. Each curve is a polyline from spot to spot (a move adds two: ``a``–``c`` and
``c``–``b`` through the new spot ``c``). From the polylines follow, exactly:

* the rotation system: the curve ends round each spot sorted by the angle of their first
  segment (every curve leaves its spots along a straight radial *stub*);
* the boundary walks: half-edges followed with the face on the LEFT (math orientation, y up;
  the picture has y down, so on screen the face is on the right);
* the faces of the plane: every walk of positive area is the outer walk of a bounded face;
  each connected piece has one walk of least area, its outside, which lies in the innermost
  bounded face whose outer walk contains it, or in the unbounded face;
* the position: one region per face (the unbounded face first, then bounded faces in walk
  order), its boundaries the outer walk first, then the holes by their smallest spot.

:func:`check_geometry` is the exact check run after every change: no two curves cross or
come closer than :data:`MIN_GAP` (except along their stubs at a shared spot, where they only
meet at the spot), no curve runs closer than :data:`SPOT_GAP` to a spot it does not end at,
and the stubs round a spot are at least :data:`MIN_ANGLE` apart.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
from scipy.spatial import cKDTree

from engine.core import EngineError
from engine.sprouts.position import Position

Point = tuple[float, float]

WIDTH, HEIGHT = 1000.0, 750.0  # the paper, in drawing units (a rendered spot is ~24 wide)
MIN_GAP = 2.5  # curves never come closer than this (outside the stubs at a shared spot)
SPOT_GAP = 10.0  # a curve never comes closer than this to a spot it does not end at
STUB = 12.0  # within this of a spot, only its own curves' straight stubs may run
MIN_ANGLE = math.radians(4)  # stubs round one spot are at least this far apart
STRAIGHT_TOL = 0.25  # how far a stub's points may stray from its line (coordinates are rounded)
STRAIGHT_MAX = 40  # stubs are judged over this many segments at most
TAU = 2 * math.pi


class DrawingError(EngineError):
    """A drawing that breaks the rules of paper (crossing, touching, inconsistent)."""


@dataclass(frozen=True, slots=True)
class Spot:
    number: int
    x: float
    y: float
    lives: int


@dataclass(frozen=True, slots=True)
class Curve:
    """A polyline from spot ``a`` to spot ``b``: ``points[0]`` is ``a``'s place and
    ``points[-1]`` is ``b``'s."""

    a: int
    b: int
    points: tuple[Point, ...]


@dataclass(frozen=True, slots=True)
class Walk:
    """One boundary walk: its half-edges (empty for an isolated spot), the spot at each
    corner, the piece it belongs to and its signed area (positive: a bounded face's outside
    edge, read counter-clockwise)."""

    hes: tuple[int, ...]
    spots: tuple[int, ...]
    piece: int
    area: float


@dataclass(frozen=True, slots=True)
class Face:
    """A face of the plane: its outer walk (None for the unbounded face) and its holes (the
    outside walks of the pieces lying directly in it). ``walks`` lists the outer walk first;
    the position's boundaries follow this order."""

    outer: int | None
    holes: tuple[int, ...]

    @property
    def walks(self) -> tuple[int, ...]:
        return self.holes if self.outer is None else (self.outer, *self.holes)


class Drawing:
    """Spots and curves; immutable (a move makes a new drawing), so copies share it."""

    __slots__ = ("__dict__", "curves", "height", "sketch", "spots", "width")

    def __init__(
        self,
        places: Sequence[Point],
        curves: Sequence[Curve],
        width: float = WIDTH,
        height: float = HEIGHT,
    ) -> None:
        ends = [0] * len(places)
        for c in curves:
            ends[c.a - 1] += 1
            ends[c.b - 1] += 1
        self.width = width
        self.height = height
        # For a drawing a move made: the parent drawing plus the new curves as routed, in the
        # parent's units, before the tidy moved anything (a preview draws it over the parent,
        # whose spots and curves then stay where they are). Not part of the drawing's content.
        self.sketch: Drawing | None = None
        self.curves: tuple[Curve, ...] = tuple(curves)
        self.spots: tuple[Spot, ...] = tuple(
            Spot(i + 1, float(x), float(y), 3 - ends[i]) for i, (x, y) in enumerate(places)
        )

    # -- construction --------------------------------------------------------------------

    @classmethod
    def start(cls, n: int) -> Drawing:
        """``n`` spots spread over the paper: one ring of them, two rings from 7 on (never
        three in a row, so a loop round any of them has an easy way)."""
        cx, cy = WIDTH / 2, HEIGHT / 2
        rings = [(n, 0.3)] if n <= 6 else [(round(n / 3), 0.14), (n - round(n / 3), 0.36)]
        places: list[Point] = []
        for k, (count, r) in enumerate(rings):
            for i in range(count):
                if count == 1:
                    places.append((cx, cy))
                    continue
                th = -math.pi / 2 + TAU * (i + 0.5 * k) / count
                x = cx + r * WIDTH * math.cos(th)
                y = cy + r * HEIGHT * math.sin(th)
                places.append((round(x, 1), round(y, 1)))
        return cls(places, [])

    def with_move(self, c: Point, first: Sequence[Point], second: Sequence[Point]) -> Drawing:
        """This drawing plus a new spot at ``c`` and the curves ``first`` (from an existing
        spot to ``c``) and ``second`` (from ``c`` to an existing spot)."""
        where = {(s.x, s.y): s.number for s in self.spots}
        n = len(self.spots) + 1
        (ax, ay), (bx, by) = first[0], second[-1]
        a, b = where[(ax, ay)], where[(bx, by)]
        curves = [*self.curves, Curve(a, n, tuple(first)), Curve(n, b, tuple(second))]
        child = Drawing([(s.x, s.y) for s in self.spots] + [c], curves, self.width, self.height)
        # the old curves are the same: so are their arrays and stubs
        for name in ("arrays", "_stub_runs"):
            if name in self.__dict__:
                child.__dict__["_parent_" + name] = self.__dict__[name]
        return child

    def scaled(self, k: float) -> Drawing:
        """The same drawing ``k`` times larger (paper included): only the room between
        things grows, never their order, so the topology is unchanged."""

        def sc(p: Point) -> Point:
            return (round(p[0] * k, 1), round(p[1] * k, 1))

        curves = [Curve(c.a, c.b, tuple(sc(p) for p in c.points)) for c in self.curves]
        places = [sc((s.x, s.y)) for s in self.spots]
        return Drawing(places, curves, round(self.width * k, 1), round(self.height * k, 1))

    def place(self, number: int) -> Point:
        s = self.spots[number - 1]
        return (s.x, s.y)

    @cached_property
    def content(self) -> tuple[Any, ...]:
        """Everything that makes this drawing what it is, as a hashable value: equal for a
        drawing and its copy rebuilt from JSON."""
        return (self.width, self.height, tuple((s.x, s.y) for s in self.spots), self.curves)

    # -- JSON ----------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "w": self.width,
            "h": self.height,
            "spots": [[s.x, s.y] for s in self.spots],
            "curves": [[c.a, c.b, [v for p in c.points for v in p]] for c in self.curves],
        }

    @classmethod
    def from_json(cls, data: Any) -> Drawing:
        """Rebuild a drawing; raises :class:`DrawingError` for data that is not one."""
        try:
            places = [(float(x), float(y)) for x, y in data["spots"]]
            curves = []
            for a, b, flat in data["curves"]:
                if not (isinstance(a, int) and isinstance(b, int)):
                    raise DrawingError("curve ends must be spot numbers")
                if not (1 <= a <= len(places) and 1 <= b <= len(places)):
                    raise DrawingError(f"curve between unknown spots {a}, {b}")
                if len(flat) < 4 or len(flat) % 2:
                    raise DrawingError("a curve needs at least two points")
                pts = tuple((float(flat[i]), float(flat[i + 1])) for i in range(0, len(flat), 2))
                if pts[0] != places[a - 1] or pts[-1] != places[b - 1]:
                    raise DrawingError(f"curve {a}-{b} does not end at its spots")
                curves.append(Curve(a, b, pts))
            d = cls(places, curves, float(data["w"]), float(data["h"]))
        except (KeyError, TypeError, ValueError) as e:
            raise DrawingError(f"bad drawing record: {e}") from e
        if any(s.lives < 0 for s in d.spots):
            raise DrawingError("a spot has more than three curve ends")
        return d

    # -- topology (derived once, cached) -----------------------------------------------------

    @cached_property
    def arrays(self) -> list[np.ndarray]:
        """Each curve's points as an (n, 2) float array."""
        known: list[np.ndarray] = self.__dict__.get("_parent_arrays", [])
        return known + [np.asarray(c.points, dtype=float) for c in self.curves[len(known) :]]

    def he_points(self, he: int) -> np.ndarray:
        """The points of a half-edge in its direction (``2e``: a→b, ``2e+1``: b→a)."""
        pts = self.arrays[he >> 1]
        return pts if he % 2 == 0 else pts[::-1]

    def he_origin(self, he: int) -> int:
        c = self.curves[he >> 1]
        return c.a if he % 2 == 0 else c.b

    def he_target(self, he: int) -> int:
        c = self.curves[he >> 1]
        return c.b if he % 2 == 0 else c.a

    @cached_property
    def he_angle(self) -> list[float]:
        """The direction each half-edge leaves its origin (its stub), in radians."""
        out = []
        for pts in self.arrays:
            (x0, y0), (x1, y1) = pts[0], pts[1]
            out.append(math.atan2(y1 - y0, x1 - x0))
            (x0, y0), (x1, y1) = pts[-1], pts[-2]
            out.append(math.atan2(y1 - y0, x1 - x0))
        return out

    @cached_property
    def rotation(self) -> dict[int, list[int]]:
        """The half-edges leaving each spot, counter-clockwise (math orientation)."""
        rot: dict[int, list[int]] = {s.number: [] for s in self.spots}
        for he in range(2 * len(self.curves)):
            rot[self.he_origin(he)].append(he)
        ang = self.he_angle
        for hes in rot.values():
            hes.sort(key=lambda h: (ang[h], h))
        return rot

    @cached_property
    def next_he(self) -> list[int]:
        """The half-edge that follows each one along its face (face on the left)."""
        rot = self.rotation
        pos = {h: i for hes in rot.values() for i, h in enumerate(hes)}
        out = []
        for he in range(2 * len(self.curves)):
            rev = he ^ 1
            around = rot[self.he_origin(rev)]
            out.append(around[pos[rev] - 1])
        return out

    @cached_property
    def pieces(self) -> list[int]:
        """The connected piece of each spot (numbered by smallest spot, in order)."""
        parent = list(range(len(self.spots) + 1))

        def find(i: int) -> int:
            while parent[i] != i:
                parent[i] = parent[parent[i]]
                i = parent[i]
            return i

        for c in self.curves:
            ra, rb = find(c.a), find(c.b)
            if ra != rb:
                parent[max(ra, rb)] = min(ra, rb)
        roots: dict[int, int] = {}
        return [roots.setdefault(find(s.number), len(roots)) for s in self.spots]

    @cached_property
    def walks(self) -> list[Walk]:
        """Every boundary walk: half-edge cycles in order of their smallest half-edge, then
        one walk per isolated spot."""
        nxt = self.next_he
        seen = [False] * len(nxt)
        edge_area = [_shoelace(p) for p in self.arrays]
        out = []
        for start in range(len(nxt)):
            if seen[start]:
                continue
            cycle = []
            he = start
            while not seen[he]:
                seen[he] = True
                cycle.append(he)
                he = nxt[he]
            area = 0.5 * sum(edge_area[h >> 1] * (1 if h % 2 == 0 else -1) for h in cycle)
            spots = tuple(self.he_origin(h) for h in cycle)
            out.append(Walk(tuple(cycle), spots, self.pieces[spots[0] - 1], area))
        for s in self.spots:
            if not self.rotation[s.number]:
                out.append(Walk((), (s.number,), self.pieces[s.number - 1], 0.0))
        return out

    @cached_property
    def walk_of_he(self) -> dict[int, tuple[int, int]]:
        """Half-edge -> (walk index, position in the walk)."""
        return {h: (w, i) for w, walk in enumerate(self.walks) for i, h in enumerate(walk.hes)}

    def walk_polygon(self, w: int) -> np.ndarray:
        walk = self.walks[w]
        if not walk.hes:
            return np.asarray([self.place(walk.spots[0])], dtype=float)
        return np.concatenate([self.he_points(h)[:-1] for h in walk.hes])

    @cached_property
    def outside_walk(self) -> list[int]:
        """Each piece's outside walk (its walk of least signed area)."""
        best: dict[int, int] = {}
        for w, walk in enumerate(self.walks):
            k = walk.piece
            if k not in best or walk.area < self.walks[best[k]].area:
                best[k] = w
        return [best[k] for k in range(len(best))]

    @cached_property
    def faces(self) -> list[Face]:
        """The unbounded face first, then one bounded face per outer walk, in walk order."""
        outside = set(self.outside_walk)
        outers = [w for w in range(len(self.walks)) if w not in outside]
        probes = [self.place(self.walks[w].spots[0]) for w in self.outside_walk]
        inside = _inside_many(probes, [self.walk_polygon(w) for w in outers])
        holes: dict[int | None, list[int]] = {None: [], **{w: [] for w in outers}}
        for piece, w_out in enumerate(self.outside_walk):
            best: int | None = None
            for k, w in enumerate(outers):
                if self.walks[w].piece == piece or not inside[piece, k]:
                    continue
                if best is None or self.walks[w].area < self.walks[best].area:
                    best = w
            holes[best].append(w_out)
        faces = [Face(None, tuple(holes[None]))]
        faces += [Face(w, tuple(holes[w])) for w in outers]
        return faces

    @cached_property
    def face_of_walk(self) -> dict[int, int]:
        return {w: f for f, face in enumerate(self.faces) for w in face.walks}

    @cached_property
    def position(self) -> Position:
        """The combinatorial position of this drawing (regions in :attr:`faces` order)."""
        regions = [[self.walks[w].spots for w in face.walks] for face in self.faces]
        lives = {s.number: s.lives for s in self.spots}
        return Position(regions, lives)

    def corner(self, face: int, boundary: int, index: int) -> tuple[int, float, float]:
        """A corner of the position: (spot, angle where its wedge starts, wedge width). The
        wedge runs counter-clockwise from the stub the walk leaves by to the stub it came
        in by; an isolated spot or a curve's end has the full turn."""
        walk = self.walks[self.faces[face].walks[boundary]]
        spot = walk.spots[index]
        if not walk.hes:
            return spot, 0.0, TAU
        out = walk.hes[index]
        back = walk.hes[index - 1] ^ 1
        start = self.he_angle[out]
        if out == back:
            return spot, start, TAU
        width = (self.he_angle[back] - start) % TAU
        return spot, start, width

    # -- the plane structure (for the exact check) ----------------------------------------

    def plane_key(self) -> tuple[Any, ...]:
        """The drawing up to deformation of the plane, as comparable data."""
        return plane_key(
            [[self.walks[w].spots for w in face.walks] for face in self.faces],
            [None if face.outer is None else 0 for face in self.faces],
        )


def plane_key(
    regions: Iterable[Sequence[Sequence[int]]], outers: Iterable[int | None]
) -> tuple[Any, ...]:
    """Faces as walks with the index of each face's outer walk (None for the unbounded
    face), as a key independent of the order of faces and holes and of where walks start."""
    out = []
    for walks, outer in zip(regions, outers, strict=True):
        norm = [_least_rotation(tuple(w)) for w in walks]
        ring = () if outer is None else norm[outer]
        holes = tuple(sorted(w for i, w in enumerate(norm) if i != outer))
        out.append((outer is not None, ring, holes))
    return tuple(sorted(out))


def _least_rotation(w: tuple[int, ...]) -> tuple[int, ...]:
    return min(w[i:] + w[:i] for i in range(len(w)))


def _shoelace(pts: np.ndarray) -> float:
    x, y = pts[:, 0], pts[:, 1]
    return float(np.sum(x[:-1] * y[1:] - x[1:] * y[:-1]))


def _inside_many(probes: Sequence[Point], polys: Sequence[np.ndarray]) -> np.ndarray:
    """Even-odd ray tests of every probe in every polygon, as a (probes, polygons) bool array;
    no probe lies on a polygon. All edges at once: a drawing has up to a few thousand."""
    if not polys or not probes:
        return np.zeros((len(probes), len(polys)), dtype=bool)
    a = np.concatenate(polys)
    b = np.concatenate([np.roll(p, -1, axis=0) for p in polys])
    starts = np.cumsum([0] + [len(p) for p in polys[:-1]])
    px, py = np.asarray(probes, dtype=float).T[:, :, None]
    ax, ay, bx, by = a[:, 0], a[:, 1], b[:, 0], b[:, 1]
    cross = (ay > py) != (by > py)
    with np.errstate(divide="ignore", invalid="ignore"):
        xi = ax + (py - ay) * (bx - ax) / (by - ay)
    hits = (cross & (xi > px)).astype(np.int64)
    arr: np.ndarray = np.add.reduceat(hits, starts, axis=1) % 2 == 1
    return arr


# -- the exact geometric check -------------------------------------------------------------


def check_geometry(drawing: Drawing, new: Iterable[int] | None = None) -> None:
    """Raise :class:`DrawingError` unless the curves ``new`` (default: all) keep the rules of
    paper against every curve and spot: no crossing, the gaps held, distinct stubs."""
    curves = drawing.curves
    new_set = sorted(set(range(len(curves)) if new is None else new))
    if not new_set:
        return
    segs, owner, first, last = _segments(drawing)
    is_new = np.isin(owner, new_set)
    a_idx = np.nonzero(is_new)[0]
    mids = (segs[:, 0] + segs[:, 1]) / 2
    halves = np.hypot(*(segs[:, 1] - segs[:, 0]).T) / 2
    reach = float(halves.max()) + float(halves[a_idx].max()) + MIN_GAP + 1e-6
    if len(a_idx) == len(segs):  # the whole drawing: each unordered pair once from one tree
        pairs = cKDTree(mids).query_pairs(reach, output_type="ndarray").astype(np.int64)
        gi, jj = pairs[:, 0], pairs[:, 1]
    else:
        near = cKDTree(mids[a_idx]).sparse_distance_matrix(
            cKDTree(mids), reach, output_type="ndarray"
        )
        gi = a_idx[near["i"].astype(np.int64)]
        jj = near["j"].astype(np.int64)
        # Each unordered pair once: drop (new, new) pairs seen from the other side.
        keep = ~(is_new[jj] & (jj <= gi))
        gi, jj = gi[keep], jj[keep]
    # No two points of the segments are nearer than their middles less both half lengths.
    gap = np.hypot(*(mids[gi] - mids[jj]).T) - halves[gi] - halves[jj]
    keep = gap < MIN_GAP
    gi, jj = gi[keep], jj[keep]
    same = owner[gi] == owner[jj]
    apart = np.abs(gi - jj)
    keep = ~same | (apart >= 2)
    gi, jj, same, apart = gi[keep], jj[keep], same[keep], apart[keep]
    if len(gi):
        d = _seg_dist(segs[gi, 0], segs[gi, 1], segs[jj, 0], segs[jj, 1])
        # two segments of one curve with one between them only must not touch
        bad = np.where(same & (apart == 2), d <= 0, d < MIN_GAP)
        if np.any(bad):
            gi, jj, d = gi[bad], jj[bad], d[bad]
            order = np.lexsort((jj, gi))  # by segment, as the first failure was always found
            for i, j, dist in zip(gi[order], jj[order], d[order], strict=True):
                _judge_close_pair(drawing, segs, owner, first, last, int(i), int(j), float(dist))
    _check_spots(drawing, segs, owner, first, last, new_set)
    _check_stubs(drawing, {s for e in new_set for s in (curves[e].a, curves[e].b)})


def _segments(drawing: Drawing) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    cached = drawing.__dict__.get("_segs")
    if cached is None:
        arrs = drawing.arrays
        segs = np.concatenate([np.stack([p[:-1], p[1:]], axis=1) for p in arrs])
        owner = np.concatenate([np.full(len(p) - 1, e) for e, p in enumerate(arrs)])
        counts = np.array([len(p) - 1 for p in arrs])
        last = np.cumsum(counts) - 1
        first = last - counts + 1
        cached = (segs, owner, first, last)
        drawing.__dict__["_segs"] = cached
    return cached


def _stub_runs(drawing: Drawing) -> list[int]:
    """For each half-edge, how many of its first segments run straight out of its spot:
    segments ``0..k`` count while every point up to ``k + 1`` lies within
    :data:`STRAIGHT_TOL` of the line from the spot to that point, ever further along it (so
    rounding near the spot does not tilt the line); at most :data:`STRAIGHT_MAX`, at least 1.
    All half-edges at once, step by step, while any of them still runs straight."""
    cached: list[int] | None = drawing.__dict__.get("_stub_runs")
    if cached is None:
        known: list[int] = drawing.__dict__.get("_parent__stub_runs", [])
        cached = known + _straight_runs(drawing.arrays[len(known) // 2 :])
        drawing.__dict__["_stub_runs"] = cached
    return cached


def _straight_runs(arrays: Sequence[np.ndarray]) -> list[int]:
    """:func:`_stub_runs` of these curves (two half-edges each)."""
    H = 2 * len(arrays)
    best = np.ones(H, dtype=np.int64)
    if H:
        m = np.array([len(p) - 1 for p in arrays for _ in (0, 1)])  # segments
        K = int(min(m.max(), STRAIGHT_MAX))
        # each half-edge's first K segments' ends, less its spot (NaN past its end)
        v = np.full((H, K, 2), np.nan)
        for h, pts in enumerate(arrays):
            head, tail = pts[: K + 1], pts[: -K - 2 : -1]
            v[2 * h, : len(head) - 1] = head[1:] - head[0]
            v[2 * h + 1, : len(tail) - 1] = tail[1:] - tail[0]
        alive = np.ones(H, dtype=bool)
        for k in range(1, K):
            run = np.flatnonzero(alive & (m > k))
            if not len(run):
                break
            w = v[run, : k + 1]
            norm = np.hypot(*w[:, k].T)
            u = w[:, k] / np.where(norm > 0, norm, 1.0)[:, None]
            off = np.abs(w[..., 0] * u[:, None, 1] - w[..., 1] * u[:, None, 0])
            along = np.einsum("hjc,hc->hj", w, u)
            ok = (
                (norm > 0)
                & np.all(off <= STRAIGHT_TOL, axis=1)
                & np.all(np.diff(along, axis=1) > 0, axis=1)
                & (along[:, 0] > 0)
            )
            best[run[ok]] = k + 1
            alive[run[~ok]] = False
    return best.tolist()


def _in_stub(
    drawing: Drawing, first: np.ndarray, last: np.ndarray, seg: int, e: int, s: int
) -> bool:
    """Whether global segment ``seg`` of curve ``e`` lies on its straight stub at spot ``s``."""
    runs = _stub_runs(drawing)
    c = drawing.curves[e]
    if c.a == s and seg - first[e] < runs[2 * e]:
        return True
    return c.b == s and last[e] - seg < runs[2 * e + 1]


def _judge_close_pair(
    drawing: Drawing,
    segs: np.ndarray,
    owner: np.ndarray,
    first: np.ndarray,
    last: np.ndarray,
    i: int,
    j: int,
    dist: float,
) -> None:
    """Two segments closer than the gap: fine only when both lie on their straight stubs at
    a spot both curves end at (they meet only there; the stubs' angle is checked apart)."""
    ei, ej = int(owner[i]), int(owner[j])
    ci, cj = drawing.curves[ei], drawing.curves[ej]
    for s in {ci.a, ci.b} & {cj.a, cj.b}:
        if _in_stub(drawing, first, last, i, ei, s) and _in_stub(drawing, first, last, j, ej, s):
            return
    raise DrawingError(
        f"curves {ci.a}-{ci.b} and {cj.a}-{cj.b} come {dist:.2f} apart "
        f"near ({segs[i][0][0]:.1f}, {segs[i][0][1]:.1f})"
    )


def _check_spots(
    drawing: Drawing,
    segs: np.ndarray,
    owner: np.ndarray,
    first: np.ndarray,
    last: np.ndarray,
    new: list[int],
) -> None:
    """No curve passes near a spot except along its own stubs there. New spots are checked
    against every curve, new curves against every spot."""
    curves = drawing.curves
    new_spots = {curves[e].a for e in new} | {curves[e].b for e in new}
    pts = np.asarray([(s.x, s.y) for s in drawing.spots])
    is_new = np.isin(owner, new)
    # segments whose middle is near enough to a spot for any of their points to be
    mids = (segs[:, 0] + segs[:, 1]) / 2
    reach = float(np.hypot(*(segs[:, 1] - segs[:, 0]).T).max()) / 2 + SPOT_GAP + 1e-6
    near = cKDTree(pts).sparse_distance_matrix(cKDTree(mids), reach, output_type="ndarray")
    si, k = near["i"].astype(np.int64), near["j"].astype(np.int64)
    spot_new = np.zeros(len(pts), dtype=bool)
    spot_new[[n - 1 for n in new_spots]] = True
    keep = spot_new[si] | is_new[k]
    si, k = si[keep], k[keep]
    d = _point_seg_dist(pts[si], segs[k, 0], segs[k, 1])
    bad = d < SPOT_GAP
    si, k = si[bad], k[bad]
    for i in np.lexsort((k, si)):  # spot by spot, as the first failure has always been found
        e, number = int(owner[k[i]]), int(si[i]) + 1
        if not _in_stub(drawing, first, last, int(k[i]), e, number):
            c = curves[e]
            raise DrawingError(f"curve {c.a}-{c.b} runs too close to spot {number}")
    for number in new_spots:
        p = pts[number - 1]
        d = np.hypot(*(pts - p).T)
        d[number - 1] = np.inf
        if np.min(d) < 2 * SPOT_GAP:
            raise DrawingError(f"spot {number} is too close to another spot")


def _check_stubs(drawing: Drawing, spots: Iterable[int]) -> None:
    """Curves leave each spot straight for :data:`STUB` and at distinct angles."""
    ang = drawing.he_angle
    runs = _stub_runs(drawing)
    for s in spots:
        hes = drawing.rotation[s]
        for h1, h2 in zip(hes, hes[1:] + hes[:1], strict=True):
            if h1 == h2:
                continue
            gap = (ang[h2] - ang[h1]) % TAU
            if min(gap, TAU - gap) < MIN_ANGLE:
                raise DrawingError(f"two curves leave spot {s} along the same line")
        p = np.asarray(drawing.place(s))
        for h in hes:
            pts = drawing.he_points(h)
            if np.hypot(*(pts[runs[h]] - p)) < STUB - STRAIGHT_TOL:
                raise DrawingError(f"a curve leaving spot {s} is not straight near it")


def _point_seg_dist(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    ab = b - a
    ap = p - a
    den = np.einsum("ij,ij->i", ab, ab)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(den > 0, np.einsum("ij,ij->i", ap, ab) / den, 0.0)
    t = np.clip(t, 0.0, 1.0)
    q = a + ab * t[:, None]
    arr: np.ndarray = np.hypot(*(p - q).T)
    return arr


def _seg_dist(p0: np.ndarray, p1: np.ndarray, q0: np.ndarray, q1: np.ndarray) -> np.ndarray:
    """Distance between segments p0p1 and q0q1 (zero when they cross or touch)."""

    def orient(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
        arr: np.ndarray = (b[:, 0] - a[:, 0]) * (c[:, 1] - a[:, 1]) - (b[:, 1] - a[:, 1]) * (
            c[:, 0] - a[:, 0]
        )
        return arr

    d1, d2 = orient(q0, q1, p0), orient(q0, q1, p1)
    d3, d4 = orient(p0, p1, q0), orient(p0, p1, q1)
    crossing = (d1 * d2 < 0) & (d3 * d4 < 0)
    d = np.minimum(
        np.minimum(_point_seg_dist(p0, q0, q1), _point_seg_dist(p1, q0, q1)),
        np.minimum(_point_seg_dist(q0, p0, p1), _point_seg_dist(q1, p0, p1)),
    )
    d[crossing] = 0.0
    arr: np.ndarray = d
    return arr
