"""The compiled kernels of the tidy step (:mod:`engine.sprouts.tidy`): the model is described
there; here is how it is computed, one loop per idea instead of a numpy call per array.

A tidy runs about sixteen steps over a few hundred points, so numpy's cost per call, not
the arithmetic, was what it spent its time on. The kernels are compiled by numba on first use
and cached on disk (``cache=True``: in ``__pycache__`` beside this file, or numba's user cache
directory when that is not writable). Every number of the model comes in as an argument
(:class:`Model`), never as a global: numba bakes globals into the cached machine code and
would not notice a change to a constant in another module.

The net is the flat layout :class:`engine.sprouts.tidy._Net` keeps: ``X`` holds every point,
the ``S`` spots first, then the inner points of each curve in turn (``sizes[e]`` of them);
curve ``e`` runs from spot ``ends[e, 0]`` through its inner points to spot ``ends[e, 1]``.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numba import njit

SECTORS = 8  # the direction sectors a point's allowance is kept in
_HALF = math.pi / SECTORS
_COS_HALF, _SIN_HALF = math.cos(_HALF), math.sin(_HALF)
_TAU = 2 * math.pi
_AXIS_X = np.cos(np.arange(SECTORS) * _TAU / SECTORS)  # each sector's middle direction
_AXIS_Y = np.sin(np.arange(SECTORS) * _TAU / SECTORS)


class Model(NamedTuple):
    """The numbers of the relaxation (their meaning: :mod:`engine.sprouts.tidy`)."""

    width: float  # the paper's usual size (an enlarged paper is relaxed to its proportions)
    height: float
    spot_room: float
    discs_room: float
    curve_spot_room: float
    disc_room: float
    curve_room: float
    stub_len: float
    margin: float
    spot_wall: float
    seg_max: float
    seg_drop: float
    eps: float
    hard_curve: float
    hard_spot: float
    hard_spots: float
    hard_stub: float
    hard_angle: float
    kin: int
    edge: float
    step: float
    reach: float  # a spot's search radius, at least
    node_reach: float  # a curve point's
    smooth_rounds: int
    push: float
    hard_push: float
    discs_push: float
    pull: float


class Index(NamedTuple):
    """Where everything lies in the flat net (see :func:`index`)."""

    segs: np.ndarray  # (M, 2) point ids of each segment, curve by curve, in order
    seg_curve: np.ndarray  # the curve of each segment
    seg_pos: np.ndarray  # its place along the curve (0: the stub at its first end)
    seg_last: np.ndarray  # per curve, its last segment (the stub at its second end)
    seg_ends: np.ndarray  # (M, 2) the end spots of each segment's curve
    node_curve: np.ndarray  # per point, the curve it is an inner point of (-1: a spot)
    node_pos: np.ndarray  # ... and its place along the curve (its end spot is 0)
    prev: np.ndarray  # per inner point (in order, i.e. point S + k), its neighbours
    next: np.ndarray
    stub_spot: np.ndarray  # per curve end (2e, 2e + 1): the spot ...
    stub_node: np.ndarray  # ... and the first inner point from it


class Pairs(NamedTuple):
    """(point, segment) pairs within the search radius, the point not on the segment."""

    i: np.ndarray  # the point
    j: np.ndarray  # the segment
    dist: np.ndarray  # how far apart
    ux: np.ndarray  # the unit vector from the point to the segment's nearest point
    uy: np.ndarray
    t: np.ndarray  # where along the segment that point lies (0: its first end)
    need: np.ndarray  # the gap the exact check demands
    kin: np.ndarray  # the segment is the point's own curve's, close along it


# -- the flat view ----------------------------------------------------------------------------


@njit(cache=True, error_model="numpy")
def index(S: int, sizes: np.ndarray, ends: np.ndarray) -> Index:
    """Every segment, every inner point's place and neighbours, every stub."""
    E = len(sizes)
    inner = 0
    for e in range(E):
        inner += sizes[e]
    N = S + inner
    M = inner + E
    segs = np.empty((M, 2), np.int64)
    seg_curve = np.empty(M, np.int64)
    seg_pos = np.empty(M, np.int64)
    seg_last = np.empty(E, np.int64)
    seg_ends = np.empty((M, 2), np.int64)
    node_curve = np.full(N, -1, np.int64)
    node_pos = np.zeros(N, np.int64)
    prev = np.empty(inner, np.int64)
    nxt = np.empty(inner, np.int64)
    stub_spot = np.empty(2 * E, np.int64)
    stub_node = np.empty(2 * E, np.int64)
    off = S
    m = 0
    for e in range(E):
        n = sizes[e]
        a, b = ends[e, 0], ends[e, 1]
        for k in range(n + 1):  # segment k joins chain[k] and chain[k + 1]
            segs[m, 0] = a if k == 0 else off + k - 1
            segs[m, 1] = b if k == n else off + k
            seg_curve[m] = e
            seg_pos[m] = k
            seg_ends[m, 0] = a
            seg_ends[m, 1] = b
            m += 1
        seg_last[e] = m - 1
        for k in range(n):
            p = off + k
            node_curve[p] = e
            node_pos[p] = k + 1
            prev[p - S] = a if k == 0 else p - 1
            nxt[p - S] = b if k == n - 1 else p + 1
        stub_spot[2 * e] = a
        stub_node[2 * e] = off
        stub_spot[2 * e + 1] = b
        stub_node[2 * e + 1] = off + n - 1
        off += n
    return Index(
        segs,
        seg_curve,
        seg_pos,
        seg_last,
        seg_ends,
        node_curve,
        node_pos,
        prev,
        nxt,
        stub_spot,
        stub_node,
    )


