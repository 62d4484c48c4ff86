"""Рассада's curves are drawn smooth: the engine's polylines relaxed and their corners
rounded, and never two curves brought together (nor a curve into a spot) that the engine
kept apart; the ends and the stubs' directions stay.

The property test plays random games on the engine's own paper and measures the smoothed
polylines in drawing units. The long sweep (more games, up to 12 spots) runs with
TETRAD_SLOW=1.
"""

from __future__ import annotations

import math
import random
from dataclasses import replace
from typing import Any

import numpy as np
import pytest
from PIL import Image
from scipy.spatial import cKDTree

import engine
import render
from engine.sprouts.drawing import _point_seg_dist, _seg_dist
from render import sprouts
from render.common import INK, PAPER, PLAYER
from render.view import View
from tests.render.fakes import Curve, Drawing, FakeSprouts, Move, Spot
from tests.render.helpers import at, decode

END_BALL = 1.0  # near a spot curves meet at by design: not measured (their stubs diverge)


# -- what a smoothed drawing must keep ---------------------------------------------------------


def _segments(lines: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """All segments (n, 2, 2), their curve, and their index along the curve."""
    segs = np.concatenate([np.stack([a[:-1], a[1:]], axis=1) for a in lines])
    owner = np.concatenate([np.full(len(a) - 1, e) for e, a in enumerate(lines)])
    index = np.concatenate([np.arange(len(a) - 1) for a in lines])
    return segs, owner, index


def _trimmed(line: np.ndarray) -> np.ndarray:
    """The polyline without the first and last :data:`END_BALL` of its length (both are
    straight stubs there)."""
    out = line.astype(float).copy()
    for end, nxt in ((0, 1), (-1, -2)):
        d = out[nxt] - out[end]
        out[end] = out[end] + d * (END_BALL / np.hypot(*d))
    return out


def _gap(a: np.ndarray, b: np.ndarray) -> float:
    """The least distance between two polylines."""
    sa, _, _ = _segments([a])
    sb, _, _ = _segments([b])
    grid_i, grid_j = np.meshgrid(np.arange(len(sa)), np.arange(len(sb)), indexing="ij")
    i, j = grid_i.ravel(), grid_j.ravel()
    return float(_seg_dist(sa[i, 0], sa[i, 1], sb[j, 0], sb[j, 1]).min())


def _stray(line: np.ndarray, poly: np.ndarray) -> float:
    """How far the points of ``line`` get from the polyline ``poly``."""
    segs, _, _ = _segments([poly])
    n, m = len(line), len(segs)
    q = np.repeat(line, m, axis=0)
    d = _point_seg_dist(q, np.tile(segs[:, 0], (n, 1)), np.tile(segs[:, 1], (n, 1)))
    return float(d.reshape(n, m).min(axis=1).max())


def check_smoothed(drawing: Any, room: sprouts.Room) -> tuple[np.ndarray, ...]:
    """Assert what smoothing promises, on the drawing's own units; returns the curves."""
    smooth = sprouts.smooth_curves(drawing, room)
    orig = [np.asarray(c.points, dtype=float) for c in drawing.curves]
    assert len(smooth) == len(orig)
    for o, s in zip(orig, smooth, strict=True):
        assert tuple(s[0]) == tuple(o[0]) and tuple(s[-1]) == tuple(o[-1])
        for end, nxt in ((0, 1), (-1, -2)):
            u, w = s[nxt] - s[end], o[nxt] - o[end]  # the stub, drawn and in the engine
            assert abs(u[0] * w[1] - u[1] * w[0]) <= 1e-9 * np.hypot(*u) * np.hypot(*w)
            assert np.dot(u, w) > 0 and np.hypot(*u) <= np.hypot(*w) + 1e-9
        assert _stray(s, o) <= room.most + 1e-9
    cut_s = [_trimmed(s) for s in smooth]
    cut_o = [_trimmed(o) for o in orig]
    segs, owner, index = _segments(cut_s)
    mids, half = segs.mean(axis=1), np.hypot(*(segs[:, 1] - segs[:, 0]).T) / 2
    tree = cKDTree(mids)
    # Any two pieces closer than the least gap: never touching, and never closer than the
    # engine's own curves were (there, only the engine's points can be that close).
    pairs = tree.query_pairs(2 * float(half.max()) + room.least, output_type="ndarray")
    i, j = pairs[:, 0], pairs[:, 1]
    near = np.hypot(*(mids[i] - mids[j]).T) <= half[i] + half[j] + room.least
    other = owner[i] != owner[j]
    keep = near & (other | (np.abs(index[i] - index[j]) >= 2))
    i, j, other = i[keep], j[keep], other[keep]
    d = _seg_dist(segs[i, 0], segs[i, 1], segs[j, 0], segs[j, 1])
    assert d.min(initial=np.inf) > 0, "smoothed curves touch"
    close = other & (d < room.least)
    checked: dict[tuple[int, int], float] = {}
    for a, b, dist in zip(owner[i[close]], owner[j[close]], d[close], strict=True):
        key = (int(min(a, b)), int(max(a, b)))
        if key not in checked:
            checked[key] = _gap(cut_o[key[0]], cut_o[key[1]])
        assert checked[key] <= dist + 1e-9, f"curves {key} brought together"
    # Spots: no curve comes nearer a spot than the least gap unless the engine's did.
    places = np.asarray([(float(s.x), float(s.y)) for s in drawing.spots])
    got = cKDTree(places).sparse_distance_matrix(
        tree, float(half.max()) + room.least, output_type="ndarray"
    )
    si, sj = got["i"], got["j"]
    ds = _point_seg_dist(places[si], segs[sj, 0], segs[sj, 1])
    for spot, e, dist in zip(
        si[ds < room.least], owner[sj[ds < room.least]], ds[ds < room.least], strict=True
    ):
        o = cut_o[e]
        p = np.repeat(places[spot : spot + 1], len(o) - 1, axis=0)
        assert dist > 0 and _point_seg_dist(p, o[:-1], o[1:]).min() <= dist + 1e-9, (
            f"a curve runs into spot {spot + 1}"
        )
    return smooth


def _room(game: Any) -> sprouts.Room:
    lay, fit = sprouts.layout(game, {})
    return sprouts.Room.of(lay, fit.k)


def _bold(room: sprouts.Room) -> sprouts.Room:
    """A room far more generous than any picture's: corners cut as deep as they go."""
    return replace(room, shrink=4 * room.shrink, apart=room.least, most=20 * room.most)


def _max_turn(line: np.ndarray) -> float:
    d = np.diff(line, axis=0)
    a = np.arctan2(d[:, 1], d[:, 0])
    return float(np.degrees(np.abs((np.diff(a) + np.pi) % (2 * np.pi) - np.pi)).max())


# -- a known sharp corner ----------------------------------------------------------------------


def _vee() -> FakeSprouts:
    """Spots 1 and 2 joined by a curve through 3 with a right-angled corner at (50, 50) (the
    newest move), a second spot pair far away so the corner has room."""
    g = FakeSprouts(2)
    g.drawing = Drawing(
        [Spot(1, 0, 0, 2), Spot(2, 100, 0, 2), Spot(3, 25, 25, 1), Spot(4, 50, 120, 3)],
        [
            Curve([(0, 0), (12.5, 12.5), (25, 25)]),
            Curve([(25, 25), (50, 50), (75, 25), (100, 0)]),
        ],
    )
    g._moves = [Move(1, 2)]
    return g


def test_a_sharp_corner_is_drawn_round() -> None:
    g = _vee()
    room = _room(g)
    first, second = check_smoothed(g.drawing, room)
    assert len(second) > 10 and _max_turn(second) <= math.degrees(sprouts.SAMPLE_TURN) + 0.5
    assert _max_turn(first) == 0  # a straight curve stays as it is
    # The corner is cut: in the picture the old corner is paper, the curve passes inside it.
    lay, fit = sprouts.layout(g, {})
    views: list[View] = [{"last": False}, {}]
    for view in views:
        img = decode(render.board_png(g, view))
        assert at(img, *fit((50.0, 50.0))) == PAPER
    img = decode(render.board_png(g, {"last": False}))
    tip = second[np.argmax(second[:, 1])]  # the lowest point on screen (y grows down)
    assert at(img, *fit(tuple(tip))) == INK
    # Without smoothing the corner would be ink: the check above can fail.
    assert tip[1] < 50.0 - lay.curve_width / fit.k


BENT = [(25.0, 25.0), (50.0, 50.0), (75.0, 25.0), (100.0, 0.0)]


class _Bending(FakeSprouts):
    """A game whose next move draws the bent curve of :func:`_vee` between spots 2 and 3,
    through a new spot at (75, 25)."""

    def copy(self) -> _Bending:
        g = super().copy()
        g.__class__ = _Bending
        return g  # type: ignore[return-value]

    def play(self, m: Move) -> None:
        super().play(m)
        self.drawing.spots[-1].x, self.drawing.spots[-1].y = 75.0, 25.0
        self.drawing.curves[-1] = Curve(list(BENT))


def test_the_preview_dashes_follow_the_smoothed_curve() -> None:
    g = _Bending(2)
    vee = _vee().drawing
    g.drawing = Drawing(list(vee.spots), vee.curves[:1])
    trial = sprouts._preview(g, Move(2, 3))
    assert trial is not None
    lay, fit = sprouts.layout(trial, {})
    smooth = fit.array(sprouts.smooth_curves(trial.drawing, sprouts.Room.of(lay, fit.k))[-1])
    poly = fit.array(np.asarray(BENT))
    img = np.asarray(decode(render.board_png(g, {"preview": Move(2, 3), "last": False})))
    ys, xs = np.nonzero(np.all(img == PLAYER[g.turn], axis=2))
    dashes = np.stack([xs, ys], axis=1).astype(float)[ys >= lay.box[1]]  # not the header's
    half = lay.curve_width * 1.6 / 2 + 1.5
    assert len(dashes) > 100
    # Every dash pixel lies on the smoothed curve, and some are off the engine's polyline.
    assert _stray(dashes, smooth) <= half
    assert _stray(dashes, poly) > half
    assert at(Image.fromarray(img), *fit((50.0, 50.0))) == PAPER


ZIG = [(0.0, 0.0), *[(10.0 * k, 10.0 * (k % 2)) for k in range(1, 10)], (100.0, 0.0)]


def test_curves_a_hair_apart_are_not_brought_together() -> None:
    """Two zigzags nearer than the least gap: they may smooth alike, never nearer."""
    top = [(x, y + 0.02) for x, y in ZIG[1:-1]]
    g = FakeSprouts(2)
    g.drawing = Drawing(
        [Spot(1, 0, 0, 2), Spot(2, 100, 0, 2), Spot(3, 0, 50, 2), Spot(4, 100, 50, 2)],
        [Curve(ZIG), Curve([(0, 50), *top, (100, 50)])],
    )
    low, high = check_smoothed(g.drawing, _room(g))
    assert np.abs(low[2:-2] - np.asarray(ZIG)[2:-2]).max() > 0.1  # relaxed all the same
    before = [np.asarray(c.points, dtype=float) for c in g.drawing.curves]
    assert _gap(low, high) >= _gap(*before) - 1e-9


def test_relaxing_stops_short_of_a_curve_in_the_way() -> None:
    """A short curve stands in a tooth of a zigzag, 1 unit under its tip (50, 10): the
    zigzag straightens everywhere but there."""
    g = FakeSprouts(2)
    g.drawing = Drawing(
        [Spot(1, 0, 0, 2), Spot(2, 100, 0, 2), Spot(3, 50, 2, 2), Spot(4, 50, 9, 2)],
        [Curve(ZIG), Curve([(50, 2), (50, 5), (50, 9)])],
    )
    room = _bold(_room(g))
    zig, post = check_smoothed(g.drawing, room)
    assert _gap(zig, post) >= room.least
    tip = zig[np.abs(zig[:, 0] - 50) < 5][:, 1].max()
    assert 9 < tip < 10
    assert zig[np.abs(zig[:, 0] - 30) < 5][:, 1].max() < 8  # the other teeth are cut down


def test_a_curve_is_not_rounded_into_a_spot() -> None:
    """A spot sits just inside a sharp corner of a curve that does not end at it."""
    g = _vee()
    g.drawing.spots.append(Spot(5, 50, 44, 3))
    room = _room(g)
    _, second = check_smoothed(g.drawing, room)
    spot = np.array([[50.0, 44.0]])
    ds = _point_seg_dist(np.repeat(spot, len(second) - 1, 0), second[:-1], second[1:]).min()
    assert ds >= 6 / math.sqrt(2) - room.shrink - 1e-9  # the polyline is 6/√2 from it
    _, free = sprouts.smooth_curves(_vee().drawing, room)
    assert free[:, 1].max() < second[:, 1].max()  # without the spot, the cut goes deeper


def test_a_corner_is_not_rounded_into_another_curve() -> None:
    """A curve hooks into the sharp corner of another, 4 units from its tip: rounding the
    corner as deep as it goes (6 units at the tip) would run through it."""
    g = _vee()
    g.drawing.spots += [Spot(5, 50, 10, 2), Spot(6, 46, 40, 2)]
    g.drawing.curves.append(Curve([(50, 10), (50, 46), (46, 40)]))
    room = _bold(_room(g))  # no limit but the other curve's
    _, bent, hook = check_smoothed(g.drawing, room)
    assert 0 < 50 - bent[:, 1].max() <= 2  # rounded, but only by a little
    assert _gap(bent, hook) >= room.least


# -- random games on the engine's paper ---------------------------------------------------------


def _games(cases: list[tuple[int, int]]) -> list[Any]:
    out = []
    for spots, seed in cases:
        g = engine.new("sprouts", spots=spots)
        rng = random.Random(seed)
        while not g.over:
            g.play(rng.choice(g.legal_moves()))
            out.append(g.copy())
    return out


FAST = [(2, 1), (3, 2), (5, 3), (8, 4)]
LONG = [(n, seed) for n in (4, 6, 8, 10, 12) for seed in range(10, 13)]


@pytest.mark.parametrize("cases", [FAST, pytest.param(LONG, marks=pytest.mark.slow)])
def test_smoothed_engine_curves_keep_their_gaps(cases: list[tuple[int, int]]) -> None:
    games = _games(cases)
    rounded = 0
    for g in games:
        room = _room(g)
        for r in (room, _bold(room)):
            smooth = check_smoothed(g.drawing, r)
            rounded += sum(
                len(s) > len(c.points) for s, c in zip(smooth, g.drawing.curves, strict=True)
            )
    assert rounded > len(games)  # the check is not vacuous: curves were rounded


def test_smoothing_is_cached_per_drawing() -> None:
    (g,) = _games([(3, 5)])[-1:]
    room = _room(g)
    assert sprouts.smooth_curves(g.drawing, room) is sprouts.smooth_curves(g.copy().drawing, room)
    with pytest.raises(ValueError):
        sprouts.smooth_curves(g.drawing, room)[0][0, 0] = 1.0


def test_quantiles_are_numpys_to_the_last_bit() -> None:
    """The segment search's cell sizes come from them, and which pairs it reports depends on
    those: a different last bit could change a picture."""
    rng = np.random.default_rng(5)
    for n in [*range(1, 40), 100, 1001]:
        for scale in (1.0, 7.3, 1e-3):
            x = rng.random(n) * scale
            for data in (x, np.round(x, 1)):
                assert sprouts._median(data) == float(np.median(data))
                assert sprouts._quantile(data, 0.9) == float(np.quantile(data, 0.9))
