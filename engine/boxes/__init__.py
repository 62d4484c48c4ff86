"""Точки и квадраты (Dots and Boxes): any rectangle 1×1..12×12 boxes or a shaped mask, 2–4
players, an exact solver and an AI.

``from engine.boxes import Game, Move``. Coordinates: ``Move("h", r, c)`` is the horizontal line
from dot (r, c) to (r, c+1), r in 0..rows, c in 0..cols-1; ``Move("v", r, c)`` the vertical line
from (r, c) to (r+1, c), r in 0..rows-1, c in 0..cols; dot rows count from the TOP here. Human
notation names dots like a chess board (columns a, b, c… from the left, rows 1, 2… from the
BOTTOM): ``g.format_move(Move("h", 0, 0))`` on a 3×3 board is ``"a4-b4"``; ``parse_move``
accepts either dot order, upper case, spaces and any dash.

Boards: ``Game(rows, cols)``, ``Game(mask=["##", "#."])``, ``Game(shape="heart")`` (names in
``engine.boxes.shapes.SHAPES``: cross, ring, frame, diamond, heart), presets ``quick`` (3×3),
``classic`` (5×5), ``big`` (8×8); ``players=2..4``. ``border=True`` (any board) plays Палочки:
the figure's outline is drawn before the first move, so a corner box needs only two lines
(``g.border``, ``g.outline_lines()``, ``g.is_outline(m)``; the outline has no owner and is not
among ``moves``/``drawn_lines()``).

Read-only views for the renderer and the bot (all cheap, none changes the game):

- ``g.rows``, ``g.cols``, ``g.mask`` (rows of ``#``/``.``), ``g.shape`` (name or None)
- ``g.all_lines()`` every existing line; ``g.all_boxes()`` every existing box (r, c);
  ``g.has_line(m)``, ``g.has_box(r, c)``
- ``g.line_owner(m)`` who drew a line (None if undrawn); ``g.drawn_lines()`` {Move: player}
  in drawing order
- ``g.box_owner(r, c)`` who took a box (None if open); ``g.taken_boxes()`` {(r, c): player};
  ``g.box_sides(r, c)`` drawn sides 0..4
- ``g.last_turn`` the lines of the latest turn (all lines its player drew in a row, since
  completing a box gives another move), ``g.last_player``
- ``g.to_action(m)`` / ``g.from_action(n)``: OpenSpiel ``dots_and_boxes`` action numbers on
  rectangles (h(r,c) = r·C + c, v(r,c) = (R+1)·C + r·(C+1) + c)

AI: ``engine.boxes.ai.choose_move(game, level, seed=None, time_limit=None)``; exact values:
``engine.boxes.solver.value(game)``.
"""

from engine.boxes.game import ILLEGAL_CODES, Game, Move
from engine.boxes.shapes import SHAPES

__all__ = ["ILLEGAL_CODES", "SHAPES", "Game", "Move"]
