"""Routing a new curve through one face of the drawing.

The paper is rasterised into square cells: cells near a curve, near a spot or near the edge
of the paper are blocked; the free cells split into pieces, one (at this resolution) per
face. Within the face of the move:

* a merge (two pieces joined) is any path from one end's corner to the other's;
* a split (both ends on one walk, or a loop) must leave each other boundary of the face on
  the side the move names. *Bridges* make that so: 4-connected chains of cells joining each
  boundary to the part of the walk (or to the anchor of a loop) on its side, never touching
  the other side's. With the bridges blocked the face is simply connected, so any path from
  end to end separates exactly as asked. A loop also gets a *bubble*: a disc of room on its
  inner side, so it never shrinks to a sliver.

The path is a cheapest path in the 8-connected grid whose cost grows near curves and spots,
so curves run down the middle of the room they have; it is then smoothed (never into a
blocked cell), resampled into a dense polyline, given straight stubs at its ends and at the
new spot (placed near the middle where there is most room), and rounded. The caller checks
the result exactly (:func:`engine.sprouts.drawing.check_geometry` and the derived position);
a failed attempt is retried at a finer resolution before anything gives up.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
from PIL import Image, ImageDraw
from scipy import ndimage
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra

from engine.core import IllegalMove
from engine.sprouts.drawing import STUB, TAU, Drawing, Point

MAX_CELLS = 160_000  # a grid never has more cells: its cost is bounded whatever the drawing's size
ISOLATED = 1 << 24  # owner ids of isolated spots in the raster: ISOLATED + spot number
FRAME = -1  # the paper's edge among the pieces to bridge


class RoutingError(IllegalMove):
    """A legal move the engine could not draw (no room at any resolution, or every attempt
    failed the exact check); the game is left unchanged."""

    def __init__(self, reason: str, **params: object) -> None:
        super().__init__(reason, code="no_room", **params)


@dataclass(frozen=True, slots=True)
class Params:
    """One resolution of the router (drawing units)."""

    cell: float = 4.0
    clear: float = 8.0  # blocked within this of a curve
    spot: float = 34.0  # blocked within this of a spot (a drawn spot with its lives is ~37)
    stub: float = 40.0  # the new curve leaves its ends straight for this long
    frame: float = 12.0  # blocked within this of the paper's edge
    room: float = 30.0  # each step costs 1 + (room / clearance)²: paths keep to the middle
    gap: float = 70.0  # the new spot wants at least this much room from other spots
    step: float = 6.0  # spacing of the final polyline


MIN_SPOT_ANGLE = math.radians(75)  # the new spot's two stubs are at least this far apart
VIA_PULL = 4.0  # the curve goes this much further (in cost) per unit of room for its spot

# Generous first (a readable picture), then ever tighter down to the hard minimum gaps.
ATTEMPTS = (
    Params(),
    Params(cell=3.0, clear=6.0, spot=24.0, stub=30.0, frame=8.0, room=22.0, gap=46.0),
    Params(cell=2.0, clear=4.0, spot=16.0, stub=20.0, frame=6.0, room=14.0, gap=28.0),
    Params(cell=1.5, clear=3.5, spot=13.0, stub=16.0, frame=4.0, room=10.0, gap=22.0),
)


@dataclass(frozen=True, slots=True)
class Request:
    """A move in the router's terms.

    ``wedge_a``/``wedge_b``: (start angle, width) of the corner used at each end (counter-
    clockwise, math orientation). For a split, ``arc1``/``arc2`` are the half-edges of the
    walk on the first/second side (the first part lies left of ``arc1``), ``side1``/``side2``
    the other pieces of the face going to each side, ``frame_side`` the side of the paper's
    edge (0: not in this face). For a loop ``arc1`` is empty and the first part is the loop's
    inside.
    """

    kind: str  # "merge", "split" or "loop"
    a: int
    b: int
    wedge_a: tuple[float, float]
    wedge_b: tuple[float, float]
    piece: int = -1  # the piece of the split walk
    arc1: frozenset[int] = frozenset()
    arc2: frozenset[int] = frozenset()
    side1: tuple[int, ...] = ()
    side2: tuple[int, ...] = ()
    frame_side: int = 0
    box: tuple[float, float, float, float] | None = None  # a bounded face's extent


@dataclass(frozen=True, slots=True)
class Route:
    spot: Point
    first: tuple[Point, ...]  # from a to the new spot
    second: tuple[Point, ...]  # from the new spot to b


class _Fail(Exception):
    """This attempt found no way; the next resolution may."""


# -- the grid ----------------------------------------------------------------------------------


class Grid:
    """The rasterised drawing at one resolution."""

    def __init__(
        self,
        drawing: Drawing,
        prm: Params,
        window: tuple[float, float, float, float] | None = None,
    ) -> None:
        self.d = drawing
        self.prm = prm
        h = prm.cell
        self.h = h
        x0, y0, x1, y1 = window or (0.0, 0.0, drawing.width, drawing.height)
        x0, y0 = max(0.0, math.floor(x0 / h) * h), max(0.0, math.floor(y0 / h) * h)
        x1, y1 = min(drawing.width, x1), min(drawing.height, y1)
        self.x0, self.y0 = x0, y0
        self.x1, self.y1 = x1, y1
        self.nx = max(1, math.ceil((x1 - x0) / h))
        self.ny = max(1, math.ceil((y1 - y0) / h))
        img = Image.new("I", (self.nx, self.ny), 0)
        draw = ImageDraw.Draw(img)
        for e, pts in enumerate(drawing.arrays):
            xy = [((float(x) - x0) / h - 0.5, (float(y) - y0) / h - 0.5) for x, y in pts]
            draw.line(xy, fill=e + 1, width=1)
        for s in drawing.spots:
            if not drawing.rotation[s.number]:
                draw.point(((s.x - x0) / h - 0.5, (s.y - y0) / h - 0.5), fill=ISOLATED + s.number)
        owner = np.asarray(img, dtype=np.int64)
        self.owner = owner
        dist, (iy, ix) = ndimage.distance_transform_edt(owner == 0, return_indices=True)
        self.dc = dist * h
        self.near = owner[iy, ix]
        self.near_y, self.near_x = iy, ix
        xs = x0 + (np.arange(self.nx) + 0.5) * h
        ys = y0 + (np.arange(self.ny) + 0.5) * h
        self.xs, self.ys = xs, ys
        fx = np.minimum(xs, drawing.width - xs)
        fy = np.minimum(ys, drawing.height - ys)
        self.fd = np.minimum(fy[:, None], fx[None, :])
        spots = np.asarray([(s.x, s.y) for s in drawing.spots], dtype=float)
        self.spot_xy = spots
        # distance to the nearest spot: exact from the nearest spot's cell (one transform)
        at = np.zeros((self.ny, self.nx), dtype=np.int64)
        for s in drawing.spots:
            if x0 <= s.x < x0 + self.nx * h and y0 <= s.y < y0 + self.ny * h:
                at[self.cell((s.x, s.y))] = s.number
        _, (sy, sx) = ndimage.distance_transform_edt(at == 0, return_indices=True)
        near_spot = at[sy, sx]
        ds = np.hypot(xs[None, :] - spots[near_spot - 1, 0], ys[:, None] - spots[near_spot - 1, 1])
        self.ds = ds
        self.near_spot = near_spot
        self.blocked = (self.dc < prm.clear) | (self.fd < prm.frame) | (ds < prm.spot)
        clearance = np.minimum.reduce([self.dc, ds - prm.spot / 2, self.fd * 1.5])
        self.cost = 1 + (prm.room / np.maximum(clearance, h)) ** 2
        lab, _ = ndimage.label(~self.blocked, structure=np.ones((3, 3), dtype=int))
        self.label = lab

    def cell(self, p: Point | np.ndarray) -> tuple[int, int]:
        """(row, column) of the cell holding ``p``, clamped to the grid."""
        i = min(max(int((p[0] - self.x0) / self.h), 0), self.nx - 1)
        j = min(max(int((p[1] - self.y0) / self.h), 0), self.ny - 1)
        return j, i

    def cells(self, pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(rows, columns) of the cells holding each point, clamped to the grid."""
        i = np.clip(((pts[:, 0] - self.x0) / self.h).astype(int), 0, self.nx - 1)
        j = np.clip(((pts[:, 1] - self.y0) / self.h).astype(int), 0, self.ny - 1)
        return j, i

    def holds(self, p: Point) -> bool:
        return self.x0 < p[0] < self.x1 and self.y0 < p[1] < self.y1

    def owner_piece(self) -> np.ndarray:
        """For every cell, the piece of the nearest curve or isolated spot (-1 for none)."""
        pieces = self.d.pieces
        lut_e = np.asarray([pieces[c.a - 1] for c in self.d.curves] or [0], dtype=np.int64)
        near = self.near
        out = np.full(near.shape, -1, dtype=np.int64)
        is_e = (near > 0) & (near < ISOLATED)
        out[is_e] = lut_e[near[is_e] - 1]
        is_s = near >= ISOLATED
        lut_s = np.asarray(pieces, dtype=np.int64)
        out[is_s] = lut_s[near[is_s] - ISOLATED - 1]
        m_curve = self.dc - self.prm.clear
        m_spot = self.ds - self.prm.spot
        m_frame = self.fd - self.prm.frame
        by_spot = (m_spot < m_curve) & (m_spot <= m_frame)
        out[by_spot] = lut_s[self.near_spot[by_spot] - 1]
        out[(m_frame < m_curve) & (m_frame < m_spot)] = FRAME
        return out


