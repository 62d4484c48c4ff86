"""The vectorised helpers of the router give exactly what the plain versions give."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

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
