"""The triangulation router's own pieces (:mod:`engine.sprouts.mesh`): what it takes for an
obstacle, and which part of the drawing it triangulates."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.sprouts import Game, mesh
from engine.sprouts.drawing import SPOT_GAP, Drawing, DrawingError, check_geometry
from engine.sprouts.game import _table
from engine.sprouts.mesh import (
    CLEAR,
    FAR,
    TIP,
    VIA_PULL,
    _face,
    _Mesh,
    _MeshRouter,
    _odd_crossings,
    _passed_twice,
    _point_seg_many,
    _slide,
    _thin,
    route_mesh,
)
from engine.sprouts.paper import request_for
from engine.sprouts.routing import Request, _Fail


def _random_drawing(n: int, seed: int, plies: int) -> Game:
    rng = random.Random(seed)
    g = Game(n)
    while not g.over and g.ply < plies:
        g.play(rng.choice(g.legal_moves()))
    return g


def _true_distance(d: Drawing, probes: np.ndarray) -> np.ndarray:
    """The distance from each probe to the nearest spot or curve, exactly."""
    spots = np.asarray([(s.x, s.y) for s in d.spots])
    out = np.hypot(*(probes[:, None] - spots[None]).transpose(2, 0, 1)).min(axis=1)
    for a in d.arrays:
        for i, p in enumerate(probes):
            k = len(a) - 1
            dist = _point_seg_many(np.broadcast_to(p, (k, 2)), a[:-1], a[1:]).min()
            out[i] = min(out[i], dist)
    return out


@pytest.mark.parametrize(("n", "seed", "plies"), [(3, 0, 0), (5, 1, 3), (8, 2, 9)])
def test_obstacles_are_the_spots_and_the_curves_only(n: int, seed: int, plies: int) -> None:
    """The tree of obstacles (room ahead of a stub, room for the new spot) holds the spots and
    points along the curves: never a point on the line from one spot to the next (the spots
    were once sampled as if they were a polyline 1-2-...-n)."""
    g = _random_drawing(n, seed, plies)
    d = g.drawing
    ch = _table(d).choices[g.legal_moves()[0]]
    router = _MeshRouter(d, request_for(d, ch))
    spots = np.asarray([(s.x, s.y) for s in d.spots])
    rng = np.random.default_rng(seed)
    # probes between consecutive spots (where the phantom points were) and anywhere
    t = rng.random((len(spots) - 1, 1))
    probes = np.concatenate(
        [spots[:-1] + t * (spots[1:] - spots[:-1]), rng.random((40, 2)) * (d.width, d.height)]
    )
    got = router.obstacles.query(probes)[0]
    want = _true_distance(d, probes)
    assert np.all(got >= want - 1e-9)  # nothing where there is nothing
    assert np.all(got <= want + 2.0)  # curves sampled every 4 units at most


def _plain_slide(p0: np.ndarray, d: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """The smoothing as first written: through the points at every step."""
    length2 = np.maximum(np.hypot(*d.T), 1e-9) ** 2
    t = np.clip(0.5, lo, hi)
    for _ in range(80):
        pts = p0 + t[:, None] * d
        target = (np.concatenate([pts[:1], pts[:-1]]) + np.concatenate([pts[1:], pts[-1:]])) / 2
        tt = np.einsum("ij,ij->i", target - p0, d) / length2
        t = np.clip(0.5 * t + 0.5 * tt, lo, hi)
    return t


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 30), st.integers(0, 2**32 - 1))
def test_slide_is_the_plain_smoothing(n: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    p0 = rng.random((n, 2)) * 100
    d = rng.normal(size=(n, 2)) * 20
    lo = rng.random(n) * 0.5
    hi = lo + rng.random(n) * 0.5
    assert np.allclose(_slide(p0, d, lo, hi), _plain_slide(p0, d, lo, hi), rtol=0, atol=1e-9)


def _plain_odd(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> bool:
    odd = False
    for (x0, y0), (x1, y1) in zip(a, b, strict=True):
        crosses = min(y0, y1) <= p[1] < max(y0, y1)
        if crosses and x0 + (p[1] - y0) * (x1 - x0) / (y1 - y0) > p[0]:
            odd = not odd
    return odd


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 40), st.integers(0, 60), st.integers(0, 2**32 - 1))
def test_odd_crossings_is_the_plain_ray_test(k: int, m: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    # coordinates on a coarse grid, so that points often share a y with segment ends
    a = rng.integers(0, 20, size=(k, 2)).astype(float)
    b = rng.integers(0, 20, size=(k, 2)).astype(float)
    pts = rng.integers(0, 20, size=(m, 2)) + 0.5 * rng.integers(0, 2, size=(m, 2))
    got = _odd_crossings(pts, a, b)
    assert got.tolist() == [_plain_odd(p, a, b) for p in pts]


def _area(m: _Mesh, tris: np.ndarray) -> np.ndarray:
    a, b, c = (m.P[m.simplices[tris, k]] for k in range(3))
    return 0.5 * np.abs(
        (b[:, 0] - a[:, 0]) * (c[:, 1] - a[:, 1]) - (b[:, 1] - a[:, 1]) * (c[:, 0] - a[:, 0])
    )


@pytest.mark.parametrize(("n", "seed", "plies"), [(4, 0, 5), (6, 3, 8), (8, 5, 12), (9, 7, 17)])
def test_the_face_alone_is_meshed_whole(n: int, seed: int, plies: int) -> None:
    """Meshing only the face (its own curves and spots, free points inside it) loses none of
    it: the face's triangles cover the same area as on the mesh of the whole drawing, and a
    triangle of that whole mesh is in the face exactly when the ray test of the face's
    border says its centre is (outside the spots' rings)."""
    g = _random_drawing(n, seed, plies)
    d = g.drawing
    seen = 0
    for move in g.legal_moves():
        router = _MeshRouter(d, request_for(d, _table(d).choices[move]))
        part = router.part
        assert part is not None
        try:
            m, _, _, ta, _, th_a, _ = router._mesh()
        except _Fail:
            continue  # no room for a stub: the same without the part
        local = _face(m, router._locate(m, ta, th_a))[2]
        router.part = None
        whole, _, _, ta, _, th_a, _ = router._mesh()
        face = _face(whole, router._locate(whole, ta, th_a))[2]
        assert len(m.simplices) < len(whole.simplices)
        got, want = _area(m, np.flatnonzero(local)).sum(), _area(whole, np.flatnonzero(face)).sum()
        assert abs(got - want) <= 1e-6 * want
        # (the closed ring round an isolated spot shuts its inside off from the face)
        flat = _area(whole, np.arange(len(whole.simplices))) <= 1e-6
        tris = np.flatnonzero(~flat & ~router._in_rings(whole))
        assert np.array_equal(part.holds(whole.centres[tris]), face[tris])
        seen += 1
    assert seen >= 3


class _Room:
    """A stand-in router whose clearance is the distance to a few random points."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.pts = rng.random((5, 2)) * 200

    def _clearance(self, q: np.ndarray) -> np.ndarray:
        d = np.hypot(*(q[:, None] - self.pts[None]).transpose(2, 0, 1)).min(axis=1)
        return np.minimum(d, FAR)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 400), st.integers(0, 2**32 - 1))
def test_by_score_ranks_as_scoring_every_triangle(k: int, seed: int) -> None:
    """The new spot's triangles come best first exactly as when every one's room is
    measured (the lazy ranking measures only as far down the list as can matter)."""
    rng = np.random.default_rng(seed)
    stub = _Room(rng)
    cen = rng.random((k, 2)) * 200
    cand = np.flatnonzero(rng.random(k) < 0.8)
    cost = rng.random(len(cand)) * 2000  # distinct (no ties to order)
    room = np.minimum(stub._clearance(cen[cand]), 3 * TIP)
    score = np.where(room >= SPOT_GAP + 1, cost - VIA_PULL * room, np.inf)
    want = [int(cand[i]) for i in np.argsort(score) if np.isfinite(score[i])]
    got = list(_MeshRouter._by_score(stub, cen, cand, cost))  # type: ignore[arg-type]
    assert got == want


def _recorded(name: str) -> tuple[Drawing, Request]:
    """A request recorded from a 12-spot bench game (``data/routes.json``): a drawing made by
    an earlier router, kept as it was so that the case stays the same when routes change."""
    case = json.loads((Path(__file__).parent / "data" / "routes.json").read_text())[name]
    req: dict[str, Any] = {
        k: frozenset(v) if k in ("arc1", "arc2") else v for k, v in case["request"].items()
    }
    for k in ("wedge_a", "wedge_b", "side1", "side2", "box"):
        if req[k] is not None:
            req[k] = tuple(req[k])
    return Drawing.from_json(case["drawing"]), Request(**req)


def _new_curves_checked(d: Drawing, req: Request) -> None:
    route = route_mesh(d, req)
    new = d.with_move(route.spot, route.first, route.second)
    check_geometry(new, [len(new.curves) - 2, len(new.curves) - 1])


def test_the_new_spot_is_sought_all_along_a_long_curve(monkeypatch: pytest.MonkeyPatch) -> None:
    """A split whose curve runs down long narrow passages: none of the 41 evenly spaced
    places has room for the new spot (the route failed and was tried again on enlarged
    paper), but places further along do, and the route on the drawing as it is passes the
    exact check."""
    d, req = _recorded("long_split")
    _new_curves_checked(d, req)
    monkeypatch.setattr(mesh, "SPOT_TRIES", 0)  # the evenly spaced places only
    with pytest.raises(_Fail, match="no room for the new spot"):
        route_mesh(d, req)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 12), st.integers(13, 25)), max_size=40))
def test_passed_twice_is_the_plain_count(portals: list[tuple[int, int]]) -> None:
    """A portal's end is passed twice when the portals ending at that vertex are not all
    in one run in a row."""
    got = _passed_twice(np.asarray(portals, dtype=np.int64).reshape(-1, 2))
    for i, ends in enumerate(portals):
        for k, v in enumerate(ends):
            at = [j for j, p in enumerate(portals) if v in p]
            assert got[i, k] == (at != list(range(at[0], at[-1] + 1)))


def test_a_loop_out_and_back_keeps_its_passes_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    """A loop that goes out and back down one passage, on both sides of its middle points:
    smoothing pulled both passes onto them (1.88 apart, under the minimum gap) until a
    curve that comes back near itself was smoothed again keeping its distance from a
    vertex it passes twice."""
    d, req = _recorded("loop_out_and_back")
    _new_curves_checked(d, req)
    monkeypatch.setattr(mesh, "_passed_twice", lambda pv: np.zeros(pv.shape, dtype=bool))
    with pytest.raises(DrawingError, match=r"come .* apart"):
        _new_curves_checked(d, req)


@pytest.mark.parametrize(("n", "seed", "plies"), [(5, 1, 3), (8, 2, 9), (9, 7, 17)])
def test_portal_clearance_reads_as_searching_every_point(n: int, seed: int, plies: int) -> None:
    """The clearance along portals, searched only where the bounds from the portal's ends
    leave it open, reads as searching every point: the same points reach each portal's
    need; on a portal where none does, the same largest, first at the same point."""
    g = _random_drawing(n, seed, plies)
    d = g.drawing
    router = _MeshRouter(d, request_for(d, _table(d).choices[g.legal_moves()[0]]))
    m = router._mesh()[0]
    s = m.simplices
    pv = np.concatenate([s[:, [0, 1]], s[:, [1, 2]], s[:, [2, 0]]])
    ts = np.linspace(0.02, 0.98, 17)
    rng = np.random.default_rng(seed)
    length = np.hypot(*(m.P[pv[:, 1]] - m.P[pv[:, 0]]).T)[:, None]
    cap = np.where(rng.random((len(pv), 1)) < 0.3, ts * length, np.inf)
    at = m.P[pv[:, 0]][:, None, :] + ts[None, :, None] * (m.P[pv[:, 1]] - m.P[pv[:, 0]])[:, None]
    for need in (np.full((len(pv), 1), CLEAR), rng.choice([CLEAR, SPOT_GAP + 2], (len(pv), 1))):
        near = router._clearance(at.reshape(-1, 2), float(need.max())).reshape(cap.shape)
        want = np.minimum(np.minimum(near, need), cap)
        got = router._portal_clearance(m, pv, ts, cap, need)
        assert np.array_equal(got >= need, want >= need)
        none = ~(want >= need).any(axis=1)
        assert none.any() and (~none).any()
        assert np.array_equal(np.argmax(got[none], axis=1), np.argmax(want[none], axis=1))
        assert np.array_equal(got[none].max(axis=1), want[none].max(axis=1))


@pytest.mark.parametrize("seed", range(5))
def test_thin_keeps_the_points_of_the_plain_loop(seed: int) -> None:
    """The thinning over Python floats keeps the points the loop over the array kept."""
    line = np.cumsum(np.random.default_rng(seed).random((300, 2)) * 6 - 2, axis=0)
    keep = [0]
    for i in range(1, len(line) - 1):
        if np.hypot(*(line[i] - line[keep[-1]])) >= 4.0:
            keep.append(i)
    if np.hypot(*(line[-1] - line[keep[-1]])) < 4.0:
        keep.pop()
    assert np.array_equal(_thin(line, 4.0), line[[*keep, len(line) - 1]])


def test_the_curve_goes_through_the_room_kept_for_the_new_spot(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A split down a spiral of narrow passages: the chain of triangles goes through one
    with room for the new spot, but the smoothed curve cut past that room on the inside of
    a bend, and no place along it fitted the spot. Smoothed again with the portals near
    that triangle kept where the spot fits, it does, on the drawing as it is."""
    d, req = _recorded("spiral_split")
    _new_curves_checked(d, req)
    monkeypatch.setattr(_MeshRouter, "_near_via", lambda self, m, portals: np.zeros(0, bool))
    with pytest.raises(_Fail, match="no room for the new spot"):
        route_mesh(d, req)
