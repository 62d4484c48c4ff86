"""The compiled kernels of the Sprouts picture (:mod:`render.sprouts`): one loop per idea
instead of many Pillow or numpy calls on small arrays, whose cost per call, not the
arithmetic, was what a picture spent its time on.

The kernels are compiled by numba on first use and cached on disk (``cache=True``, like
:mod:`engine.sprouts.tidy_core`); :func:`render.sprouts.warm` loads them ahead of the first
picture. Every number comes in as an argument, never as a global (numba bakes globals into
the cached code). The smoothing's kernels compute exactly what the numpy code they replace
did, operation for operation (no fastmath), so the curves come out bit for bit the same.
"""

from __future__ import annotations

import numpy as np
from numba import njit

SLACK = 1e-7  # rows this near a shape's edge are looked at too (rounding)

# A drawing's arrays as the smoothing kernels take them: seg, curve, from_start, to_end,
# ends, mid, half (see render.sprouts._Sheet); and its room: least, apart, shrink,
# spot_apart and the length of a bend.
Arrays = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]
Rules = tuple[float, float, float, float, float]


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
    (``mask`` as ``region``, zero to start with; or empty, for none). Polyline ``k`` runs from
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
            low, high = _sector_rows(vy, r, whole, ax, ay, bx, by)
            y0 = max(0, int(np.ceil(low))) >> 1
            y1 = min(top, int(np.floor(high))) >> 1
            for y in range(y0, y1 + 1):
                f0, l0 = _disc_run(vx, vy, r, whole, ax, ay, bx, by, 2 * y, w)
                f1, l1 = _disc_run(vx, vy, r, whole, ax, ay, bx, by, 2 * y + 1, w)
                _put(bits, out, shown, lut, y * w, f0, l0, f1, l1)
            if q == last or (bx == 0 and by == 0):
                continue
            # The band is a rectangle: its corners are r from the ends across the segment.
            n = np.sqrt(bx * bx + by * by)
            ey, across = vy + by, r * abs(bx) / n + SLACK
            y0 = max(0, int(np.ceil(min(vy, ey) - across))) >> 1
            y1 = min(top, int(np.floor(max(vy, ey) + across))) >> 1
            # Per row: within r of the line, x within ``c`` of ``vx + slope·dy`` (every x
            # when the line is level); the foot on the segment, x from ``vx - tilt·dy`` on
            # by ``length`` (every x when it is upright).
            slope = bx / by if by != 0 else 0.0
            c = r * n / abs(by) if by != 0 else np.inf
            tilt = by / bx if bx != 0 else 0.0
            length = n * n / bx if bx != 0 else np.inf
            for y in range(y0, y1 + 1):
                f0, l0 = _band_run(vx, vy, bx, by, n, r, slope, c, tilt, length, 2 * y, w)
                f1, l1 = _band_run(vx, vy, bx, by, n, r, slope, c, tilt, length, 2 * y + 1, w)
                _put(bits, out, shown, lut, y * w, f0, l0, f1, l1)


@njit(cache=True, error_model="numpy")
def _sector_rows(
    vy: float, r: float, whole: bool, ax: float, ay: float, bx: float, by: float
) -> tuple[float, float]:
    """The rows the disc of radius ``r`` round ``v`` spans, or unless ``whole`` (or the line
    goes straight on or folds back) the sector of it outside the bend: between ``v`` and
    the two ends of its arc, ``r`` along the normals of ``a`` and ``b`` that face away from
    the bend, and reaching ``r`` straight up or down when that direction lies in it."""
    if whole or ax * by - ay * bx == 0:
        return vy - r - SLACK, vy + r + SLACK
    # The normal of a facing away from b, and of b facing along a (y parts of unit vectors).
    na = ax if (-ay * bx + ax * by) < 0 else -ax
    nb = bx if (-by * ax + bx * ay) > 0 else -bx
    na /= np.sqrt(ax * ax + ay * ay)
    nb /= np.sqrt(bx * bx + by * by)
    high = r if ay >= 0 and by <= 0 else r * max(0.0, na, nb)
    low = -r if ay <= 0 and by >= 0 else r * min(0.0, na, nb)
    return vy + low - SLACK, vy + high + SLACK


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
    vx: float,
    vy: float,
    bx: float,
    by: float,
    n: float,
    r: float,
    slope: float,
    c: float,
    tilt: float,
    length: float,
    y: int,
    w: int,
) -> tuple[int, int]:
    """The samples of row ``y`` in the band of the segment from ``v`` along ``b`` (length
    ``n > 0``; ``slope`` to ``length`` as :func:`stroke` works them out)."""
    dy = y - vy
    left, right = -np.inf, np.inf
    if by != 0:
        mid = vx + slope * dy
        left, right = mid - c, mid + c
    elif abs(dy) > r:
        return 1, 0
    if bx != 0:
        x0 = vx - tilt * dy
        x1 = x0 + length
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
            if len(shown):
                shown[i] = 255


