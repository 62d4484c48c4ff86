"""Tidying a drawing between moves: spots and curves moved apart without changing the picture
up to deformation.

A force-directed relaxation in the manner of ImPrEd (Simonetto, Archambault, Auber and
Bourqui, 2011): spots repel each other, spots and curve points push curve segments away,
curves contract and straighten (each inner point pulled to the middle of its neighbours),
the curves round a spot spread out, and a soft wall keeps everything on the paper.

Every move is *limited* so that nothing ever crosses, which keeps the embedding exactly
(faces, the order of curves round each spot, what lies inside what). For a point ``v`` and a
segment ``ab`` it does not end, ``D`` apart along the unit vector ``u`` from ``v`` to the
segment's nearest point, the segment lies in the half-plane ``(x - v)·u >= D``. If ``v``
moves at most ``b = (D - m) / 3`` towards it along ``u`` and ``a`` and ``b`` at most ``b``
back along ``u``, the two stay at least ``m`` apart all the way (linear moves). Each point
keeps, per direction sector, the least such allowance over its neighbours (directions away
from every neighbour stay free: things can always move apart); ``m`` is the gap the exact
check demands (:mod:`engine.sprouts.drawing`), so gaps that hold keep holding. Two spots
(``b = (D - m) / 2``), a spot and the first point of its curve (the straight stub), and
anything further than the search radius (the global step limit) are limited the same way.

Curves are polylines with a point every :data:`SEG_MAX` or less: long segments are split
(the picture does not change) and a point is dropped when moving it onto the chord of its
neighbours fits its own allowance (a move like the others, with everything else still).
The result is checked by the caller like any routed move; see :func:`engine.sprouts.paper`.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.spatial import cKDTree

from engine.sprouts.drawing import (
    HEIGHT,
    MIN_ANGLE,
    MIN_GAP,
    SPOT_GAP,
    STUB,
    TAU,
    WIDTH,
    Curve,
    Drawing,
    _stub_runs,
)

# What the picture should have (drawing units; a rendered spot is ~24 units in radius on
# a full paper, its lives' arcs reach ~37).
SPOT_ROOM = 84.0  # spots closer than this push each other apart hard
DISCS_ROOM = 56.0  # ... and closer than this (two discs and a gap) harder still
CURVE_SPOT_ROOM = 40.0  # curves keep this far from spots they do not end at
DISC_ROOM = 36.0  # ... and under this (a spot's disc, a stroke, a gap) they are pushed hard
CURVE_ROOM = 20.0  # curves keep this far from each other (three strokes)
STUB_LEN = 22.0  # preferred length of the straight stub where a curve leaves its spot
MARGIN = 50.0  # room kept round the drawing on the paper (the router needs some)
SPOT_WALL = 30.0  # spots keep this much more room from the paper's edge, for the curves
# round them (the soft repulsion of all spots presses the outer ones outwards)
SEG_MAX = 28.0  # curve segments longer than this are split
SEG_DROP = 28.0  # a point whose neighbours are closer than this may be dropped

# What the exact check demands, with a margin for rounding to 0.1.
EPS = 0.3
HARD_CURVE = MIN_GAP + EPS
HARD_SPOT = SPOT_GAP + EPS
HARD_SPOTS = 2 * SPOT_GAP + EPS
HARD_STUB = STUB + EPS
HARD_ANGLE = MIN_ANGLE + math.radians(1.0)

KIN = 4  # segments this close along its own curve do not push a point
EDGE = 2.0  # nothing comes closer than this to the paper's edge
STEP = 5.0  # no point moves further than this in one step
REACH = 3 * STEP + HARD_SPOT + 1.0  # every limit from further away is above STEP anyway
PIECE = 15.0  # segments longer than twice this are searched for apart from the others
SECTORS = 8
ITERATIONS = 16
CALM = 0.5  # a step that moves nothing further than this ends the relaxation
SMOOTH_ROUNDS = 6
PUSH = 0.6  # how hard crowded things push apart (a share of the missing room per step)
HARD_PUSH = 3.0  # ... a curve under a foreign spot's disc (it beats the curves' pull)
DISCS_PUSH = 1.5  # ... two spots whose discs overlap (it beats the curves round them)
PULL = 0.2  # how hard curves contract


class TidyError(Exception):
    """The tidied drawing failed a check (a bug: the caller keeps the drawing untidied)."""


def tidy(drawing: Drawing, iterations: int = ITERATIONS) -> Drawing:
    """The drawing relaxed by ``iterations`` steps and fitted to the paper."""
    net = _Net.of(drawing).fitted()
    for it in range(iterations):
        if it % 4 == 0:
            net.drop_points(it // 4 % 2)
        elif net.step() < CALM:
            break
        net.split_long()
    return net.fitted().drawing()


class _Net:
    """Spots (``P``) and the inner points of every curve (``inner[e]``), as arrays."""

    def __init__(self, P: np.ndarray, inner: list[np.ndarray], ends: list[tuple[int, int]]):
        self.P = P
        self.inner = inner
        self.ends = ends
        self.width, self.height = WIDTH, HEIGHT
        self._index()

    @classmethod
    def of(cls, d: Drawing) -> _Net:
        """The drawing's points, each stub cut down to one straight segment."""
        runs = _stub_runs(d)
        P = np.asarray([(s.x, s.y) for s in d.spots], dtype=float).reshape(-1, 2)
        inner = []
        for e, pts in enumerate(d.arrays):
            lo, hi = runs[2 * e], len(pts) - 1 - runs[2 * e + 1]
            if lo >= hi:  # the two stubs meet: keep one point between them
                lo = hi = (len(pts) - 1) // 2 if len(pts) > 2 else 1
            body = pts[lo : hi + 1]
            if len(pts) == 2:
                body = (pts[:1] + pts[1:]) / 2
            inner.append(np.array(body, dtype=float))
        net = cls(P, inner, [(c.a - 1, c.b - 1) for c in d.curves])
        net.width, net.height = d.width, d.height
        net.split_long()
        return net

    # -- the flat view ---------------------------------------------------------------------

    def _index(self) -> None:
        """Flat arrays: every point (spots first), every segment, and where each lies."""
        S = len(self.P)
        E = len(self.ends)
        sizes = np.fromiter((len(a) for a in self.inner), dtype=np.int64, count=E)
        offs = S + np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
        self.X = np.concatenate([self.P, *self.inner]) if self.inner else self.P.copy()
        N = len(self.X)
        self.offs = offs
        # every curve as a chain of point ids, all chains end to end: spot, inner points, spot
        length = sizes + 2
        start = np.cumsum(length) - length
        curve = np.repeat(np.arange(E), length)
        pos = np.arange(int(length.sum())) - start[curve]
        flat = offs[:-1][curve] + pos - 1
        ends = np.asarray(self.ends, dtype=np.int64).reshape(-1, 2)
        last = start + length - 1
        flat[start] = ends[:, 0]
        flat[last] = ends[:, 1]
        has_next = pos < length[curve] - 1
        at = np.flatnonzero(has_next)
        self.segs = np.stack([flat[at], flat[at + 1]], axis=1)
        self.seg_curve = curve[at]
        self.seg_pos = pos[at]
        self.seg_last = np.cumsum(length - 1) - 1
        self.seg_ends = ends[self.seg_curve]
        inner = np.flatnonzero(has_next & (pos > 0))
        self.node_curve = np.full(N, -1, dtype=np.int64)
        self.node_pos = np.zeros(N, dtype=np.int64)
        self.node_curve[flat[inner]] = curve[inner]
        self.node_pos[flat[inner]] = pos[inner]
        # each inner point's neighbours along its curve
        self.mid, self.prev, self.next = flat[inner], flat[inner - 1], flat[inner + 1]
        # stubs: (spot, first inner point) for every curve end
        self.stub_spot = np.stack([flat[start], flat[last]], axis=1).ravel()
        self.stub_node = np.stack([flat[start + 1], flat[last - 1]], axis=1).ravel()

    def _store(self) -> None:
        S = len(self.P)
        self.P = self.X[:S].copy()
        self.inner = np.split(self.X[S:].copy(), self.offs[1:-1] - S) if self.ends else []

    # -- the pairs near each other ---------------------------------------------------------

    def _pairs(self) -> tuple[np.ndarray, ...]:
        """(point, segment) pairs closer than the search radius, the point not on the
        segment: point, segment, distance, unit vector to the segment, where along it, and
        the gap the check demands."""
        X, segs = self.X, self.segs
        S = len(self.P)
        empty = np.zeros(0, dtype=np.int64)
        if not len(segs):
            z = np.zeros(0)
            self._kin = np.zeros(0, dtype=bool)
            return empty, empty, z, np.zeros((0, 2)), z, z
        x, y = X[:, 0].copy(), X[:, 1].copy()
        s0, s1 = segs[:, 0], segs[:, 1]
        ax, ay, bx, by = x[s0], y[s0], x[s1], y[s1]
        rho = self.width / WIDTH
        spot_reach = max(REACH, rho * CURVE_SPOT_ROOM)
        node_reach = max(REACH, rho * CURVE_ROOM)
        # segments are found by their middles; the few long ones (stubs are never split)
        # separately, so that they do not widen every search
        abx, aby = bx - ax, by - ay
        half = np.hypot(abx, aby) / 2
        long = half > PIECE
        found_i, found_j = [], []
        searches = [
            (lo, cKDTree(X[lo:hi]), r)
            for lo, hi, r in ((0, S, spot_reach), (S, len(X), node_reach))
            if hi > lo
        ]
        mids = np.stack([(ax + bx) / 2, (ay + by) / 2], axis=1)
        for group in (np.flatnonzero(~long), np.flatnonzero(long)):
            if not len(group):
                continue
            tree = cKDTree(mids[group])
            extra = float(half[group].max())
            for lo, points, r in searches:
                got = points.sparse_distance_matrix(tree, r + extra, output_type="ndarray")
                j = group[got["j"]]
                # no point of a segment is nearer than its middle less its half length
                ok = got["v"] < r + half[j] + 1e-6
                found_i.append(got["i"][ok].astype(np.int64) + lo)
                found_j.append(j[ok])
        ii = np.concatenate(found_i) if found_i else empty
        jj = np.concatenate(found_j) if found_j else empty
        keep = (s0[jj] != ii) & (s1[jj] != ii)
        ii, jj = ii[keep], jj[keep]
        # the nearest point of each segment, as (a + t (b - a)), and the way to it
        ex, ey = abx[jj], aby[jj]
        px, py = ax[jj], ay[jj]
        vx, vy = x[ii], y[ii]
        den = np.maximum(ex * ex + ey * ey, 1e-12)
        t = np.clip(((vx - px) * ex + (vy - py) * ey) / den, 0.0, 1.0)
        dx = px + t * ex - vx
        dy = py + t * ey - vy
        dist = np.sqrt(dx * dx + dy * dy)
        near = dist < np.where(ii < S, spot_reach, node_reach)
        ii, jj, t, dist = ii[near], jj[near], t[near], dist[near]
        inv = 1.0 / np.maximum(dist, 1e-12)
        u = np.stack([dx[near] * inv, dy[near] * inv], axis=1)
        is_spot = ii < S
        same = self.node_curve[ii] == self.seg_curve[jj]
        k, p = self.seg_pos[jj], self.node_pos[ii]
        close_kin = same & ((k == p - 2) | (k == p + 1))
        need = np.where(is_spot, HARD_SPOT, np.where(close_kin, EPS, HARD_CURVE))
        # a curve's own neighbouring segments do not push its points (they bend with them)
        self._kin = same & (k >= p - KIN) & (k < p + KIN)
        return ii, jj, dist, u, t, need

    # -- one step ----------------------------------------------------------------------------

    def _limits(self, pairs: tuple[np.ndarray, ...]) -> np.ndarray:
        """How far each point may move in each direction sector this step."""
        ii, jj, dist, u, _, need = pairs
        X, segs = self.X, self.segs
        N = len(X)
        budget = np.maximum(dist - np.minimum(need, dist), 0.0) / 3
        tight = budget < STEP
        ii, jj, u, budget = ii[tight], jj[tight], u[tight], budget[tight]
        who = [ii, segs[jj, 0], segs[jj, 1]]
        dirs = [u, -u, -u]
        buds = [budget, budget, budget]
        # spots against spots
        S = len(self.P)
        if S > 1:
            i, j = np.triu_indices(S, 1)
            w = X[j] - X[i]
            d = np.hypot(*w.T)
            close = d < 2 * STEP + HARD_SPOTS
            i, j, w, d = i[close], j[close], w[close], d[close]
            uu = w / np.maximum(d, 1e-12)[:, None]
            bud = np.maximum(d - np.minimum(HARD_SPOTS, d), 0.0) / 2
            who += [i, j]
            dirs += [uu, -uu]
            buds += [bud, bud]
        # the paper's edge
        for axis, top in ((0, self.width), (1, self.height)):
            for sign, room in ((-1.0, X[:, axis] - EDGE), (1.0, top - EDGE - X[:, axis])):
                near = np.flatnonzero(room < STEP)
                uu = np.zeros((len(near), 2))
                uu[:, axis] = sign
                who.append(near)
                dirs.append(uu)
                buds.append(np.maximum(room[near], 0.0))
        # stubs stay long enough to be straight for the check
        if len(self.stub_spot):
            w = X[self.stub_node] - X[self.stub_spot]
            d = np.hypot(*w.T)
            uu = w / np.maximum(d, 1e-12)[:, None]
            bud = np.maximum(d - np.minimum(HARD_STUB, d), 0.0) / 2
            close = bud < STEP
            who += [self.stub_spot[close], self.stub_node[close]]
            dirs += [uu[close], -uu[close]]
            buds += [bud[close], bud[close]]
        return _limits(N, np.concatenate(who), np.concatenate(dirs), np.concatenate(buds))

    def _forces(self, pairs: tuple[np.ndarray, ...]) -> np.ndarray:
        """The wanted displacement of every point (before the limits)."""
        X, segs = self.X, self.segs
        S = len(self.P)
        N = len(X)
        F = np.zeros((N, 2))
        ii, jj, dist, u, t, _ = pairs
        is_spot = ii < S
        rho = self.width / WIDTH  # an enlarged paper is relaxed to the same proportions
        room = rho * np.where(is_spot, CURVE_SPOT_ROOM, CURVE_ROOM)
        on = (dist < room) & ~self._kin
        ii, jj, u, t, is_spot = ii[on], jj[on], u[on], t[on], is_spot[on]
        mag = PUSH * (room[on] - dist[on])
        # a curve under the disc of a spot it does not end at is pushed out hard
        ends = self.seg_ends[jj]
        foreign = is_spot & (ends[:, 0] != ii) & (ends[:, 1] != ii)
        disc = foreign & (dist[on] < rho * DISC_ROOM)
        mag = mag + np.where(disc, HARD_PUSH * (rho * DISC_ROOM - dist[on]), 0.0)
        f = mag[:, None] * u
        # a spot is heavy: the curve gives way more than the spot
        share = np.where(is_spot, 0.25, 0.5)[:, None]
        _add(F, ii, -share * f)
        _add(F, segs[jj, 0], (1 - t)[:, None] * (1 - share) * f)
        _add(F, segs[jj, 1], t[:, None] * (1 - share) * f)
        # spots repel each other: hard below SPOT_ROOM, softly at any distance
        if S > 1:
            w = X[:S, None, :] - X[None, :S, :]
            d = np.hypot(w[..., 0], w[..., 1]) + np.eye(S)
            area = (self.width - 2 * MARGIN) * (self.height - 2 * MARGIN)
            k2 = 0.5 * area / S
            mag = 0.01 * k2 / d + 0.3 * np.maximum(rho * SPOT_ROOM - d, 0.0)
            mag += DISCS_PUSH * np.maximum(rho * DISCS_ROOM - d, 0.0)
            np.fill_diagonal(mag, 0.0)
            F[:S] += np.einsum("ij,ijk->ik", mag / d, w)
        # curves contract and straighten: each inner point goes towards where a few rounds
        # of averaging with its neighbours would put it (pulls along long curves faster)
        Y = X.copy()
        for _ in range(SMOOTH_ROUNDS):
            Y[self.mid] = (Y[self.prev] + Y[self.next]) / 2
        F[self.mid] += PULL * (Y[self.mid] - X[self.mid])
        if len(self.stub_spot):
            w = X[self.stub_node] - X[self.stub_spot]
            d = np.maximum(np.hypot(*w.T), 1e-9)
            pull = (0.25 * (d - rho * STUB_LEN) / d)[:, None] * w
            _add(F, self.stub_spot, 0.5 * pull)
            _add(F, self.stub_node, -pull)
            F += self._spread()
        # the paper's edge
        # the paper's edge, or a paper of the usual size in the middle of an enlarged one
        centre = np.array([self.width, self.height]) / 2
        half = np.full((N, 1), rho * MARGIN)
        half[:S] += rho * SPOT_WALL
        half = centre - half
        F += 0.5 * (np.maximum(centre - half - X, 0.0) - np.maximum(X - centre - half, 0.0))
        return F

    def _spread(self) -> np.ndarray:
        """Turn the stubs round each spot towards even angles."""
        X = self.X
        F = np.zeros_like(X)
        w = X[self.stub_node] - X[self.stub_spot]
        ang = np.arctan2(w[:, 1], w[:, 0])
        length = np.hypot(*w.T)
        order, nxt = _round_spot(self.stub_spot, ang)
        # in stub order: the next and previous stub round the same spot
        after = np.empty_like(order)
        after[order] = nxt
        before = np.empty_like(order)
        before[nxt] = order
        deg = np.bincount(self.stub_spot, minlength=len(self.P))[self.stub_spot]
        want = TAU / np.maximum(deg, 1)
        gap_next = (ang[after] - ang) % TAU
        gap_prev = (ang - ang[before]) % TAU
        turn = 0.3 * (np.minimum(gap_next, want) - np.minimum(gap_prev, want)) / 2
        turn = np.where(deg > 1, turn, 0.0)
        tangent = np.stack([-np.sin(ang), np.cos(ang)], axis=1)
        _add(F, self.stub_node, (turn * length)[:, None] * tangent)
        return F

    def step(self) -> float:
        """One step of the relaxation; returns the longest move made."""
        pairs = self._pairs()
        lim = self._limits(pairs)
        F = self._forces(pairs)
        norm = np.hypot(*F.T)
        sec = _sector(F)
        cap = lim[np.arange(len(F)), sec]
        scale = np.minimum(1.0, cap / np.maximum(norm, 1e-12))
        D = F * scale[:, None]
        D = self._keep_angles(D)
        self.X = self.X + D
        self._store()
        return float(np.hypot(*D.T).max()) if len(D) else 0.0

    def _keep_angles(self, D: np.ndarray) -> np.ndarray:
        """Moves that would bring two stubs round a spot closer than the check allows are
        cancelled (for the spot and both stubs)."""
        if not len(self.stub_spot):
            return D
        for _ in range(3):
            Y = self.X + D
            w = Y[self.stub_node] - Y[self.stub_spot]
            ang = np.arctan2(w[:, 1], w[:, 0])
            order, nxt = _round_spot(self.stub_spot, ang)
            gap = (ang[nxt] - ang[order]) % TAU
            bad = (np.minimum(gap, TAU - gap) < HARD_ANGLE) & (nxt != order)
            if not bad.any():
                return D
            for k in (order[bad], nxt[bad]):
                D[self.stub_node[k]] = 0.0
                D[self.stub_spot[k]] = 0.0
        return np.zeros_like(D)

    # -- the polylines ------------------------------------------------------------------------

    def split_long(self) -> None:
        """Split segments longer than :data:`SEG_MAX` (the picture stays the same)."""
        X, segs = self.X, self.segs
        if not len(segs):
            return
        a, b = X[segs[:, 0]], X[segs[:, 1]]
        k = np.maximum(1, np.ceil(np.hypot(*(b - a).T) / SEG_MAX).astype(int))
        # a stub is never split: its point may be near another stub at its spot, which the
        # check allows only for stubs
        k[self.seg_pos == 0] = 1
        k[self.seg_last] = 1
        curves = np.unique(self.seg_curve[k > 1])
        if not len(curves):
            return
        # every segment of a curve with a long one, cut into k: the points at 1/k .. k/k
        # along it (the last one of the curve is its end spot, not kept)
        on = np.isin(self.seg_curve, curves)
        js = np.flatnonzero(on)
        kk = k[js]
        idx = np.repeat(np.arange(len(js)), kk)
        first = np.cumsum(kk) - kk
        f = (np.arange(len(idx)) - first[idx] + 1) / kk[idx]
        aj, bj = a[js][idx], b[js][idx]
        dense = aj + f[:, None] * (bj - aj)
        ends = np.cumsum(np.bincount(self.seg_curve[js][idx], minlength=len(self.ends))[curves])
        starts = ends - np.diff(np.r_[0, ends])
        for e, lo, hi in zip(curves.tolist(), starts.tolist(), ends.tolist(), strict=True):
            self.inner[e] = dense[lo : hi - 1]
        self._index()

    def drop_points(self, parity: int) -> None:
        """Drop inner points that can move onto the chord of their neighbours within their
        allowance: only points at even (or odd) places along their curves, so never two
        neighbours; never a stub's point."""
        lim = self._limits(self._pairs())
        X = self.X
        mid, prev, nxt = self.mid, self.prev, self.next
        S = len(self.P)
        ok = (self.node_pos[mid] % 2 == parity) & (prev >= S) & (nxt >= S)
        chord = X[nxt] - X[prev]
        clen = np.hypot(*chord.T)
        ok &= clen < SEG_DROP
        t = np.einsum("ij,ij->i", X[mid] - X[prev], chord) / np.maximum(clen**2, 1e-12)
        ok &= (t > 0.05) & (t < 0.95)
        move = X[prev] + np.clip(t, 0, 1)[:, None] * chord - X[mid]
        ok &= np.hypot(*move.T) <= lim[mid, _sector(move)]
        if not ok.any():
            return
        keep = np.ones(len(X), dtype=bool)
        keep[mid[ok]] = False
        keep = keep[S:]
        sizes = np.bincount(self.node_curve[S:][keep], minlength=len(self.ends))
        self.inner = np.split(X[S:][keep], np.cumsum(sizes)[:-1])
        self._index()

    # -- the result ---------------------------------------------------------------------------

    def fitted(self) -> _Net:
        """The paper shrunk back towards its usual size as far as the gaps allow, then the
        drawing enlarged to fill the paper's room (never shrunk further) and centred on it."""
        X = self.X
        lo, hi = X.min(axis=0), X.max(axis=0)
        size = np.maximum(hi - lo, 1.0)
        k = 1.0
        if self.width > WIDTH:
            k = min(1.0, max(WIDTH / self.width, self._least_scale()))
        w, h = self.width * k, self.height * k
        room = np.array([w, h]) - 2 * MARGIN * w / WIDTH
        k *= max(1.0, float(np.min(room / (size * k))))
        self.X = (X - (lo + hi) / 2) * k + np.array([w / 2, h / 2])
        self.width, self.height = w, h
        self._store()
        return self

    def _least_scale(self) -> float:
        """The smallest factor the drawing can shrink by and keep every gap the check needs."""
        ii, _, dist, _, _, need = self._pairs()
        ratios = [need / np.maximum(dist, 1e-9)] if len(ii) else []
        S = len(self.P)
        if S > 1:
            i, j = np.triu_indices(S, 1)
            ratios.append(HARD_SPOTS / np.maximum(np.hypot(*(self.X[i] - self.X[j]).T), 1e-9))
        if len(self.stub_spot):
            w = self.X[self.stub_node] - self.X[self.stub_spot]
            ratios.append(HARD_STUB / np.maximum(np.hypot(*w.T), 1e-9))
        if not ratios:
            return 0.0
        return float(np.max(np.concatenate(ratios))) * 1.01

    def drawing(self) -> Drawing:
        P = np.round(self.P, 1)
        places = [(float(x), float(y)) for x, y in P]
        curves = []
        for e, (a, b) in enumerate(self.ends):
            pts = [places[a]]
            for x, y in np.round(self.inner[e], 1):
                p = (float(x), float(y))
                if p != pts[-1]:
                    pts.append(p)
            if pts[-1] == places[b]:
                pts.pop()
            pts.append(places[b])
            curves.append(Curve(a + 1, b + 1, tuple(pts)))
        return Drawing(places, curves, round(self.width, 1), round(self.height, 1))


