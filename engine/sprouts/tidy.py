"""Tidying a drawing between moves: spots and curves moved apart without changing the picture
up to deformation.

A force-directed relaxation in the manner of ImPrEd (Simonetto, Archambault, Auber and
Bourqui, 2011): spots repel each other, spots and curve points push curve segments away,
curves contract and straighten (each inner point pulled to the middle of its neighbours),
the curves round a spot spread out, and a soft wall keeps everything on the paper.

Every move is *limited* so that nothing ever crosses, which keeps the embedding exactly
(faces, the order of curves round each spot, what lies inside what). For a point ``v`` and a
segment ``ab`` it does not end, ``D`` apart along the unit vector ``u`` from ``v`` to the
segment's nearest point, the segment lies in the half-plane ``(x - v)·u >= D``. If ``v``
moves at most ``b = (D - m) / 3`` towards it along ``u`` and ``a`` and ``b`` at most ``b``
back along ``u``, the two stay at least ``m`` apart all the way (linear moves). Each point
keeps, per direction sector, the least such allowance over its neighbours (directions away
from every neighbour stay free: things can always move apart); ``m`` is the gap the exact
check demands (:mod:`engine.sprouts.drawing`), so gaps that hold keep holding. Two spots
(``b = (D - m) / 2``), a spot and the first point of its curve (the straight stub), and
anything further than the search radius (the global step limit) are limited the same way.

Curves are polylines with a point every :data:`SEG_MAX` or less: long segments are split
(the picture does not change) and a point is dropped when moving it onto the chord of its
neighbours fits its own allowance (a move like the others, with everything else still).
The result is checked by the caller like any routed move; see :func:`engine.sprouts.paper`.
The work is done by compiled kernels (:mod:`engine.sprouts.tidy_core`); this module holds the
model's numbers and the order of the work. The kernels are compiled on first use and cached on
disk: the first tidy of a fresh install compiles them (about 20 s of CPU on a 2-core machine),
later processes load them (about 0.3 s); :func:`warm` does that ahead of the first move.
"""

from __future__ import annotations

import math

import numpy as np

from engine.sprouts import tidy_core as core
from engine.sprouts.drawing import (
    HEIGHT,
    MIN_ANGLE,
    MIN_GAP,
    SPOT_GAP,
    STUB,
    WIDTH,
    Curve,
    Drawing,
    _stub_runs,
)

# What the picture should have (drawing units; a rendered spot is ~24 units in radius on
# a full paper, its lives' arcs reach ~37).
SPOT_ROOM = 84.0  # spots closer than this push each other apart hard
DISCS_ROOM = 56.0  # ... and closer than this (two discs and a gap) harder still
CURVE_SPOT_ROOM = 40.0  # curves keep this far from spots they do not end at
DISC_ROOM = 36.0  # ... and under this (a spot's disc, a stroke, a gap) they are pushed hard
CURVE_ROOM = 20.0  # curves keep this far from each other (three strokes)
STUB_LEN = 22.0  # preferred length of the straight stub where a curve leaves its spot
MARGIN = 50.0  # room kept round the drawing on the paper (the router needs some)
SPOT_WALL = 30.0  # spots keep this much more room from the paper's edge, for the curves
# round them (the soft repulsion of all spots presses the outer ones outwards)
STRETCH = 1.5  # a drawing that does not have the paper's aspect is stretched along its short
# side up to this many times more than along the other, towards filling the paper: a stretch
# keeps the plane structure and, being at least 1 on both axes, shrinks no gap
ROOMY_MAX = 2.5  # curves of a drawing of few spots keep up to this many times further apart
ROOMY_SPOTS = 60.0  # ... as many times as the square root of this over the drawing's spots
ROOMY_SPOT_SHARE = 0.8  # ... and the rooms round spots this share of it
SEG_MAX = 28.0  # curve segments longer than this are split
SEG_DROP = 28.0  # a point whose neighbours are closer than this may be dropped

# What the exact check demands, with a margin for rounding to 0.1.
EPS = 0.3
HARD_CURVE = MIN_GAP + EPS
HARD_SPOT = SPOT_GAP + EPS
HARD_SPOTS = 2 * SPOT_GAP + EPS
HARD_STUB = STUB + EPS
HARD_ANGLE = MIN_ANGLE + math.radians(1.0)

