"""A move drawn with a finger: which legal move a path from spot to spot is.

The Mini App sends the path a player drew, in the drawing's units (those of ``spot.x`` and
curve points), from the spot they started on to the spot they lifted the finger at (the same
spot for a loop). :func:`move_from_path` names the legal move with the path's topology: the
region it runs through, the corner it leaves and enters each spot by, which spots end up on
each side of the closed line it makes. The game then plays that move with the engine's
routed, tidied curve, never the raw path.

How: the path is made into an exact curve in the plane (below), added to the drawing as the
move's two curves with a new spot in the middle, and the plane structure derived from that
drawing (:meth:`~engine.sprouts.drawing.Drawing.plane_key`: faces, their walks, which walk
bounds which face) is compared with the structure each candidate move must produce
(:func:`~engine.sprouts.paper.expected_key`, the same check a routed curve passes). So the
answer is exact, and the move it gives is one the router's own check would accept for it.

Tolerances (drawing units on a paper :data:`~engine.sprouts.drawing.WIDTH` wide; scaled
with the paper's width, as the picture is):

* :data:`AT_SPOT`: the path starts and ends within this of its spots (a rendered spot is
  ~20 in radius in these units, its ring of lives a little more), at most half way to the
  nearest other spot (for a small loop, half its reach). Inside that disc the finger is
  sloppy: the straight line from the spot to where the path leaves the disc is used when
  it crosses nothing (nor the path); else a straight line to a point of the finger's line
  in the disc and then along it; else, when the finger's line crossed one of the spot's own
  curves there, a line hugging that curve from the spot to the crossing. A foreign curve
  crossed there, with no other way, refuses.
* :data:`THROUGH_SPOT`: outside those discs the path keeps this far from every spot
  (the engine's own gap between a curve and a spot).
* :data:`STEP`: the path is read with its points at least this far apart (a trembling
  finger's dense zigzags are noise).
* :data:`KNOT`: a little loop of the path itself shorter than this is a tremor and cut out.
* Everything else is exact: outside the discs a path that touches or crosses a curve, or
  itself, is refused where it does.

Refusals are :class:`PathRefused` with a ``code`` of :data:`PATH_CODES` and ``at``, the
point in drawing units to mark: where the path crosses (a curve or itself), the spot it runs
through or lacks lives or (too short) starts at, the point not at a spot.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from scipy.spatial import cKDTree

from engine.core import GameOver, IllegalMove
from engine.sprouts.drawing import (
    SPOT_GAP,
    WIDTH,
    Drawing,
    Point,
    _point_seg_dist,
    _seg_dist,
    _segments,
)
from engine.sprouts.game import Game, _table
from engine.sprouts.mesh import _thin
from engine.sprouts.moves import Move
from engine.sprouts.paper import expected_key
from engine.sprouts.position import Move as PositionMove

AT_SPOT = 40.0  # a path point this near a spot is at it (capped at half way to the next spot)
THROUGH_SPOT = SPOT_GAP  # outside the end discs the path keeps this far from every spot
MAX_POINTS = 4096  # longer paths are not a finger's (and would cost too much)
STEP = 4.0  # points of the path closer than this to the last one kept say nothing more
KNOT = 30.0  # a loop of the path itself shorter than this is the finger's tremor, cut out
HUG = 1e-3  # how far from a spot's own curve the line hugging it runs (gaps are >= 2.5)

PATH_CODES: dict[str, str] = {
    "crosses_curve": "the line crosses a curve",
    "through_spot": "the line runs through a spot",
    "no_lives": "spot {spot} has no lives left for this line",
    "not_at_spot": "the line must start and end on a spot",
    "self_crossing": "the line crosses itself",
    "too_short": "the line is too short",
}


class PathRefused(IllegalMove):
    """A drawn path that is no legal move: ``code`` says why (:data:`PATH_CODES`), ``at`` is
    the place in drawing units where it goes wrong."""

    def __init__(self, code: str, at: Point, **params: Any) -> None:
        super().__init__(PATH_CODES[code].format(**params), code=code, at=at, **params)
        self.at = at


def move_from_path(game: Game, start: int, path: Sequence[tuple[float, float]]) -> Move:
    """The legal move of ``game`` that the finger ``path`` from spot ``start`` draws.

    Raises :class:`PathRefused` for a path that is no move, :class:`~engine.core.GameOver`
    when the game has ended and :class:`~engine.core.IllegalMove` (``not_a_move``) for data
    that is not a path (not a sequence of finite pairs, or more than :data:`MAX_POINTS`)."""
    if game.over:
        raise GameOver()
    pts = _points(path)
    d = game.drawing
    if not isinstance(start, int) or not 1 <= start <= len(d.spots):
        raise PathRefused("not_at_spot", _pt(pts[0]) if len(pts) else (0.0, 0.0))
    return _Drawn(game, d, start, pts).move()


def _points(path: Any) -> np.ndarray:
    try:
        arr = np.asarray(path, dtype=float)
    except (TypeError, ValueError):
        arr = np.zeros((0, 3))
    else:
        if arr.shape == (0,):
            arr = np.zeros((0, 2))
    if arr.ndim != 2 or arr.shape[1] != 2 or len(arr) > MAX_POINTS or not np.isfinite(arr).all():
        raise IllegalMove("a path is a list of at most 4096 (x, y) points", code="not_a_move")
    if len(arr) > 1:  # repeated points say nothing
        keep = np.concatenate([[True], np.any(arr[1:] != arr[:-1], axis=1)])
        arr = arr[keep]
    return arr


def _pt(p: np.ndarray) -> Point:
    return (round(float(p[0]), 1), round(float(p[1]), 1))


class _Drawn:
    """One path on one drawing, made into an exact curve step by step."""

    def __init__(self, game: Game, d: Drawing, start: int, pts: np.ndarray) -> None:
        self.game = game
        self.d = d
        self.k = d.width / WIDTH
        self.places = np.asarray([(s.x, s.y) for s in d.spots], dtype=float)
        self.a = start
        self.pts = _thin(pts, STEP * self.k) if len(pts) else pts
        self.segs, self.owner = np.zeros((0, 2, 2)), np.zeros(0, dtype=np.int64)
        self.found: _Finder | None = None
        if d.curves:
            self.segs, self.owner = _segments(d)[:2]
            self.found = d.__dict__.get("_seg_finder")
            if self.found is None:
                self.found = d.__dict__["_seg_finder"] = _Finder(self.segs[:, 0], self.segs[:, 1])

    # -- the ends ---------------------------------------------------------------------------

    def radius(self, spot: int) -> float:
        """How near a point must be to ``spot`` to be at it."""
        p = self.places[spot - 1]
        dist = np.hypot(*(self.places - p).T)
        dist[spot - 1] = np.inf
        return float(min(AT_SPOT * self.k, 0.5 * dist.min() if len(dist) > 1 else np.inf))

    def near(self, spot: int, p: np.ndarray) -> bool:
        return bool(np.hypot(*(p - self.places[spot - 1])) <= self.radius(spot))

    def move(self) -> Move:
        pts, d, a = self.pts, self.d, self.a
        if not len(pts):
            raise PathRefused("too_short", d.place(a))
        if not self.near(a, pts[0]):
            raise PathRefused("not_at_spot", _pt(pts[0]))
        b = next((s.number for s in d.spots if self.near(s.number, pts[-1])), None)
        if b is None:
            raise PathRefused("not_at_spot", _pt(pts[-1]))
        pa, ra = self.places[a - 1], self.radius(a)
        pb, rb = self.places[b - 1], self.radius(b)
        far = np.hypot(*(pts - pa).T)
        if a == b:  # a small loop: its own size is the sloppy disc (its ends lie in it)
            ra = rb = min(ra, max(float(far.max()) / 2, float(far[0]), float(far[-1])))
            if far.max() < 2 * THROUGH_SPOT * self.k:
                raise PathRefused("too_short", d.place(a))
        out_a = np.flatnonzero(far > ra)
        if not len(out_a):
            raise PathRefused("too_short", d.place(a))
        for s in (a, b):
            if d.spots[s - 1].lives < (2 if a == b else 1):
                raise PathRefused("no_lives", d.place(s), spot=s)
        i = int(out_a[0])  # the first point out of a's disc
        j = int(np.flatnonzero(np.hypot(*(pts - pb).T) > rb)[-1])  # the last out of b's
        ea = _exit(pts[i - 1], pts[i], pa, ra)
        eb = _exit(pts[j + 1], pts[j], pb, rb)
        middle = np.vstack([ea, pts[i : j + 1], eb])
        self._check_middle(middle)
        heads = self._ends(a, _dedupe(np.vstack([pa, pts[:i], ea])))
        tails = self._ends(b, _dedupe(np.vstack([pb, pts[j + 1 :][::-1], eb])))
        refused: list[PathRefused] = []
        for head, tail in itertools.product(heads, tails):
            line = _dedupe(np.vstack([head[:-1], middle, tail[::-1][1:]]))
            try:
                line = self._untangled(line)
            except PathRefused as e:  # the ends' lines may cross the path: try the others
                refused.append(e)
                continue
            return self._classify(a, b, line)
        raise refused[0]

    def _ends(self, spot: int, sloppy: np.ndarray) -> list[np.ndarray]:
        """Lines from ``spot`` to the last point of ``sloppy`` (the finger's way from the
        spot out of its disc) that cross no curve, best first: straight from the spot to
        the last point, or to a point of the finger's line before it and then along it (the
        whole of it last); or the line hugging the spot's own curve where the finger's line
        crossed it."""
        n = len(sloppy)
        starts = sorted({n - 1, 1 + 2 * (n - 2) // 3, 1 + (n - 2) // 3, 1}, reverse=True)
        out = []
        for k in starts:
            line = np.vstack([sloppy[:1], sloppy[k:]])
            if self._hit(line) is None:
                out.append(line)
        hit = self._hit(sloppy, last=True)
        if hit is not None:
            seg, x, e = hit
            c = self.d.curves[e]
            if spot in (c.a, c.b):
                out.append(np.vstack([self._hug(spot, e, x, sloppy[seg + 1 :]), sloppy[seg + 1 :]]))
            elif not out:
                raise PathRefused("crosses_curve", _pt(x))
        return out

    def _hug(self, spot: int, e: int, x: np.ndarray, after: np.ndarray) -> np.ndarray:
        """A line from ``spot`` along its own curve ``e`` to ``x`` on it, :data:`HUG` off the
        curve on the side the path goes on from ``x`` (``after``): that side of a curve is
        one face all along, the face the path is in."""
        pts = self.d.arrays[e]
        c = self.d.curves[e]
        ways = [] if c.a != spot else [pts]
        ways += [] if c.b != spot else [pts[::-1]]
        best: tuple[float, np.ndarray, int] | None = None
        for way in ways:  # a loop of the spot's own runs both ways from it: the shorter
            d = _point_seg_dist(np.broadcast_to(x, (len(way) - 1, 2)), way[:-1], way[1:])
            k = int(np.argmin(d))
            run = float(np.hypot(*np.diff(way[: k + 1], axis=0).T).sum())
            if best is None or run < best[0]:
                best = (run, way, k)
        assert best is not None
        _, way, k = best
        seg = way[k + 1] - way[k]
        turn = [float(seg[0] * (q - x)[1] - seg[1] * (q - x)[0]) for q in after]
        side = next((math.copysign(1.0, t) for t in turn if t != 0), None)
        if side is None:
            raise PathRefused("crosses_curve", _pt(x))
        body = np.vstack([way[1 : k + 1], x])
        normals = _left_normals(np.vstack([way[: k + 1], x]))
        return np.vstack([way[0], body + side * HUG * self.k * normals])

    # -- checks --------------------------------------------------------------------------------

    def _hit(self, line: np.ndarray, *, last: bool = False) -> tuple[int, np.ndarray, int] | None:
        """The first (or last) place along ``line`` where it touches a curve: (segment of
        the line, the point, the curve). A line from a spot leaves it, and one to a spot reaches it,
        crossing nothing there (the curves at a spot meet only at it)."""
        if self.found is None or len(line) < 2:
            return None
        p0, p1 = _nudged(line, self.places)
        pairs = self.found.pairs(p0, p1)
        if not len(pairs):
            return None
        i, j = pairs[:, 0], pairs[:, 1]
        touch = _seg_dist(p0[i], p1[i], self.segs[j, 0], self.segs[j, 1]) <= 0
        if not touch.any():
            return None
        i, j = i[touch], j[touch]
        t = _param(p0[i], p1[i], self.segs[j, 0], self.segs[j, 1])
        order = np.lexsort((t, i))
        pick = order[-1] if last else order[0]
        seg = int(i[pick])
        return seg, p0[seg] + t[pick] * (p1[seg] - p0[seg]), int(self.owner[j[pick]])

    def _check_middle(self, line: np.ndarray) -> None:
        """The path between the end discs: the first curve it touches or spot it runs
        through, whichever comes first along it."""
        hit = self._hit(line)
        seg, spot = len(line), None
        dist = _point_seg_dist(
            np.repeat(self.places, len(line) - 1, axis=0),
            np.tile(line[:-1], (len(self.places), 1)),
            np.tile(line[1:], (len(self.places), 1)),
        ).reshape(len(self.places), -1)
        close = np.argwhere(dist < THROUGH_SPOT * self.k)
        if len(close):
            first = close[np.argmin(close[:, 1])]
            spot, seg = int(first[0]), int(first[1])
        if hit is not None and hit[0] <= seg:
            raise PathRefused("crosses_curve", _pt(hit[1]))
        if spot is not None:
            raise PathRefused("through_spot", self.d.place(spot + 1), spot=spot + 1)

    def _untangled(self, line: np.ndarray) -> np.ndarray:
        """The line as a curve: a knot shorter than :data:`KNOT` where the finger trembled
        is cut out (too small to hold a spot, and it crosses no curve); any other place where
        it touches itself refuses. A last safety check: the ends' lines cross no curve."""
        while True:
            line = line[np.concatenate([[True], ~_folds(line), [True]])]
            p0, p1 = _nudged(line, self.places)
            pairs = _Finder(p0, p1).pairs(p0, p1)
            i, j = pairs[:, 0], pairs[:, 1]
            keep = j > i + 1
            i, j = i[keep], j[keep]
            touch = _seg_dist(p0[i], p1[i], p0[j], p1[j]) <= 0
            if not touch.any():
                break
            i, j = i[touch], j[touch]
            first = np.lexsort((-i, j))[0]  # the first place it comes back, the last it left
            si, sj = int(i[first]), int(j[first])
            t = _param(p0[[sj]], p1[[sj]], p0[[si]], p1[[si]])[0]
            x = p0[sj] + t * (p1[sj] - p0[sj])
            knot = np.hypot(*np.diff(np.vstack([x, line[si + 1 : sj + 1], x]), axis=0).T).sum()
            if knot >= KNOT * self.k:
                raise PathRefused("self_crossing", _pt(x))
            line = np.vstack([line[: si + 1], x, line[sj + 1 :]])
        hit = self._hit(line)
        if hit is not None:
            raise PathRefused("crosses_curve", _pt(hit[1]))
        return line

    # -- which move ----------------------------------------------------------------------------

    def _classify(self, a: int, b: int, line: np.ndarray) -> Move:
        """The legal move whose plane structure the drawing plus ``line`` has."""
        d = self.d
        half = np.concatenate([[0.0], np.cumsum(np.hypot(*np.diff(line, axis=0).T))])
        mid = float(half[-1]) / 2
        k = int(np.searchsorted(half, mid, side="right")) - 1
        c = line[k] + (mid - half[k]) / (half[k + 1] - half[k]) * (line[k + 1] - line[k])
        first = [_tuple(p) for p in line[: k + 1]] + [_tuple(c)]
        second = [_tuple(c)] + [_tuple(p) for p in line[k + 1 :]]
        if first[-2] == first[-1]:
            first.pop()
        if second[1] == second[0]:
            second.pop(1)
        first[0], second[-1] = d.place(a), d.place(b)
        drawn = d.with_move(_tuple(c), first, second)
        key = drawn.plane_key()
        region, ca = _corner(d, a, line[1] - line[0])
        _, cb = _corner(d, b, line[-2] - line[-1])
        guesses = _guesses(d, drawn, region, ca, cb)
        table = _table(d)
        lo, hi = min(a, b), max(a, b)
        choices = [table.choice(m) for m in table.between(lo, hi)]
        bounded = d.faces[region].outer is not None
        for ch in choices:
            assert ch is not None  # listed by the table
            guessed = (ch.pmove, None if bounded else ch.inner) in guesses
            if guessed and expected_key(d, ch) == key:
                return ch.move
        for ch in choices:  # not expected: the structure decides in any case
            assert ch is not None
            if ch.face == region and expected_key(d, ch) == key:
                return ch.move
        raise IllegalMove("no legal move has this line's shape", code="no_such_move")


