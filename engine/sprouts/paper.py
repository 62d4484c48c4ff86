"""Playing a move on the drawing: what to route, the route, and the exact check.

:func:`draw_move` is the only way the game changes its drawing. It asks the triangulation
router (:mod:`engine.sprouts.mesh`) for a curve, on the drawing as it is and then on the
drawing enlarged step by step, and accepts the first drawing that passes every check:

1. the geometry (:func:`~engine.sprouts.drawing.check_geometry`: no crossing, gaps held, the
   new spot on no other curve);
2. the plane structure derived from the new drawing (faces, their walks, which walk is each
   face's outer edge, the unbounded face) equals the one the move asks for, computed from
   the old structure and the move without looking at the new curve;
3. the canonical key of the derived position equals that of ``position.play(move)``.

Nothing unchecked is ever kept: when no attempt passes, :class:`RoutingError` is raised and
the game is left as it was. A routed drawing whose new curves pass check 1 is tidied
(:mod:`engine.sprouts.tidy`: spots and curves moved apart without changing the picture up
to deformation) and the tidied drawing checked whole (1, every curve; 2; 3); only when that
fails are 2 and 3 run on the routed drawing, which is kept if it passes (the tidy's failure
is logged), else the next enlargement is tried.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

from engine.sprouts.drawing import Drawing, DrawingError, check_geometry, plane_key
from engine.sprouts.mesh import route_mesh
from engine.sprouts.moves import Choice
from engine.sprouts.routing import Request, RoutingError, _Fail
from engine.sprouts.tidy import TidyError, tidy
from engine.sprouts.tidy import warm as _warm_tidy


def request_for(drawing: Drawing, ch: Choice) -> Request:
    """The router's view of a move."""
    pm = ch.pmove
    r = pm.region
    face = drawing.faces[r]
    (ba, ia), (bb, ib) = pm.a, pm.b
    sa, wa_start, wa_width = drawing.corner(r, ba, ia)
    sb, wb_start, wb_width = drawing.corner(r, bb, ib)
    wedges = ((wa_start, wa_width), (wb_start, wb_width))
    box = None
    if face.outer is not None:
        poly = drawing.walk_polygon(face.outer)
        (x0, y0), (x1, y1) = poly.min(axis=0), poly.max(axis=0)
        box = (float(x0), float(y0), float(x1), float(y1))
    if ba != bb:
        return Request("merge", sa, sb, *wedges, box=box)
    walk_ids = face.walks
    walk = drawing.walks[walk_ids[ba]]
    n = len(walk.hes)
    k = (ib - ia) % n if n else 0
    arc1 = frozenset(walk.hes[(ia + t) % n] for t in range(k)) if n else frozenset()
    arc2 = frozenset(walk.hes) - arc1
    others = [i for i in range(len(walk_ids)) if i != ba]
    piece = [drawing.walks[walk_ids[i]].piece for i in range(len(walk_ids))]
    side1 = tuple(piece[i] for i in others if i in pm.first_side)
    side2 = tuple(piece[i] for i in others if i not in pm.first_side)
    frame = 0
    if face.outer is None:
        frame = 2 if ch.inner == 0 else 1
    kind = "loop" if pm.a == pm.b else "split"
    return Request(kind, sa, sb, *wedges, walk.piece, arc1, arc2, side1, side2, frame, box)


def expected_key(drawing: Drawing, ch: Choice) -> tuple[Any, ...]:
    """The plane structure the move must produce, from the old structure and the move."""
    p = drawing.position
    pm = ch.pmove
    child = p.play(pm)
    outers: list[int | None] = [None if f.outer is None else 0 for f in drawing.faces]
    r = pm.region
    (ba, _), (bb, _) = pm.a, pm.b
    others = [i for i in range(len(p.regions[r])) if i not in (ba, bb)]
    new: list[int | None]
    if outers[r] is None:
        new = [None] if ba != bb else ([0, None] if ch.inner == 0 else [None, 0])
    elif ba != bb:
        new = [0] if 0 in (ba, bb) else [1 + others.index(0)]
    elif ba == 0:
        new = [0, 0]
    else:
        first = [i for i in others if i in pm.first_side]
        second = [i for i in others if i not in pm.first_side]
        new = [1 + first.index(0), 0] if 0 in first else [0, 1 + second.index(0)]
    outers = outers[:r] + new + outers[r + 1 :]
    return plane_key(child.regions, outers)


log = logging.getLogger(__name__)