# -- graphs on the grid ------------------------------------------------------------------------

_STEPS4 = ((0, 1, 1.0), (1, 0, 1.0))
_STEPS8 = (*_STEPS4, (1, 1, math.sqrt(2)), (1, -1, math.sqrt(2)))


def _graph(allowed: np.ndarray, cost: np.ndarray | None, eight: bool) -> csr_matrix:
    ny, nx = allowed.shape
    idx = np.arange(ny * nx).reshape(ny, nx)
    rows, cols, data = [], [], []
    for dy, dx, length in _STEPS8 if eight else _STEPS4:
        ys, ys2 = slice(0, ny - dy), slice(dy, ny)
        if dx >= 0:
            xs, xs2 = slice(0, nx - dx), slice(dx, nx)
        else:
            xs, xs2 = slice(-dx, nx), slice(0, nx + dx)
        both = allowed[ys, xs] & allowed[ys2, xs2]
        rows.append(idx[ys, xs][both])
        cols.append(idx[ys2, xs2][both])
        if cost is None:
            data.append(np.full(int(both.sum()), length))
        else:
            data.append(length * 0.5 * (cost[ys, xs][both] + cost[ys2, xs2][both]))
    n = ny * nx
    return csr_matrix(
        (np.concatenate(data), (np.concatenate(rows), np.concatenate(cols))), shape=(n, n)
    )


