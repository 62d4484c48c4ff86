"""The compiled kernels of the Sprouts picture (render/sprouts_core.py) against plain numpy
and k-d tree versions of what they compute (the code they replaced), on random games'
positions, and the strokes they draw against the Pillow strokes the pictures were drawn with
before (2× layer, halved), on the engine's own curves."""

from __future__ import annotations

import functools
import itertools
import math
import random
from typing import Any

import numpy as np
import pytest
from PIL import Image, ImageDraw
from scipy.spatial import cKDTree

import engine
from render import sprouts
from render import sprouts_core as core
from render.common import INK, PLAYER, ink

COUNTS = np.arange(5, dtype=np.uint8)  # a "ramp" that shows the covered samples' count


def reference_cover(lines: list[np.ndarray], radius: float, h: int, w: int) -> np.ndarray:
    """Samples covered per pixel, measured plainly: every sample's distance to every
    segment (sample (X, Y) at (X, Y), pixel (x, y) holding 2x, 2x + 1 by 2y, 2y + 1)."""
    Y, X = np.mgrid[0 : 2 * h, 0 : 2 * w].astype(float)
    best = np.full(X.shape, np.inf)
    for line in lines:
        for a, b in itertools.pairwise(line):
            u = b - a
            vx, vy = X - a[0], Y - a[1]
            t = np.clip((u[0] * vx + u[1] * vy) / max(float(u @ u), 1e-300), 0.0, 1.0)
            best = np.minimum(best, (vx - u[0] * t) ** 2 + (vy - u[1] * t) ** 2)
    hit = (best <= radius * radius).astype(np.uint8)
    return hit[0::2, 0::2] + hit[0::2, 1::2] + hit[1::2, 0::2] + hit[1::2, 1::2]


def kernel_cover(lines: list[np.ndarray], radius: float, h: int, w: int) -> np.ndarray:
    region, mask = np.zeros((2, h, w), np.uint8)
    sizes = np.asarray([len(a) for a in lines], dtype=np.int64)
    ends = np.cumsum(sizes)
    core.stroke(region, mask, np.concatenate(lines), ends - sizes, ends, radius, COUNTS)
    assert np.array_equal(mask > 0, region > 0)
    return region


def _random_lines(rng: np.random.Generator) -> list[np.ndarray]:
    lines = []
    for _ in range(int(rng.integers(1, 4))):
        n = int(rng.integers(2, 12))
        steps = rng.normal(0, float(rng.choice([0.5, 4.0, 15.0])), (n, 2))
        line = np.cumsum(steps, axis=0) + rng.uniform(10, 70, 2)
        if rng.random() < 0.3:  # a repeated point, a fold back, a level or upright segment
            k = int(rng.integers(0, n - 1))
            kind = int(rng.integers(0, 4))
            if kind == 0:
                line[k + 1] = line[k]
            elif kind == 1 and k > 0:
                line[k + 1] = line[k - 1]
            else:
                line[k + 1, kind - 2] = line[k, kind - 2]
        lines.append(line)
    return lines


def test_the_stroke_kernel_covers_exactly_the_samples_near_the_lines() -> None:
    rng = np.random.default_rng(7)
    covered = 0
    for _ in range(80):
        lines = _random_lines(rng)
        radius = float(rng.choice([0.5, 2.0, 5.85, 11.25]))
        want = reference_cover(lines, radius, 45, 45)
        assert np.array_equal(kernel_cover(lines, radius, 45, 45), want)
        covered += int((want > 0).sum())
    assert covered > 5000  # lines mostly inside the box: the comparison is not vacuous


def test_the_stroke_kernel_keeps_off_pixels_it_does_not_cover() -> None:
    region = np.full((10, 10), 9, np.uint8)
    mask = np.zeros_like(region)
    # Two rows of samples whose runs do not overlap: the pixels between stay as they were.
    pts = np.array([[0.0, 0.0], [19.0, 0.0]])
    core.stroke(region, mask, pts, np.array([0]), np.array([2]), 0.5, COUNTS)
    assert set(np.unique(region[1:])) == {9} and not mask[1:].any()
    assert region[0].tolist() == [2] * 10 and mask[0].tolist() == [255] * 10


# -- against the strokes the pictures were drawn with before ----------------------------------