def _add(F: np.ndarray, idx: np.ndarray, v: np.ndarray) -> None:
    """``F[idx] += v`` with repeated indices summed."""
    n = len(F)
    F[:, 0] += np.bincount(idx, weights=v[:, 0], minlength=n)
    F[:, 1] += np.bincount(idx, weights=v[:, 1], minlength=n)


def _round_spot(spot: np.ndarray, ang: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The stubs sorted by spot, then angle; and for each, the next one round its spot."""
    order = np.lexsort((ang, spot))
    sp = spot[order]
    start = np.r_[True, sp[1:] != sp[:-1]]
    last = np.r_[sp[1:] != sp[:-1], True]
    first_of = np.maximum.accumulate(np.where(start, np.arange(len(sp)), 0))
    nxt_pos = np.where(last, first_of, np.arange(len(sp)) + 1)
    return order, order[nxt_pos]


def _sector(v: np.ndarray) -> np.ndarray:
    ang = np.arctan2(v[:, 1], v[:, 0])
    return np.floor((ang + math.pi / SECTORS) / (TAU / SECTORS)).astype(np.int64) % SECTORS


_CENTRES = np.arange(SECTORS) * TAU / SECTORS
_HALF = math.pi / SECTORS
_AXES = np.stack([np.cos(_CENTRES), np.sin(_CENTRES)], axis=1)
_COS_HALF, _SIN_HALF = math.cos(_HALF), math.sin(_HALF)


def _limits(n: int, who: np.ndarray, u: np.ndarray, budget: np.ndarray) -> np.ndarray:
    """Per point and direction sector, the longest move allowed when point ``who[k]`` may
    move at most ``budget[k]`` along ``u[k]``: the least over its constraints of the longest
    move in the sector whose component along ``u`` stays within the budget."""
    lim = np.full((n, SECTORS), STEP)
    if not len(who):
        return lim
    # the constraints point by point (a stable sort of small keys is a radix sort: far
    # faster than of int64, and the same order)
    order = np.argsort(who.astype(np.uint16) if n < 1 << 16 else who, kind="stable")
    w, u, budget = who[order], u[order], budget[order]
    # c: the cosine of the least angle between u and a direction in the sector
    dot = u @ _AXES.T
    crs = np.abs(u[:, :1] * _AXES[:, 1] - u[:, 1:] * _AXES[:, 0])
    c = np.where(dot >= _COS_HALF, 1.0, dot * _COS_HALF + crs * _SIN_HALF)
    cap = np.where(c > 1e-9, budget[:, None] / np.maximum(c, 1e-9), np.inf)
    starts = np.flatnonzero(np.r_[True, w[1:] != w[:-1]])
    least = np.minimum.reduceat(cap, starts, axis=0)
    lim[w[starts]] = np.minimum(lim[w[starts]], least)
    return lim
