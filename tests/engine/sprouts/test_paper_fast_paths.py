"""The vectorised helpers of the router and the checks give exactly what the plain versions
give."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.sprouts import Game
from engine.sprouts.drawing import (
    STRAIGHT_TOL,
    Drawing,
    _inside_many,
    _straight_runs,
    _stub_runs,
)
from engine.sprouts.mesh import _sorted_has, _split_long, _split_many

coords = st.floats(0.0, 900.0, allow_nan=False).map(lambda v: round(v, 1))
polyline = st.lists(st.tuples(coords, coords), min_size=1, max_size=8)


@settings(max_examples=200, deadline=None)
@given(st.lists(polyline, min_size=1, max_size=6), st.sampled_from([2.0, 4.0, 10.0, 37.5]))
def test_split_many_is_split_long_of_each(lines: list[list[tuple[float, float]]], longest: float):
    arrs = [np.asarray(p, dtype=float).reshape(-1, 2) for p in lines]
    out, at = _split_many(arrs, longest)
    each = [_split_long(a, longest) for a in arrs]
    assert np.array_equal(out, np.concatenate(each))
    for i, part in enumerate(each):
        assert np.array_equal(out[at[i] : at[i + 1]], part)


@given(
    st.lists(st.integers(0, 60), max_size=20).map(lambda v: np.unique(np.asarray(v, dtype=int))),
    st.lists(st.integers(-5, 70), max_size=30).map(lambda v: np.asarray(v, dtype=int)),
)
def test_sorted_has_is_isin(keys: np.ndarray, q: np.ndarray):
    assert np.array_equal(_sorted_has(keys, q), np.isin(q, keys))


def _plain_run(pts: np.ndarray) -> int:
    """Segments straight out of ``pts[0]``, one candidate line at a time."""
    best = 1
    for k in range(1, min(len(pts) - 1, 40)):
        line = pts[k + 1] - pts[0]
        norm = float(np.hypot(*line))
        if norm == 0:
            break
        u = line / norm
        w = pts[1 : k + 2] - pts[0]
        along = w @ u
        off = np.abs(w[:, 0] * u[1] - w[:, 1] * u[0])
        if not (np.all(off <= STRAIGHT_TOL) and np.all(np.diff(along) > 0) and along[0] > 0):
            break
        best = k + 1
    return best


# polylines with a straight start of a few equal steps, then anything
straight_start = st.tuples(
    st.tuples(coords, coords),
    st.sampled_from([(1.0, 0.0), (0.6, 0.8), (-0.5, 0.5), (0.0, -1.0)]),
    st.integers(0, 6),
    st.lists(st.tuples(coords, coords), min_size=1, max_size=5),
).map(
    lambda t: (
        [(t[0][0] + i * 9 * t[1][0], t[0][1] + i * 9 * t[1][1]) for i in range(t[2] + 1)] + t[3]
    )
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(straight_start, polyline.filter(lambda p: len(p) > 1)), max_size=6))
def test_straight_runs_is_the_plain_run_of_each_end(lines: list[list[tuple[float, float]]]):
    arrs = [np.round(np.asarray(p, dtype=float), 1) for p in lines]
    want = [r for a in arrs for r in (_plain_run(a), _plain_run(a[::-1]))]
    assert _straight_runs(arrs) == want


def test_a_moves_drawing_takes_the_old_curves_stubs_from_its_parent():
    rng = np.random.default_rng(3)
    g = Game(5)
    for _ in range(6):
        legal = g.legal_moves()
        g.play(legal[rng.integers(len(legal))])
    d = g.drawing
    _stub_runs(d)
    a, b = d.spots[0], d.spots[1]
    c = (a.x + 40.0, a.y - 30.0)
    first = [(a.x, a.y), (a.x + 10.0, a.y), (a.x + 20.0, a.y), c]
    second = [c, (b.x, b.y + 20.0), (b.x, b.y + 10.0), (b.x, b.y)]
    child = d.with_move(c, first, second)
    assert "_parent__stub_runs" in child.__dict__
    fresh = Drawing([(s.x, s.y) for s in child.spots], child.curves, d.width, d.height)
    assert _stub_runs(child) == _stub_runs(fresh)
    assert _stub_runs(child)[-4:] == [2, 1, 1, 2]
    assert all(np.array_equal(p, q) for p, q in zip(child.arrays, fresh.arrays, strict=True))


def _plain_inside(p: tuple[float, float], poly: np.ndarray) -> bool:
    inside = False
    for (x0, y0), (x1, y1) in zip(poly, np.roll(poly, -1, axis=0), strict=True):
        if (y0 > p[1]) != (y1 > p[1]) and x0 + (p[1] - y0) * (x1 - x0) / (y1 - y0) > p[0]:
            inside = not inside
    return inside


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(coords, coords), min_size=1, max_size=5),
    st.lists(st.lists(st.tuples(coords, coords), min_size=3, max_size=9), min_size=1, max_size=4),
)
def test_inside_many_is_the_plain_ray_test(probes, polys):
    arrs = [np.asarray(p, dtype=float) for p in polys]
    got = _inside_many(probes, arrs)
    assert got.shape == (len(probes), len(arrs))
    for i, p in enumerate(probes):
        for j, a in enumerate(arrs):
            if not any(np.allclose(p, q) for q in a):  # a probe never lies on a polygon
                assert got[i, j] == _plain_inside(p, a)
