"""Routing a new curve through one face on a triangulation of the drawing.

Its cost depends on the number of curve vertices, not on the scale, so enlarging the paper
(which only widens every gap against the fixed minimum gaps) always helps and never costs
more.

Only the face the curve goes through is triangulated (:class:`_Part`): the vertices of the
curves on its walks, its spots, the paper's edge (for the unbounded face), the new curve's
end stubs and a sparse fill of free points inside the face, with every curve segment as an
edge (a constrained Delaunay triangulation, :mod:`pythoncdt`); what lies beyond the face's
edge cannot be on the path and would not change the triangles inside it. Triangles reached
from the start corner without crossing a curve or a stub are the face. A split or a loop
must leave each other boundary of the face on its side: *bridges*, chains of triangles from
each boundary to the part of the structure on its side (the walk's arc, or a virtual
*tongue* out of a loop's spot), are blocked; the face minus the bridges is simply
connected, so every path from end to end separates as asked. The path is a cheapest chain
of triangles (narrow passages cost more); the curve crosses each shared edge of the chain
at one point, slid along that edge to smooth the curve while keeping clear of real curves
and spots, so it never leaves the chain and never crosses anything. The caller checks the
result exactly.
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Iterator, Sequence
from functools import cached_property

import numpy as np
from pythoncdt import IntersectingConstraintEdges, Triangulation, VertexInsertionOrder
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components, dijkstra
from scipy.spatial import cKDTree

from engine.sprouts.drawing import (
    MIN_GAP,
    SPOT_GAP,
    STUB,
    TAU,
    WIDTH,
    Drawing,
    Point,
    _seg_dist,
    _segments,
    _stub_runs,
)
from engine.sprouts.routing import Request, Route, _Fail

TIP = STUB + 3.0  # length of the straight stubs at the ends and at the new spot
MAX_SEG = 10.0  # curve segments longer than this are split before triangulating
FILL_POINTS = 1200  # about this many free points over the paper (sparser on larger paper)
NARROW = 12.0  # a step through an edge of length L costs (1 + (NARROW / L)²) times more
VIA_PULL = 8.0  # the curve goes this much further (in cost) per unit of room for its spot
CLEAR = 2.5 * MIN_GAP  # the new curve keeps this far from others (and spots' discs) if it can
CLEAR_CURVE = 2.5 * MIN_GAP  # the curve keeps this far from curve vertices where it can
CLEAR_SPOT = 1.4 * SPOT_GAP  # ... and this far from spots
FAR = 3 * TIP  # clearance beyond this makes no difference anywhere
MIN_STUB_ANGLE = math.radians(12)  # a new stub keeps this far from the spot's other stubs
MEDIAL_FROM = 4 * MIN_GAP  # gaps at least this wide get a free point in their middle
SAME = 1e-9  # points closer than this are one vertex to the triangulation
MIN_SPACING = 4.0  # points of the new curve closer than this to the previous one are dropped
RING = SPOT_GAP + 2.5  # radius of the ring of constrained arcs round each spot
RING_GAP = math.radians(6)  # the ring stops this short of each curve leaving the spot
SPOT_APART = 80.0  # the new spot goes where it is at least this far from other spots if it can
LOOP_SPREAD = math.radians(35)  # a loop leaves its spot at ±this from its middle direction
SPOT_TRIES = 40  # places for the new spot tried along the curve (once the first 25 fail) ...
SPOT_APART_TRIES = 3.0  # ... each this far along the curve from the others

# vertex kinds (besides a piece number >= 0)
K_FRAME, K_END, K_TONGUE, K_FILL, K_RING, K_WINDOW = -1, -2, -3, -4, -5, -6
FRAME_PIECE = -1  # the paper's edge as a boundary to bridge


class _Part:
    """The part of the drawing a route can use: one face. Only the curves on its walks and
    the spots on them are triangulated, and free points only inside it: a curve or spot
    beyond the face's edge cannot be on the path, and the triangles inside the face are the
    same without them (a constrained Delaunay triangle never reaches across a constrained
    edge). ``border``: the segments of the curves with the face on one side only, which
    bound it: a point is in the face when a ray from it crosses them an odd number of times
    (bounded face) or an even number (the unbounded face)."""

    def __init__(self, d: Drawing, face: int) -> None:
        f = d.faces[face]
        hes = np.asarray([h for w in f.walks for h in d.walks[w].hes], dtype=np.int64)
        sides = np.bincount(hes >> 1, minlength=len(d.curves))
        self.curves: list[int] = np.flatnonzero(sides > 0).tolist()
        self.spots = np.zeros(len(d.spots), dtype=bool)
        self.spots[[s - 1 for w in f.walks for s in d.walks[w].spots]] = True
        self.bounded = f.outer is not None
        border = [d.arrays[e] for e in np.flatnonzero(sides == 1).tolist()]
        if border:
            self.seg_a = np.concatenate([a[:-1] for a in border])
            self.seg_b = np.concatenate([a[1:] for a in border])
        else:
            self.seg_a = self.seg_b = np.zeros((0, 2))

    def holds(self, pts: np.ndarray) -> np.ndarray:
        """Which of ``pts`` (none on a border curve) lie in the face."""
        arr: np.ndarray = _odd_crossings(pts, self.seg_a, self.seg_b) == self.bounded
        return arr


def _odd_crossings(pts: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """For each point, whether the ray from it towards +x crosses the segments ``a[j]``-
    ``b[j]`` an odd number of times (a segment counts where ``min(y) <= y < max(y)``; the
    pairs are found by sorting the points by y, so the work follows the pairs, not the
    product)."""
    if not len(pts) or not len(a):
        return np.zeros(len(pts), dtype=bool)
    order = np.argsort(pts[:, 1], kind="stable")
    ys = pts[order, 1]
    lo = np.searchsorted(ys, np.minimum(a[:, 1], b[:, 1]), side="left")
    hi = np.searchsorted(ys, np.maximum(a[:, 1], b[:, 1]), side="left")
    count = hi - lo
    seg = np.repeat(np.arange(len(a)), count)
    which = order[np.arange(len(seg)) - np.repeat(np.cumsum(count) - count, count) + lo[seg]]
    p, q = a[seg], b[seg]
    y = pts[which, 1]
    x = p[:, 0] + (y - p[:, 1]) * (q[:, 0] - p[:, 0]) / (q[:, 1] - p[:, 1])
    hits = np.bincount(which[x > pts[which, 0]], minlength=len(pts))
    arr: np.ndarray = hits % 2 == 1
    return arr


def _face_of(d: Drawing, spot: int, wedge: tuple[float, float]) -> int | None:
    """The face whose corner at ``spot`` is ``wedge`` (as :meth:`Drawing.corner` gives it:
    its stub's angle starts it), or None if none is."""
    hes = d.rotation[spot]
    if not hes:
        walk = next((w for w, wk in enumerate(d.walks) if not wk.hes and wk.spots == (spot,)), None)
    else:
        out = [h for h in hes if d.he_angle[h] == wedge[0]]
        walk = d.walk_of_he[out[0]][0] if len(out) == 1 else None
    return None if walk is None else d.face_of_walk.get(walk)


class _Mesh:
    """The triangulated drawing (or only the face ``part``) with the new curve's stubs (and
    a loop's tongue)."""

    def __init__(
        self,
        d: Drawing,
        chains: list[tuple[int, int, list[Point]]],
        window: tuple[float, float, float, float] | None = None,
        part: _Part | None = None,
    ) -> None:
        self.d = d
        w, h = d.width, d.height
        x0, y0, x1, y1 = window or (0.0, 0.0, w, h)
        x0, y0, x1, y1 = max(x0, 0.0), max(y0, 0.0), min(x1, w), min(y1, h)
        # every point to be a vertex, in order, with its kind and whether it is taken; a
        # point met again is the same vertex (the kind of its first meeting)
        cand: list[np.ndarray] = []
        kinds: list[np.ndarray] = []
        takes: list[np.ndarray] = []
        lines: list[tuple[int, int, int]] = []  # (owner, first candidate, count)
        size = 0

        def put(arr: np.ndarray, k: int | np.ndarray, take: np.ndarray) -> int:
            nonlocal size
            cand.append(arr)
            kinds.append(np.broadcast_to(np.asarray(k, dtype=np.int64), (len(arr),)))
            takes.append(take)
            size += len(arr)
            return size - len(arr)

        def inside(arr: np.ndarray) -> np.ndarray:
            return (arr[:, 0] >= x0) & (arr[:, 0] <= x1) & (arr[:, 1] >= y0) & (arr[:, 1] <= y1)

        def add(owner: int, k: int, arr: np.ndarray) -> None:
            """A chain, cut into the runs of its points inside the window."""
            lines.append((owner, put(arr, k, inside(arr)), len(arr)))

        def add_many(
            owners: Sequence[int], ks: Sequence[int], arr: np.ndarray, at: np.ndarray
        ) -> None:
            """Chains end to end (chain i is ``arr[at[i] : at[i + 1]]``), as :func:`add`."""
            counts = np.diff(at)
            first = put(arr, np.repeat(np.asarray(ks, dtype=np.int64), counts), inside(arr))
            lines.extend(zip(owners, (first + at[:-1]).tolist(), counts.tolist(), strict=True))

        pieces = d.pieces
        spots = np.asarray([(s.x, s.y) for s in d.spots], dtype=float).reshape(-1, 2)
        put(spots, 0, inside(spots) if part is None else inside(spots) & part.spots)
        spot_kind = np.asarray(pieces, dtype=np.int64)
        scale = d.width / WIDTH  # lengths that only set the mesh's density follow the paper
        owners = range(len(d.arrays)) if part is None else part.curves
        arrays = [d.arrays[e] for e in owners]
        if arrays:
            dense_curves, at = _split_many(arrays, MAX_SEG * scale)
            add_many(owners, [pieces[d.curves[e].a - 1] for e in owners], dense_curves, at)
        step = max(MAX_SEG * scale, math.sqrt((x1 - x0) * (y1 - y0) / FILL_POINTS))
        corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)]
        box = _split_long(np.array(corners, dtype=float), step)
        if window is None:
            add(K_FRAME, K_FRAME, box)
        elif part is not None and part.bounded:
            # a bounded face's own outer walk bounds it and no curve of it leaves the window:
            # its corners only keep the walk off the hull (where collinear points of a
            # split segment would make flat triangles)
            put(np.array(corners[:4], dtype=float), K_WINDOW, np.ones(4, dtype=bool))
        else:  # the window's edge only bounds the triangulation: curves cross it
            edge = box[:-1]
            on_edge = ~(
                (x0 < edge[:, 0]) & (edge[:, 0] < x1) & (y0 < edge[:, 1]) & (edge[:, 1] < y1)
            )
            put(edge, K_WINDOW, on_edge)
        if chains:
            lens = np.asarray([len(c[2]) for c in chains], dtype=np.int64)
            if lens.min() >= 2:  # always: stubs and arcs (one array for all is cheaper)
                flat = np.asarray([p for c in chains for p in c[2]], dtype=float)
                lines_in, at = _split_flat(flat, lens, TIP / 3)
            else:
                lines_in, at = _split_many([np.asarray(c[2], dtype=float) for c in chains], TIP / 3)
            add_many([c[0] for c in chains], [c[1] for c in chains], lines_in, at)
        allc = np.concatenate(cand) + 0.0  # + 0.0: -0.0 and 0.0 are one point
        kind_all = np.concatenate(kinds)
        kind_all[: len(spots)] = spot_kind
        taken = np.flatnonzero(np.concatenate(takes))
        vertex = np.full(len(allc), -1, dtype=np.int64)
        first = np.zeros(0, dtype=np.int64)
        if len(taken):
            tc = allc[taken]
            order = np.lexsort((tc[:, 1], tc[:, 0]))  # stable: a group starts at its first
            sc = tc[order]
            new_group = np.r_[True, (sc[1:] != sc[:-1]).any(axis=1)]
            group = np.cumsum(new_group) - 1
            group_first = order[new_group]  # each group's first meeting (position in tc)
            rank = np.empty(len(group_first), dtype=np.int64)
            by_first = np.argsort(group_first)
            rank[by_first] = np.arange(len(group_first))
            vertex[taken[order]] = rank[group]
            first = taken[group_first[by_first]]
        self.spot_vertex = vertex[: len(spots)].tolist()
        # every constrained segment: its ends (vertex ids, in the chain's order) and its
        # owner (>= 0 a curve, else a kind): two points of one chain in a row, both taken
        line_of = np.full(len(allc) + 1, -1, dtype=np.int64)
        owner_of = np.asarray([ln[0] for ln in lines], dtype=np.int64)
        for i, (_, start, count) in enumerate(lines):
            line_of[start : start + count] = i
        taken_next = np.r_[vertex[1:] >= 0, False]
        same_line = (line_of[:-1] >= 0) & (line_of[:-1] == line_of[1:])
        at_seg = np.flatnonzero(same_line & (vertex >= 0) & taken_next)
        self.seg_a, self.seg_b = vertex[at_seg], vertex[at_seg + 1]
        self.seg_owner = owner_of[line_of[at_seg]]
        fixed = allc[first]
        # free points on a staggered grid, away from everything drawn
        tree = _tree(np.concatenate([fixed, _split_many(arrays, step / 4)[0]]))
        ys = np.arange(y0 + step / 2, y1, step * 0.866)
        xs = [np.arange(x0 + step / 2 + (step / 2) * odd, x1, step) for odd in (0, 1)]
        # rows alternate between the two sets of columns
        counts = np.where(np.arange(len(ys)) % 2 == 0, len(xs[0]), len(xs[1]))
        fx = np.tile(np.concatenate(xs), (len(ys) + 1) // 2)[: int(counts.sum())]
        fa = np.stack([fx, np.repeat(ys, counts)], axis=1)
        if len(fa):
            # far from every vertex, so each is a vertex of its own (the grid has no repeats)
            fa = fa[tree.query(fa, distance_upper_bound=0.6 * step + 1e-9)[0] > 0.6 * step]
            if part is not None:
                fa = fa[part.holds(fa)]
        self.part = part
        self.P = np.concatenate([fixed, fa])
        self.kind = np.concatenate([kind_all[first], np.full(len(fa), K_FILL, dtype=np.int64)])
        self.drawn = len(fixed) + len(fa)  # vertices before the gaps' middles (see _conform)
        self._conform()

    @cached_property
    def centres(self) -> np.ndarray:
        """Each triangle's centre of mass."""
        s = self.simplices
        arr: np.ndarray = (self.P[s[:, 0]] + self.P[s[:, 1]] + self.P[s[:, 2]]) / 3
        return arr

    def vertex_at(self, p: Point) -> int:
        """The vertex at exactly ``p`` among those placed before :meth:`_conform` (-1 for
        none)."""
        P = self.P[: self.drawn]
        hit = np.flatnonzero((P[:, 0] == p[0]) & (P[:, 1] == p[1]))
        return int(hit[0]) if len(hit) else -1

    def _conform(self) -> None:
        """Triangulate with every chain segment as a constrained edge; then add a free
        point in the middle of every gap between drawn things (an edge joining two drawn
        vertices), so that a bridge can run down a narrow passage with room for the curve
        on both sides of it."""
        a, b = self.seg_a, self.seg_b
        edges = np.stack([a, b], axis=1)
        lo, hi = np.minimum(a, b), np.maximum(a, b)
        n = len(self.P)
        first = _new_cdt(self.P, edges)
        keys = _cdt_edges(first, n)
        e = np.stack([keys // n, keys % n], axis=1)
        drawn = self.kind != K_FILL
        gap = e[drawn[e[:, 0]] & drawn[e[:, 1]] & ~_sorted_has(np.sort(lo * n + hi), keys)]
        gap = gap[np.hypot(*(self.P[gap[:, 0]] - self.P[gap[:, 1]]).T) > MEDIAL_FROM]
        if len(gap):
            mids = (self.P[gap[:, 0]] + self.P[gap[:, 1]]) / 2
            if self.part is not None:
                at = self.part.holds(mids)
                gap, mids = gap[at], mids[at]
            # Two gaps' middles can be one point, or a middle a vertex already there (drawn
            # points in a line): the triangulation refuses a repeated vertex.
            apart = _tree(self.P).query(mids, distance_upper_bound=SAME)[0] > SAME
            gap, mids = gap[apart], mids[apart]
            once = np.sort(np.unique(mids, axis=0, return_index=True)[1])
            gap, mids = gap[once], mids[once]
        if len(gap):
            self.P = np.concatenate([self.P, mids])
            self.kind = np.concatenate([self.kind, np.full(len(gap), K_FILL, dtype=np.int64)])
            # into the same triangulation: it comes out as if built anew with every point
            # numpy arrays are buffers, but their stubs do not say so before Python 3.12
            try:
                first.insert_vertices(np.ascontiguousarray(mids))  # type: ignore[call-overload]
            except RuntimeError as e:  # the triangulation's own checks: no mesh at this size
                raise _Fail(f"the gaps' middles: {e}") from e
            n = len(self.P)
        simp, nb = _cdt_read(first)
        side_key, keys = _edge_keys(simp, nb, n)
        if not _sorted_has(keys, lo * n + hi).all():  # a chain runs through a vertex
            raise _Fail("a curve is not an edge of the triangulation")
        self.simplices, self.neighbors = simp, nb
        self.side_key = side_key  # side k of each triangle (opposite vertex k) as a key


def _face(m: _Mesh, src: int) -> tuple[_Constraints, np.ndarray, np.ndarray]:
    """The constrained edges, which triangle sides they are, and the face: the triangles
    joined to ``src`` across unconstrained sides."""
    nb = m.neighbors
    n = len(m.P)
    # which triangle sides are constrained, and by which chain's segment
    a, b, owners = m.seg_a, m.seg_b, m.seg_owner
    keys = np.minimum(a, b) * n + np.maximum(a, b)
    # a side met twice keeps its last chain's segment
    order = np.argsort(keys, kind="stable")
    sk = keys[order]
    last = order[np.r_[sk[1:] != sk[:-1], True]]
    con = _Constraints(keys[last], owners[last], a[last], b[last])
    side_key = m.side_key
    blocked_side = _sorted_has(con.keys, side_key.ravel()).reshape(side_key.shape)
    open_side = (nb >= 0) & ~blocked_side
    t_open, k_open = np.nonzero(open_side)
    g = _csr(t_open, nb[t_open, k_open], np.ones(len(t_open)), len(nb))
    _, label = connected_components(g, directed=False)
    return con, blocked_side, label == label[src]


class _Constraints:
    """The constrained edges (as sorted keys ``low * n + high``) and the chain segment each
    lies on: its owner (a curve, else a vertex kind) and its ends in the chain's order."""

    def __init__(self, keys: np.ndarray, owners: np.ndarray, a: np.ndarray, b: np.ndarray):
        self.keys, self.owners, self.a, self.b = keys, owners, a, b

    def segments(self, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The owner and the ends of each of the constrained edges ``keys``."""
        i = np.searchsorted(self.keys, keys)
        return self.owners[i], self.a[i], self.b[i]


def _has(values: np.ndarray, among: frozenset[int]) -> np.ndarray:
    """Which of ``values`` are in ``among``."""
    return np.isin(values, np.fromiter(among, dtype=np.int64, count=len(among)))


def _sorted_has(keys: np.ndarray, q: np.ndarray) -> np.ndarray:
    """``np.isin(q, keys)`` for sorted ``keys`` (no sort of the two together)."""
    at = np.minimum(np.searchsorted(keys, q), max(len(keys) - 1, 0))
    return keys[at] == q if len(keys) else np.zeros(len(q), dtype=bool)


def _edge_keys(simp: np.ndarray, nb: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Each triangle side (side k opposite vertex k) as ``low * n + high``, and every edge
    once, sorted: a side is an edge's only copy when no triangle is across it or it is the
    lower-numbered triangle's side."""
    sa, sb = simp[:, [1, 2, 0]], simp[:, [2, 0, 1]]
    side_key = np.minimum(sa, sb) * n + np.maximum(sa, sb)
    own = (nb < 0) | (np.arange(len(simp))[:, None] < nb)
    return side_key, np.sort(side_key[own])


def _cdt_edges(t: Triangulation, n: int) -> np.ndarray:
    """The edges between the ``n`` points of the triangulation ``t`` as sorted keys ``low *
    n + high``, read before its enclosing super-triangle (vertices 0-2, the points follow)
    is erased (which costs more than reading): every such edge then has a triangle on each
    side, so it is once the side whose ends run low to high."""
    simp = t.triangles_array()["vertices"].astype(np.int64)
    sa, sb = simp.ravel(), simp[:, [1, 2, 0]].ravel()
    own = (sa < sb) & (sa >= 3)
    return np.sort((sa[own] - 3) * n + (sb[own] - 3))


def _new_cdt(points: np.ndarray, edges: np.ndarray) -> Triangulation:
    """The constrained Delaunay triangulation of ``points`` with ``edges`` as edges, inside
    its super-triangle."""
    t = Triangulation(VertexInsertionOrder.AUTO, IntersectingConstraintEdges.DONT_CHECK, 0.0)
    # numpy arrays are buffers, but their stubs do not say so before Python 3.12
    t.insert_vertices(np.ascontiguousarray(points, dtype=np.float64))  # type: ignore[call-overload]
    t.insert_edges(np.ascontiguousarray(edges, dtype=np.uint32))  # type: ignore[call-overload]
    return t


def _cdt_read(t: Triangulation) -> tuple[np.ndarray, np.ndarray]:
    """The triangles of :func:`_new_cdt`'s ``t`` (counter-clockwise vertex triples) and, for
    each, the triangle across the side opposite each vertex (-1 for none), as
    :class:`scipy.spatial.Delaunay` gives them."""
    t.erase_super_triangle()
    tris = t.triangles_array()
    simp = tris["vertices"].astype(np.int64)
    nb = tris["neighbors"].astype(np.int64)[:, [1, 2, 0]]  # CDT's side k is opposite k + 2
    nb[nb >= len(simp)] = -1
    return simp, nb


def _pt(p: np.ndarray) -> Point:
    return (float(p[0]), float(p[1]))


def _split_many(arrs: Sequence[np.ndarray], longest: float) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_split_long` of every polyline at once: the results end to end, and where
    each starts (one more: the end)."""
    lens = np.fromiter((len(a) for a in arrs), dtype=np.int64, count=len(arrs))
    if not len(arrs) or lens.min() < 2:
        outs = [_split_long(a, longest) for a in arrs]
        at = np.cumsum([0] + [len(o) for o in outs])
        return (np.concatenate(outs) if outs else np.zeros((0, 2))), at
    return _split_flat(np.concatenate(arrs), lens, longest)


def _split_flat(pts: np.ndarray, lens: np.ndarray, longest: float) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_split_many` of polylines given end to end (``lens``: their lengths, each at
    least 2)."""
    starts = np.cumsum(lens) - lens
    is_last = np.zeros(len(pts), dtype=bool)
    is_last[starts + lens - 1] = True
    si = np.flatnonzero(~is_last)  # where each segment starts
    seg = pts[si + 1] - pts[si]
    k = np.maximum(1, np.ceil(np.hypot(*seg.T) / longest).astype(int))
    # each polyline's first point, then k points along each of its segments
    cnt = np.zeros(len(pts), dtype=np.int64)
    cnt[starts] += 1
    cnt[si] += k
    base = np.cumsum(cnt) - cnt
    out = np.empty((int(cnt.sum()), 2))
    out[base[starts]] = pts[starts]
    is_start = np.zeros(len(pts), dtype=np.int64)
    is_start[starts] = 1
    idx = np.repeat(np.arange(len(si)), k)
    j = np.arange(len(idx)) - (np.cumsum(k) - k)[idx]
    t = (j + 1) / k[idx]
    out[(base[si] + is_start[si])[idx] + j] = pts[si][idx] + t[:, None] * seg[idx]
    return out, np.r_[base[starts], len(out)]


def _split_long(arr: np.ndarray, longest: float) -> np.ndarray:
    """The polyline with points added so that no segment is longer than ``longest``
    (every original point kept)."""
    if len(arr) < 2:
        return arr
    seg = arr[1:] - arr[:-1]
    k = np.maximum(1, np.ceil(np.hypot(*seg.T) / longest).astype(int))
    idx = np.repeat(np.arange(len(seg)), k)
    first = np.cumsum(k) - k
    t = (np.arange(len(idx)) - first[idx] + 1) / k[idx]
    return np.concatenate([arr[:1], arr[idx] + t[:, None] * seg[idx]])


def route_mesh(d: Drawing, req: Request) -> Route:
    """Route the move ``req`` on a triangulation; raises :class:`_Fail` when it finds no way."""
    return _MeshRouter(d, req).run()


class _MeshRouter:
    def __init__(self, d: Drawing, req: Request) -> None:
        self.d = d
        self.req = req
        segs = [np.stack([a[:-1], a[1:]], axis=1) for a in d.arrays]
        self.segs = np.concatenate(segs) if segs else np.zeros((0, 2, 2))
        self.seg_lo, self.seg_hi = self.segs.min(axis=1), self.segs.max(axis=1)
        self._stubs: dict[int, np.ndarray] = {}  # see _stubs_at
        self.ring_of: dict[int, float] = {}  # spot -> radius of its ring
        # where the chain of triangles passes through the one with room for the new spot:
        # its place in the chain and its centre (see _via)
        self.via: tuple[int, np.ndarray] | None = None
        self.window = None  # a bounded face is triangulated only round its outer edge
        if req.box is not None:
            mg = 2 * RING + 2 * MAX_SEG * d.width / WIDTH
            bx0, by0, bx1, by1 = req.box
            self.window = (bx0 - mg, by0 - mg, bx1 + mg, by1 + mg)
        face = _face_of(d, req.a, req.wedge_a)
        self.part = None if face is None else _Part(d, face)
        # the curves the route keeps its distance from: in a face, a curve beyond its edge is
        # never nearer than the edge (a straight line to it crosses the edge first)
        near = d.arrays if self.part is None else [d.arrays[e] for e in self.part.curves]
        self.curve_pts = _tree(_split_many(near, 2.0)[0]) if near else None
        spot_xy = np.asarray([(s.x, s.y) for s in d.spots], dtype=float).reshape(-1, 2)
        self.spot_pts = _tree(spot_xy)
        # the spots are points, not a polyline: only the curves are sampled along their length
        along = _split_many(d.arrays, 4.0)[0] if d.arrays else np.zeros((0, 2))
        self.obstacles = _tree(np.concatenate([spot_xy, along]))

    # -- the ends --------------------------------------------------------------------------

    def _directions(
        self, spot: int, wedge: tuple[float, float], toward: Point | None, spread: float = 0.0
    ) -> list[float]:
        """Directions a stub could leave ``spot`` by inside its wedge, best first: with room
        ahead, away from the wedge's sides, towards ``toward`` if given."""
        start, width = wedge
        x, y = self.d.place(spot)
        margin = min(math.radians(25), width / 3) + spread
        if width - 2 * margin <= 0:
            return [start + width / 2] if spread == 0 else []
        n = max(4, int(math.degrees(width - 2 * margin) / 8))
        ths = start + margin + (width - 2 * margin) * np.arange(n + 1) / n
        if width >= TAU:
            ths = ths[:-1]
        probe = np.stack([x + 2.5 * TIP * np.cos(ths), y + 2.5 * TIP * np.sin(ths)], axis=1)
        room = np.minimum(self.obstacles.query(probe, distance_upper_bound=4 * TIP)[0], 4 * TIP)
        score = room.copy()
        if width < TAU:
            score -= 0.25 * TIP * np.abs((ths - start) / width - 0.5)
        if toward is not None:
            score += 0.5 * TIP * np.cos(ths - math.atan2(toward[1] - y, toward[0] - x))
        return [float(t) for t in ths[np.argsort(-score)]]

    def _ray_ok(self, spot: int, th: float, length: float) -> bool:
        """Whether a straight stub from ``spot`` along ``th`` keeps clear of every curve but
        the stubs already at the spot (which it keeps an angle from) and of every spot."""
        d = self.d
        x, y = d.place(spot)
        for he in d.rotation[spot]:
            gap = (d.he_angle[he] - th) % TAU
            if min(gap, TAU - gap) < MIN_STUB_ANGLE:
                return False
        u = np.array([math.cos(th), math.sin(th)])
        c = np.array([x, y])
        p1 = c + length * u
        if not (0 < p1[0] < d.width and 0 < p1[1] < d.height):
            return False
        if len(self.segs):
            # only segments whose boxes come within the gap of the stub's box can be closer
            reach = 2 * MIN_GAP + 1e-6
            lo, hi = np.minimum(c, p1) - reach, np.maximum(c, p1) + reach
            near = (self.seg_hi >= lo).all(axis=1) & (self.seg_lo <= hi).all(axis=1)
            near &= ~self._stubs_at(spot)
            dist = _seg_dist_one(c, p1, self.segs[near])
            if len(dist) and dist.min() < 2 * MIN_GAP:
                return False
        spots = np.asarray([(s.x, s.y) for s in d.spots])
        ds = _point_seg(spots, c, p1)
        ds[spot - 1] = np.inf
        return bool(ds.min() >= SPOT_GAP + 2)

    def _stubs_at(self, spot: int) -> np.ndarray:
        """The segments lying on the straight stubs of the curves at ``spot``."""
        if spot in self._stubs:
            return self._stubs[spot]
        d = self.d
        _, _, first, last = _segments(d)
        runs = _stub_runs(d)
        out = np.zeros(len(self.segs), dtype=bool)
        for he in d.rotation[spot]:
            e = he >> 1
            if he % 2 == 0:
                out[first[e] : first[e] + runs[he]] = True
            else:
                out[last[e] - runs[he] + 1 : last[e] + 1] = True
        self._stubs[spot] = out
        return out

    def _near_curves(self, spot_xy: np.ndarray, within: float) -> np.ndarray:
        """For each spot, how far the nearest curve segment not on its own stubs is, where
        that is under ``within`` (else at least ``within``, maybe inf)."""
        out = np.full(len(spot_xy), np.inf)
        if not len(self.segs) or not len(spot_xy):
            return out
        d = self.d
        _, owner, first, last = _segments(d)
        a, b = self.segs[:, 0], self.segs[:, 1]
        reach = float(np.hypot(*(b - a).T).max()) / 2 + within + 1e-6
        got = cKDTree(spot_xy).sparse_distance_matrix(
            cKDTree((a + b) / 2), reach, output_type="ndarray"
        )
        si, k = got["i"].astype(np.int64), got["j"].astype(np.int64)
        # segments on a straight stub of the spot (see _stubs_at) do not count
        runs = np.asarray(_stub_runs(d), dtype=np.int64).reshape(-1, 2)
        ends = np.asarray([(c.a, c.b) for c in d.curves], dtype=np.int64)
        e = owner[k]
        spot = si + 1
        stub = ((ends[e, 0] == spot) & (k - first[e] < runs[e, 0])) | (
            (ends[e, 1] == spot) & (last[e] - k < runs[e, 1])
        )
        si, k = si[~stub], k[~stub]
        dist = _point_seg_many(spot_xy[si], a[k], b[k])
        np.minimum.at(out, si, dist)
        return out

    def _rings(
        self, new: dict[int, list[float]], extra: Sequence[tuple[tuple[int, ...], list[Point]]]
    ) -> list[tuple[int, int, list[Point]]]:
        """A ring of constrained arcs round every spot, between the curves leaving it (and
        the new stubs ``new``), so that the new curve keeps its distance from spots."""
        d = self.d
        out: list[tuple[int, int, list[Point]]] = []
        pieces = d.pieces
        self.ring_of = {}
        spot_xy = np.asarray([(s.x, s.y) for s in d.spots])
        near_curve = self._near_curves(spot_xy, RING + 2 * MIN_GAP)
        apart = np.hypot(*(spot_xy[:, None, :] - spot_xy[None, :, :]).transpose(2, 0, 1))
        np.fill_diagonal(apart, np.inf)
        nearest = apart.min(axis=1) if len(spot_xy) else apart
        # each spot's distance from each extra line (its own lines do not count)
        near_extra = []
        for ends, line in extra:
            arr = np.asarray(line)
            dist = _points_segs(spot_xy, arr[:-1], arr[1:]).min(axis=1)
            dist[[e - 1 for e in ends]] = np.inf
            near_extra.append(dist.tolist())
        for s in d.spots:
            if self.part is not None and not self.part.spots[s.number - 1]:
                continue  # its ring lies in the faces at its corners, none the route's
            rho = min(RING, near_curve[s.number - 1] - 2 * MIN_GAP)
            rho = min(rho, float(nearest[s.number - 1]) / 2 - MIN_GAP)
            for dist in near_extra:
                if dist[s.number - 1] != np.inf:
                    rho = min(rho, dist[s.number - 1] - 2 * MIN_GAP)
            if rho < 0.6 * SPOT_GAP:
                continue
            self.ring_of[s.number] = rho
            angs = sorted(
                [d.he_angle[he] % TAU for he in d.rotation[s.number]]
                + [a % TAU for a in new.get(s.number, [])]
            )
            if not angs:
                arcs = [(0.0, TAU, True)]
            else:
                nxt = [*angs[1:], angs[0] + TAU]
                arcs = [(a + RING_GAP, b - RING_GAP, False) for a, b in zip(angs, nxt, strict=True)]
            for lo, hi, closed in arcs:
                if hi - lo <= 0.05:
                    continue
                k = max(2, math.ceil((hi - lo) * rho / 4.0))
                th = np.linspace(lo, hi, k + 1)
                if closed:
                    th = th[:-1]
                pts = _tips((s.x, s.y), th, rho)
                if closed:
                    pts.append(pts[0])
                out.append((K_RING, pieces[s.number - 1], pts))
        return out

    def _pick(self, spot: int, wedge: tuple[float, float], toward: Point | None) -> float:
        for th in self._directions(spot, wedge, toward):
            if self._ray_ok(spot, th, TIP):
                return th
        raise _Fail(f"no room to leave spot {spot}")

    # -- the whole route ---------------------------------------------------------------------

    def run(self) -> Route:
        return self._finish(*self._mesh())

    def _mesh(self) -> tuple[_Mesh, Point, Point, Point, Point, float, float]:
        """The mesh with the new curve's stubs, their spots, tips and directions."""
        req, d = self.req, self.d
        pa, pb = d.place(req.a), d.place(req.b)
        if req.kind == "loop":
            return self._loop(pa)
        th_a = self._pick(req.a, req.wedge_a, pb)
        th_b = self._pick(req.b, req.wedge_b, pa)
        ta, tb = _tip(pa, th_a, TIP), _tip(pb, th_b, TIP)
        ends = [(K_END, K_END, [pa, ta]), (K_END, K_END, [pb, tb])]
        stubs = [((req.a,), [pa, ta]), ((req.b,), [pb, tb])]
        m = _Mesh(
            d, ends + self._rings({req.a: [th_a], req.b: [th_b]}, stubs), self.window, self.part
        )
        return m, pa, pb, ta, tb, th_a, th_b

    def _loop(self, pa: Point) -> tuple[_Mesh, Point, Point, Point, Point, float, float]:
        req = self.req
        d = self.d
        target = None
        if req.side1:
            pieces = d.pieces
            pts = [(s.x, s.y) for s in d.spots if pieces[s.number - 1] in req.side1]
            target = (sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts))
        for mid in self._directions(req.a, req.wedge_a, target, LOOP_SPREAD):
            th_a, th_b = mid - LOOP_SPREAD, mid + LOOP_SPREAD
            if all(self._ray_ok(req.a, t, TIP) for t in (th_a, th_b)) and self._ray_ok(
                req.a, mid, 2 * TIP
            ):
                break
        else:
            raise _Fail("no room for the loop")
        ta, tb = _tip(pa, th_a, TIP), _tip(pa, th_b, TIP)
        self.th_a, self.th_b = th_a, th_b
        tongue = _tip(pa, mid, 2 * TIP)
        ends = [(K_END, K_END, [pa, ta]), (K_END, K_END, [pa, tb])]
        ends.append((K_TONGUE, K_TONGUE, [pa, tongue]))
        lines = [((req.a,), [pa, p]) for p in (ta, tb, tongue)]
        m = _Mesh(d, ends + self._rings({req.a: [th_a, th_b, mid]}, lines), self.window, self.part)
        return m, pa, pa, ta, tb, th_a, th_b

    def _finish(
        self, m: _Mesh, pa: Point, pb: Point, ta: Point, tb: Point, th_a: float, th_b: float
    ) -> Route:
        req = self.req
        src = self._locate(m, ta, th_a)
        dst = self._locate(m, tb, th_b)
        con, blocked_side, face = _face(m, src)
        side_key = m.side_key
        open_side = (m.neighbors >= 0) & ~blocked_side
        if not face[dst]:
            raise _Fail("the two corners are not in one face")
        in_rings = self._in_rings(m)
        in_f = face & ~in_rings
        if not (in_f[src] and in_f[dst]):
            raise _Fail("an end is inside a spot's ring")
        if req.kind != "merge":
            walls = self._bridges(m, in_f, con, side_key, blocked_side)
            open_side &= ~_sorted_has(np.sort(walls), side_key.ravel()).reshape(side_key.shape)
        portals = self._path(m, in_f, src, dst, open_side)
        room = np.full(len(portals), CLEAR)
        apart = False
        while True:
            body = self._smooth(m, portals, room, apart)
            line = _thin(np.concatenate([[ta], body, [tb]]), MIN_SPACING)
            if not apart and _comes_back(line, (pa, pb)):
                apart = True  # see _smooth
                continue
            try:
                return self._place_spot(m, in_f | in_rings, np.concatenate([[pa], line, [pb]]))
            except _Fail:
                # the smoothed curve cut past the room the chain went through for the new
                # spot (the inside of a bend): again, crossing the portals near that
                # triangle where the spot keeps its gap from curves if it can
                near = self._near_via(m, portals)
                if not near.any() or (room[near] > CLEAR).all():
                    raise
                room[near] = SPOT_GAP + 2

    def _in_rings(self, m: _Mesh) -> np.ndarray:
        """Triangles inside the ring round a spot (never routed through)."""
        cen = m.centres
        if not self.ring_of:
            return np.zeros(len(cen), dtype=bool)
        spots = list(self.ring_of)
        xy = np.asarray([self.d.place(s) for s in spots])
        rho = np.asarray([self.ring_of[s] for s in spots])
        # a centre further than the largest ring from every spot is in none (inf, k = len)
        dist, k = cKDTree(xy).query(cen, distance_upper_bound=float(rho.max()))
        arr: np.ndarray = dist < rho[np.minimum(k, len(rho) - 1)] - 0.05
        return arr

    def _clearance(self, pts: np.ndarray, upto: float = FAR) -> np.ndarray:
        """How far each point is from the curves and from the spots' keep-off discs, up to
        ``upto`` (exact below it, at least it above it; every use caps it lower than
        :data:`FAR`, and the capped search prunes most of the tree)."""
        gap = SPOT_GAP - MIN_GAP
        out = self.spot_pts.query(pts, distance_upper_bound=upto + gap)[0] - gap
        if self.curve_pts is not None:
            out = np.minimum(out, self.curve_pts.query(pts, distance_upper_bound=upto)[0])
        arr: np.ndarray = np.minimum(out, upto)
        return arr

    def _locate(self, m: _Mesh, tip: Point, th: float) -> int:
        """The triangle at the stub's tip that the curve goes on into."""
        q = np.array([tip[0] + 0.1 * math.cos(th), tip[1] + 0.1 * math.sin(th)])
        v = m.vertex_at(tip)
        cand = np.arange(len(m.simplices))
        if v >= 0:
            cand = np.nonzero((m.simplices == v).any(axis=1))[0]
        t = _containing(m, cand, q[None, :])[0]
        if t < 0:
            raise _Fail("a stub leaves the paper")
        return int(t)

    # -- bridges -----------------------------------------------------------------------------

    def _bridges(
        self,
        m: _Mesh,
        in_f: np.ndarray,
        con: _Constraints,
        side_key: np.ndarray,
        blocked_side: np.ndarray,
    ) -> np.ndarray:
        """Walls (triangle edges, as keys) from each other boundary of the face to the part
        of the structure on its side, through free vertices only."""
        req, d = self.req, self.d
        simp = m.simplices
        kind = m.kind
        nv = len(kind)
        # the face's open edges
        tt, kk = np.nonzero(in_f[:, None] & ~blocked_side)
        u = simp[tt, (kk + 1) % 3]
        v = simp[tt, (kk + 2) % 3]
        length = np.hypot(*(m.P[u] - m.P[v]).T)
        # the graph of these edges in CSR order, once (as _csr builds it)
        by = np.lexsort((v, u))
        u_s, v_s, length_s = u[by], v[by], length[by] + 1e-9
        indptr = np.searchsorted(u_s, np.arange(nv + 1))
        free = kind == K_FILL
        # anchors: vertices any edge from which starts on that side; seed edges: edges from a
        # vertex of the walk's arc into the face on that arc's side
        anchors = {1: np.zeros(nv, dtype=bool), 2: np.zeros(nv, dtype=bool)}
        seed_edges: dict[int, list[tuple[int, int]]] = {1: [], 2: []}
        ends = np.isin(kind, (K_END, K_TONGUE))
        ends[m.spot_vertex[req.a - 1]] = True
        ends[m.spot_vertex[req.b - 1]] = True
        tt, kk = np.nonzero(blocked_side & in_f[:, None])
        owner, p, q = con.segments(side_key[tt, kk])
        opp = simp[tt, kk]  # the vertex across each side, in the face
        (x0, y0), (x1, y1), (xr, yr) = m.P[p].T, m.P[q].T, m.P[opp].T
        left = (x1 - x0) * (yr - y0) - (y1 - y0) * (xr - x0) > 0
        he = np.where(left, 2 * owner, 2 * owner + 1)
        side = np.where(_has(he, req.arc1), 1, np.where(_has(he, req.arc2), 2, 0))
        side[(owner < 0) | ends[opp]] = 0
        # in order: (p, opp) then (q, opp) for each side met, each when p (or q) is no end
        a_s, r_s = np.stack([p, q], axis=1).ravel(), np.repeat(opp, 2)
        side_s = np.repeat(side, 2)
        keep = (side_s > 0) & ~ends[a_s]
        for s_ in (1, 2):
            at = keep & (side_s == s_)
            seed_edges[s_] = list(zip(a_s[at].tolist(), r_s[at].tolist(), strict=True))
        if req.kind == "loop":
            x, y = d.place(req.a)
            rel = m.P - (x, y)
            ang = (np.arctan2(rel[:, 1], rel[:, 0]) - self.th_a) % TAU
            inner = (np.hypot(*rel.T) <= RING + 0.5) & (ang < (self.th_b - self.th_a) % TAU)
            anchors[1] = (kind == K_TONGUE) & (np.hypot(*rel.T) > RING)
            anchors[2] = (kind == req.piece) & ~inner & ~ends
        owner_of = kind
        pending: dict[int, list[int]] = {1: list(req.side1), 2: list(req.side2)}
        if req.frame_side:
            pending[req.frame_side].append(FRAME_PIECE)
        walls: dict[int, set[tuple[int, int]]] = {1: set(), 2: set()}
        on_wall = {1: np.zeros(nv, dtype=bool), 2: np.zeros(nv, dtype=bool)}
        turn = 1
        while pending[1] or pending[2]:
            if not pending[turn]:
                turn = 3 - turn
            other = 3 - turn
            passable = free & ~on_wall[other]
            start = anchors[turn] | on_wall[turn]
            # entries: (anchor, free vertex) pairs; direct: (anchor, hole vertex)
            # (each vertex's first entry, in the order met; the first direct pair met)
            seeds = np.asarray(seed_edges[turn], dtype=np.int64).reshape(-1, 2)
            su, sv = start[u], start[v]
            pa_ = np.concatenate([seeds[:, 0], u[su], v[sv]])
            pr_ = np.concatenate([seeds[:, 1], v[su], u[sv]])
            goes = passable[pr_]
            _, first_in = np.unique(pr_[goes], return_index=True)
            first_in.sort()
            entry = dict(
                zip(pr_[goes][first_in].tolist(), pa_[goes][first_in].tolist(), strict=True)
            )
            hole = ~goes & np.isin(owner_of[pr_], pending[turn]) & ~ends[pr_]
            if hole.any():
                i = int(np.argmax(hole))
                a, r, k = int(pa_[i]), int(pr_[i]), int(owner_of[pr_[i]])
                path_edges = [(a, r)]
            else:
                if not entry:
                    raise _Fail("a side has nothing to hold on to")
                # the edges between passable vertices: the others cost inf (never taken)
                cost = np.where(passable[u_s] & passable[v_s], length_s, np.inf)
                g = csr_matrix((cost, v_s, indptr), shape=(nv, nv))
                sources = np.fromiter(entry.keys(), dtype=np.int64)
                dist, pred, _ = dijkstra(
                    g, directed=False, indices=sources, min_only=True, return_predecessors=True
                )
                best: tuple[float, int, int, int] | None = None
                for x_, y_ in ((u, v), (v, u)):
                    hit = passable[x_] & np.isin(owner_of[y_], pending[turn]) & ~ends[y_]
                    hit &= np.isfinite(dist[x_])
                    if hit.any():
                        i = int(np.argmin(np.where(hit, dist[x_], np.inf)))
                        if best is None or dist[x_[i]] < best[0]:
                            best = (
                                float(dist[x_[i]]),
                                int(x_[i]),
                                int(y_[i]),
                                int(owner_of[y_[i]]),
                            )
                if best is None:
                    raise _Fail("a piece cannot be bridged to its side")
                _, last, hole_v, k = best
                chain = _path_to(pred, last)
                path_edges = [(entry[chain[0]], chain[0])]
                path_edges += list(itertools.pairwise(chain))
                path_edges.append((last, hole_v))
            for a, b in path_edges:
                walls[turn].add((min(a, b), max(a, b)))
                for w in (a, b):
                    if free[w]:
                        on_wall[turn][w] = True
            pending[turn].remove(k)
            anchors[turn] |= owner_of == k
            turn = other
        keys = [a * nv + b for s_ in (1, 2) for a, b in walls[s_]]
        return np.asarray(keys, dtype=np.int64)

    # -- the path ----------------------------------------------------------------------------

    def _path(
        self, m: _Mesh, allowed: np.ndarray, src: int, dst: int, open_side: np.ndarray
    ) -> list[tuple[int, int]]:
        simp, nb = m.simplices, m.neighbors
        ok = open_side & allowed[:, None] & allowed[np.maximum(nb, 0)]
        a_t, k = np.nonzero(ok)
        b_t = nb[a_t, k]
        p = simp[a_t, (k + 1) % 3]
        q = simp[a_t, (k + 2) % 3]
        length = np.hypot(*(m.P[p] - m.P[q]).T)
        cen = m.centres
        step = np.hypot(*(cen[a_t] - cen[b_t]).T)
        need = _want(m, p) + _want(m, q)
        w = step * (1 + (NARROW / np.maximum(length, 1e-6)) ** 2) + 1e-9
        w = np.where(length < need, w * 1e4, w)
        nt = len(simp)
        dist, pred = dijkstra(
            _csr(a_t, b_t, w, nt), directed=True, indices=[src, dst], return_predecessors=True
        )
        da, db = dist
        if not np.isfinite(da[dst]):
            raise _Fail("no path")
        chain = self._via(m, cen, da, db, pred[0], pred[1], allowed, dst)
        # the side each step crosses (side k of t0 is across from its vertex k), its ends in
        # t0's order
        t0, t1 = np.asarray(chain[:-1], dtype=np.int64), np.asarray(chain[1:], dtype=np.int64)
        k = np.argmax(nb[t0] == t1[:, None], axis=1)
        lo = np.where(k == 0, 1, 0)
        hi = np.where(k == 2, 1, 2)
        return list(zip(simp[t0, lo].tolist(), simp[t0, hi].tolist(), strict=True))

    def _via(
        self,
        m: _Mesh,
        cen: np.ndarray,
        da: np.ndarray,
        db: np.ndarray,
        pa: np.ndarray,
        pb: np.ndarray,
        allowed: np.ndarray,
        dst: int,
    ) -> list[int]:
        """The cheapest chain through a triangle with room for the new spot (away from the
        ends), near the middle; the chain from each end to it must not meet."""
        ok = allowed & np.isfinite(da) & np.isfinite(db)
        ends = np.asarray([self.d.place(self.req.a), self.d.place(self.req.b)])
        far = np.min(np.hypot(*(cen[:, None, :] - ends[None]).transpose(2, 0, 1)), axis=1)
        ok &= far >= 2 * SPOT_GAP + STUB
        cand = np.flatnonzero(ok)
        with np.errstate(invalid="ignore"):
            cost = (da + db + 0.5 * np.abs(da - db))[cand]
        for v in itertools.islice(self._by_score(cen, cand, cost), 30):
            one = _path_to(pa, v)
            two = _path_to(pb, v)[::-1]
            if len(set(one) & set(two)) == 1:
                self.via = (len(one) - 1, cen[v])
                return one + two[1:]
        self.via = None
        return _path_to(pa, dst)

    def _by_score(self, cen: np.ndarray, cand: np.ndarray, cost: np.ndarray) -> Iterator[int]:
        """The triangles ``cand`` with room for the new spot, best first by ``cost`` less
        :data:`VIA_PULL` times their room (at most ``3 * TIP``). The room is measured
        only as far down the list by cost as can still matter: a triangle costing more
        than ``c + VIA_PULL * 3 * TIP`` never comes before one whose score is below ``c``."""
        order = np.argsort(cost, kind="stable")
        cand, cost = cand[order], cost[order]
        reach = VIA_PULL * 3 * TIP
        heap: list[tuple[float, int]] = []
        done = 0
        while True:
            bound = cost[done] - reach if done < len(cand) else np.inf
            if heap and heap[0][0] < bound:
                yield heapq.heappop(heap)[1]
            elif done < len(cand):
                upto = max(done + 1, int(np.searchsorted(cost, cost[done] + reach, "right")))
                room = np.minimum(self._clearance(cen[cand[done:upto]]), 3 * TIP)
                score = cost[done:upto] - VIA_PULL * room
                for sc, v, r in zip(score.tolist(), cand[done:upto].tolist(), room, strict=True):
                    if r >= SPOT_GAP + 1:
                        heapq.heappush(heap, (sc, v))
                done = upto
            elif heap:
                yield heapq.heappop(heap)[1]
            else:
                return

    def _near_via(self, m: _Mesh, portals: list[tuple[int, int]]) -> np.ndarray:
        """The portals next to the triangle :meth:`_via` chose for the new spot, a run of
        them along the chain (the straight stubs on both sides of the spot are
        :data:`TIP` long)."""
        near = np.zeros(len(portals), dtype=bool)
        if self.via is None or not portals:
            return near
        at, c = self.via
        pv = np.asarray(portals)
        close = np.hypot(*((m.P[pv[:, 0]] + m.P[pv[:, 1]]) / 2 - c).T) <= TIP
        k = min(max(at - 1, 0), len(portals) - 1)  # the portal into that triangle
        lo, hi = k, min(k + 1, len(portals) - 1)
        while lo > 0 and close[lo - 1]:
            lo -= 1
        while hi < len(portals) - 1 and close[hi + 1]:
            hi += 1
        near[lo : hi + 1] = True
        return near

    def _smooth(
        self,
        m: _Mesh,
        portals: list[tuple[int, int]],
        room: np.ndarray | None = None,
        apart: bool = False,
    ) -> np.ndarray:
        """One point on each portal, slid along it towards the average of its neighbours,
        never closer to a drawn vertex than the clearance it wants (``room``, else
        :data:`CLEAR`, from curves and spots) unless the portal is too short (then where
        it is clearest); with ``apart`` also as far from a vertex the chain passes twice."""
        if not portals:
            return np.zeros((0, 2))
        pv = np.asarray(portals)
        p0, p1 = m.P[pv[:, 0]], m.P[pv[:, 1]]
        d = p1 - p0
        # where along each portal the curve keeps its distance from curves and spots
        ts = np.linspace(0.02, 0.98, 17)
        # ... and from a vertex it passes twice (a loop out and back down one passage, on
        # both sides of its middle points), which would pull both passes onto it
        length = np.hypot(*d.T)[:, None]
        twice = _passed_twice(pv) if apart else np.zeros(pv.shape, dtype=bool)
        cap = np.full((len(pv), len(ts)), np.inf)
        cap = np.where(twice[:, :1], np.minimum(cap, ts * length), cap)
        cap = np.where(twice[:, 1:], np.minimum(cap, (1 - ts) * length), cap)
        need = np.full((len(pv), 1), CLEAR) if room is None else room[:, None]
        clr = self._portal_clearance(m, pv, ts, cap, need)
        ok = clr >= need
        best = ts[np.argmax(clr, axis=1)]
        first_ok = np.where(ok.any(axis=1), ts[np.argmax(ok, axis=1)], best)
        last_ok = np.where(ok.any(axis=1), ts[len(ts) - 1 - np.argmax(ok[:, ::-1], axis=1)], best)
        lo, hi = first_ok, np.maximum(first_ok, last_ok)
        arr: np.ndarray = p0 + _slide(p0, d, lo, hi)[:, None] * d
        return arr

    def _portal_clearance(
        self, m: _Mesh, pv: np.ndarray, ts: np.ndarray, cap: np.ndarray, need: np.ndarray
    ) -> np.ndarray:
        """:meth:`_clearance` up to ``need`` (one for each portal), capped at ``cap``, at
        the points ``ts`` along each portal ``pv``, as far as :meth:`_smooth` reads it:
        exact on a portal where no point reaches its need, else only whether each does.
        The clearance moves no faster than the point (1-Lipschitz), so from its value at
        the portal's ends most points are known to be under the need (near a curve's
        vertex) or at it without a search; only the rest are searched (and on a portal
        none reaches, those that could be its largest)."""
        ends, inv = np.unique(pv, return_inverse=True)
        c = self._clearance(m.P[ends]).reshape(-1)[inv.reshape(pv.shape)]
        p0, d = m.P[pv[:, 0]], m.P[pv[:, 1]] - m.P[pv[:, 0]]
        x0 = ts[None, :] * np.hypot(*d.T)[:, None]  # how far each point is from each end
        x1 = np.hypot(*d.T)[:, None] - x0
        c0, c1 = c[:, :1], c[:, 1:]
        low = np.minimum(np.maximum(c0 - x0, c1 - x1), cap)
        high = np.minimum(np.minimum(c0 + x0, c1 + x1), cap)
        eps = 1e-6  # far beyond the rounding of either side
        clr = np.where(low >= need + eps, need, np.nan)
        upto = float(need.max()) if len(need) else CLEAR  # CLEAR but near the new spot

        def search(where: np.ndarray) -> None:
            i, k = np.nonzero(where)
            at = p0[i] + ts[k, None] * d[i]
            got = self._clearance(at, upto)
            clr[i, k] = np.minimum(np.minimum(got, need[i, 0]), cap[i, k])

        search(np.isnan(clr) & (high >= need - eps))
        # on a portal where no point reaches its need only the largest counts: the point whose
        # bound is highest first, then every point whose bound is not below what it found
        none = ~np.any(clr >= need, axis=1)
        top = np.argmax(np.where(np.isnan(clr), high, -np.inf), axis=1)
        first = np.zeros(clr.shape, dtype=bool)
        first[np.arange(len(clr)), top] = none
        search(first & np.isnan(clr))
        found = np.nanmax(np.where(none[:, None], clr, -np.inf), axis=1)
        search(np.isnan(clr) & none[:, None] & (high >= found[:, None] - eps))
        return np.where(np.isnan(clr), -np.inf, clr)  # under what was found or the need

    # -- the new spot ------------------------------------------------------------------------

    # Not split (C901): the router's spot placing: its candidate checks.
    def _place_spot(self, m: _Mesh, face: np.ndarray, line: np.ndarray) -> Route:  # noqa: C901
        """Put the new spot on the curve ``line`` (from spot to spot, end stubs included)
        where there is room, with straight stubs on both sides of it; the end stubs stay
        straight for at least :data:`STUB`. The places tried are 41 spread evenly along the
        curve, then (when none fits) every place where the spot keeps its gaps and is at
        least ``SPOT_APART / 2`` from other spots."""
        line = _dedupe_arr(line)
        pa, pb = _pt(line[0]), _pt(line[-1])
        arc = np.concatenate([[0.0], np.cumsum(np.hypot(*np.diff(line, axis=0).T))])
        total = arc[-1]
        keep = STUB + 0.3  # straight run each stub needs
        half = min(TIP, (total - 2 * keep) / 2)
        if half < keep:
            raise _Fail("no room for the new spot")
        spots = np.asarray([(s.x, s.y) for s in self.d.spots])
        face_t = np.flatnonzero(face)
        c0, c1, c2 = (m.P[m.simplices[face_t, k]] for k in range(3))
        t_lo, t_hi = np.minimum(np.minimum(c0, c1), c2), np.maximum(np.maximum(c0, c1), c2)

        def score(cands: np.ndarray) -> np.ndarray:
            """Room round each place, distance from other spots (a spot's disc on the picture
            is ~24 units), nearness to the middle of the curve: higher is better."""
            at = np.stack([np.interp(cands, arc, line[:, 0]), np.interp(cands, arc, line[:, 1])], 1)
            room = self.obstacles.query(at, distance_upper_bound=3 * TIP)[0]
            apart = self.spot_pts.query(at, distance_upper_bound=SPOT_APART)[0]
            got = np.minimum(room, 3 * TIP) + 0.5 * np.minimum(apart, SPOT_APART)
            arr: np.ndarray = got - 0.15 * np.abs(cands - total / 2)
            return arr

        def spot_at(s: float) -> Route | None:
            """The route with the new spot ``s`` along the curve, if it fits there."""
            c = _at(line, arc, s)
            p0, p1 = _at(line, arc, s - half), _at(line, arc, s + half)
            u, v = p0 - c, p1 - c
            if min(np.hypot(*u), np.hypot(*v)) < keep:
                return None
            cosang = float(u @ v) / max(float(np.hypot(*u) * np.hypot(*v)), 1e-9)
            if cosang > math.cos(math.radians(40)):
                return None
            if len(spots) and np.min(np.hypot(*(spots - c).T)) < 2 * SPOT_GAP + 1:
                return None
            near = (
                self.curve_pts is not None
                and self.curve_pts.query(c, distance_upper_bound=SPOT_GAP + 1.5)[0] < SPOT_GAP + 1.5
            )
            if near:
                return None
            probe = np.concatenate([_sample(p0, c), _sample(c, p1)])
            p_lo, p_hi = probe.min(axis=0), probe.max(axis=0)
            near = face_t[((t_lo <= p_hi) & (t_hi >= p_lo)).all(axis=1)]  # boxes overlap
            if np.any(_containing(m, near, probe) < 0):
                return None
            before = line[arc < s - half - 1e-6]
            after = line[arc > s + half + 1e-6]
            step = 6.0 * self.d.width / WIDTH
            first = _finish_line(np.concatenate([before, [p0, c]]), step)
            second = _finish_line(np.concatenate([[c, p1], after]), step)
            cx, cy = round(float(c[0]), 1), round(float(c[1]), 1)
            first[0], first[-1] = pa, (cx, cy)
            second[0], second[-1] = (cx, cy), pb
            return Route((cx, cy), _tuple(first), _tuple(second))

        cands = np.linspace(keep + half, total - keep - half, 41)
        for s in cands[np.argsort(-score(cands))][:25]:
            if (route := spot_at(float(s))) is not None:
                return route
        # None of those fits: on a long curve down narrow passages the places with room are
        # short stretches that 41 evenly spaced places miss (then the whole route was tried
        # again on enlarged paper). Every place along the curve where the spot keeps its
        # gaps, best first, a few apart; and SPOT_APART / 2 from other spots (as far as the
        # tidy step keeps spots of a big game: on enlarged paper, where the tidy has room to
        # spread them, they end further apart than when placed closer here).
        cands = np.arange(keep + half, total - keep - half, 1.0)
        at = np.stack([np.interp(cands, arc, line[:, 0]), np.interp(cands, arc, line[:, 1])], 1)
        fits = self.spot_pts.query(at, distance_upper_bound=SPOT_APART / 2)[0] >= SPOT_APART / 2
        if self.curve_pts is not None:
            gap = SPOT_GAP + 1.5
            fits &= self.curve_pts.query(at, distance_upper_bound=gap)[0] >= gap
        cands = cands[fits]
        tried: list[float] = []
        for s in cands[np.argsort(-score(cands), kind="stable")].tolist():
            if len(tried) == SPOT_TRIES:
                break
            if any(abs(s - t) < SPOT_APART_TRIES for t in tried):
                continue
            tried.append(s)
            if (route := spot_at(s)) is not None:
                return route
        raise _Fail("no room for the new spot")


def _comes_back(line: np.ndarray, ends: tuple[Point, Point]) -> bool:
    """Whether the curve comes back within ``2 * MIN_GAP`` of itself (two points further
    apart along it than four times that, away from its end spots): a loop out and back
    down one passage, both passes pulled onto the middle points between them."""
    near = 2 * MIN_GAP
    pairs = cKDTree(line).query_pairs(near, output_type="ndarray")
    if not len(pairs):
        return False
    arc = np.concatenate([[0.0], np.cumsum(np.hypot(*np.diff(line, axis=0).T))])
    i, j = pairs[:, 0], pairs[:, 1]
    from_ends = np.min([np.hypot(*(line - e).T) for e in ends], axis=0)
    away = (from_ends[i] > RING + TIP) & (from_ends[j] > RING + TIP)
    return bool((away & (np.abs(arc[j] - arc[i]) > 4 * near)).any())


def _passed_twice(pv: np.ndarray) -> np.ndarray:
    """For each end of each portal (a chain's crossings in order), whether the chain passes
    that vertex at two places: the portals ending at it are not one run in a row (a run is
    the chain turning round it)."""
    v = pv.ravel()
    at = np.repeat(np.arange(len(pv)), 2)
    _, inv, count = np.unique(v, return_inverse=True, return_counts=True)
    lo = np.full(len(count), len(pv))
    hi = np.zeros(len(count), dtype=np.int64)
    np.minimum.at(lo, inv, at)
    np.maximum.at(hi, inv, at)
    arr: np.ndarray = (hi - lo + 1 > count)[inv].reshape(pv.shape)
    return arr


def _slide(p0: np.ndarray, d: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Where on each portal ``p0[i] + t * d[i]`` (``lo[i] <= t <= hi[i]``) the curve
    crosses: 80 times, each ``t`` moves halfway to where the middle of its neighbours'
    points projects on its portal (an end's neighbour on the outside is itself). The
    projection is linear in the neighbours' ``t``: ``c + a * t[left] + b * t[right]``,
    worked out once rather than through the points at every step."""
    n = len(p0)
    length2 = np.maximum(np.hypot(*d.T), 1e-9) ** 2
    left, right = np.maximum(np.arange(n) - 1, 0), np.minimum(np.arange(n) + 1, n - 1)
    c = np.einsum("ij,ij->i", (p0[left] + p0[right]) / 2 - p0, d) / length2
    a = np.einsum("ij,ij->i", d[left], d) / length2
    b = np.einsum("ij,ij->i", d[right], d) / length2
    c, a, b = 0.5 * c, 0.25 * a, 0.25 * b  # halfway, and the middle of two
    t = np.clip(0.5, lo, hi)
    for _ in range(80):
        t = np.clip(0.5 * t + c + a * t[left] + b * t[right], lo, hi)
    arr: np.ndarray = t
    return arr


def _csr(rows: np.ndarray, cols: np.ndarray, weights: np.ndarray, n: int) -> csr_matrix:
    """The ``n`` by ``n`` graph with these arcs (no two alike) in CSR form, built without the
    detour through coordinates. Arcs given row by row (as :func:`numpy.nonzero` lists the
    sides of triangles) keep their order: the graph is the same, only the columns within
    a row are not sorted (which costs twenty times more than the rest)."""
    if len(rows) and not np.all(rows[:-1] <= rows[1:]):
        order = np.lexsort((cols, rows))
        rows, cols, weights = rows[order], cols[order], weights[order]
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(rows, minlength=n), out=indptr[1:])
    return csr_matrix((weights, cols, indptr), shape=(n, n))


def _tree(pts: np.ndarray) -> cKDTree:
    """A tree for nearest distances only (unbalanced, which builds in half the time and
    finds the same distances)."""
    return cKDTree(pts, balanced_tree=False, compact_nodes=False)


def _path_to(pred: np.ndarray, target: int) -> list[int]:
    out = [target]
    while pred[out[-1]] >= 0:
        out.append(int(pred[out[-1]]))
    return out[::-1]


def _tip(p: Point, th: float, r: float) -> Point:
    return (round(p[0] + r * math.cos(th), 1), round(p[1] + r * math.sin(th), 1))


def _tips(p: Point, th: np.ndarray, r: float) -> list[Point]:
    """:func:`_tip` for each direction of ``th``."""
    xs = (p[0] + r * np.cos(th)).tolist()
    ys = (p[1] + r * np.sin(th)).tolist()
    return [(round(x, 1), round(y, 1)) for x, y in zip(xs, ys, strict=True)]


def _points_segs(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The distance from each point of ``p`` to each segment ``a[j]``-``b[j]``."""
    d = b - a
    den = np.maximum(d[:, 0] * d[:, 0] + d[:, 1] * d[:, 1], 1e-12)
    rx = p[:, None, 0] - a[None, :, 0]
    ry = p[:, None, 1] - a[None, :, 1]
    t = np.clip((rx * d[:, 0] + ry * d[:, 1]) / den, 0, 1)
    arr: np.ndarray = np.hypot(rx - t * d[:, 0], ry - t * d[:, 1])
    return arr


def _at(line: np.ndarray, arc: np.ndarray, s: float) -> np.ndarray:
    return np.array([np.interp(s, arc, line[:, 0]), np.interp(s, arc, line[:, 1])])


def _sample(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    k = max(2, int(np.hypot(*(q - p)) / 0.5))
    t = np.linspace(0, 1, k)[:, None]
    arr: np.ndarray = p + t * (q - p)
    return arr


def _dedupe_arr(line: np.ndarray) -> np.ndarray:
    keep = np.concatenate([[True], np.hypot(*np.diff(line, axis=0).T) > 1e-6])
    arr: np.ndarray = line[keep]
    return arr


def _finish_line(pts: np.ndarray, step: float) -> list[Point]:
    """The polyline with long segments subdivided (every point kept, so the shape does not
    change), rounded."""
    dense = np.round(_split_long(_dedupe_arr(pts), step), 1)
    keep = np.r_[True, (dense[1:] != dense[:-1]).any(axis=1)]  # no point twice in a row
    return [(x, y) for x, y in dense[keep].tolist()]


def _tuple(pts: list[Point]) -> tuple[Point, ...]:
    out: list[Point] = []
    for p in pts:
        if not out or out[-1] != p:
            out.append(p)
    return tuple(out)


def _seg_dist_one(p0: np.ndarray, p1: np.ndarray, segs: np.ndarray) -> np.ndarray:
    k = len(segs)
    return _seg_dist(
        np.broadcast_to(p0, (k, 2)), np.broadcast_to(p1, (k, 2)), segs[:, 0], segs[:, 1]
    )


def _point_seg(pts: np.ndarray, p0: np.ndarray, p1: np.ndarray) -> np.ndarray:
    d = p1 - p0
    t = np.clip(((pts - p0) @ d) / max(float(d @ d), 1e-12), 0, 1)
    arr: np.ndarray = np.hypot(*(pts - (p0 + t[:, None] * d)).T)
    return arr


def _thin(line: np.ndarray, spacing: float) -> np.ndarray:
    """The polyline without points closer than ``spacing`` to the last one kept (its ends
    always kept). Each point depends on the last kept, so it is a loop: over Python floats,
    which costs a tenth of indexing the array at every step."""
    xs, ys = line[:, 0].tolist(), line[:, 1].tolist()
    keep = [0]
    kx, ky = xs[0], ys[0]
    for i in range(1, len(line) - 1):
        if math.hypot(xs[i] - kx, ys[i] - ky) >= spacing:
            keep.append(i)
            kx, ky = xs[i], ys[i]
    if len(line) > 1:
        if len(keep) > 1 and math.hypot(xs[-1] - kx, ys[-1] - ky) < spacing:
            keep.pop()
        keep.append(len(line) - 1)
    return line[keep]


def _point_seg_many(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    d = b - a
    den = np.maximum(np.einsum("ij,ij->i", d, d), 1e-12)
    t = np.clip(np.einsum("ij,ij->i", p - a, d) / den, 0, 1)
    arr: np.ndarray = np.hypot(*(p - (a + t[:, None] * d)).T)
    return arr


def _containing(m: _Mesh, cand: np.ndarray, q: np.ndarray) -> np.ndarray:
    """For each point of ``q``, a triangle of ``cand`` holding it (-1 for none)."""
    tri = m.P[m.simplices[cand]]  # (k, 3, 2)
    a, b, c = tri[:, 0][None], tri[:, 1][None], tri[:, 2][None]
    p = q[:, None, :]

    def cross(o: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        arr: np.ndarray = (x[..., 0] - o[..., 0]) * (y[..., 1] - o[..., 1]) - (
            x[..., 1] - o[..., 1]
        ) * (y[..., 0] - o[..., 0])
        return arr

    d1, d2, d3 = cross(a, b, p), cross(b, c, p), cross(c, a, p)
    eps = -1e-9
    inside = ((d1 >= eps) & (d2 >= eps) & (d3 >= eps)) | (
        (d1 <= -eps) & (d2 <= -eps) & (d3 <= -eps)
    )
    hit = inside.any(axis=1)
    first = np.argmax(inside, axis=1)
    return np.where(hit, cand[first], -1)


def _want(m: _Mesh, v: np.ndarray) -> np.ndarray:
    """How far the new curve would keep from each vertex: nothing from free points, more
    from spots and from a loop's tongue (so that the loop is round)."""
    kd = m.kind[v]
    out = np.where(kd == K_FILL, 0.0, CLEAR_CURVE)
    out = np.where(kd == K_TONGUE, 2 * CLEAR_CURVE, out)
    return np.where(np.isin(v, m.spot_vertex), CLEAR_SPOT, out)