def pillow_stroke(img: Image.Image, lines: list[np.ndarray], width: float, fg: Any) -> None:
    """The former ``render.sprouts._stroke``: Pillow lines on a 2×-size layer with round caps
    (and round joints at turns over 20 degrees), halved, mapped through the colour ramp."""
    every = np.concatenate(lines)
    pad = width + 2
    (lx, ly), (hx, hy) = every.min(axis=0), every.max(axis=0)
    x0, y0 = max(0, int(lx - pad)), max(0, int(ly - pad))
    x1, y1 = min(img.width, int(hx + pad) + 1), min(img.height, int(hy + pad) + 1)
    big = Image.new("L", ((x1 - x0) * 2, (y1 - y0) * 2), 0)
    d = ImageDraw.Draw(big)
    w = max(1, round(width * 2))
    dots = []
    for line in lines:
        pts = (line - (x0, y0)) * 2
        d.line(pts.ravel().tolist(), fill=255, width=w)
        dots += [pts[0], pts[-1]]
        u, v = np.diff(pts, axis=0)[:-1], np.diff(pts, axis=0)[1:]
        norm = np.hypot(*u.T) * np.hypot(*v.T)
        turn = (norm > 0) & ((u * v).sum(axis=1) < math.cos(math.radians(20)) * norm)
        dots += list(pts[1:-1][turn])
    for px, py in dots:
        d.ellipse((px - w / 2, py - w / 2, px + w / 2, py + w / 2), fill=255)
    cover = big.reduce(2)
    style = ink(fg)
    img.paste(cover.point(style.lut), (x0, y0), cover.point(style.mask))


def _engine_curves(spots: int, seed: int) -> tuple[Any, list[np.ndarray]]:
    """A random game's smoothed curves in pixels, after two moves per spot."""
    g = engine.new("sprouts", spots=spots)
    rng = random.Random(seed)
    for _ in range(2 * spots):
        g.play(rng.choice(g.legal_moves()))
    lay, fit = sprouts.layout(g, {})
    smooth = sprouts.smooth_curves(g.drawing, sprouts.Room.of(lay, fit.k))
    return lay, [fit.array(c) for c in smooth]


@pytest.mark.parametrize(("spots", "seed"), [(5, 1), (9, 2)])
def test_strokes_look_as_the_pillow_strokes_did(spots: int, seed: int) -> None:
    """The same ink where it was, up to antialiasing. Pillow put each segment's ends on
    whole samples (a quarter pixel) and left seams and notches at joints, so edge pixels
    differ by a step or two of the ramp, and a few holes are filled: about 19% of the thin
    strokes' pixels and 8% of the thick ones' differ, the ink within 1%. Moving the strokes
    half a pixel makes it 28% and 16%; widening them half a pixel, 5 to 9% more ink."""
    lay, curves = _engine_curves(spots, seed)
    for width, fg, most in ((lay.curve_width, INK, 0.23), (lay.curve_width * 1.9, PLAYER[1], 0.12)):
        old = Image.new("L", (lay.width, lay.height), 0)
        new = np.zeros((lay.height, lay.width), dtype=np.uint8)
        pillow_stroke(old, curves, width, fg)
        sprouts._stroke_into(new, curves, width, fg)
        ramp = np.zeros(256, dtype=np.int64)  # palette index -> step of the ramp
        for k, c in enumerate(ink(fg).ramp):
            ramp[c] = k
        a, b = ramp[np.asarray(old)], ramp[np.asarray(new)]
        assert abs(int(b.sum()) - int(a.sum())) <= 0.025 * a.sum()  # the same weight
        assert (a != b).sum() <= most * (a > 0).sum()  # at the edges


# -- the smoothing's kernels against the numpy and k-d tree code they replace -----------------