KIN = 4  # segments this close along its own curve do not push a point
EDGE = 2.0  # nothing comes closer than this to the paper's edge
STEP = 5.0  # no point moves further than this in one step
REACH = 3 * STEP + HARD_SPOT + 1.0  # every limit from further away is above STEP anyway
NODE_REACH = 3 * STEP + HARD_CURVE + 1.0  # ... on a curve's point (spots need more room)
ITERATIONS = 16
CALM = 0.5  # a step that moves nothing further than this ends the relaxation
SMOOTH_ROUNDS = 6
PUSH = 0.6  # how hard crowded things push apart (a share of the missing room per step)
HARD_PUSH = 3.0  # ... a curve under a foreign spot's disc (it beats the curves' pull)
DISCS_PUSH = 1.5  # ... two spots whose discs overlap (it beats the curves round them)
PULL = 0.2  # how hard curves contract


def roomy(drawing: Drawing) -> float:
    """How many times the soft rooms between curves a drawing of few spots asks for (the
    paper has room to spare: curves kept :data:`CURVE_ROOM` apart left most of it empty with
    the drawing crowded in a strip); 1 from :data:`ROOMY_SPOTS` spots on."""
    return min(ROOMY_MAX, max(1.0, math.sqrt(ROOMY_SPOTS / max(len(drawing.spots), 1))))


def model(room: float = 1.0) -> core.Model:
    """The numbers above for the kernels (read at each tidy, so that a bench may vary them),
    the soft rooms round curves ``room`` times theirs (:func:`roomy`; the spots' by
    :data:`ROOMY_SPOT_SHARE` of it)."""
    spots = 1.0 + (room - 1.0) * ROOMY_SPOT_SHARE
    return core.Model(
        width=WIDTH,
        height=HEIGHT,
        spot_room=SPOT_ROOM * spots,
        discs_room=DISCS_ROOM,
        curve_spot_room=CURVE_SPOT_ROOM * spots,
        disc_room=DISC_ROOM,
        curve_room=CURVE_ROOM * room,
        stub_len=STUB_LEN,
        margin=MARGIN,
        spot_wall=SPOT_WALL,
        seg_max=SEG_MAX,
        seg_drop=SEG_DROP,
        eps=EPS,
        hard_curve=HARD_CURVE,
        hard_spot=HARD_SPOT,
        hard_spots=HARD_SPOTS,
        hard_stub=HARD_STUB,
        hard_angle=HARD_ANGLE,
        kin=KIN,
        edge=EDGE,
        step=STEP,
        reach=REACH,
        node_reach=NODE_REACH,
        smooth_rounds=SMOOTH_ROUNDS,
        push=PUSH,
        hard_push=HARD_PUSH,
        discs_push=DISCS_PUSH,
        pull=PULL,
    )


class TidyError(Exception):
    """The tidied drawing failed a check (a bug: the caller keeps the drawing untidied)."""


