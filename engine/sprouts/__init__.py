"""Рассада (Sprouts): combinatorial positions, canonical forms and a solver.

Importing this package is cheap: the shipped tables load on the first solver question.

Building a position
-------------------
``Position.parse("0*2")`` reads GLOP 2.x text; ``Position.start(n)`` is the ``n``-spot start
with spots ``1..n``. A drawing builds its position directly from its faces::

    Position(regions, lives)

* ``lives`` maps every spot id (any int) to its lives left, 0..3. Dead spots may stay.
* ``regions`` is a list of regions (faces of the drawing on the sphere; the outer face is
  a region like any other). A region is a list of *boundaries*, one per connected piece of
  the drawing that touches the face (an isolated spot is a piece on its own).
* A boundary is the walk around that piece with the face on the LEFT hand, listing the spot
  at every *corner* met: a spot appears once per corner it shows to this face. So an isolated
  spot appears once (``[7]``), the end of a line once, a spot with two line ends twice when
  both sides face this region, and a spot with three ends up to three times. Counter-
  clockwise for the outer boundary of a bounded face, clockwise for the holes in it; the
  start of the walk does not matter.

Example: spots 1 and 2 joined by a curve through the new spot 3, drawn in the plane, give
one region ``[[1, 3, 2, 3]]`` with lives ``{1: 2, 2: 2, 3: 1}`` (GLOP ``1a1a``).

Moves and children
------------------
``p.moves()`` yields every move on paper up to topology as a :class:`~.position.Move`:
``region`` (index into ``p.regions``), corners ``a`` and ``b`` as ``(boundary index, index
in that boundary)`` (equal for a loop) and, when both corners lie on one boundary (the region
splits), ``first_side``: the indices of the region's other boundaries that end up in the
first part. ``p.spots_of(move)`` names the two spots. ``p.play(move)`` is the child:

* the new spot has id ``p.next_spot`` (max id + 1) and 1 life; the ends lose a life each;
* a move between two boundaries merges them; the region keeps its index;
* a move within one boundary splits region ``move.region`` in place into two regions: the
  first is bounded by the walk from corner ``a`` forward to corner ``b`` and back along the
  new curve (for a loop: the inside of the loop) plus the ``first_side`` boundaries; the
  second by the rest of the walk and the other boundaries. Each new region lists the new walk
  first, then its other boundaries in their old order.

``p.children()`` is ``[p.play(m) for m in p.moves()]``: duplicates (equal up to equivalence)
are kept, one child per move on paper.

Equality
--------
``p.canonical()`` is the equality key (a GLOP string; lands sorted and joined by ``+``):
two positions have the same key exactly when they are the same game up to relabelling,
rotation, reordering, mirroring and sound reductions (:mod:`engine.sprouts.canon`).
``==`` on ``Position`` compares the exact structure, ids included.

Moves drawn with a finger
-------------------------
:func:`move_from_path` ``(game, start, path)`` names the legal move a path drawn from spot
``start`` (drawing units) makes, or raises :class:`PathRefused` with a ``code``
(:data:`PATH_CODES`) and the place ``at`` (:mod:`engine.sprouts.path`).

Solving
-------
:mod:`engine.sprouts.solver`: ``outcome(p_or_glop, misere=False)`` (True when the player to
move wins), ``nimber(p_or_glop)``, and for the AI ``winning_children(p, misere=False)``,
``winning_moves(p, misere=False)`` (all of them) and ``winning_move(p, misere=False)`` (the
first found, or None: much cheaper from a winning position).
"""

from engine.sprouts.position import BadPosition, Position
from engine.sprouts.position import Move as PositionMove

__all__ = ["BadPosition", "Position", "PositionMove"]

# The game on paper registers itself as kind "sprouts" (numpy/scipy load with it). Its moves
# are ``Move`` like every game's (``Move is Game.move_type``); the position's are PositionMove.
from engine.sprouts.game import ILLEGAL_CODES, Game
from engine.sprouts.moves import Move
from engine.sprouts.path import PATH_CODES, PathRefused, move_from_path

__all__ += ["ILLEGAL_CODES", "PATH_CODES", "Game", "Move", "PathRefused", "move_from_path"]
