"""Точки (Dots): rules engine, records and AI. Importing this package registers kind "dots".

Playing::

    from engine.dots import Game, Move
    g = Game(20, 20, start="free", grounding=False, scoring="captures")  # or Game.preset(...)
    g.play(Move(3, 4))            # x from the left, y from the TOP, both 0-based
    g.turn, g.scores, g.over, g.result, g.legal_moves(), g.is_legal(m)

Presets: ``tournament`` (38×31, each player's first move inside the central 8×15 zone),
``modern`` (39×32 from the central cross), ``quick`` (15×15, free start). Options: ``width``
5–39, ``height`` 5–32, ``start`` "free" | "zone" | "cross", ``zone_width``/``zone_height``
(default 8×15 clipped to the board), ``grounding`` (bool), ``scoring`` "captures" |
"territory", ``edge`` "safe" (default, tournament rule: dots on the edge are never
surrounded) | "capturable" (the field's edge counts as a wall of the surrounding player's
ring: of the parts a chain cuts off against the edge, all but the largest are enclosed, none
when two largest are equal; SGF keeps it as ``edge=capturable`` in our ``RU``). Player 0
moves first and is Black in SGF.

Scores: ``g.scores`` counts enemy dots captured *now* (liberation lowers the other score),
or with ``scoring="territory"`` the points inside each player's captured areas, whatever they
hold; ``g.captured_dots`` is the dot count under either scoring. After ``ground`` the
grounding player's ungrounded dots are added to the opponent's score.

Actions besides moves (each raises :class:`engine.IllegalMove` with a ``code`` from
:data:`ILLEGAL_CODES` when not allowed, and changes nothing):

- ``g.stop(player, now=None, limit=180)`` on either turn: ``player`` places no more dots and
  the other player moves alone. ``g.deadline`` is ``now + limit`` on the caller's clock (the
  engine never reads a clock); ``g.expired(now)`` compares. ``g.finish_stop()`` ends the
  game, scores deciding: call it when the player taps Done or the deadline passes.
- ``g.ground(player)`` (grounding variant, on ``player``'s turn) ends the game.
- ``g.resign(player)``, ``g.timeout(player)``, ``g.agree()`` (scores decide) or
  ``g.agree(draw=True)`` (a draw whatever the scores).

Notation (``g.parse_move("h12")`` / ``g.format_move(m)``): column letters from the left,
a–z then aa, ab, … am on a 39-wide board (read case-insensitively); row numbers from the
BOTTOM starting at 1, as drawn. Records: ``g.to_json()`` / ``Game.from_json(d)`` (the moves
as two letters each: about 2.5 KB for a full 39×32 game), ``g.to_sgf(rings=False)`` /
``Game.from_sgf(text)`` in the FF[4]GM[40] dialect (see :mod:`engine.dots.sgf`).
``g.replay()`` yields the game after 0, 1, … moves with STOP and grounding where they happened.

For the renderer — read-only views, cheap enough to call once per picture:

- ``g.width``, ``g.height``.
- ``g.cell(x, y)`` → :class:`Cell`: ``dot`` (player index or None for an empty point) and
  ``area`` (the player whose captured area holds the point, or None). ``cell.dead``: inside a
  captured area (no dot may go there); ``cell.captured``: a dot inside the other player's
  area (it counts for them). A player's own dot inside their own area (freed by a
  liberation) has ``dot == area`` and is neither.
- ``g.captures`` → tuple of :class:`Capture` in the order made: ``owner``, ``ring`` (the
  ring's points in order round the polygon; the last links back to the first), ``area`` (frozenset
  of the points strictly inside), ``ply`` (index in ``g.moves`` of the move that made it)
  and ``credited`` (the move tournament records credit: ``ply + 1`` for an intruder caught
  in an empty ring, ``capture.intrusion``). The ring catches the intruder at its owner's
  next move (tournament rules, comment 1); the engine applies it at once, and not at all when
  that move never comes: the intruder took the last free point, or the owner called STOP
  (before, or right after the intrusion: then the intruder is set free again). A later
  capture may hold earlier ones (nested captures): draw them in order so the outer one
  paints last; ``cell()`` has the final word.
- ``g.bases`` → tuple of :class:`Base`: the empty rings that stand now (``owner``,
  ``ring``, ``area``): they stay playable for both players.
- ``g.zone`` → :class:`Zone` (``x``, ``y``, ``width``, ``height``, ``contains(x, y)``) while a
  first move is still due inside it, else None. ``g.cross_points()`` lists the starting cross.
- ``g.last_move`` → :class:`Move` or None; ``g.moves`` all moves in order.
- ``g.grounded(player)`` / ``g.ungrounded(player)`` → frozensets of that player's live dots
  that are / are not joined to the board edge (horizontal and vertical steps through own live
  dots and own captured area); meaningful in every game, used by the grounding variant.
- ``g.stopped_by``, ``g.stop_ply``, ``g.deadline``, ``g.grounded_by``.

AI: ``engine.choose_move(game, level)`` as for every game, or ``engine.dots.ai.choose_move(game,
level="easy"|"medium"|"hard"|"expert", seed=None, time_limit=None, *, iterations=None) ->
Move`` (see :mod:`engine.dots.ai`); hard and expert search with :mod:`engine.dots.search` on
the compiled board :mod:`engine.dots.fastboard`. The AI reads the
capture board itself (``g.board``) and the moves as board indices (``g.move_indices``,
``g.recent_indices(k)``): internal views for speed, never changed.
"""

from engine.dots.game import ILLEGAL_CODES, Base, Capture, Cell, Game, Move, Zone

__all__ = ["ILLEGAL_CODES", "Base", "Capture", "Cell", "Game", "Move", "Zone"]
