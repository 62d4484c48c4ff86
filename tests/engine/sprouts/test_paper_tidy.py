"""The tidy step: it never changes the picture up to deformation, and it keeps spots apart.

Every ``play()`` tidies the new drawing and checks it whole (no crossing, the gaps, the plane
structure, the position); a tidy that fails is logged, counted in ``paper.TIDY_FAILURES``
and the routed drawing is kept. These tests require that list to stay empty over many random
games (a failure there is a bug in the tidy step, even though the game goes on), and call the
tidy step directly on routed drawings. The long runs (up to 10 spots) need TETRAD_SLOW=1.
"""

from __future__ import annotations

import logging
import random

import numpy as np
import pytest

from engine.sprouts import Game, paper
from engine.sprouts.drawing import HEIGHT, SPOT_GAP, WIDTH, Curve, Drawing, check_geometry
from engine.sprouts.tidy import tidy

# A rendered spot is about 24 drawing units in radius on a full paper: spots at least this
# far apart never overlap on the picture (games up to 6 spots); in bigger games the tidy
# step sometimes leaves a new spot a little closer (its disc then touches a neighbour's).
# (55 until the router's face-only meshes: game (4, 1) then left two spots 53.7 apart, still
# 5 units between their discs; over 100 random games of 3 to 6 spots the least distance of
# a game fell below 55 in 13 games before and in 9 after.)
SPOTS_APART = 52.0
SPOTS_APART_BIG = 40.0
PAPER_GROWTH = 2.5
# The disc of a spot on the default picture (1280 px, 27 px in radius) is about 21 drawing
# units on a full paper: a curve at least this far from a spot it does not end at runs
# outside its disc. Before the tidy step pushed curves out of foreign discs, these games
# had curves 10 to 18 units from such spots (the check alone only demands SPOT_GAP).
OUTSIDE_DISC = 22.0


def _least_spot_distance(d: Drawing) -> float:
    xy = np.asarray([(s.x, s.y) for s in d.spots])
    if len(xy) < 2:
        return np.inf
    dd = np.hypot(*(xy[:, None] - xy[None]).transpose(2, 0, 1))
    np.fill_diagonal(dd, np.inf)
    return float(dd.min())


def _play_random(n: int, seed: int) -> list[Drawing]:
    """A random game to the end; the drawing after every move."""
    rng = random.Random(seed)
    g = Game(n)
    out = []
    while not g.over:
        g.play(rng.choice(g.legal_moves()))
        out.append(g.drawing)
    return out


def _games(cases: list[tuple[int, int]]) -> None:
    before = len(paper.TIDY_FAILURES)
    apart: list[tuple[float, int, int, int]] = []
    for n, seed in cases:
        for d in _play_random(n, seed):
            least = SPOTS_APART if n <= 6 else SPOTS_APART_BIG
            apart.append((_least_spot_distance(d) / least, n, seed, len(d.spots)))
            # the router may enlarge the paper for one move; tidying shrinks it back as far
            # as the gaps allow (before the tidy step it grew to 25 times in long games)
            assert d.width <= PAPER_GROWTH * WIDTH and d.height <= PAPER_GROWTH * HEIGHT
    assert paper.TIDY_FAILURES[before:] == []
    assert min(apart)[0] >= 1.0, min(apart)


def test_random_games_tidy_without_failing_and_keep_spots_apart() -> None:
    _games([(n, seed) for n in (2, 3, 4, 5) for seed in range(2)] + [(6, 0)])


@pytest.mark.slow  # several minutes
@pytest.mark.parametrize("n", [6, 7, 8, 9, 10])
def test_random_games_tidy_without_failing_long(n: int) -> None:
    _games([(n, seed) for seed in range(4)])


