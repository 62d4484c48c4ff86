"""Compiled inner loops of the triangulation router (:mod:`engine.sprouts.mesh`).

The router's graphs are a triangulation's triangles (three neighbours each) and its
vertices; scipy's sparse-graph routines cost more to set up than to run on them, and the
curve's smoothing is many small steps. These kernels walk the arrays directly. They are
compiled once and cached on disk (``numba`` ``cache=True``); no fastmath, no threads, so
their results are the same on every run.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def _push(hd: np.ndarray, hn: np.ndarray, size: int, d: float, v: int) -> int:
    """Put ``(d, v)`` on the binary heap held in ``hd``/``hn``; the new size."""
    i = size
    hd[i] = d
    hn[i] = v
    while i > 0:
        up = (i - 1) // 2
        if hd[up] <= hd[i]:
            break
        hd[up], hd[i] = hd[i], hd[up]
        hn[up], hn[i] = hn[i], hn[up]
        i = up
    return size + 1


@njit(cache=True)
def _pop(hd: np.ndarray, hn: np.ndarray, size: int) -> int:
    """Remove the heap's top (read it from ``hd[0]``/``hn[0]`` first); the new size."""
    size -= 1
    hd[0] = hd[size]
    hn[0] = hn[size]
    i = 0
    while True:
        low = i
        for c in (2 * i + 1, 2 * i + 2):
            if c < size and hd[c] < hd[low]:
                low = c
        if low == i:
            break
        hd[low], hd[i] = hd[i], hd[low]
        hn[low], hn[i] = hn[i], hn[low]
        i = low
    return size


@njit(cache=True)
def graph_dijkstra(
    indptr: np.ndarray, indices: np.ndarray, weights: np.ndarray, sources: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Shortest distances from the nearest of ``sources`` over a graph in CSR form (node
    ``i``'s arcs go to ``indices[indptr[i]:indptr[i + 1]]``), and each node's predecessor
    on its path (-1 for a source or an unreached node). An arc improves a node only when it
    is strictly shorter."""
    n = len(indptr) - 1
    dist = np.full(n, np.inf)
    pred = np.full(n, -1, dtype=np.int64)
    done = np.zeros(n, dtype=np.bool_)
    cap = len(indices) + len(sources) + 1
    hd = np.empty(cap)
    hn = np.empty(cap, dtype=np.int64)
    size = 0
    for s in sources:
        if dist[s] > 0.0:
            dist[s] = 0.0
            size = _push(hd, hn, size, 0.0, s)
    while size > 0:
        d, v = hd[0], hn[0]
        size = _pop(hd, hn, size)
        if done[v]:
            continue
        done[v] = True
        for j in range(indptr[v], indptr[v + 1]):
            u = indices[j]
            nd = d + weights[j]
            if nd < dist[u]:
                dist[u] = nd
                pred[u] = v
                size = _push(hd, hn, size, nd, u)
    return dist, pred


@njit(cache=True)
def tri_dijkstra(nb: np.ndarray, w: np.ndarray, src: int) -> tuple[np.ndarray, np.ndarray]:
    """:func:`graph_dijkstra` from one triangle over triangles, where ``nb[t, k]`` is the
    triangle across side ``k`` of ``t`` and ``w[t, k]`` the cost of that step (inf: no
    step)."""
    nt = len(nb)
    dist = np.full(nt, np.inf)
    pred = np.full(nt, -1, dtype=np.int64)
    done = np.zeros(nt, dtype=np.bool_)
    hd = np.empty(3 * nt + 1)
    hn = np.empty(3 * nt + 1, dtype=np.int64)
    dist[src] = 0.0
    size = _push(hd, hn, 0, 0.0, src)
    while size > 0:
        d, t = hd[0], hn[0]
        size = _pop(hd, hn, size)
        if done[t]:
            continue
        done[t] = True
        for k in range(3):
            u = nb[t, k]
            if u < 0 or not np.isfinite(w[t, k]):
                continue
            nd = d + w[t, k]
            if nd < dist[u]:
                dist[u] = nd
                pred[u] = t
                size = _push(hd, hn, size, nd, u)
    return dist, pred


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