def _corner(d: Drawing, spot: int, way: np.ndarray) -> tuple[int, tuple[int, int]]:
    """The region and corner (boundary index, index in it) that a line leaving ``spot`` in
    direction ``way`` starts in: the wedge runs counter-clockwise from the stub just before
    the line's angle (see :meth:`Drawing.corner`)."""
    hes = d.rotation[spot]
    if hes:
        th = math.atan2(float(way[1]), float(way[0]))
        before = [h for h in hes if d.he_angle[h] <= th]
        out = before[-1] if before else hes[-1]
        w, i = d.walk_of_he[out]
    else:
        w = next(w for w, wk in enumerate(d.walks) if not wk.hes and wk.spots == (spot,))
        i = 0
    face = d.face_of_walk[w]
    return face, (d.faces[face].walks.index(w), i)


def _guesses(
    d: Drawing, drawn: Drawing, region: int, ca: tuple[int, int], cb: tuple[int, int]
) -> set[tuple[PositionMove, int | None]]:
    """The position moves (and, in the unbounded face, which part is enclosed) the drawn
    line makes, read from the new drawing: both ways round (the table lists a move from
    either end; a loop round a lone spot reads either side as its first part)."""
    if ca[0] != cb[0]:
        return {(PositionMove(region, ca, cb), None), (PositionMove(region, cb, ca), None)}
    face = d.faces[region]
    n = len(d.curves)
    lone = {wk.spots[0]: w for w, wk in enumerate(drawn.walks) if not wk.hes}

    def face_now(w: int) -> int:
        walk = d.walks[w]
        w2 = drawn.walk_of_he[walk.hes[0]][0] if walk.hes else lone[walk.spots[0]]
        return drawn.face_of_walk[w2]

    now = {i: face_now(w) for i, w in enumerate(face.walks) if i != ca[0]}
    out: set[tuple[PositionMove, int | None]] = set()
    # the first part lies left of the new curve read from the first corner's spot back to it
    for first, second, he in ((ca, cb, 2 * n + 1), (cb, ca, 2 * n)):
        part = drawn.face_of_walk[drawn.walk_of_he[he][0]]
        side = frozenset(i for i, f in now.items() if f == part)
        enclosed = drawn.faces[part].outer is not None
        inner = None if face.outer is not None else (0 if enclosed else 1)
        out.add((PositionMove(region, first, second, side), inner))
    return out