# -- the pairs near each other ----------------------------------------------------------------


@njit(cache=True, error_model="numpy")
def _near(X: np.ndarray, i: int, a: int, b: int) -> tuple[float, float, float, float]:
    """Distance from point ``i`` to segment ``ab``, the unit vector to its nearest point and
    where along ``ab`` that point lies."""
    px, py = X[a, 0], X[a, 1]
    ex, ey = X[b, 0] - px, X[b, 1] - py
    vx, vy = X[i, 0], X[i, 1]
    den = max(ex * ex + ey * ey, 1e-12)
    t = min(max(((vx - px) * ex + (vy - py) * ey) / den, 0.0), 1.0)
    dx = px + t * ex - vx
    dy = py + t * ey - vy
    dist = math.sqrt(dx * dx + dy * dy)
    inv = 1.0 / max(dist, 1e-12)
    return dist, dx * inv, dy * inv, t


@njit(cache=True, error_model="numpy")
def _gap(px: float, py: float, ex: float, ey: float, den: float, vx: float, vy: float) -> float:
    """Distance from ``v`` to the segment from ``p`` along ``e`` (``den``: ``|e|²``), as
    :func:`_near` computes it."""
    t = min(max(((vx - px) * ex + (vy - py) * ey) / den, 0.0), 1.0)
    dx = px + t * ex - vx
    dy = py + t * ey - vy
    return math.sqrt(dx * dx + dy * dy)


@njit(cache=True, error_model="numpy")
def _doubled(a: np.ndarray) -> np.ndarray:
    b = np.empty(2 * len(a), a.dtype)
    b[: len(a)] = a
    return b


@njit(cache=True, error_model="numpy")
def _buckets(key: np.ndarray, n_keys: int) -> tuple[np.ndarray, np.ndarray]:
    """A counting sort: ``items[start[k]:start[k + 1]]`` are the indices ``i`` with
    ``key[i] == k``, in order."""
    start = np.zeros(n_keys + 1, np.int64)
    for i in range(len(key)):
        start[key[i] + 1] += 1
    for k in range(n_keys):
        start[k + 1] += start[k]
    at = start[:-1].copy()
    items = np.empty(len(key), np.int64)
    for i in range(len(key)):
        items[at[key[i]]] = i
        at[key[i]] += 1
    return start, items


