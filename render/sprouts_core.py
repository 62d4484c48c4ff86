"""The compiled kernels of the Sprouts picture (:mod:`render.sprouts`): one loop per idea
instead of many Pillow or numpy calls on small arrays, whose cost per call, not the
arithmetic, was what a picture spent its time on.

The kernels are compiled by numba on first use and cached on disk (``cache=True``, like
:mod:`engine.sprouts.tidy_core`); :func:`warm` loads them ahead of the first picture. Every
number comes in as an argument, never as a global (numba bakes globals into the cached code).
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, error_model="numpy")
def stroke(
    region: np.ndarray,
    mask: np.ndarray,
    pts: np.ndarray,
    starts: np.ndarray,
    ends: np.ndarray,
    radius: float,
    lut: np.ndarray,
) -> None:
    """Polylines stroked into ``region`` (an (h, w) uint8 array of palette indices), round
    capped and round joined. Every pixel has four samples, ``(2x, 2y)`` to ``(2x + 1,
    2y + 1)`` in the half-pixel units of ``pts``; a sample within ``radius`` of a polyline is
    covered, and a pixel with ``c > 0`` samples covered becomes ``lut[c]``, its ``mask`` 255
    (``mask`` as ``region``, zero to start with). Polyline ``k`` runs from
    ``pts[starts[k]]`` up to ``pts[ends[k] - 1]``.

    The points within ``radius`` of a polyline are the band along each segment, the disc
    round each end, and at each inner point the sector outside the bend between the two
    bands (the rest of the disc round an inner point lies in a band or in the disc round the
    next point on): each is convex, so it covers one run of samples per row, and together
    they set each sample about once, however short the segments."""
    h, w = region.shape
    bits = np.zeros(h * w, np.uint8)  # bit 2·(Y mod 2) + (X mod 2): sample (X, Y) covered
    out, shown = region.ravel(), mask.ravel()
    top = 2 * h - 1
    r = radius
    for k in range(len(starts)):
        first, last = starts[k], ends[k] - 1
        for q in range(first, last + 1):
            vx, vy = pts[q, 0], pts[q, 1]
            # Into the point (a; zero at the first point) and on from it (b; zero at the last).
            ax, ay, bx, by = 0.0, 0.0, 0.0, 0.0
            if q > first:
                ax, ay = vx - pts[q - 1, 0], vy - pts[q - 1, 1]
            if q < last:
                bx, by = pts[q + 1, 0] - vx, pts[q + 1, 1] - vy
            whole = (ax == 0 and ay == 0) or (bx == 0 and by == 0)
            y0 = max(0, int(np.ceil(vy - r))) >> 1
            y1 = min(top, int(np.floor(vy + r))) >> 1
            for y in range(y0, y1 + 1):
                f0, l0 = _disc_run(vx, vy, r, whole, ax, ay, bx, by, 2 * y, w)
                f1, l1 = _disc_run(vx, vy, r, whole, ax, ay, bx, by, 2 * y + 1, w)
                _put(bits, out, shown, lut, y * w, f0, l0, f1, l1)
            if q == last or (bx == 0 and by == 0):
                continue
            ey = vy + by
            y0 = max(0, int(np.ceil(min(vy, ey) - r))) >> 1
            y1 = min(top, int(np.floor(max(vy, ey) + r))) >> 1
            n = np.sqrt(bx * bx + by * by)
            for y in range(y0, y1 + 1):
                f0, l0 = _band_run(vx, vy, bx, by, n, r, 2 * y, w)
                f1, l1 = _band_run(vx, vy, bx, by, n, r, 2 * y + 1, w)
                _put(bits, out, shown, lut, y * w, f0, l0, f1, l1)


@njit(cache=True, error_model="numpy")
def _disc_run(
    vx: float,
    vy: float,
    r: float,
    whole: bool,
    ax: float,
    ay: float,
    bx: float,
    by: float,
    y: int,
    w: int,
) -> tuple[int, int]:
    """The samples of row ``y`` within ``r`` of ``v``; unless ``whole``, only those of the
    sector outside the bend from ``a`` (into ``v``) to ``b`` (on from it)."""
    dy = y - vy
    if dy * dy > r * r:
        return 1, 0
    s = np.sqrt(r * r - dy * dy)
    left, right = vx - s, vx + s
    if not whole:  # (p - v)·a >= 0 and (p - v)·b <= 0
        left, right = _half(left, right, ax, ay * dy, vx)
        left, right = _half(left, right, -bx, -by * dy, vx)
    return _samples(left, right, w)


@njit(cache=True, error_model="numpy")
def _band_run(
    vx: float, vy: float, bx: float, by: float, n: float, r: float, y: int, w: int
) -> tuple[int, int]:
    """The samples of row ``y`` in the band of the segment from ``v`` along ``b`` (length
    ``n > 0``): within ``r`` of its line (every x when the line is level), and with the foot
    on the segment (between the normals through its ends; every x when it is upright)."""
    dy = y - vy
    left, right = -np.inf, np.inf
    if by != 0:
        mid, c = vx + bx / by * dy, r * n / abs(by)
        left, right = mid - c, mid + c
    elif abs(dy) > r:
        return 1, 0
    if bx != 0:
        x0 = vx - by / bx * dy
        x1 = x0 + n * n / bx
        left, right = max(left, min(x0, x1)), min(right, max(x0, x1))
    elif not 0 <= by * dy <= n * n:
        return 1, 0
    return _samples(left, right, w)


@njit(cache=True, error_model="numpy")
def _half(left: float, right: float, ux: float, c: float, vx: float) -> tuple[float, float]:
    """``(left, right)`` cut to the x with ``ux·(x - vx) + c >= 0``."""
    if ux > 0:
        return max(left, vx - c / ux), right
    if ux < 0:
        return left, min(right, vx - c / ux)
    if c >= 0:
        return left, right
    return np.inf, -np.inf


@njit(cache=True, error_model="numpy")
def _samples(left: float, right: float, w: int) -> tuple[int, int]:
    """The samples of a row of ``w`` pixels from ``left`` to ``right`` (empty: first > last)."""
    if not left <= right:
        return 1, 0
    return max(0, int(np.ceil(left))), min(2 * w - 1, int(np.floor(right)))


@njit(cache=True, error_model="numpy")
def _put(
    bits: np.ndarray,
    out: np.ndarray,
    shown: np.ndarray,
    lut: np.ndarray,
    base: int,
    f0: int,
    l0: int,
    f1: int,
    l1: int,
) -> None:
    """Covers samples ``f0..l0`` of the upper and ``f1..l1`` of the lower sample row of the
    pixels from ``base`` on, and colours and shows the pixels they touch."""
    up, down = f0 <= l0, f1 <= l1
    if not (up or down):
        return
    lo = min(f0 if up else f1, f1 if down else f0) >> 1
    hi = max(l0 if up else l1, l1 if down else l0) >> 1
    for x in range(lo, hi + 1):
        p = 2 * x
        v = (
            ((f0 <= p) & (p <= l0))
            | (((f0 <= p + 1) & (p + 1 <= l0)) << 1)
            | (((f1 <= p) & (p <= l1)) << 2)
            | (((f1 <= p + 1) & (p + 1 <= l1)) << 3)
        )
        if v:  # (the two runs need not overlap)
            i = base + x
            o = bits[i] | v
            bits[i] = o
            out[i] = lut[(o & 1) + ((o >> 1) & 1) + ((o >> 2) & 1) + (o >> 3)]
            shown[i] = 255


def warm() -> None:
    """Load the compiled kernels now (or compile them, the first time on this install), e.g.
    at start-up, rather than inside the first picture."""
    region, mask = np.zeros((2, 8, 8), np.uint8)
    pts = np.array([[2.0, 2.0], [8.0, 3.0], [12.0, 12.0]])
    stroke(region, mask, pts, np.array([0]), np.array([3]), 2.0, np.arange(5, dtype=np.uint8))
