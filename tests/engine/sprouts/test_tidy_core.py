"""The tidy step's compiled kernels (engine.sprouts.tidy_core) against plain numpy oracles
written here, on drawings from real games; and the tidy keeping real games' drawings valid.

The oracles are brute force (every point against every segment), not the old code path:
what the kernels must find follows from the model, not from how it was computed before.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine.sprouts import paper
from engine.sprouts import tidy_core as core
from engine.sprouts.drawing import WIDTH, check_geometry
from engine.sprouts.tidy import CURVE_ROOM, CURVE_SPOT_ROOM, NODE_REACH, REACH, _Net, model, tidy
from tests.engine.sprouts.test_paper_tidy import _play_random

MODEL = model()


@pytest.fixture(scope="module")
def nets() -> list[_Net]:
    """Nets from two games, as the tidy sees them and after a few of its steps (points
    closer together, segments split and dropped)."""
    out = []
    for n, seed in ((5, 1), (7, 2)):
        for d in _play_random(n, seed)[2::3]:
            net = _Net.of(d, MODEL).fitted()
            out.append(net)
            net = _Net.of(d, MODEL).fitted()
            net.drop_points(0)
            for _ in range(3):
                net.step()
                net.split_long()
            out.append(net)
    return out


def _oracle(X: np.ndarray, S: int, segs: np.ndarray, spot_r: float, node_r: float):
    """Every (point, segment) pair closer than the point's reach, the point not an end."""
    a, b = X[segs[:, 0]][None], X[segs[:, 1]][None]
    v = X[:, None]
    e = b - a
    den = np.maximum((e**2).sum(-1), 1e-12)
    t = np.clip(((v - a) * e).sum(-1) / den, 0.0, 1.0)
    gap = a + t[..., None] * e - v
    dist = np.sqrt((gap**2).sum(-1))
    reach = np.where(np.arange(len(X)) < S, spot_r, node_r)[:, None]
    own = (segs[None, :, 0] == np.arange(len(X))[:, None]) | (
        segs[None, :, 1] == np.arange(len(X))[:, None]
    )
    return dist, t, reach, own


@pytest.mark.parametrize("rho", [1.0, 2.25])
def test_pair_search_finds_exactly_the_pairs_brute_force_finds(nets: list[_Net], rho: float):
    checked = 0
    for net in nets:
        X = net.X * rho  # an enlarged paper: the reach grows with it
        spot_r = max(REACH, rho * CURVE_SPOT_ROOM)
        node_r = max(NODE_REACH, rho * CURVE_ROOM)
        pr = core.pairs(X, net.S, net.ix, MODEL, rho)
        dist, t, reach, own = _oracle(X, net.S, net.ix.segs, spot_r, node_r)
        want = (dist < reach) & ~own
        # pairs within rounding of the reach may fall either way
        edge = np.abs(dist - reach) < 1e-9
        got = np.zeros_like(want)
        got[pr.i, pr.j] = True
        assert len(pr.i) == got.sum(), "a pair was found twice"
        assert np.array_equal(got & ~edge, want & ~edge)
        np.testing.assert_allclose(pr.dist, dist[pr.i, pr.j], rtol=0, atol=1e-9)
        np.testing.assert_allclose(pr.t, t[pr.i, pr.j], rtol=0, atol=1e-9)
        # the unit vector points from the point to the segment's nearest point
        a, b = X[net.ix.segs[pr.j, 0]], X[net.ix.segs[pr.j, 1]]
        near = a + pr.t[:, None] * (b - a)
        np.testing.assert_allclose(
            X[pr.i] + pr.dist[:, None] * np.stack([pr.ux, pr.uy], 1), near, atol=1e-6
        )
        checked += int(want.sum())
    assert checked > 1000  # the games were not trivially sparse


def test_the_index_chains_every_curve_from_spot_to_spot(nets: list[_Net]) -> None:
    for net in nets:
        ix = net.ix
        at = 0
        for e, (a, b) in enumerate(net.ends.tolist()):
            chain = ix.segs[ix.seg_curve == e]
            assert chain[0, 0] == a and chain[-1, 1] == b
            assert np.array_equal(chain[1:, 0], chain[:-1, 1])
            inner = chain[1:, 0]
            assert np.array_equal(inner, net.S + at + np.arange(net.sizes[e]))
            assert np.array_equal(ix.node_pos[inner], np.arange(1, len(inner) + 1))
            assert ix.stub_node[2 * e] == inner[0] and ix.stub_node[2 * e + 1] == inner[-1]
            at += net.sizes[e]


def test_a_move_within_its_sector_allowance_keeps_within_the_budget() -> None:
    """The limit per sector: any move no longer than the allowance, in any direction of
    the sector, goes at most the budget along the constraint's direction."""
    rng = np.random.default_rng(7)
    for _ in range(300):
        ang = rng.uniform(-math.pi, math.pi)
        ux, uy = math.cos(ang), math.sin(ang)
        budget = rng.uniform(0.0, 5.0)
        s = int(rng.integers(core.SECTORS))
        cap = np.full(1, np.inf)
        core._limit(cap, np.array([s]), 0, ux, uy, budget)
        half = math.pi / core.SECTORS
        for phi in np.linspace(s * 2 * half - half, s * 2 * half + half, 41):
            along = cap[0] * (math.cos(phi) * ux + math.sin(phi) * uy)
            assert along <= budget + 1e-9
        # and the allowance is tight: some direction of the sector reaches the budget,
        # unless the whole sector moves away from the constraint
        if np.isfinite(cap[0]):
            best = max(
                cap[0] * (math.cos(p) * ux + math.sin(p) * uy)
                for p in np.linspace(s * 2 * half - half, s * 2 * half + half, 2001)
            )
            assert best == pytest.approx(budget, abs=1e-3 + 1e-3 * budget)


def test_split_long_keeps_the_picture_and_bounds_the_segments(nets: list[_Net]) -> None:
    for net in nets:
        before = net.drawing()
        net.split_long()
        X, ix = net.X, net.ix
        seg = X[ix.segs[:, 1]] - X[ix.segs[:, 0]]
        length = np.hypot(seg[:, 0], seg[:, 1])
        stub = (ix.seg_pos == 0) | np.isin(np.arange(len(ix.segs)), ix.seg_last)
        assert (length[~stub] <= MODEL.seg_max + 1e-9).all()
        # every new point lies on the curve as it was
        for c_old, c_new in zip(before.curves, net.drawing().curves, strict=True):
            old = np.asarray(c_old.points)
            for p in c_new.points:
                a, b = old[:-1], old[1:]
                e = b - a
                t = np.clip(((p - a) * e).sum(1) / np.maximum((e**2).sum(1), 1e-12), 0, 1)
                gap = np.hypot(*(a + t[:, None] * e - p).T).min()
                assert gap < 0.15  # the drawing rounds to 0.1


def test_tidy_keeps_seeded_games_valid() -> None:
    """Every drawing of these games, tidied again, still passes the exact checks with the
    same plane structure and position (and no tidy failed during the games)."""
    before = len(paper.TIDY_FAILURES)
    for n, seed in ((7, 3), (8, 4)):
        for d in _play_random(n, seed)[1::2]:
            new = tidy(d)
            check_geometry(new)
            assert new.plane_key() == d.plane_key()
            assert new.position.canonical() == d.position.canonical()
            assert new.width <= max(d.width, WIDTH)
    assert paper.TIDY_FAILURES[before:] == []