@njit(cache=True, error_model="numpy")
def search(  # noqa: C901  numba-compiled kernel, kept flat
    X: np.ndarray, S: int, segs: np.ndarray, spot_reach: float, node_reach: float
) -> tuple[np.ndarray, np.ndarray]:
    """The (point, segment) pairs closer than the reach (``spot_reach`` for the ``S``
    spots), the point not an end of the segment, segment by segment.

    Inner points are put in a grid of cells as wide as their reach, row by row, and each
    segment looks only in the cells its box, widened by the reach, covers (a run of cells
    in each row); spots likewise in a grid of their own (their reach is longer)."""
    N = len(X)
    M = len(segs)
    h = node_reach
    x0, y0, x1, y1 = 0.0, 0.0, 0.0, 0.0
    if N > S:
        x0, y0 = X[S, 0], X[S, 1]
        x1, y1 = x0, y0
    for p in range(S, N):
        x0, x1 = min(x0, X[p, 0]), max(x1, X[p, 0])
        y0, y1 = min(y0, X[p, 1]), max(y1, X[p, 1])
    nx = int((x1 - x0) / h) + 1
    ny = int((y1 - y0) / h) + 1
    # the inner points cell by cell, with their coordinates
    cell = np.empty(N - S, np.int64)
    for p in range(S, N):
        cell[p - S] = int((X[p, 1] - y0) / h) * nx + int((X[p, 0] - x0) / h)
    start, items = _buckets(cell, nx * ny)
    gx = np.empty(N - S)
    gy = np.empty(N - S)
    for q in range(N - S):
        items[q] += S
        gx[q] = X[items[q], 0]
        gy[q] = X[items[q], 1]
    # the spots likewise, in cells as wide as their reach
    hs = spot_reach
    sx0, sy0, sx1, sy1 = X[0, 0], X[0, 1], X[0, 0], X[0, 1]
    for p in range(S):
        sx0, sx1 = min(sx0, X[p, 0]), max(sx1, X[p, 0])
        sy0, sy1 = min(sy0, X[p, 1]), max(sy1, X[p, 1])
    snx = int((sx1 - sx0) / hs) + 1
    sny = int((sy1 - sy0) / hs) + 1
    scell = np.empty(S, np.int64)
    for p in range(S):
        scell[p] = int((X[p, 1] - sy0) / hs) * snx + int((X[p, 0] - sx0) / hs)
    sstart, sitems = _buckets(scell, snx * sny)
    out_i = np.empty(4 * (N + M) + 16, np.int64)
    out_j = np.empty(4 * (N + M) + 16, np.int64)
    count = 0
    for j in range(M):
        a, b = segs[j, 0], segs[j, 1]
        px, py = X[a, 0], X[a, 1]
        ex, ey = X[b, 0] - px, X[b, 1] - py
        den = max(ex * ex + ey * ey, 1e-12)
        lox, hix = min(px, X[b, 0]), max(px, X[b, 0])
        loy, hiy = min(py, X[b, 1]), max(py, X[b, 1])
        if count + S + N > len(out_i):
            out_i, out_j = _doubled(out_i), _doubled(out_j)
        r = spot_reach
        cx0 = max(math.floor((lox - r - sx0) / r), 0)
        cx1 = min(math.floor((hix + r - sx0) / r), snx - 1)
        cy0 = max(math.floor((loy - r - sy0) / r), 0)
        cy1 = min(math.floor((hiy + r - sy0) / r), sny - 1)
        if cx0 <= cx1:
            for cy in range(cy0, cy1 + 1):
                for q in range(sstart[cy * snx + cx0], sstart[cy * snx + cx1 + 1]):
                    i = sitems[q]
                    vx, vy = X[i, 0], X[i, 1]
                    if vx < lox - r or vx > hix + r or vy < loy - r or vy > hiy + r:
                        continue
                    if i != a and i != b and _gap(px, py, ex, ey, den, vx, vy) < r:
                        out_i[count] = i
                        out_j[count] = j
                        count += 1
        cx0 = max(math.floor((lox - h - x0) / h), 0)
        cx1 = min(math.floor((hix + h - x0) / h), nx - 1)
        cy0 = max(math.floor((loy - h - y0) / h), 0)
        cy1 = min(math.floor((hiy + h - y0) / h), ny - 1)
        if cx0 > cx1:
            continue
        for cy in range(cy0, cy1 + 1):
            for q in range(start[cy * nx + cx0], start[cy * nx + cx1 + 1]):
                vx, vy = gx[q], gy[q]
                if vx < lox - h or vx > hix + h or vy < loy - h or vy > hiy + h:
                    continue
                i = items[q]
                if i != a and i != b and _gap(px, py, ex, ey, den, vx, vy) < h:
                    out_i[count] = i
                    out_j[count] = j
                    count += 1
    return out_i[:count], out_j[:count]