def draw_move(drawing: Drawing, ch: Choice) -> Drawing:
    """The drawing after move ``ch``, routed and checked; raises :class:`RoutingError`.

    The triangulation router (:mod:`engine.sprouts.mesh`), on the drawing as it is and then
    enlarged step by step (which keeps its topology and widens every gap against the fixed
    minimum gaps; the triangulation's cost does not grow with the size); the accepted
    drawing is then tidied (:func:`tidied`), which also shrinks an enlarged paper back as
    far as its gaps allow.
    """
    want = expected_key(drawing, ch)
    child_key = drawing.position.play(ch.pmove).canonical()
    failures: list[str] = []

    def drawn_well(new: Drawing, tag: str) -> bool:
        n = len(new.curves)
        try:
            check_geometry(new, [n - 2, n - 1])
        except DrawingError as e:
            failures.append(f"{tag}: {e}")
            return False
        return True

    def separates_well(new: Drawing, tag: str) -> bool:
        if new.plane_key() != want:
            failures.append(f"{tag}: the curve separates the wrong spots")
            return False
        if new.position.canonical() != child_key:
            failures.append(f"{tag}: the derived position is not the move's child")
            return False
        return True

    for grow, sized in _sizes(drawing, failures):
        try:
            r = route_mesh(sized, request_for(sized, ch))
        except _Fail as e:
            failures.append(f"mesh x{grow}: {e}")
            continue
        new = sized.with_move(r.spot, r.first, r.second)
        tag = f"mesh x{grow}"
        if not drawn_well(new, tag):
            continue
        sketch = _unscaled(drawing, new, grow)
        # The tidied drawing is checked whole (all three checks), so the routed one's plane
        # structure and position are derived only when the tidy fails and it is kept.
        error = None
        if TIDY:
            done, error = tidied(new, want, child_key)
            if error is None:
                done.sketch = sketch
                return done
        if separates_well(new, tag):
            if error is not None:
                TIDY_FAILURES.append(error)
                log.warning("sprouts: tidy failed, the drawing stays as routed: %s", error)
            new.sketch = sketch
            return new
    raise RoutingError(f"could not draw {ch.move}: " + "; ".join(failures), move=str(ch.move))


def _unscaled(parent: Drawing, routed: Drawing, grow: float) -> Drawing:
    """``parent`` plus the two new curves of ``routed`` (``parent`` enlarged ``grow`` times,
    then the move), brought back to ``parent``'s units; their ends at the old spots are
    those spots' very places (:attr:`Drawing.sketch`)."""
    first, second = routed.curves[-2], routed.curves[-1]

    def back(p: tuple[float, float]) -> tuple[float, float]:
        return (p[0] / grow, p[1] / grow)

    c = back(routed.place(first.b))
    a, b = parent.place(first.a), parent.place(second.b)
    return parent.with_move(
        c,
        [a, *map(back, first.points[1:-1]), c],
        [c, *map(back, second.points[1:-1]), b],
    )


def _sizes(base: Drawing, failures: list[str]) -> Iterator[tuple[float, Drawing]]:
    """The drawing to route on: as it is, then enlarged step by step while enlarging keeps
    it valid and the same (why not is added to ``failures``)."""
    yield 1.0, base
    for grow in GROWTH:
        drawing = base.scaled(grow)
        try:
            check_geometry(drawing)
        except DrawingError as e:
            failures.append(f"enlarged: {e}")
            continue
        if drawing.plane_key() != base.plane_key():
            failures.append("enlarging changed the drawing")
            return
        yield grow, drawing


def tidied(drawing: Drawing, want: tuple[Any, ...], child_key: str) -> tuple[Drawing, str | None]:
    """The drawing tidied (:mod:`engine.sprouts.tidy`) and checked whole: every curve against
    every curve and spot, the plane structure and the position as the move asks; or the
    drawing as given and why that failed. The caller then keeps the routed drawing if it
    passes its own checks: a tidy that fails is a bug, logged and counted in
    :data:`TIDY_FAILURES`, and the game goes on."""
    try:
        new = tidy(drawing)
        check_geometry(new)
        if new.plane_key() != want:
            raise TidyError("tidying changed the plane structure")
        if new.position.canonical() != child_key:
            raise TidyError("tidying changed the position")
    except (TidyError, DrawingError) as e:
        return drawing, str(e)
    return new, None


TIDY = True  # tidy every new drawing (the bench turns it off for a baseline)
TIDY_FAILURES: list[str] = []  # every failed tidy since start (tests require it stays empty)

# How much the paper is enlarged, step by step, when no curve fits: any move fits at last,
# but the gaps of a drawing enlarged a lot look thin next to its spots (see README).
GROWTH = (1.5, 2.25, 3.4, 5.0, 7.6)


def warm() -> None:
    """Load the compiled kernels of the router and the tidy step now (the first time on an
    install: compile them, tens of seconds of CPU), rather than inside the first move; then
    route, tidy and check the first curves of a small game, with the router in use (at
    start-up: this process), so that what a first curve sets up once (the canonical keys'
    module, the triangulation's and the sparse solver's first calls) is done too: a fresh
    worker's first curve took 40-70 ms, later ones 20-30."""
    from engine.sprouts.game import Game

    _warm_tidy()
    g = Game(3)
    for pick in (0, -1, 0):  # a loop, a curve between two spots, one more
        moves = g.legal_moves()
        g.play(moves[pick if pick >= 0 else len(moves) + pick])