def _path_to(pred: np.ndarray, target: int) -> list[int]:
    out = [target]
    while pred[out[-1]] >= 0:
        out.append(int(pred[out[-1]]))
    return out[::-1]


def _dilate4(mask: np.ndarray) -> np.ndarray:
    out = mask.copy()
    out[1:, :] |= mask[:-1, :]
    out[:-1, :] |= mask[1:, :]
    out[:, 1:] |= mask[:, :-1]
    out[:, :-1] |= mask[:, 1:]
    return out


# -- routing -----------------------------------------------------------------------------------


def route(drawing: Drawing, req: Request, prm: Params) -> Route:
    """One attempt at one resolution; raises :class:`_Fail` when it finds no way."""
    window = (0.0, 0.0, drawing.width, drawing.height)
    if req.box is not None:
        x0, y0, x1, y1 = req.box
        m = prm.spot + 2 * prm.cell  # spots further out cannot reach into the face
        window = (
            max(0.0, x0 - m),
            max(0.0, y0 - m),
            min(drawing.width, x1 + m),
            min(drawing.height, y1 + m),
        )
    area = (window[2] - window[0]) * (window[3] - window[1])
    cell = math.sqrt(area / MAX_CELLS)
    if cell > prm.cell:
        prm = replace(prm, cell=cell)
    g = Grid(drawing, prm, window)
    return _Router(g, req).run()