@njit(cache=True, error_model="numpy")
def pairs(X: np.ndarray, S: int, ix: Index, m: Model, rho: float) -> Pairs:
    """The pairs near each other, with what the limits and forces need of them."""
    spot_reach = max(m.reach, rho * m.curve_spot_room)
    node_reach = max(m.node_reach, rho * m.curve_room)
    ii, jj = search(X, S, ix.segs, spot_reach, node_reach)
    n = len(ii)
    dist = np.empty(n)
    ux = np.empty(n)
    uy = np.empty(n)
    t = np.empty(n)
    need = np.empty(n)
    kin = np.zeros(n, np.bool_)
    segs, node_curve, node_pos = ix.segs, ix.node_curve, ix.node_pos
    seg_curve, seg_pos = ix.seg_curve, ix.seg_pos
    for k in range(n):
        i, j = ii[k], jj[k]
        dist[k], ux[k], uy[k], t[k] = _near(X, i, segs[j, 0], segs[j, 1])
        if i < S:
            need[k] = m.hard_spot
            continue
        need[k] = m.hard_curve
        if node_curve[i] == seg_curve[j]:
            s, p = seg_pos[j], node_pos[i]
            if s == p - 2 or s == p + 1:
                need[k] = m.eps
            # a curve's own neighbouring segments do not push its points (they bend with it)
            kin[k] = p - m.kin <= s < p + m.kin
    return Pairs(ii, jj, dist, ux, uy, t, need, kin)


# -- the limits ---------------------------------------------------------------------------------


@njit(cache=True, error_model="numpy")
def _sector(x: float, y: float) -> int:
    s = math.floor((math.atan2(y, x) + _HALF) / (_TAU / SECTORS))
    return s % SECTORS


@njit(cache=True, error_model="numpy")
def _halves(
    cap: np.ndarray, sector: np.ndarray, X: np.ndarray, a: int, b: int, hard: float, step: float
) -> None:
    """Points ``a`` and ``b`` keep ``hard`` apart: each may take half of the room above it."""
    wx, wy = X[b, 0] - X[a, 0], X[b, 1] - X[a, 1]
    d = math.hypot(wx, wy)
    budget = max(d - min(hard, d), 0.0) / 2
    if budget < step:
        inv = 1.0 / max(d, 1e-12)
        _limit(cap, sector, a, wx * inv, wy * inv, budget)
        _limit(cap, sector, b, -wx * inv, -wy * inv, budget)


@njit(cache=True, error_model="numpy")
def _limit(cap: np.ndarray, sector: np.ndarray, w: int, ux: float, uy: float, b: float) -> None:
    """Point ``w`` may move at most ``b`` along ``u``: in its sector, the longest move
    whose component along ``u`` stays within it (``c``: the cosine of the least angle
    between ``u`` and a direction in the sector)."""
    s = sector[w]
    if s < 0:
        return
    ax, ay = _AXIS_X[s], _AXIS_Y[s]
    dot = ux * ax + uy * ay
    c = 1.0 if dot >= _COS_HALF else dot * _COS_HALF + abs(ux * ay - uy * ax) * _SIN_HALF
    if c > 1e-9:
        cap[w] = min(cap[w], b / c)


@njit(cache=True, error_model="numpy")
def limits(
    X: np.ndarray,
    S: int,
    ix: Index,
    pr: Pairs,
    m: Model,
    width: float,
    height: float,
    sector: np.ndarray,
) -> np.ndarray:
    """How far each point may move this step in the direction sector ``sector`` (per
    point; -1: any length, the point is not asked about). A point's allowance is kept per
    sector; a step asks each point about one sector only, that of its force."""
    segs, stub_spot, stub_node = ix.segs, ix.stub_spot, ix.stub_node
    p_i, p_j, p_dist, p_ux, p_uy, p_need = pr.i, pr.j, pr.dist, pr.ux, pr.uy, pr.need
    N = len(X)
    lim = np.full(N, m.step)
    # a point and a segment: each may take a third of the room beyond the gap
    for k in range(len(p_i)):
        d = p_dist[k]
        budget = max(d - min(p_need[k], d), 0.0) / 3
        if budget < m.step:
            j = p_j[k]
            _limit(lim, sector, p_i[k], p_ux[k], p_uy[k], budget)
            _limit(lim, sector, segs[j, 0], -p_ux[k], -p_uy[k], budget)
            _limit(lim, sector, segs[j, 1], -p_ux[k], -p_uy[k], budget)
    # two spots: each may take half
    for i in range(S):
        for j in range(i + 1, S):
            _halves(lim, sector, X, i, j, m.hard_spots, m.step)
    # the paper's edge
    for p in range(N):
        if sector[p] < 0:
            continue
        for axis in range(2):
            top = width if axis == 0 else height
            for sign in (-1.0, 1.0):
                room = X[p, axis] - m.edge if sign < 0 else top - m.edge - X[p, axis]
                if room < m.step:
                    budget = max(room, 0.0)
                    if axis == 0:
                        _limit(lim, sector, p, sign, 0.0, budget)
                    else:
                        _limit(lim, sector, p, 0.0, sign, budget)
    # stubs stay long enough to be straight for the check
    for k in range(len(stub_spot)):
        _halves(lim, sector, X, stub_spot[k], stub_node[k], m.hard_stub, m.step)
    return lim