# -- geometry of polylines ------------------------------------------------------------------------


def _exit(inside: np.ndarray, outside: np.ndarray, centre: np.ndarray, r: float) -> np.ndarray:
    """Where the segment from ``inside`` to ``outside`` leaves the disc (centre, r)."""
    v, w = outside - inside, inside - centre
    aa, bb, cc = float(v @ v), 2 * float(v @ w), float(w @ w) - r * r
    t = (-bb + math.sqrt(max(bb * bb - 4 * aa * cc, 0.0))) / (2 * aa)
    arr: np.ndarray = inside + min(max(t, 0.0), 1.0) * v
    return arr


def _nudged(line: np.ndarray, places: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The segments of ``line``, an end that lies on a spot moved a hair along its segment:
    curves meet at a spot only there, so a line from it touches them only if it runs along
    one."""
    p0, p1 = line[:-1].copy(), line[1:].copy()
    for seg, end, other in ((0, p0, p1), (len(p0) - 1, p1, p0)):
        if np.any(np.all(places == end[seg], axis=1)):
            way = other[seg] - end[seg]
            end[seg] = end[seg] + 1e-6 * way / np.hypot(*way)
    return p0, p1


class _Finder:
    """Segments q, to find those that may touch other segments (their middles close
    enough); a drawing keeps its own (it is asked once per line tried)."""

    def __init__(self, q0: np.ndarray, q1: np.ndarray) -> None:
        self.tree = cKDTree((q0 + q1) / 2)
        self.half = float(np.hypot(*(q1 - q0).T).max()) / 2

    def pairs(self, p0: np.ndarray, p1: np.ndarray) -> np.ndarray:
        """Index pairs (i, j): segment i of p may touch segment j of q."""
        reach = float(np.hypot(*(p1 - p0).T).max()) / 2 + self.half + 1e-6
        near = cKDTree((p0 + p1) / 2).sparse_distance_matrix(
            self.tree, reach, output_type="ndarray"
        )
        arr: np.ndarray = np.stack([near["i"], near["j"]], axis=1).astype(np.int64)
        return arr


def _param(p0: np.ndarray, p1: np.ndarray, q0: np.ndarray, q1: np.ndarray) -> np.ndarray:
    """Where along each segment p0p1 it meets q0q1 (0..1), given that they touch."""
    r, s, w = p1 - p0, q1 - q0, q0 - p0
    den = r[:, 0] * s[:, 1] - r[:, 1] * s[:, 0]
    num = w[:, 0] * s[:, 1] - w[:, 1] * s[:, 0]
    rr = np.einsum("ij,ij->i", r, r)
    with np.errstate(divide="ignore", invalid="ignore"):
        # parallel (touching along a line): the nearer end of q
        along = np.minimum(np.einsum("ij,ij->i", w, r), np.einsum("ij,ij->i", q1 - p0, r)) / rr
        t = np.where(den != 0, num / den, along)
    arr: np.ndarray = np.clip(t, 0.0, 1.0)
    return arr


def _folds(line: np.ndarray) -> np.ndarray:
    """Whether the line turns straight back at each inner point."""
    u, v = line[1:-1] - line[:-2], line[2:] - line[1:-1]
    cross = u[:, 0] * v[:, 1] - u[:, 1] * v[:, 0]
    arr: np.ndarray = (cross == 0) & (np.einsum("ij,ij->i", u, v) < 0)
    return arr


def _left_normals(line: np.ndarray) -> np.ndarray:
    """Unit normals to the left of ``line`` at its points after the first (the mean of the
    two segments' normals at an inner point)."""
    seg = np.diff(line, axis=0)
    n = np.stack([-seg[:, 1], seg[:, 0]], axis=1) / np.maximum(np.hypot(*seg.T), 1e-12)[:, None]
    both = np.vstack([n[:-1] + n[1:], n[-1:]])
    arr: np.ndarray = both / np.maximum(np.hypot(*both.T), 1e-12)[:, None]
    return arr


def _dedupe(line: np.ndarray) -> np.ndarray:
    keep = np.concatenate([[True], np.any(line[1:] != line[:-1], axis=1)])
    arr: np.ndarray = line[keep]
    return arr


def _tuple(p: np.ndarray) -> Point:
    return (float(p[0]), float(p[1]))
