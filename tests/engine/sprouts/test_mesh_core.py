"""The router's compiled loops (engine.sprouts.mesh_core) against plain oracles: a
breadth-first search over a dict, a point-by-point smoothing, segment subdivision written
from its definition, and nearest-centre discs by brute force in Python."""

from __future__ import annotations

import itertools
import math
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.sprouts import mesh_core
from engine.sprouts.mesh import _split_many


def _grid_mesh(w: int, h: int) -> tuple[np.ndarray, np.ndarray]:
    """A w x h grid of squares cut into triangles: the triangles' vertex triples and, for
    each, the triangle across the side opposite each vertex (-1 for none)."""
    simp = []
    for y in range(h):
        for x in range(w):
            a, c = y * (w + 1) + x, (y + 1) * (w + 1) + x
            b, d = a + 1, c + 1
            simp += [(a, b, d), (a, d, c)]
    simp_a = np.asarray(simp, dtype=np.int64)
    side_of: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for t, tri in enumerate(simp):
        for k in range(3):
            e = tuple(sorted((tri[(k + 1) % 3], tri[(k + 2) % 3])))
            side_of.setdefault(e, []).append((t, k))
    nb = np.full((len(simp), 3), -1, dtype=np.int64)
    for sides in side_of.values():
        if len(sides) == 2:
            (t0, k0), (t1, k1) = sides
            nb[t0, k0], nb[t1, k1] = t1, t0
    return simp_a, nb


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 6), st.integers(1, 6), st.integers(0, 2**32 - 1))
def test_flood_reaches_what_a_breadth_first_search_reaches(w: int, h: int, seed: int) -> None:
    _, nb = _grid_mesh(w, h)
    rng = np.random.default_rng(seed)
    open_side = rng.random(nb.shape) < 0.6
    open_side &= nb >= 0
    src = int(rng.integers(len(nb)))
    seen = {src}
    todo = [src]
    while todo:
        t = todo.pop()
        for k in range(3):
            u = int(nb[t, k])
            if u >= 0 and open_side[t, k] and u not in seen:
                seen.add(u)
                todo.append(u)
    got = mesh_core.flood(nb, open_side, src)
    assert set(np.flatnonzero(got).tolist()) == seen


def _slide_oracle(
    p0: list[tuple[float, float]],
    d: list[tuple[float, float]],
    t: list[float],
    lo: list[float],
    hi: list[float],
    rounds: int,
) -> list[float]:
    t = list(t)
    n = len(t)
    for _ in range(rounds):
        pts = [(p0[i][0] + t[i] * d[i][0], p0[i][1] + t[i] * d[i][1]) for i in range(n)]
        new = []
        for i in range(n):
            a, b = pts[max(i - 1, 0)], pts[min(i + 1, n - 1)]
            mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
            len2 = max(math.hypot(*d[i]), 1e-9) ** 2
            tt = ((mx - p0[i][0]) * d[i][0] + (my - p0[i][1]) * d[i][1]) / len2
            new.append(min(max(0.5 * t[i] + 0.5 * tt, lo[i]), hi[i]))
        t = new
    return t


@pytest.mark.parametrize("seed", range(5))
def test_slide_moves_points_as_the_stepwise_rule_says(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randint(1, 30)
    p0 = [(rng.uniform(0, 100), rng.uniform(0, 100)) for _ in range(n)]
    d = [(rng.uniform(-20, 20), rng.uniform(-20, 20)) for _ in range(n)]
    lo = [rng.uniform(0, 0.5) for _ in range(n)]
    hi = [x + rng.uniform(0, 0.5) for x in lo]
    t = [min(max(0.5, a), b) for a, b in zip(lo, hi, strict=True)]
    got = mesh_core.slide(
        np.asarray(p0), np.asarray(d), np.asarray(t), np.asarray(lo), np.asarray(hi), 25
    )
    want = _slide_oracle(p0, d, t, lo, hi, 25)
    assert got.tolist() == pytest.approx(want, abs=1e-12)
    # the segments' ends bound every point
    assert all(a - 1e-12 <= x <= b + 1e-12 for x, a, b in zip(got, lo, hi, strict=True))


def test_slide_straightens_a_zigzag_across_parallel_rungs() -> None:
    # rungs x = i from y = -1 to y = 1: a zigzag settles into a straight line
    n = 9
    p0 = np.asarray([(float(i), -1.0) for i in range(n)])
    d = np.asarray([(0.0, 2.0)] * n)
    t0 = np.asarray([0.1 if i % 2 else 0.9 for i in range(n)])
    t0[0] = t0[-1] = 0.5
    t = mesh_core.slide(p0, d, t0, np.zeros(n), np.ones(n), 200)
    assert np.ptp(t) < 1e-6


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.lists(
            st.tuples(st.floats(-50, 50, allow_nan=False), st.floats(-50, 50, allow_nan=False)),
            min_size=1,
            max_size=6,
        ),
        min_size=1,
        max_size=5,
    ),
    st.floats(0.5, 20),
)
def test_split_long_keeps_every_point_and_cuts_each_segment_evenly(
    lines: list[list[tuple[float, float]]], longest: float
) -> None:
    out, at = _split_many([np.asarray(line, dtype=float) for line in lines], longest)
    assert at[0] == 0 and at[-1] == len(out) and len(at) == len(lines) + 1
    for i, line in enumerate(lines):
        piece = out[at[i] : at[i + 1]]
        want = [line[0]]
        for (x0, y0), (x1, y1) in itertools.pairwise(line):
            k = max(1, math.ceil(math.hypot(x1 - x0, y1 - y0) / longest))
            want += [(x0 + (j / k) * (x1 - x0), y0 + (j / k) * (y1 - y0)) for j in range(1, k + 1)]
        assert piece.shape == (len(want), 2)
        assert np.allclose(piece, np.asarray(want), rtol=0, atol=1e-9)
        # every piece no longer than asked (up to rounding)
        if len(piece) > 1:
            assert np.hypot(*np.diff(piece, axis=0).T).max() <= longest + 1e-9


@pytest.mark.parametrize("seed", range(5))
def test_in_discs_is_the_nearest_centres_disc(seed: int) -> None:
    rng = random.Random(seed)
    centres = [(rng.uniform(0, 100), rng.uniform(0, 100)) for _ in range(rng.randint(1, 8))]
    radii = [rng.uniform(1, 30) for _ in centres]
    pts = [(rng.uniform(-10, 110), rng.uniform(-10, 110)) for _ in range(300)]
    got = mesh_core.in_discs(np.asarray(pts), np.asarray(centres), np.asarray(radii))
    for p, g in zip(pts, got, strict=True):
        dist = [math.dist(p, c) for c in centres]
        j = dist.index(min(dist))
        assert bool(g) == (dist[j] < radii[j])


def test_in_discs_with_no_centres_is_nowhere() -> None:
    got = mesh_core.in_discs(np.ones((4, 2)), np.zeros((0, 2)), np.zeros(0))
    assert not got.any()