# -- the forces ---------------------------------------------------------------------------------


@njit(cache=True, error_model="numpy")
def _round_spots(spot: np.ndarray, ang: np.ndarray, S: int) -> tuple[np.ndarray, np.ndarray]:
    """For each stub, the next and the previous stub round its spot by angle (ties by
    place); a spot's only stub is its own neighbour."""
    n = len(spot)
    count, order = _buckets(spot, S)
    after = np.empty(n, np.int64)
    before = np.empty(n, np.int64)
    for s in range(S):
        lo, hi = count[s], count[s + 1]
        # insertion sort by angle (a spot has at most a few stubs; stable)
        for q in range(lo + 1, hi):
            k = order[q]
            r = q - 1
            while r >= lo and ang[order[r]] > ang[k]:
                order[r + 1] = order[r]
                r -= 1
            order[r + 1] = k
        for q in range(lo, hi):
            nq = q + 1 if q + 1 < hi else lo
            after[order[q]] = order[nq]
            before[order[nq]] = order[q]
    return after, before


@njit(cache=True, error_model="numpy")
def forces(  # noqa: C901  numba-compiled kernel, kept flat
    X: np.ndarray, S: int, ix: Index, pr: Pairs, m: Model, width: float, height: float
) -> np.ndarray:
    """The wanted displacement of every point (before the limits)."""
    segs, seg_ends, prev, nxt, stub_spot, stub_node = (
        ix.segs,
        ix.seg_ends,
        ix.prev,
        ix.next,
        ix.stub_spot,
        ix.stub_node,
    )
    p_i, p_j, p_dist, p_ux, p_uy, p_t, p_kin = pr.i, pr.j, pr.dist, pr.ux, pr.uy, pr.t, pr.kin
    N = len(X)
    F = np.zeros((N, 2))
    rho = width / m.width
    # crowded points and segments push apart; a spot is heavy: the curve gives way more
    for k in range(len(p_i)):
        if p_kin[k]:
            continue
        i, j, d = p_i[k], p_j[k], p_dist[k]
        spot = i < S
        room = rho * (m.curve_spot_room if spot else m.curve_room)
        if d >= room:
            continue
        mag = m.push * (room - d)
        # a curve under the disc of a spot it does not end at is pushed out hard
        if spot and seg_ends[j, 0] != i and seg_ends[j, 1] != i and d < rho * m.disc_room:
            mag += m.hard_push * (rho * m.disc_room - d)
        fx, fy = mag * p_ux[k], mag * p_uy[k]
        share = 0.25 if spot else 0.5
        a, b, t = segs[j, 0], segs[j, 1], p_t[k]
        F[i, 0] -= share * fx
        F[i, 1] -= share * fy
        F[a, 0] += (1 - t) * (1 - share) * fx
        F[a, 1] += (1 - t) * (1 - share) * fy
        F[b, 0] += t * (1 - share) * fx
        F[b, 1] += t * (1 - share) * fy
    # spots repel each other: hard below spot_room, softly at any distance
    if S > 1:
        area = (width - 2 * m.margin) * (height - 2 * m.margin)
        k2 = 0.5 * area / S
        for i in range(S):
            for j in range(S):
                if i == j:
                    continue
                wx, wy = X[i, 0] - X[j, 0], X[i, 1] - X[j, 1]
                d = math.hypot(wx, wy)
                mag = 0.01 * k2 / d + 0.3 * max(rho * m.spot_room - d, 0.0)
                mag += m.discs_push * max(rho * m.discs_room - d, 0.0)
                F[i, 0] += mag / d * wx
                F[i, 1] += mag / d * wy
    # curves contract and straighten: each inner point goes towards where a few rounds of
    # averaging with its neighbours (all at once) would put it
    Y = X.copy()
    tmp = np.empty((N - S, 2))
    for _ in range(m.smooth_rounds):
        for q in range(N - S):
            p, r = prev[q], nxt[q]
            tmp[q, 0] = (Y[p, 0] + Y[r, 0]) / 2
            tmp[q, 1] = (Y[p, 1] + Y[r, 1]) / 2
        Y[S:] = tmp
    for p in range(S, N):
        F[p, 0] += m.pull * (Y[p, 0] - X[p, 0])
        F[p, 1] += m.pull * (Y[p, 1] - X[p, 1])
    n = len(stub_spot)
    if n:
        # stubs keep their preferred length, and turn round their spot towards even angles
        ang = np.empty(n)
        length = np.empty(n)
        deg = np.zeros(S, np.int64)
        for k in range(n):
            a, b = stub_spot[k], stub_node[k]
            wx, wy = X[b, 0] - X[a, 0], X[b, 1] - X[a, 1]
            length[k] = math.hypot(wx, wy)
            d = max(length[k], 1e-9)
            pull = 0.25 * (d - rho * m.stub_len) / d
            F[a, 0] += 0.5 * pull * wx
            F[a, 1] += 0.5 * pull * wy
            F[b, 0] -= pull * wx
            F[b, 1] -= pull * wy
            ang[k] = math.atan2(wy, wx)
            deg[a] += 1
        after, before = _round_spots(stub_spot, ang, S)
        for k in range(n):
            dg = deg[stub_spot[k]]
            if dg <= 1:
                continue
            want = _TAU / dg
            gap_next = (ang[after[k]] - ang[k]) % _TAU
            gap_prev = (ang[k] - ang[before[k]]) % _TAU
            turn = 0.3 * (min(gap_next, want) - min(gap_prev, want)) / 2
            b = stub_node[k]
            F[b, 0] += turn * length[k] * -math.sin(ang[k])
            F[b, 1] += turn * length[k] * math.cos(ang[k])
    # the paper's edge, or a paper of the usual size in the middle of an enlarged one
    cx, cy = width / 2, height / 2
    for p in range(N):
        wall = rho * m.margin + (rho * m.spot_wall if p < S else 0.0)
        hx, hy = cx - wall, cy - wall
        F[p, 0] += 0.5 * (max(cx - hx - X[p, 0], 0.0) - max(X[p, 0] - cx - hx, 0.0))
        F[p, 1] += 0.5 * (max(cy - hy - X[p, 1], 0.0) - max(X[p, 1] - cy - hy, 0.0))
    return F