def test_tidy_keeps_the_plane_structure_of_routed_drawings() -> None:
    """The tidy step on drawings as the router left them (tidying switched off in play)."""
    paper.TIDY = False
    try:
        drawings = _play_random(4, 7) + _play_random(3, 8)
    finally:
        paper.TIDY = True
    for d in drawings:
        t = tidy(d)
        check_geometry(t)
        assert t.plane_key() == d.plane_key()
        assert t.position.canonical() == d.position.canonical()
        assert [(c.a, c.b) for c in t.curves] == [(c.a, c.b) for c in d.curves]
        assert [s.lives for s in t.spots] == [s.lives for s in d.spots]


def test_tidy_pushes_crowded_spots_apart() -> None:
    """Three spots in a row 30 units apart, the outer two joined round the middle one."""
    arc = ((400.0, 300.0), (400.0, 270.0), (460.0, 260.0), (520.0, 270.0), (520.0, 300.0))
    d = Drawing(
        [(400.0, 300.0), (460.0, 300.0), (520.0, 300.0), (430.0, 300.0)],
        [Curve(1, 3, arc)],
    )
    check_geometry(d)
    assert _least_spot_distance(d) == 30.0
    t = tidy(d)
    check_geometry(t)
    assert t.plane_key() == d.plane_key()
    assert _least_spot_distance(t) >= SPOTS_APART
    assert _least_spot_distance(t) > 2 * SPOT_GAP


def _least_clearance(d: Drawing) -> float:
    """The least distance from a curve to a spot it does not end at, on a paper of the
    usual size."""
    xy = np.asarray([(s.x, s.y) for s in d.spots])
    least = np.inf
    for c, pts in zip(d.curves, d.arrays, strict=True):
        a, ab = pts[:-1], pts[1:] - pts[:-1]
        den = np.maximum(np.einsum("ij,ij->i", ab, ab), 1e-12)
        t = np.clip(np.einsum("sij,ij->si", xy[:, None] - a[None], ab) / den, 0.0, 1.0)
        near = a[None] + t[..., None] * ab[None]
        dist = np.hypot(*(near - xy[:, None]).transpose(2, 0, 1)).min(axis=1)
        dist[[c.a - 1, c.b - 1]] = np.inf
        least = min(least, float(dist.min()))
    return least * WIDTH / d.width


@pytest.mark.parametrize(("n", "seed"), [(3, 1), (4, 1), (5, 0), (6, 1)])
def test_curves_keep_out_of_the_discs_of_other_spots(n: int, seed: int) -> None:
    """After every move, every curve keeps clear of the disc of every spot it passes."""
    clear = [(_least_clearance(d), k) for k, d in enumerate(_play_random(n, seed), 1)]
    assert min(clear)[0] >= OUTSIDE_DISC, f"move {min(clear)[1]}: {min(clear)[0]:.1f} units"


def test_a_failed_tidy_keeps_the_routed_drawing(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A tidy whose result fails the check is never kept: the game goes on with the routed
    drawing, and the failure is logged and counted."""

    def broken(d: Drawing) -> Drawing:
        # every spot moved onto the first one: spots far too close, curves crossing
        x, y = d.spots[0].x, d.spots[0].y
        places = [(x + 0.1 * i, y) for i in range(len(d.spots))]
        curves = [
            Curve(c.a, c.b, (places[c.a - 1], (x, y + 5.0), places[c.b - 1])) for c in d.curves
        ]
        return Drawing(places, curves, d.width, d.height)

    monkeypatch.setattr(paper, "tidy", broken)
    monkeypatch.setattr(paper, "TIDY_FAILURES", [])
    g = Game(3)
    with caplog.at_level(logging.WARNING, logger="engine.sprouts.paper"):
        g.play(g.legal_moves()[0])
    assert len(paper.TIDY_FAILURES) == 1
    assert "tidy failed" in caplog.text
    check_geometry(g.drawing)
    assert len(g.drawing.spots) == 4 and _least_spot_distance(g.drawing) > 2 * SPOT_GAP


def test_a_drawing_without_curves_tidies_too() -> None:
    d = tidy(Drawing.start(6))
    assert len(d.spots) == 6 and not d.curves
    assert _least_spot_distance(d) >= SPOTS_APART