class _Router:
    def __init__(self, g: Grid, req: Request) -> None:
        self.g = g
        self.req = req
        self.prm = g.prm

    # The ends ------------------------------------------------------------------------------

    def _tips(
        self, spot: int, wedge: tuple[float, float], toward: Point | None, extra: float = 0.0
    ) -> list[float]:
        """Angles in the wedge where a stub could leave the spot, best first (``extra``: keep
        this much further from the wedge's sides)."""
        g = self.g
        start, width = wedge
        x, y = g.d.place(spot)
        margin = min(math.radians(22), width / 3) + extra
        if width - 2 * margin < 0:
            return []
        n = max(3, int(math.degrees(width) / 4))
        out = []
        for k in range(n + 1):
            t = margin + (width - 2 * margin) * k / n
            th = start + t
            tip = (x + self.prm.stub * math.cos(th), y + self.prm.stub * math.sin(th))
            if not g.holds(tip):
                continue
            j, i = g.cell(tip)
            if g.blocked[j, i]:
                continue
            run = self._run(tip, th)
            score = min(run, 150.0) / 5 - 12 * abs(t / width - 0.5) if width < TAU else run / 5
            if toward is not None:
                score += 12 * math.cos(th - math.atan2(toward[1] - y, toward[0] - x))
            out.append((score, th))
        out.sort(key=lambda st: -st[0])
        return [th for _, th in out]

    def _run(self, tip: Point, th: float) -> float:
        """How far one can go from ``tip`` along ``th`` through free cells."""
        g = self.g
        step = g.h
        for k in range(1, 60):
            q = (tip[0] + k * step * math.cos(th), tip[1] + k * step * math.sin(th))
            if not g.holds(q):
                return k * step
            j, i = g.cell(q)
            if g.blocked[j, i]:
                return k * step
        return 60 * step

    def _tip(self, spot: int, th: float) -> Point:
        x, y = self.g.d.place(spot)
        return (x + self.prm.stub * math.cos(th), y + self.prm.stub * math.sin(th))

    # The main line --------------------------------------------------------------------------

    def run(self) -> Route:
        req, g = self.req, self.g
        if req.kind == "loop":
            return self._loop()
        pa, pb = g.d.place(req.a), g.d.place(req.b)
        ea, aa = self._exits(req.a, req.wedge_a)
        eb, ab = self._exits(req.b, req.wedge_b)
        lab = g.label.ravel()
        common = set(lab[ea].tolist()) & set(lab[eb].tolist())
        if not common:
            raise _Fail("the two corners do not share room")
        best = max(common, key=lambda v: int(np.sum(lab[ea] == v)) + int(np.sum(lab[eb] == v)))
        self.face = g.label == best
        allowed = self.face
        if req.kind == "split":
            keep = self.prm.stub + 3 * g.h
            walls = self._bridges(np.zeros_like(self.face), [(pa, keep), (pb, keep)])
            allowed = self.face & ~walls
        flat = allowed.ravel()
        ka, kb = flat[ea], flat[eb]
        ea, aa, eb, ab = ea[ka], aa[ka], eb[kb], ab[kb]
        if not len(ea) or not len(eb):
            raise _Fail("an end is walled in")
        cells, via = self._via(allowed, ea, eb)
        th_a = float(aa[int(np.nonzero(ea == cells[0])[0][0])])
        th_b = float(ab[int(np.nonzero(eb == cells[-1])[0][0])])
        ta, tb = self._tip(req.a, th_a), self._tip(req.b, th_b)
        pts = np.stack([g.xs[np.array(cells) % g.nx], g.ys[np.array(cells) // g.nx]], axis=1)
        pts[0], pts[-1] = ta, tb
        pts = self._smooth(pts, allowed)
        return self._finish(pts, pa, pb, ta, tb, allowed, pts[via])

    def _via(self, allowed: np.ndarray, ea: np.ndarray, eb: np.ndarray) -> tuple[list[int], int]:
        """The cheapest path from some cell of ``ea`` to some cell of ``eb`` through a cell
        with room for the new spot, near the middle; returns the cells and the via cell's
        index in them."""
        g = self.g
        graph = _graph(allowed, g.cost, eight=True)
        da, pa, _ = dijkstra(
            graph, directed=False, indices=ea, min_only=True, return_predecessors=True
        )
        db, pb, _ = dijkstra(
            graph, directed=False, indices=eb, min_only=True, return_predecessors=True
        )
        ok = np.isfinite(da) & np.isfinite(db)
        if not ok.any():
            raise _Fail("no path")
        room = np.minimum.reduce([g.dc + self.prm.gap - self.prm.spot, g.ds, g.fd * 2]).ravel()
        with np.errstate(invalid="ignore"):
            score = da + db + 0.5 * np.abs(da - db) - VIA_PULL * np.minimum(room, 2 * self.prm.gap)
        score[~ok] = np.inf
        for v in np.argsort(score)[:40]:
            if not np.isfinite(score[v]):
                break
            one = _path_to(pa, int(v))
            two = _path_to(pb, int(v))[::-1]
            if len(set(one) & set(two)) == 1:
                return one + two[1:], len(one) - 1
        raise _Fail("no path")

    def _loop(self) -> Route:
        """A loop: out of the spot and back on either side of a bubble of room (and of
        the bridges to whatever it must enclose)."""
        req, g = self.req, self.g
        if req.wedge_a[1] < TAU:
            raise _Fail("a loop needs a spot with one corner")
        pa = g.d.place(req.a)
        spread = math.radians(28)
        for mid in self._tips(req.a, req.wedge_a, self._loop_target(), spread):
            th_a, th_b = mid - spread, mid + spread
            ca, cb = g.cell(self._tip(req.a, th_a)), g.cell(self._tip(req.a, th_b))
            if not (g.blocked[ca] or g.blocked[cb]) and g.label[ca] == g.label[cb]:
                break
        else:
            raise _Fail("no room to leave the spot")
        self.mid, self.th_a, self.th_b = mid, th_a, th_b
        ta, tb = self._tip(req.a, th_a), self._tip(req.a, th_b)
        self.face = g.label == g.label[ca]
        virtual = self._bubble()
        keep = 2.5 * g.h
        virtual |= self._bridges(virtual, [(ta, keep), (tb, keep)])
        allowed = self.face & ~virtual
        if not (allowed[ca] and allowed[cb]):
            raise _Fail("an end is walled in")
        src = np.array([ca[0] * g.nx + ca[1]])
        dst = np.array([cb[0] * g.nx + cb[1]])
        cells, via = self._via(allowed, src, dst)
        pts = np.stack([g.xs[np.array(cells) % g.nx], g.ys[np.array(cells) // g.nx]], axis=1)
        pts[0], pts[-1] = ta, tb
        pts = self._smooth(pts, allowed)
        return self._finish(pts, pa, pa, ta, tb, allowed, pts[via])

    def _exits(self, spot: int, wedge: tuple[float, float]) -> tuple[np.ndarray, np.ndarray]:
        """Free cells about one stub's length from the spot inside its wedge, away from its
        sides (flat indices), and their angles."""
        g, prm = self.g, self.prm
        x, y = g.d.place(spot)
        r = prm.stub
        j0, i0 = g.cell((x - r - 2 * g.h, y - r - 2 * g.h))
        j1, i1 = g.cell((x + r + 2 * g.h, y + r + 2 * g.h))
        jj, ii = np.mgrid[j0 : j1 + 1, i0 : i1 + 1]
        cx, cy = g.xs[ii], g.ys[jj]
        dist = np.hypot(cx - x, cy - y)
        ang = np.arctan2(cy - y, cx - x)
        start, width = wedge
        t = (ang - start) % TAU
        ok = (np.abs(dist - r) <= 0.75 * g.h) & ~g.blocked[jj, ii]
        if g.d.rotation[spot]:
            margin = min(math.radians(45), width / 3)
            ok &= (t >= margin) & (t <= width - margin)
        return (jj * g.nx + ii)[ok], ang[ok]

    def _loop_target(self) -> Point | None:
        """Where a loop should head: towards the pieces it must enclose."""
        if not self.req.side1:
            return None
        pieces = self.g.d.pieces
        pts = [(s.x, s.y) for s in self.g.d.spots if pieces[s.number - 1] in self.req.side1]
        return (sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts))

    # Loops: the bubble ------------------------------------------------------------------------

    def _bubble(self) -> np.ndarray:
        """A disc of room on the loop's inside, joined to its spot by a tongue of cells
        between the two stubs; the loop must go round it."""
        g, prm = self.g, self.prm
        x, y = g.d.place(self.req.a)
        free = self.face
        room = ndimage.distance_transform_edt(free) * g.h
        ux, uy = math.cos(self.mid), math.sin(self.mid)
        out = np.zeros_like(free)
        # the tongue: from the spot's blocked disc outwards
        best = None
        for rho in (70.0, 55.0, 42.0, 32.0, 24.0, 16.0, 10.0, 0.0):
            d0 = max(prm.spot, prm.stub) + rho + 3 * g.h
            c = (x + d0 * ux, y + d0 * uy)
            j, i = g.cell(c)
            if g.holds(c) and free[j, i] and (rho == 0 or room[j, i] >= rho + 4 * g.h):
                best = (rho, d0)
                break
        if best is None:
            raise _Fail("no room for the loop")
        rho, d0 = best
        cx, cy = x + d0 * ux, y + d0 * uy
        if rho > 0:
            out |= np.hypot(g.xs[None, :] - cx, g.ys[:, None] - cy) <= rho
        ray = np.zeros_like(out)
        for k in np.arange(0.0, d0 + g.h, g.h / 2):
            ray[g.cell((x + k * ux, y + k * uy))] = True
        out |= _dilate4(ray)  # 4-connected: no 8-connected path slips through it
        out &= free | (np.hypot(g.xs[None, :] - x, g.ys[:, None] - y) < prm.spot)
        self.anchor1 = out.copy()
        return out & free

    # Splits: bridges ----------------------------------------------------------------------------

    def _bridges(self, virtual: np.ndarray, keep: list[tuple[Point, float]]) -> np.ndarray:
        g, req = self.g, self.req
        face = self.face
        free_face = face & ~virtual
        band = face & _dilate4(g.blocked) & ~virtual
        piece_of = g.owner_piece()
        side = self._classify(band & (piece_of == req.piece))
        seeds = {1: side == 1, 2: side == 2}
        if req.kind == "loop":
            seeds[1] = seeds[1] | _dilate4(self.anchor1) & face
        pending: dict[int, list[int]] = {1: list(req.side1), 2: list(req.side2)}
        hole_band = {k: band & (piece_of == k) for k in (*req.side1, *req.side2)}
        if req.frame_side:
            # the paper's edge is one more boundary of the unbounded face
            hole_band[FRAME] = band & (piece_of == FRAME)
            pending[req.frame_side].append(FRAME)
        for k, m in hole_band.items():
            if not m.any():
                raise _Fail(f"piece {k} has no room round it in this face")
        # keep bridges away from where the curve leaves its ends
        keep_off = np.zeros_like(face)
        for (x, y), radius in keep:
            keep_off |= np.hypot(g.xs[None, :] - x, g.ys[:, None] - y) <= radius
        walls = np.zeros_like(face)
        struct = {1: seeds[1].copy(), 2: seeds[2].copy()}
        turn = 1
        guard = 0
        while pending[1] or pending[2]:
            guard += 1
            if guard > 200:
                raise _Fail("bridges do not settle")
            if not pending[turn]:
                turn = 3 - turn
            other = 3 - turn
            forbid = _dilate4(struct[other])
            for k in pending[other]:
                forbid |= _dilate4(hole_band[k])
            allowed = free_face & ~forbid & ~keep_off & ~walls | struct[turn]
            allowed &= ~_dilate4(struct[other]) | struct[turn]
            sources = np.flatnonzero(struct[turn] & allowed)
            if not len(sources):
                raise _Fail("a side has nothing to hold on to")
            graph = _graph(allowed, None, eight=False)
            dist, pred, _ = dijkstra(
                graph, directed=False, indices=sources, min_only=True, return_predecessors=True
            )
            best_k, best_cell, best_d = None, -1, np.inf
            for k in pending[turn]:
                cells = np.flatnonzero(hole_band[k] & allowed)
                if not len(cells):
                    continue
                j = cells[np.argmin(dist[cells])]
                if dist[j] < best_d:
                    best_k, best_cell, best_d = k, int(j), float(dist[j])
            if best_k is None:
                raise _Fail("a piece cannot be bridged to its side")
            path = _path_to(pred, best_cell)
            wall = np.zeros(face.size, dtype=bool)
            wall[path] = True
            wall = wall.reshape(face.shape)
            walls |= wall
            struct[turn] |= wall | hole_band[best_k]
            pending[turn].remove(best_k)
            for k in list(pending[turn]):
                if (hole_band[k] & _dilate4(wall)).any():
                    struct[turn] |= hole_band[k]
                    pending[turn].remove(k)
            turn = other
        return walls

    def _classify(self, band: np.ndarray) -> np.ndarray:
        """Side (1 or 2, else 0) of each band cell of the split walk's piece: by the half-edge
        of the nearest curve and which side of it the cell lies on; near the ends, by the
        angle from the spot against where the new curve leaves."""
        g, req = self.g, self.req
        out = np.zeros(band.shape, dtype=np.int8)
        jj, ii = np.nonzero(band)
        if not len(jj):
            return out
        near = g.near[jj, ii] - 1
        d = g.d
        pieces = d.pieces
        for e in np.unique(near):
            e = int(e)
            if e < 0 or e >= len(d.curves) or pieces[d.curves[e].a - 1] != req.piece:
                continue
            sel = np.nonzero(near == e)[0]
            hes = _sides_of(d.arrays[e], g.xs[ii[sel]], g.ys[jj[sel]], e)
            for he, k in zip(hes, sel, strict=True):
                if he in req.arc1:
                    out[jj[k], ii[k]] = 1
                elif he in req.arc2:
                    out[jj[k], ii[k]] = 2
        if req.kind != "loop":
            return out
        # round a loop's spot: its inside between the two stubs, the rest outside
        for spot, first_side in self._end_rules():
            x, y = d.place(spot)
            r = np.hypot(g.xs[ii] - x, g.ys[jj] - y)
            close = (r < self.prm.spot + 4 * g.h) & (g.near_spot[jj, ii] == spot)
            if not close.any():
                continue
            ang = np.arctan2(g.ys[jj] - y, g.xs[ii] - x)
            for k in np.nonzero(close)[0]:
                out[jj[k], ii[k]] = first_side(float(ang[k]))
        return out

    def _end_rules(self) -> list[tuple[int, Any]]:
        lo, hi = self.th_a, self.th_b

        def loop_side(a: float, lo: float = lo, hi: float = hi) -> int:
            return 1 if (a - lo) % TAU < (hi - lo) % TAU else 2

        return [(self.req.a, loop_side)]

    # Shaping -----------------------------------------------------------------------------------

    def _smooth(self, pts: np.ndarray, allowed: np.ndarray) -> np.ndarray:
        g = self.g
        p = pts.copy()
        for _ in range(40):
            q = p.copy()
            q[1:-1] = 0.5 * p[1:-1] + 0.25 * (p[:-2] + p[2:])
            j, i = g.cells(q[1:-1])
            ok = allowed[j, i]
            p[1:-1][ok] = q[1:-1][ok]
        return p

    def _finish(
        self,
        pts: np.ndarray,
        pa: Point,
        pb: Point,
        ta: Point,
        tb: Point,
        allowed: np.ndarray,
        near: np.ndarray,
    ) -> Route:
        g, prm = self.g, self.prm
        body = _resample(pts, prm.step)
        stub_a = _resample(np.array([pa, ta]), prm.step)
        stub_b = _resample(np.array([tb, pb]), prm.step)
        line = np.concatenate([stub_a[:-1], body, stub_b[1:]])
        arc = np.concatenate([[0.0], np.cumsum(np.hypot(*np.diff(line, axis=0).T))])
        lo_arc, hi_arc = arc[len(stub_a) - 1], arc[len(line) - len(stub_b)]
        j, i = g.cells(line)
        others = np.ones(len(g.spot_xy), dtype=bool)
        others[[self.req.a - 1, self.req.b - 1]] = False
        spot_room = np.full(len(line), np.inf)
        if others.any():
            sp = g.spot_xy[others]
            spot_room = np.min(np.hypot(*(line[:, None, :] - sp[None, :, :]).T), axis=0)
        own = np.minimum(np.hypot(*(line - pa).T), np.hypot(*(line - pb).T))
        room = np.minimum.reduce([g.dc[j, i] - 2, spot_room - prm.gap + prm.stub, own - prm.stub])
        k_near = int(np.argmin(np.hypot(*(line - near).T)))
        score = np.minimum(room, 40) - 0.1 * np.abs(arc - arc[k_near])
        order = np.argsort(-score)
        for k in order[:60]:
            s = arc[k]
            if not (lo_arc + prm.stub <= s <= hi_arc - prm.stub):
                continue
            half = min(prm.stub, room[k])
            if half < STUB + 1:
                continue
            shaped = _straighten(line, arc, s, half, prm.step)
            if shaped is None:
                continue
            newline, c_idx = shaped
            if not self._clear(newline, allowed):
                continue
            newline = np.round(newline, 1)
            newline[0], newline[-1] = pa, pb
            c = (float(newline[c_idx, 0]), float(newline[c_idx, 1]))
            first = _dedupe(newline[: c_idx + 1])
            second = _dedupe(newline[c_idx:])
            return Route(c, first, second)
        raise _Fail("no room for the new spot")

    def _clear(self, line: np.ndarray, allowed: np.ndarray) -> bool:
        """Whether the body of the line (past the end stubs) runs through allowed cells."""
        g = self.g
        d = np.minimum(np.hypot(*(line - line[0]).T), np.hypot(*(line - line[-1]).T))
        body = line[d > self.prm.stub - 1]
        j, i = g.cells(body)
        return bool(np.all(self.face[j, i] & ~g.blocked[j, i]))


def _sides_of(pts: np.ndarray, xs: np.ndarray, ys: np.ndarray, e: int) -> list[int]:
    """For points near curve ``e``: the half-edge whose left side each point lies on."""
    a, b = pts[:-1], pts[1:]
    ab = b - a
    den = np.einsum("ij,ij->i", ab, ab)
    den = np.where(den > 0, den, 1.0)
    px = xs[:, None] - a[None, :, 0]
    py = ys[:, None] - a[None, :, 1]
    t = np.clip((px * ab[None, :, 0] + py * ab[None, :, 1]) / den[None, :], 0, 1)
    qx = px - t * ab[None, :, 0]
    qy = py - t * ab[None, :, 1]
    k = np.argmin(qx * qx + qy * qy, axis=1)
    rows = np.arange(len(xs))
    cross = ab[k, 0] * py[rows, k] - ab[k, 1] * px[rows, k]
    return [2 * e if c > 0 else 2 * e + 1 for c in cross]


def _resample(pts: np.ndarray, step: float) -> np.ndarray:
    seg = np.hypot(*np.diff(pts, axis=0).T)
    arc = np.concatenate([[0.0], np.cumsum(seg)])
    total = arc[-1]
    n = max(1, math.ceil(total / step))
    at = np.linspace(0, total, n + 1)
    return np.stack([np.interp(at, arc, pts[:, 0]), np.interp(at, arc, pts[:, 1])], axis=1)


def _straighten(
    line: np.ndarray, arc: np.ndarray, s: float, half: float, step: float
) -> tuple[np.ndarray, int] | None:
    """The line with a new spot at arc length ``s`` and straight stubs ``half`` long on both
    sides of it; returns the line and the spot's index."""

    def at(t: float) -> np.ndarray:
        return np.array([np.interp(t, arc, line[:, 0]), np.interp(t, arc, line[:, 1])])

    c, p0, p1 = at(s), at(s - half), at(s + half)
    u, v = p0 - c, p1 - c
    nu, nv = float(np.hypot(*u)), float(np.hypot(*v))
    if min(nu, nv) < STUB + 1:
        return None
    if float(u @ v) / (nu * nv) > math.cos(MIN_SPOT_ANGLE):
        return None  # the two stubs of the new spot would leave it too narrow a corner
    before = line[arc < s - half - step / 2]
    after = line[arc > s + half + step / 2]
    left = _resample(np.array([p0, c]), step)
    right = _resample(np.array([c, p1]), step)
    out = np.concatenate([before, left, right[1:], after])
    return out, len(before) + len(left) - 1


def _dedupe(pts: np.ndarray) -> tuple[Point, ...]:
    out: list[Point] = []
    for x, y in pts:
        p = (float(x), float(y))
        if not out or out[-1] != p:
            out.append(p)
    return tuple(out)