@njit(cache=True, error_model="numpy")
def _keep_angles(X: np.ndarray, D: np.ndarray, S: int, ix: Index, m: Model) -> None:
    """Moves that would bring two stubs round a spot closer than the check allows are
    cancelled (for the spot and both stubs), in place."""
    stub_spot, stub_node = ix.stub_spot, ix.stub_node
    n = len(stub_spot)
    if not n:
        return
    ang = np.empty(n)
    bad = np.zeros(n, np.bool_)
    for _ in range(3):
        for k in range(n):
            a, b = stub_spot[k], stub_node[k]
            ang[k] = math.atan2(
                (X[b, 1] + D[b, 1]) - (X[a, 1] + D[a, 1]),
                (X[b, 0] + D[b, 0]) - (X[a, 0] + D[a, 0]),
            )
        after, _ = _round_spots(stub_spot, ang, S)
        anything = False
        for k in range(n):
            gap = (ang[after[k]] - ang[k]) % _TAU
            bad[k] = min(gap, _TAU - gap) < m.hard_angle and after[k] != k
            anything |= bad[k]
        if not anything:
            return
        for k in range(n):
            if bad[k]:
                for q in (k, after[k]):
                    D[stub_node[q]] = 0.0
                    D[stub_spot[q]] = 0.0
    D[:] = 0.0


@njit(cache=True, error_model="numpy")
def step(X: np.ndarray, S: int, ix: Index, m: Model, width: float, height: float) -> np.ndarray:
    """One step of the relaxation: every point's move (its force cut to its allowance in
    the force's direction sector; stubs that would turn too close not moved)."""
    pr = pairs(X, S, ix, m, width / m.width)
    F = forces(X, S, ix, pr, m, width, height)
    sector = np.empty(len(F), np.int64)
    for p in range(len(F)):
        sector[p] = _sector(F[p, 0], F[p, 1])
    lim = limits(X, S, ix, pr, m, width, height, sector)
    D = np.empty_like(F)
    for p in range(len(F)):
        norm = math.hypot(F[p, 0], F[p, 1])
        cap = lim[p]
        scale = min(1.0, cap / max(norm, 1e-12))
        D[p, 0] = F[p, 0] * scale
        D[p, 1] = F[p, 1] * scale
    _keep_angles(X, D, S, ix, m)
    return D