def tidy(drawing: Drawing, iterations: int = ITERATIONS) -> Drawing:
    """The drawing relaxed by ``iterations`` steps and fitted to the paper."""
    net = _Net.of(drawing, model(roomy(drawing))).fitted()
    for it in range(iterations):
        if it % 4 == 0:
            net.drop_points(it // 4 % 2)
        elif net.step() < CALM:
            break
        net.split_long()
    return net.fitted().drawing()


def warm() -> None:
    """Load the compiled kernels now (or compile them, the first time on this install), e.g.
    at start-up or when building an image, rather than during the first move."""
    a, b = (WIDTH / 2 - 100, HEIGHT / 2), (WIDTH / 2 + 100, HEIGHT / 2)
    bend = ((a[0] + 40, a[1]), (WIDTH / 2, HEIGHT / 2 + 60), (b[0] - 40, b[1]))
    tidy(Drawing([a, b], [Curve(1, 2, (a, *bend, b))]))


class _Net:
    """Spots and curve points as one array ``X``: the ``S`` spots first, then the inner
    points of each curve in turn (``sizes[e]`` of them; curve ``e`` runs from spot
    ``ends[e, 0]`` to spot ``ends[e, 1]``); ``ix`` says where everything lies in it."""

    def __init__(self, X: np.ndarray, S: int, sizes: np.ndarray, ends: np.ndarray, m: core.Model):
        self.m = m
        self.S = S
        self.ends = ends
        self.width, self.height = WIDTH, HEIGHT
        self._set(X, sizes)

    def _set(self, X: np.ndarray, sizes: np.ndarray) -> None:
        self.X = X
        self.sizes = sizes
        self.ix = core.index(self.S, sizes, self.ends)

    @classmethod
    def of(cls, d: Drawing, m: core.Model) -> _Net:
        """The drawing's points, each stub cut down to one straight segment."""
        runs = _stub_runs(d)
        P = np.asarray([(s.x, s.y) for s in d.spots], dtype=float).reshape(-1, 2)
        inner = []
        for e, pts in enumerate(d.arrays):
            lo, hi = runs[2 * e], len(pts) - 1 - runs[2 * e + 1]
            if lo >= hi:  # the two stubs meet: keep one point between them
                lo = hi = (len(pts) - 1) // 2 if len(pts) > 2 else 1
            body = pts[lo : hi + 1]
            if len(pts) == 2:
                body = (pts[:1] + pts[1:]) / 2
            inner.append(np.asarray(body, dtype=float).reshape(-1, 2))
        sizes = np.array([len(a) for a in inner], dtype=np.int64)
        ends = np.array([(c.a - 1, c.b - 1) for c in d.curves], dtype=np.int64).reshape(-1, 2)
        X = np.concatenate([P, *inner])
        if not np.isfinite(X).all():
            raise TidyError("a point of the drawing is not finite")
        net = cls(X, len(P), sizes, ends, m)
        net.width, net.height = d.width, d.height
        net.split_long()
        return net

    def pairs(self) -> core.Pairs:
        """(point, segment) pairs closer than the search radius, the point not on the
        segment (see :class:`engine.sprouts.tidy_core.Pairs`)."""
        return core.pairs(self.X, self.S, self.ix, self.m, self.width / WIDTH)

    def step(self) -> float:
        """One step of the relaxation; returns the longest move made."""
        D = core.step(self.X, self.S, self.ix, self.m, self.width, self.height)
        if not np.isfinite(D).all():  # the kernels' grid needs finite points
            raise TidyError("the relaxation diverged")
        self.X = self.X + D
        return float(np.hypot(D[:, 0], D[:, 1]).max()) if len(D) else 0.0

    def split_long(self) -> None:
        """Split segments longer than :data:`SEG_MAX` (the picture stays the same)."""
        X, sizes = core.split_long(self.X, self.S, self.sizes, self.ix, self.m)
        if X is not self.X:
            self._set(X, sizes)

    def drop_points(self, parity: int) -> None:
        """Drop inner points that can move onto the chord of their neighbours within their
        allowance: only points at even (or odd) places along their curves, so never two
        neighbours; never a stub's point."""
        drop = core.droppable(self.X, self.S, self.ix, self.m, self.width, self.height, parity)
        if not drop.any():
            return
        lost = np.bincount(self.ix.node_curve[drop], minlength=len(self.sizes))
        self._set(self.X[~drop], self.sizes - lost)

    # -- the result ---------------------------------------------------------------------------

    def fitted(self) -> _Net:
        """The paper shrunk back towards its usual size as far as the gaps allow, then the
        drawing enlarged to fill the paper's room (never shrunk further; the short side up to
        :data:`STRETCH` times more) and centred on it."""
        X = self.X
        lo, hi = X.min(axis=0), X.max(axis=0)
        size = np.maximum(hi - lo, 1.0)
        k = 1.0
        if self.width > WIDTH:
            k = min(1.0, max(WIDTH / self.width, self._least_scale()))
        w, h = self.width * k, self.height * k
        room = np.array([w, h]) - 2 * MARGIN * w / WIDTH
        fill = room / (size * k)
        grow = max(1.0, float(np.min(fill)))
        axes = k * grow * np.clip(fill / grow, 1.0, STRETCH)  # per axis (:data:`STRETCH`)
        self.X = (X - (lo + hi) / 2) * axes + np.array([w / 2, h / 2])
        self.width, self.height = w, h
        return self

    def _least_scale(self) -> float:
        """The smallest factor the drawing can shrink by and keep every gap the check needs."""
        pr = self.pairs()
        ratios = [pr.need / np.maximum(pr.dist, 1e-9)] if len(pr.i) else []
        S = self.S
        if S > 1:
            i, j = np.triu_indices(S, 1)
            ratios.append(HARD_SPOTS / np.maximum(np.hypot(*(self.X[i] - self.X[j]).T), 1e-9))
        if len(self.ix.stub_spot):
            w = self.X[self.ix.stub_node] - self.X[self.ix.stub_spot]
            ratios.append(HARD_STUB / np.maximum(np.hypot(*w.T), 1e-9))
        if not ratios:
            return 0.0
        return float(np.max(np.concatenate(ratios))) * 1.01

    def drawing(self) -> Drawing:
        S = self.S
        rounded = np.round(self.X, 1).tolist()
        places = [(x, y) for x, y in rounded[:S]]
        curves = []
        at = S
        for e, (a, b) in enumerate(self.ends.tolist()):
            pts = [places[a]]
            for x, y in rounded[at : at + self.sizes[e]]:
                if (x, y) != pts[-1]:
                    pts.append((x, y))
            at += self.sizes[e]
            if pts[-1] == places[b]:
                pts.pop()
            pts.append(places[b])
            curves.append(Curve(a + 1, b + 1, tuple(pts)))
        return Drawing(places, curves, round(self.width, 1), round(self.height, 1))