def numpy_point_seg_dist(q: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    (ux, uy), (vx, vy) = (b - a).T, (q - a).T
    t = np.clip((ux * vx + uy * vy) / np.maximum(ux * ux + uy * uy, 1e-300), 0.0, 1.0)
    x, y = vx - ux * t, vy - uy * t
    return np.sqrt(x * x + y * y)


def numpy_seg_dist(p0: np.ndarray, p1: np.ndarray, q0: np.ndarray, q1: np.ndarray) -> np.ndarray:
    n = len(p0)
    q = np.concatenate([p0, p1, q0, q1])
    a, b = np.concatenate([q0, q0, p0, p0]), np.concatenate([q1, q1, p1, p1])
    d = numpy_point_seg_dist(q, a, b).reshape(4, n).min(axis=0)
    u, v = b - a, q - a
    side = (u[:, 0] * v[:, 1] - u[:, 1] * v[:, 0]).reshape(4, n)
    d[(side[0] * side[1] < 0) & (side[2] * side[3] < 0)] = 0.0
    return d


def kdtree_pairs(
    mid: np.ndarray, half: np.ndarray, reach: np.ndarray, usual: float
) -> set[tuple[int, int]]:
    """The pieces' pairs as two k-d tree queries found them (the order in each pair too)."""
    radius = 2 * float(half.max()) + usual
    tree = cKDTree(mid)
    pi, pj = tree.query_pairs(radius, output_type="ndarray").T
    d = np.hypot(*(mid[pi] - mid[pj]).T)
    keep = ((reach[pi] > 0) | (reach[pj] > 0)) & (
        d <= half[pi] + half[pj] + np.maximum(reach[pi], reach[pj])
    )
    found = set(zip(pi[keep].tolist(), pj[keep].tolist(), strict=True))
    far = np.nonzero(reach > usual)[0]
    if len(far):
        got = cKDTree(mid[far]).sparse_distance_matrix(
            tree, float((half + reach)[far].max() + half.max()), output_type="ndarray"
        )
        pi, pj = far[got["i"]], got["j"].astype(np.int64)
        keep = (got["v"] > radius) & (got["v"] <= half[pi] + half[pj] + reach[pi])
        found |= set(zip(pi[keep].tolist(), pj[keep].tolist(), strict=True))
    return found


@functools.cache
def _sheets() -> list[Any]:
    """The sheets (drawings as arrays) of random games' positions, as smoothing sees them."""
    out = []
    for spots, seed in ((4, 3), (9, 4)):
        g = engine.new("sprouts", spots=spots)
        rng = random.Random(seed)
        while not g.over:
            g.play(rng.choice(g.legal_moves()))
            if g.ply % 4 == 0:
                lay, fit = sprouts.layout(g, {})
                room = sprouts.Room.of(lay, fit.k)
                pts, sizes = sprouts.curve_points(g.drawing)
                spots_at = sprouts.spot_points(g.drawing)
                ends = np.zeros((len(sizes), 2), dtype=np.int64)
                keep_out = np.full(len(spots_at), room.spot_apart)
                out.append((sprouts._Sheet.of(pts, sizes, spots_at, keep_out, ends), room))
    return out


def test_the_distance_kernels_measure_as_numpy_did_bit_for_bit() -> None:
    rng = np.random.default_rng(3)
    pairs = 0
    for sheet, room in _sheets():
        seg, p = sheet.seg, sheet.p
        q0, q1 = p[seg], p[seg + 1]
        # Segment pairs as smoothing meets them: near ones, found by the kernel.
        extra = np.where(rng.random(len(seg)) < 0.8, room.apart * rng.random(len(seg)), 0.0)
        i, j = sheet.pairs(extra)
        pairs += len(i)
        got = [core.seg_dist(q0[a], q1[a], q0[b], q1[b]) for a, b in zip(i, j, strict=True)]
        assert np.array_equal(got, numpy_seg_dist(q0[i], q1[i], q0[j], q1[j]))
        a, b, c, d = (p[rng.integers(0, len(p), len(seg))] for _ in range(4))  # some cross
        got = [core.seg_dist(*abcd) for abcd in zip(a, b, c, d, strict=True)]
        assert np.array_equal(got, numpy_seg_dist(a, b, c, d))
        q = sheet.spots[rng.integers(0, len(sheet.spots), len(seg))]
        got = [core.point_seg_dist(*x, *y, *z) for x, y, z in zip(q, q0, q1, strict=True)]
        assert np.array_equal(got, numpy_point_seg_dist(q, q0, q1))
    assert pairs > 1000


# The numpy code the relaxing and corner kernels replaced (render/sprouts.py at 4b39725).


def numpy_together(sheet: Any, a: Any, b: Any, where: Any, room: Any) -> Any:
    e, f = sheet.curve[a], sheet.curve[b]
    bend = np.abs(sheet.from_start[a] - sheet.from_start[b]) < sprouts.BEND_LENGTH * room.apart
    out = (e == f) & bend
    for end in (0, 1):
        s = sheet.ends[e, end]
        shared = (s >= 0) & ((sheet.ends[f, 0] == s) | (sheet.ends[f, 1] == s))
        out |= shared & (np.hypot(*(where - sheet.spots[s]).T) < room.spot_apart)
    return out


def numpy_home(sheet: Any, at: Any, spot: Any, room: Any) -> Any:
    e = sheet.curve[at]
    return ((sheet.ends[e, 0] == spot) & (sheet.from_start[at] < 2 * room.spot_apart)) | (
        (sheet.ends[e, 1] == spot) & (sheet.to_end[at] < 2 * room.spot_apart)
    )


def numpy_spot_pairs(at: Any, reach: Any, spots: Any) -> tuple[Any, ...]:
    x, y = (at[:, None, :] - spots[None, :, :]).transpose(2, 0, 1)
    return np.nonzero(np.sqrt(x * x + y * y) <= reach[:, None])


def numpy_relaxed_points(sheet: Any, room: Any) -> Any:
    """The relaxed points (the input's when relaxing gave up), from the same aim."""
    p, seg = sheet.p, sheet.seg
    aim = sprouts._relax_aim(sheet, room)
    if aim is None:
        return p
    move, shift = aim
    i, j = sheet.pairs(np.where(shift > 0, room.apart + 2 * shift, 0.0))
    keep = (sheet.curve[seg[i]] != sheet.curve[seg[j]]) | (np.abs(seg[j] - seg[i]) > 1)
    keep &= (shift[i] > 0) | (shift[j] > 0)
    i, j = i[keep], j[keep]
    q0, q1 = p[seg], p[seg + 1]
    before = numpy_seg_dist(q0[i], q1[i], q0[j], q1[j])
    floor = np.minimum(before, room.least)
    visual = np.maximum(floor, np.minimum(before, room.apart) - room.shrink)
    keep = before - shift[i] - shift[j] < visual
    i, j, floor, visual = i[keep], j[keep], floor[keep], visual[keep]
    floor = np.where(numpy_together(sheet, seg[i], seg[j], sheet.mid[i], room), floor, visual)
    moving = np.nonzero(shift > 0)[0]
    reach = sheet.half[moving] + room.spot_apart + shift[moving]
    k, s = numpy_spot_pairs(sheet.mid[moving], reach, sheet.spots)
    k = moving[k]
    spot_before = numpy_point_seg_dist(sheet.spots[s], q0[k], q1[k])
    spot_floor = np.minimum(spot_before, room.least)
    visual = np.maximum(spot_floor, np.minimum(spot_before, sheet.keep_out[s]) - room.shrink)
    spot_floor = np.where(numpy_home(sheet, seg[k], s, room), spot_floor, visual)
    keep = spot_before - shift[k] < spot_floor
    k, s, spot_floor = k[keep], s[keep], spot_floor[keep]
    step = np.zeros(len(p), dtype=np.int64)
    changed = np.ones(len(p), dtype=bool)
    last = len(sprouts.BACK_OFF) - 1
    for rounds in range(sprouts.RELAX_ROUNDS):
        new = p + move * sprouts.BACK_OFF[step][:, None]
        n0, n1 = new[seg], new[seg + 1]
        pairs = changed[seg[i]] | changed[seg[i] + 1] | changed[seg[j]] | changed[seg[j] + 1]
        pi, pj = i[pairs], j[pairs]
        bad = numpy_seg_dist(n0[pi], n1[pi], n0[pj], n1[pj]) < floor[pairs]
        spot_pairs = changed[seg[k]] | changed[seg[k] + 1]
        pk = k[spot_pairs]
        far = numpy_point_seg_dist(sheet.spots[s[spot_pairs]], n0[pk], n1[pk])
        bad_spot = far < spot_floor[spot_pairs]
        points = np.concatenate([seg[pi[bad]], seg[pj[bad]], seg[pk[bad_spot]]])
        points = np.concatenate([points, points + 1])
        points = points[step[points] < last]
        if not len(points):
            return new
        step[points] = last if rounds >= 2 else step[points] + 1
        changed[:] = False
        changed[points] = True
    return p


def numpy_corner_limit(sheet: Any, room: Any, c: Any, need: Any) -> Any:
    arm_in, arm_out = c.v - c.u * c.reach[:, None], c.v + c.w * c.reach[:, None]
    seg, q0, q1 = sheet.seg, sheet.p[sheet.seg], sheet.p[sheet.seg + 1]
    enough = np.where(need <= room.shrink / 2, room.least, room.apart) + 2 * need
    corner_of = np.full(len(sheet.p), -1)
    corner_of[c.at] = np.arange(len(c.at))
    reach = np.zeros(len(seg))
    seg_in, seg_out = np.searchsorted(seg, c.at - 1), np.searchsorted(seg, c.at)
    np.maximum.at(reach, seg_in, enough)
    np.maximum.at(reach, seg_out, enough)
    i, j = sheet.pairs(reach)
    near, other = np.concatenate([i, j]), np.concatenate([j, i])
    ci = np.concatenate([corner_of[seg[near]], corner_of[seg[near] + 1]])
    sj = np.concatenate([other, other])
    keep = (ci >= 0) & (seg[sj] != c.at[ci] - 1) & (seg[sj] != c.at[ci])
    ci, sj = ci[keep], sj[keep]
    dist = sprouts._length(*(c.v[ci] - sheet.mid[sj]).T)
    keep = dist <= c.reach[ci] + enough[ci] + sheet.half[sj]
    ci, sj = ci[keep], sj[keep]
    d = np.minimum(
        numpy_seg_dist(arm_in[ci], c.v[ci], q0[sj], q1[sj]),
        numpy_seg_dist(c.v[ci], arm_out[ci], q0[sj], q1[sj]),
    )
    least = (d - room.least) / 2
    visual = np.minimum(least, np.maximum(room.shrink / 2, (d - room.apart) / 2))
    out = np.full(len(c.at), np.inf)
    together = numpy_together(sheet, c.at[ci], seg[sj], c.v[ci], room)
    np.minimum.at(out, ci, np.where(together, least, visual))
    enough = np.where(need <= room.shrink, room.least, room.spot_apart) + need
    ck, s = numpy_spot_pairs(c.v, c.reach + enough, sheet.spots)
    spot = sheet.spots[s]
    d = np.minimum(
        numpy_point_seg_dist(spot, arm_in[ck], c.v[ck]),
        numpy_point_seg_dist(spot, c.v[ck], arm_out[ck]),
    )
    least = d - room.least
    visual = np.minimum(least, np.maximum(room.shrink, d - sheet.keep_out[s]))
    np.minimum.at(out, ck, np.where(numpy_home(sheet, c.at[ck], s, room), least, visual))
    return out


def test_relaxing_and_rounding_measure_as_numpy_did_bit_for_bit() -> None:
    """On real drawings (their spots dead and alive, curves meeting at them), as smoothing
    sees them: the relaxed points, and how far each corner may be cut."""
    corners = 0
    for spots, seed in ((5, 1), (8, 2), (11, 3)):
        g = engine.new("sprouts", spots=spots)
        rng = random.Random(seed)
        while not g.over:
            g.play(rng.choice(g.legal_moves()))
            lay, fit = sprouts.layout(g, {})
            room = sprouts.Room.of(lay, fit.k)
            pts, sizes, spots_xy, dead, ends = (
                a.tobytes() for a in sprouts._sheet_arrays(g.drawing)
            )
            sheet, step = sprouts._sheet(pts, sizes, spots_xy, dead, ends, room), room.halved()
            relaxed = sprouts._relaxed(sheet, step)
            assert np.array_equal(relaxed.p, numpy_relaxed_points(sheet, step))
            c = sprouts._Corners.of(relaxed)
            need = np.minimum(c.need, step.most)
            got = sprouts._corner_limit(relaxed, step, c, need)
            assert np.array_equal(got, numpy_corner_limit(relaxed, step, c, need))
            corners += len(c.at)
    assert corners > 1000


def test_the_pair_kernel_finds_the_pairs_and_orders_the_k_d_tree_did() -> None:
    rng = np.random.default_rng(5)
    checked = 0
    for sheet, room in _sheets():
        n = len(sheet.seg)
        mid, half = sheet.mid, sheet.half
        reach = np.where(rng.random(n) < 0.7, room.apart * (1 + 6 * rng.random(n) ** 4), 0.0)
        usual = float(np.quantile(reach[reach > 0], 0.9))
        i, j = core.near_pairs(mid, half, reach, usual)
        got = list(zip(i.tolist(), j.tolist(), strict=True))
        assert len(got) == len(set(got))
        assert set(got) == kdtree_pairs(mid, half, reach, usual)
        checked += len(got)
    assert checked > 1000
