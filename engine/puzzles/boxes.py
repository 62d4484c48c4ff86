"""Точки и квадраты puzzles: an endgame where exactly the moves that keep the exact value are
accepted, and a natural move (one that takes a box, or the easy bot's choice) loses.

The values come from the exact solver (:mod:`engine.boxes.solver`): the value of a line is the
net score its player gets from here with best play on both sides, counting the boxes it takes.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator

from engine.boxes import Game, Move
from engine.boxes.ai import choose_move
from engine.boxes.solver import OutOfBudget, Searcher, gc_paused, searcher_for
from engine.puzzles import Analysis, Puzzle, cuts

PREFIX = "b"


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


# Boards and how many lines may be left at the cut: the exact solver values every line of
# these within the node budget (4×4 and 3×3 much more slowly per line left than 5×5 with
# half its lines drawn, where captures have split the board into chains).
BOARDS = ((3, 3, 16), (3, 4, 20), (4, 4, 22), (4, 5, 26), (5, 5, 30), (3, 5, 22))
MIN_LEFT = 5  # fewer lines leave nothing to think about
NODE_LIMIT = 400_000
SOURCES = ("easy", "medium", "random")


def _game(rng: random.Random, rows: int, cols: int, source: str, seed: int) -> list[Game]:
    """One whole game, as the positions before each move."""
    g = Game(rows, cols)
    seen = []
    while not g.over:
        seen.append(g.copy())
        if source == "random":
            g.play(rng.choice(g.legal_moves()))
        else:  # the two seats at the source level, each move on its own seed
            g.play(choose_move(g, source, seed=seed + g.ply))
    return seen


def candidates(seed: int, every: int | None = None) -> Iterator[tuple[Game, int]]:
    """Endgame positions (with a per-cut seed for the bots that name a natural move); which
    of a game's are cut: :func:`engine.puzzles.cuts`."""
    rng = random.Random(seed)
    n = 0
    while True:
        rows, cols, most = rng.choice(BOARDS)
        source = rng.choice(SOURCES)
        n += 1
        positions = [
            p
            for p in _game(rng, rows, cols, source, seed * 100_000 + n * 100)
            if MIN_LEFT <= len(p.legal_moves()) <= most
        ]
        for p in cuts(rng, positions, every):
            yield p, rng.randrange(1 << 30)


def key(game: Game) -> tuple[object, ...]:
    """What makes two cut positions the same puzzle."""
    return (game.mask, game.board.key(game.drawn_mask))


def judge(game: Game, cut_seed: int) -> tuple[str, Puzzle | None, float]:
    """A candidate's fate: ("ok", puzzle, its hardness) or (the reason it was rejected, None,
    0); the puzzle's difficulty is set once the whole bank is ranked."""
    analysis = analyse(game, node_limit=NODE_LIMIT)
    if analysis is None:
        return "solver budget", None, 0.0
    accepted = analysis.accepted
    legal = len(analysis.values)
    if len(accepted) == legal:
        return "every move keeps the value", None, 0.0
    if len(accepted) > max(2, legal // 3):
        return "too many right moves", None, 0.0
    naturals = natural_moves(game, cut_seed)
    losing = [m for m in naturals if m not in accepted]
    if not losing:
        return "no natural move loses", None, 0.0
    wrong = losing[0]
    trap_takes = takes_box(game, game.parse_move(wrong))
    hard = hardness(analysis, wrong, trap_takes)
    hint = hint_of(game, sorted(accepted)[0])
    puzzle = Puzzle.cut("boxes", game, analysis, wrong, hint)
    return "ok", puzzle, hard
