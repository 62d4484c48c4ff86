"""Рассада puzzles: a position of a game of 4–8 spots that the player to move wins, with at
most :data:`MAX_MOVES` moves, where few moves keep the win and a tempting one loses (the same
two spots joined round the other side of a region, which looks like the right move, or else
the first losing move on the keyboard).

Cut from random games on paper (:class:`engine.sprouts.Game`), so a puzzle keeps its drawing
and the bot can show it as it shows any game. The values come from the position solver
(:func:`engine.sprouts.solver.outcome`): +1 for a move after which the opponent loses, -1 for
one after which they win. The solver has no clock, so the bank is reproducible.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from engine.puzzles import Analysis, Puzzle, cuts
from engine.sprouts import Game
from engine.sprouts.routing import RoutingError
from engine.sprouts.solver import outcome

PREFIX = "s"
SPOTS = (4, 5, 6, 7, 8)
MIN_MOVES = 4  # fewer moves leave nothing to think about
# More curves than this are no puzzle to page through on the keyboard (an early position of
# 8 spots has over a thousand: which of six spots each loop encloses), and cost the most to
# solve.
MAX_MOVES = 60


def analyse(game: Game) -> Analysis:
    """Every legal move's value for the player to move: +1 wins, -1 loses."""
    analysis = analyse_unless(game, None)
    assert analysis is not None  # no limit
    return analysis


def analyse_unless(game: Game, most_wins: int | None) -> Analysis | None:
    """:func:`analyse`, or None as soon as more than ``most_wins`` moves are found to win
    (the generator's quick rejection: the other moves need not be solved)."""
    verdict: dict[str, bool] = {}
    values: dict[str, int] = {}
    wins = 0
    for m in game.legal_moves():
        child = game.position.play(game.describe(m).pmove)
        key = child.canonical()
        if key not in verdict:
            verdict[key] = not outcome(child, game.misere)
        values[game.format_move(m)] = 1 if verdict[key] else -1
        wins += verdict[key]
        if most_wins is not None and wins > most_wins:
            return None
    return Analysis(values, max(values.values()))


def most_wins(legal: int) -> int:
    """The most winning moves a puzzle may have among ``legal``: two, or a quarter."""
    return max(2, legal // 4)


def _ends(game: Game, notation: str) -> frozenset[int]:
    m = game.parse_move(notation)
    return frozenset((m.a, m.b))


def natural_moves(game: Game, accepted: list[str]) -> list[str]:
    """Tempting losing moves, most tempting first: those joining the same spots as a right move
    (only the side of the region differs), then every other losing move in keyboard order."""
    right = {_ends(game, a) for a in accepted}
    moves = [game.format_move(m) for m in game.legal_moves()]
    alike = [m for m in moves if m not in accepted and _ends(game, m) in right]
    return alike + [m for m in moves if m not in alike and m not in accepted]


def hint_of(game: Game, notation: str) -> str:
    """What the right move draws: a loop, a curve that splits a region in two, or one that
    joins two separate boundaries."""
    move = game.parse_move(notation)
    if move.a == move.b:
        return "loop"
    pmove = game.describe(move).pmove
    return "split" if pmove.a[0] == pmove.b[0] else "join"


def hardness(analysis: Analysis, alike: bool, spots: int) -> float:
    """How hard a puzzle is: more moves per right one, a trap that looks like the answer (the
    same two spots) and a bigger game make it harder."""
    return len(analysis.values) / len(analysis.accepted) + (3.0 if alike else 0.0) + spots / 2


def candidates(seed: int, every: int | None = None) -> Iterator[tuple[Game, int]]:
    """Positions with at least :data:`MIN_MOVES` from random games; which of a game's are
    cut: :func:`engine.puzzles.cuts`."""
    rng = random.Random(seed)
    while True:
        g = Game(rng.choice(SPOTS))
        seen = []
        while not g.over:
            if len(g.legal_moves()) >= MIN_MOVES:
                seen.append(g.copy())
            try:
                g.play(rng.choice(g.legal_moves()))
            except RoutingError:  # a curve the router cannot draw: the game so far serves
                break
        for p in cuts(rng, seen, every):
            yield p, 0


def key(game: Game) -> tuple[object, ...]:
    """What makes two cut positions the same puzzle: the position up to equivalence."""
    return (game.misere, game.position.canonical())


def judge(game: Game, cut_seed: int) -> tuple[str, Puzzle | None, float]:
    """A candidate's fate: ("ok", puzzle, its hardness) or (the reason it was rejected, None,
    0). ``cut_seed`` is unused: the tempting move needs no bot."""
    del cut_seed
    legal = len(game.legal_moves())
    if legal > MAX_MOVES:
        return f"more than {MAX_MOVES} moves", None, 0.0
    analysis = analyse_unless(game, most_wins(legal))
    if analysis is None:
        return "too many winning moves (the search stopped)", None, 0.0
    accepted = analysis.accepted
    if analysis.best < 0:
        return "the player to move loses", None, 0.0
    wrong = natural_moves(game, accepted)[0]
    alike = _ends(game, wrong) in {_ends(game, a) for a in accepted}
    hint = hint_of(game, sorted(accepted)[0])
    puzzle = Puzzle.cut("sprouts", game, analysis, wrong, hint)
    return "ok", puzzle, hardness(analysis, alike, game.options["spots"])
