"""Точки и квадраты puzzles: an endgame where exactly the moves that keep the exact value are
accepted, and a natural move (one that takes a box, or the easy bot's choice) loses.

The values come from the exact solver (:mod:`engine.boxes.solver`): the value of a line is the
net score its player gets from here with best play on both sides, counting the boxes it takes.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from engine.boxes import Game, Move
from engine.boxes.ai import choose_move
from engine.boxes.solver import OutOfBudget, Searcher, gc_paused, searcher_for


@dataclass(frozen=True)
class Analysis:
    """Every legal line's exact value (for the player to move, by notation) and the best."""

    values: dict[str, int]
    best: int

    @property
    def accepted(self) -> list[str]:
        return [m for m, v in self.values.items() if v == self.best]


def analyse(
    game: Game, *, node_limit: int | None = None, time_limit: float | None = None
) -> Analysis | None:
    """The exact value of every legal line; None when the search runs past its budget.

    The node budget (not the clock) is what a reproducible generator limits; with neither
    limit the search always finishes (the test proves the shipped data that way)."""
    s: Searcher = searcher_for(game.board) if node_limit is not None else Searcher(game.board)
    s.set_position(game.drawn_mask)
    s.nodes = 0
    s.node_limit = node_limit
    s.deadline = None if time_limit is None else time.monotonic() + time_limit
    lines = [game.line_number(m) for m in game.legal_moves()]
    try:
        with gc_paused():
            raw = s.move_values(lines)
    except OutOfBudget:
        return None
    finally:
        s.node_limit = None
        s.deadline = None
    values = {game.format_move(game.line_move(n)): v for n, v in raw.items()}
    return Analysis(values, max(values.values()))


def takes_box(game: Game, move: Move) -> bool:
    """The line completes a box (so its player moves again)."""
    return any(game.box_sides(r, c) == 3 for r, c in _boxes_of(game, move))


def gives_box(game: Game, move: Move) -> bool:
    """The line leaves a box with three sides that it does not complete itself."""
    return not takes_box(game, move) and any(
        game.box_sides(r, c) == 2 for r, c in _boxes_of(game, move)
    )


def _boxes_of(game: Game, move: Move) -> list[tuple[int, int]]:
    if move.orient == "h":
        near = [(move.r - 1, move.c), (move.r, move.c)]
    else:
        near = [(move.r, move.c - 1), (move.r, move.c)]
    return [
        (r, c) for r, c in near if 0 <= r < game.rows and 0 <= c < game.cols and game.has_box(r, c)
    ]


def natural_moves(game: Game, seed: int) -> list[str]:
    """The moves a player is drawn to, most tempting first: every line that takes a box, then
    the easy and the medium bot's choice."""
    out = [game.format_move(m) for m in game.legal_moves() if takes_box(game, m)]
    for level in ("easy", "medium"):
        m = game.format_move(choose_move(game, level, seed=seed))
        if m not in out:
            out.append(m)
    return out


def hint_of(game: Game, notation: str) -> str:
    """What the right move does: takes a box; declines one (a box could be taken, but this
    line leaves it); draws a safe line; or gives boxes away on purpose."""
    move = game.parse_move(notation)
    if takes_box(game, move):
        return "take"
    if any(takes_box(game, m) for m in game.legal_moves()):
        return "decline"
    return "sacrifice" if gives_box(game, move) else "safe"


def hardness(analysis: Analysis, wrong: str, trap_takes: bool) -> float:
    """How hard a puzzle is to solve, to rank a bank by: more lines per right move, a wrong
    move that takes a box (the trap people fall into) and a wrong move that loses little
    (it looks nearly as good) make it harder."""
    right = len(analysis.accepted)
    loss = analysis.best - analysis.values[wrong]
    return len(analysis.values) / right + (4.0 if trap_takes else 0.0) + 6.0 / loss


def difficulties(scores: list[float], levels: int = 5) -> list[int]:
    """Each score's level 1..``levels`` by its rank among ``scores`` (equal shares per level)."""
    order = sorted(range(len(scores)), key=lambda i: (scores[i], i))
    out = [0] * len(scores)
    for rank, i in enumerate(order):
        out[i] = 1 + rank * levels // len(scores)
    return out