# -- the polylines ------------------------------------------------------------------------------


@njit(cache=True, error_model="numpy")
def droppable(
    X: np.ndarray, S: int, ix: Index, m: Model, width: float, height: float, parity: int
) -> np.ndarray:
    """Per point, whether it is an inner point at a ``parity`` place along its curve, not a
    stub's, whose neighbours are close and which can move onto their chord within its
    allowance."""
    node_pos, prev, nxt = ix.node_pos, ix.prev, ix.next
    N = len(X)
    # the move onto the chord of each candidate, and its sector (-1: not a candidate)
    move = np.zeros((N, 2))
    sector = np.full(N, -1, np.int64)
    for p in range(S, N):
        a, b = prev[p - S], nxt[p - S]
        if node_pos[p] % 2 != parity or a < S or b < S:
            continue
        cx, cy = X[b, 0] - X[a, 0], X[b, 1] - X[a, 1]
        clen = math.hypot(cx, cy)
        if clen >= m.seg_drop:
            continue
        t = ((X[p, 0] - X[a, 0]) * cx + (X[p, 1] - X[a, 1]) * cy) / max(clen**2, 1e-12)
        if not 0.05 < t < 0.95:
            continue
        move[p, 0] = X[a, 0] + t * cx - X[p, 0]
        move[p, 1] = X[a, 1] + t * cy - X[p, 1]
        sector[p] = _sector(move[p, 0], move[p, 1])
    drop = np.zeros(N, np.bool_)
    if (sector < 0).all():
        return drop
    pr = pairs(X, S, ix, m, width / m.width)
    lim = limits(X, S, ix, pr, m, width, height, sector)
    for p in range(S, N):
        drop[p] = sector[p] >= 0 and math.hypot(move[p, 0], move[p, 1]) <= lim[p]
    return drop


@njit(cache=True, error_model="numpy")
def split_long(
    X: np.ndarray, S: int, sizes: np.ndarray, ix: Index, m: Model
) -> tuple[np.ndarray, np.ndarray]:
    """Segments longer than ``seg_max`` cut into equal pieces (the picture stays the same);
    a stub is never split (its point may be near another stub at its spot, which the check
    allows only for stubs). The same arrays when nothing is cut."""
    segs, seg_curve, seg_pos, seg_last = ix.segs, ix.seg_curve, ix.seg_pos, ix.seg_last
    M = len(segs)
    k = np.ones(M, np.int64)
    cut = np.zeros(len(sizes), np.bool_)
    for j in range(M):
        if seg_pos[j] == 0 or j == seg_last[seg_curve[j]]:
            continue
        a, b = segs[j, 0], segs[j, 1]
        k[j] = max(1, math.ceil(math.hypot(X[b, 0] - X[a, 0], X[b, 1] - X[a, 1]) / m.seg_max))
        if k[j] > 1:
            cut[seg_curve[j]] = True
    if not cut.any():
        return X, sizes
    # a cut curve is every one of its segments cut into k: the points at 1/k .. k/k along
    # it, but for the last one (its end spot)
    new_sizes = sizes.copy()
    for j in range(M):
        if cut[seg_curve[j]]:
            new_sizes[seg_curve[j]] += k[j] - 1
    Y = np.empty((S + new_sizes.sum(), 2))
    Y[:S] = X[:S]
    q = S
    for j in range(M):
        e = seg_curve[j]
        last = j == seg_last[e]
        if not cut[e]:
            if not last:
                Y[q] = X[segs[j, 1]]
                q += 1
            continue
        a, b = segs[j, 0], segs[j, 1]
        for r in range(k[j] - 1 if last else k[j]):
            f = (r + 1) / k[j]
            Y[q, 0] = X[a, 0] + f * (X[b, 0] - X[a, 0])
            Y[q, 1] = X[a, 1] + f * (X[b, 1] - X[a, 1])
            q += 1
    return Y, new_sizes
