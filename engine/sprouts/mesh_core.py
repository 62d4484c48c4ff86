"""Compiled inner loops of the triangulation router (:mod:`engine.sprouts.mesh`).

Each is a loop over small arrays that numpy would run as many short whole-array steps
(most of the cost being numpy's per-call overhead). They give the same numbers as the numpy
code they replace, operation for operation. They are
compiled once and cached on disk (``numba`` ``cache=True``); no fastmath, no threads, so
their results are the same on every run.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def flood(nb: np.ndarray, open_side: np.ndarray, src: int) -> np.ndarray:
    """The triangles reached from ``src`` across open sides (``open_side[t, k]``: side
    ``k`` of ``t`` may be crossed, to ``nb[t, k]``)."""
    nt = len(nb)
    seen = np.zeros(nt, dtype=np.bool_)
    stack = np.empty(nt, dtype=np.int64)
    seen[src] = True
    stack[0] = src
    top = 1
    while top > 0:
        top -= 1
        t = stack[top]
        for k in range(3):
            u = nb[t, k]
            if u >= 0 and open_side[t, k] and not seen[u]:
                seen[u] = True
                stack[top] = u
                top += 1
    return seen


@njit(cache=True)
def slide(
    p0: np.ndarray, d: np.ndarray, t: np.ndarray, lo: np.ndarray, hi: np.ndarray, rounds: int
) -> np.ndarray:
    """Points ``p0 + t d`` on segments, each moved ``rounds`` times halfway towards the
    projection of its neighbours' midpoint (the ends towards their one neighbour), all at
    once per round, kept within ``[lo, hi]``."""
    n = len(t)
    t = t.copy()
    x = np.empty(n)
    y = np.empty(n)
    len2 = np.empty(n)
    for i in range(n):
        len2[i] = max(np.hypot(d[i, 0], d[i, 1]), 1e-9) ** 2
    for _ in range(rounds):
        for i in range(n):
            x[i] = p0[i, 0] + t[i] * d[i, 0]
            y[i] = p0[i, 1] + t[i] * d[i, 1]
        for i in range(n):
            a = i - 1 if i > 0 else 0
            b = i + 1 if i < n - 1 else n - 1
            tx = (x[a] + x[b]) / 2
            ty = (y[a] + y[b]) / 2
            tt = ((tx - p0[i, 0]) * d[i, 0] + (ty - p0[i, 1]) * d[i, 1]) / len2[i]
            t[i] = min(max(0.5 * t[i] + 0.5 * tt, lo[i]), hi[i])
    return t


@njit(cache=True)
def split_long(
    pts: np.ndarray, starts: np.ndarray, longest: float
) -> tuple[np.ndarray, np.ndarray]:
    """Polylines end to end (``pts[starts[i]:starts[i + 1]]``) with points added so that no
    segment is longer than ``longest`` (a segment of length ``L`` becomes ``ceil(L /
    longest)`` equal ones, every original point kept); the results end to end, and where
    each starts (one more: the end)."""
    m = len(starts) - 1
    total = 0
    for i in range(m):
        if starts[i] == starts[i + 1]:
            continue
        total += 1
        for j in range(starts[i], starts[i + 1] - 1):
            dx = pts[j + 1, 0] - pts[j, 0]
            dy = pts[j + 1, 1] - pts[j, 1]
            total += max(1, int(np.ceil(np.hypot(dx, dy) / longest)))
    out = np.empty((total, 2))
    at = np.empty(m + 1, dtype=np.int64)
    o = 0
    for i in range(m):
        at[i] = o
        if starts[i] == starts[i + 1]:
            continue
        out[o, 0] = pts[starts[i], 0]
        out[o, 1] = pts[starts[i], 1]
        o += 1
        for j in range(starts[i], starts[i + 1] - 1):
            dx = pts[j + 1, 0] - pts[j, 0]
            dy = pts[j + 1, 1] - pts[j, 1]
            k = max(1, int(np.ceil(np.hypot(dx, dy) / longest)))
            for q in range(k):
                t = (q + 1) / k
                out[o, 0] = pts[j, 0] + t * dx
                out[o, 1] = pts[j, 1] + t * dy
                o += 1
    at[m] = o
    return out, at


@njit(cache=True)
def in_discs(pts: np.ndarray, centres: np.ndarray, radii: np.ndarray) -> np.ndarray:
    """Whether each point is closer than its nearest centre's radius to that centre (the
    first of equally near centres; distances as a k-d tree measures them, the root of the
    summed squares)."""
    out = np.zeros(len(pts), dtype=np.bool_)
    for i in range(len(pts)):
        best = np.inf
        which = -1
        for j in range(len(centres)):
            dx = pts[i, 0] - centres[j, 0]
            dy = pts[i, 1] - centres[j, 1]
            d2 = dx * dx + dy * dy
            if d2 < best:
                best = d2
                which = j
        out[i] = which >= 0 and np.sqrt(best) < radii[which]
    return out


def warm() -> None:
    """Load (or, the first time on a machine, compile) every kernel now, on tiny inputs, so
    that the first move routed does not pay for it (about 0.3 s from the disk cache)."""
    nb = np.full((1, 3), -1, dtype=np.int64)
    flood(nb, np.zeros((1, 3), dtype=np.bool_), 0)
    one = np.zeros((1, 2))
    slide(one, one, np.zeros(1), np.zeros(1), np.ones(1), 1)
    split_long(one, np.array([0, 1], dtype=np.int64), 1.0)
    in_discs(one, one, np.ones(1))