# -- smoothing -------------------------------------------------------------------------------


@njit(cache=True, error_model="numpy")
def pieces(
    p: np.ndarray, seg: np.ndarray, half: np.ndarray, extra: np.ndarray, cap: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Segments (segment ``s`` from ``p[seg[s]]`` to the next point, ``half`` its half
    length) cut into equal pieces no longer than ``2·cap``: each piece's segment, middle,
    half length and the segment's ``extra``."""
    m = len(seg)
    n = np.empty(m, np.int64)
    total = 0
    for s in range(m):
        n[s] = max(1, int(np.ceil(half[s] / cap)))
        total += n[s]
    owner = np.empty(total, np.int64)
    mid = np.empty((total, 2))
    out_half = np.empty(total)
    reach = np.empty(total)
    t = 0
    for s in range(m):
        ax, ay = p[seg[s], 0], p[seg[s], 1]
        bx, by = p[seg[s] + 1, 0], p[seg[s] + 1, 1]
        for k in range(n[s]):
            f = (k + 0.5) / n[s]
            mid[t, 0], mid[t, 1] = ax + (bx - ax) * f, ay + (by - ay) * f
            owner[t], out_half[t], reach[t] = s, half[s] / n[s], extra[s]
            t += 1
    return owner, mid, out_half, reach


@njit(cache=True, error_model="numpy")
def near_pairs(  # noqa: C901  numba-compiled kernel, kept flat
    mid: np.ndarray, half: np.ndarray, reach: np.ndarray, usual: float
) -> tuple[np.ndarray, np.ndarray]:
    """Every pair of pieces with ``d = |mid[i] - mid[j]| <= half[i] + half[j] +
    max(reach[i], reach[j])`` where that reach is positive. The pair's order matters to
    the caller (it measures round the first piece's middle) and is kept as it always was:
    within ``radius = 2·max(half) + usual``, once, the lower index first; further apart,
    from each side whose reach is over ``usual`` and gets there by itself.

    The pieces are put in square cells of side ``radius`` (a count sort), and each piece
    looks through the cells its reach can get to for the pairs it has the larger reach of."""
    n = len(mid)
    none = np.zeros(0, np.int64)
    if n == 0:
        return none, none
    top = half.max()
    cell = radius = 2 * top + usual
    x0, y0 = mid[:, 0].min(), mid[:, 1].min()
    gx = np.empty(n, np.int64)
    gy = np.empty(n, np.int64)
    for i in range(n):
        gx[i] = int((mid[i, 0] - x0) / cell)
        gy[i] = int((mid[i, 1] - y0) / cell)
    nx, ny = gx.max() + 1, gy.max() + 1
    first = np.zeros(nx * ny + 1, np.int64)  # the pieces of cell c: order[first[c]:first[c + 1]]
    for i in range(n):
        first[gy[i] * nx + gx[i] + 1] += 1
    for c in range(nx * ny):
        first[c + 1] += first[c]
    order = np.empty(n, np.int64)
    fill = first[:-1].copy()
    for i in range(n):
        c = gy[i] * nx + gx[i]
        order[fill[c]] = i
        fill[c] += 1
    out = np.empty((2, 4 * n), np.int64)  # grows as needed
    found = 0
    for i in range(n):
        ri = reach[i]
        if ri <= 0:
            continue
        span = int(np.ceil((half[i] + top + ri) / cell))
        for cy in range(max(0, gy[i] - span), min(ny, gy[i] + span + 1)):
            for cx in range(max(0, gx[i] - span), min(nx, gx[i] + span + 1)):
                c = cy * nx + cx
                for t in range(first[c], first[c + 1]):
                    j = order[t]
                    rj = reach[j]
                    if rj > ri or (rj == ri and j <= i):
                        continue  # j's own search finds the pair (or it is i itself)
                    x, y = mid[i, 0] - mid[j, 0], mid[i, 1] - mid[j, 1]
                    most = half[i] + half[j] + ri
                    if x * x + y * y > 1.0000001 * most * most:
                        continue  # clearly too far (the exact test is below)
                    d = np.sqrt(x * x + y * y)
                    if d > most:
                        continue
                    if found + 2 > out.shape[1]:
                        grown = np.empty((2, 2 * out.shape[1]), np.int64)
                        grown[:, :found] = out[:, :found]
                        out = grown
                    if d <= radius:
                        out[0, found], out[1, found] = min(i, j), max(i, j)
                        found += 1
                        continue
                    for a, b in ((i, j), (j, i)):
                        if reach[a] > usual and d <= half[a] + half[b] + reach[a]:
                            out[0, found], out[1, found] = a, b
                            found += 1
    out_i, out_j = out[0, :found].copy(), out[1, :found].copy()
    return out_i, out_j


@njit(cache=True, error_model="numpy")
def point_seg_dist(qx: float, qy: float, ax: float, ay: float, bx: float, by: float) -> float:
    """Distance from ``q`` to the segment ``ab``."""
    ux, uy = bx - ax, by - ay
    vx, vy = qx - ax, qy - ay
    t = min(max((ux * vx + uy * vy) / max(ux * ux + uy * uy, 1e-300), 0.0), 1.0)
    x, y = vx - ux * t, vy - uy * t
    got: float = np.sqrt(x * x + y * y)
    return got


@njit(cache=True, error_model="numpy")
def seg_dist(a: np.ndarray, b: np.ndarray, c: np.ndarray, d: np.ndarray) -> float:
    """Distance between segments ``ab`` and ``cd`` (points as 2-vectors): the least of the
    four distances from an end to the other segment, zero where they cross."""
    ax, ay, bx, by = a[0], a[1], b[0], b[1]
    cx, cy, dx, dy = c[0], c[1], d[0], d[1]
    out = min(
        min(point_seg_dist(ax, ay, cx, cy, dx, dy), point_seg_dist(bx, by, cx, cy, dx, dy)),
        min(point_seg_dist(cx, cy, ax, ay, bx, by), point_seg_dist(dx, dy, ax, ay, bx, by)),
    )
    # Each segment's ends on either side of the other's line: they cross.
    a_side = (dx - cx) * (ay - cy) - (dy - cy) * (ax - cx)
    b_side = (dx - cx) * (by - cy) - (dy - cy) * (bx - cx)
    c_side = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
    d_side = (bx - ax) * (dy - ay) - (by - ay) * (dx - ax)
    if a_side * b_side < 0 and c_side * d_side < 0:
        return 0.0
    return out


@njit(cache=True, error_model="numpy")
def relax(  # noqa: C901  numba-compiled kernel, kept flat
    p: np.ndarray,
    move: np.ndarray,
    shift: np.ndarray,
    sheet: Arrays,
    spots: np.ndarray,
    keep_out: np.ndarray,
    pairs: tuple[np.ndarray, np.ndarray],
    room: Rules,
    back_off: np.ndarray,
    rounds: int,
) -> tuple[bool, np.ndarray]:
    """The measuring part of :func:`render.sprouts._relaxed`: which segment pairs (of
    ``pairs``) and segment–spot pairs a move could bring under their gap, then rounds of
    moving, measuring and stepping back. True and the moved points when every rule holds;
    False when it gave up."""
    seg, curve, from_start, to_end, ends, mid, half = sheet
    least, apart, shrink, spot_apart, bend = room
    i, j = pairs
    pi = np.empty(len(i), np.int64)
    pj = np.empty(len(i), np.int64)
    floor = np.empty(len(i))
    kept = 0
    for t in range(len(i)):
        a, b = i[t], j[t]
        sa, sb = seg[a], seg[b]
        if curve[sa] == curve[sb] and abs(sb - sa) <= 1:
            continue  # neighbours along a curve
        if not (shift[a] > 0 or shift[b] > 0):
            continue
        before = seg_dist(p[sa], p[sa + 1], p[sb], p[sb + 1])
        least_here = min(before, least)
        visual = max(least_here, min(before, apart) - shrink)
        if not before - shift[a] - shift[b] < visual:
            continue  # this pair holds whatever moves
        if not _together(sa, sb, mid[a], curve, from_start, ends, spots, bend, spot_apart):
            least_here = visual
        pi[kept], pj[kept], floor[kept] = a, b, least_here
        kept += 1
    # Segment and spot pairs likewise.
    moving = 0
    for a in range(len(seg)):
        if shift[a] > 0:
            moving += 1
    sk = np.empty(moving * len(spots), np.int64)
    ss = np.empty(moving * len(spots), np.int64)
    spot_floor = np.empty(moving * len(spots))
    kept_spots = 0
    for a in range(len(seg)):
        if not shift[a] > 0:
            continue
        reach = half[a] + spot_apart + shift[a]
        sa = seg[a]
        for s in range(len(spots)):
            x, y = mid[a, 0] - spots[s, 0], mid[a, 1] - spots[s, 1]
            if not np.sqrt(x * x + y * y) <= reach:
                continue
            qx, qy = spots[s, 0], spots[s, 1]
            before = point_seg_dist(qx, qy, p[sa, 0], p[sa, 1], p[sa + 1, 0], p[sa + 1, 1])
            least_here = min(before, least)
            visual = max(least_here, min(before, keep_out[s]) - shrink)
            if not _home(sa, s, curve, from_start, to_end, ends, spot_apart):
                least_here = visual
            if before - shift[a] < least_here:
                sk[kept_spots], ss[kept_spots], spot_floor[kept_spots] = a, s, least_here
                kept_spots += 1
    # Measure, step back where a rule breaks, measure again what changed.
    n = len(p)
    step = np.zeros(n, np.int64)
    changed = np.ones(n, np.bool_)
    bad = np.zeros(n, np.bool_)
    new = np.empty_like(p)
    last = len(back_off) - 1
    for r in range(rounds):
        for x in range(n):
            f = back_off[step[x]]
            new[x, 0] = p[x, 0] + move[x, 0] * f
            new[x, 1] = p[x, 1] + move[x, 1] * f
        bad[:] = False
        for t in range(kept):
            sa, sb = seg[pi[t]], seg[pj[t]]
            if not (changed[sa] or changed[sa + 1] or changed[sb] or changed[sb + 1]):
                continue
            if seg_dist(new[sa], new[sa + 1], new[sb], new[sb + 1]) < floor[t]:
                bad[sa] = bad[sa + 1] = bad[sb] = bad[sb + 1] = True
        for t in range(kept_spots):
            sa, s = seg[sk[t]], ss[t]
            if not (changed[sa] or changed[sa + 1]):
                continue
            qx, qy = spots[s, 0], spots[s, 1]
            d = point_seg_dist(qx, qy, new[sa, 0], new[sa, 1], new[sa + 1, 0], new[sa + 1, 1])
            if d < spot_floor[t]:
                bad[sa] = bad[sa + 1] = True
        done = True
        for x in range(n):
            changed[x] = bad[x] and step[x] < last
            if changed[x]:
                done = False
                # After two rounds a point that still breaks a rule stops moving.
                step[x] = last if r >= 2 else step[x] + 1
        if done:
            return True, new
    return False, p


@njit(cache=True, error_model="numpy")
def _together(
    a: int,
    b: int,
    where: np.ndarray,
    curve: np.ndarray,
    from_start: np.ndarray,
    ends: np.ndarray,
    spots: np.ndarray,
    bend: float,
    spot_apart: float,
) -> bool:
    """Whether the parts at points ``a`` and ``b`` run close by nature, so that only the
    least gap holds between them: two curves that end at one spot ``where`` lies near
    (within its ring), or one curve near itself along its length (a tight bend)."""
    e, f = curve[a], curve[b]
    if e == f and abs(from_start[a] - from_start[b]) < bend:
        return True
    for end in range(2):
        s = ends[e, end]
        if s >= 0 and (ends[f, 0] == s or ends[f, 1] == s):
            x, y = where[0] - spots[s, 0], where[1] - spots[s, 1]
            if np.sqrt(x * x + y * y) < spot_apart:
                return True
    return False


@njit(cache=True, error_model="numpy")
def _home(
    at: int,
    spot: int,
    curve: np.ndarray,
    from_start: np.ndarray,
    to_end: np.ndarray,
    ends: np.ndarray,
    spot_apart: float,
) -> bool:
    """Whether ``spot`` is an end of the curve of point ``at``, no further along the curve
    than two rings' width: near its own spot a curve may run in (it ends there)."""
    e = curve[at]
    near: bool = (ends[e, 0] == spot and from_start[at] < 2 * spot_apart) or (
        ends[e, 1] == spot and to_end[at] < 2 * spot_apart
    )
    return near


@njit(cache=True, error_model="numpy")
def corner_limit(
    p: np.ndarray,
    corners: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    sheet: Arrays,
    spots: np.ndarray,
    keep_out: np.ndarray,
    pairs: tuple[np.ndarray, np.ndarray],
    enough: tuple[np.ndarray, np.ndarray],
    room: Rules,
) -> np.ndarray:
    """The measuring part of :func:`render.sprouts._corner_limit`: for each corner (``at``,
    ``v``, ``u``, ``w``, ``reach``) the least room over the segments of ``pairs`` next to it
    and over the spots near it. ``enough`` is the room beyond which more does not matter,
    for segments and for spots."""
    at, v, u, w, reach = corners
    seg, curve, from_start, to_end, ends, mid, half = sheet
    least, apart, shrink, spot_apart, bend = room
    enough_seg, enough_spot = enough
    n = len(at)
    corner_of = np.full(len(p), -1, np.int64)
    arm_in = np.empty((n, 2))
    arm_out = np.empty((n, 2))
    for c in range(n):
        corner_of[at[c]] = c
        for k in range(2):
            arm_in[c, k] = v[c, k] - u[c, k] * reach[c]
            arm_out[c, k] = v[c, k] + w[c, k] * reach[c]
    out = np.full(n, np.inf)
    i, j = pairs
    for t in range(len(i)):
        for side in range(2):
            near, other = (i[t], j[t]) if side == 0 else (j[t], i[t])
            so = seg[other]
            for point in (seg[near], seg[near] + 1):
                c = corner_of[point]
                if c < 0 or so == at[c] - 1 or so == at[c]:
                    continue  # not a corner, or one of the two segments it joins
                x, y = v[c, 0] - mid[other, 0], v[c, 1] - mid[other, 1]
                if not np.sqrt(x * x + y * y) <= reach[c] + enough_seg[c] + half[other]:
                    continue
                d = min(
                    seg_dist(arm_in[c], v[c], p[so], p[so + 1]),
                    seg_dist(v[c], arm_out[c], p[so], p[so + 1]),
                )
                room_here = (d - least) / 2
                if not _together(at[c], so, v[c], curve, from_start, ends, spots, bend, spot_apart):
                    room_here = min(room_here, max(shrink / 2, (d - apart) / 2))
                out[c] = min(out[c], room_here)
    # Spots: they stay, so the piece may come all of its allowance nearer.
    for c in range(n):
        for s in range(len(spots)):
            qx, qy = spots[s, 0], spots[s, 1]
            x, y = v[c, 0] - qx, v[c, 1] - qy
            if not np.sqrt(x * x + y * y) <= reach[c] + enough_spot[c]:
                continue
            d = min(
                point_seg_dist(qx, qy, arm_in[c, 0], arm_in[c, 1], v[c, 0], v[c, 1]),
                point_seg_dist(qx, qy, v[c, 0], v[c, 1], arm_out[c, 0], arm_out[c, 1]),
            )
            room_here = d - least
            if not _home(at[c], s, curve, from_start, to_end, ends, spot_apart):
                room_here = min(room_here, max(shrink, d - keep_out[s]))
            out[c] = min(out[c], room_here)
    return out
