"""The Sprouts AI on paper: the position solver when it can answer in time, else a guess.

``choose_move(game, level, seed, time_limit)`` is a pure function of the game, the level and
the seed (given the same time to think). Moves on paper that give the same child position
(up to equivalence) are the same move to the solver, so it looks at one move per distinct
child of :meth:`Position.moves(distinct=True) <engine.sprouts.position.Position.moves>` and
then picks, among the moves on paper giving the chosen child, one at random.

* ``hard``: a move to a child that is lost for the player to move (normal play: nimber 0;
  misère: the memoised search), whenever the solver decides within the time limit; otherwise
  a move to a child that the shipped tables already show lost, otherwise a random move.
* ``medium``: like hard with half the time, but one move in four is random.
* ``easy``: one move in two is random; the others as medium.

The solver is stopped at the deadline (a timer signal in the main thread, a trace hook in
other threads), so a level never runs much past its time limit.
"""

from __future__ import annotations

import random
import signal
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from engine.core import GameOver, UnknownLevel
from engine.facts import DEFAULT_LEVEL
from engine.sprouts import solver, tables
from engine.sprouts.game import Game, _table
from engine.sprouts.moves import Move
from engine.sprouts.position import Move as PMove

LEVELS = Game.facts.levels
TIME = {"easy": 0.5, "medium": 1.0, "hard": 2.0}  # seconds, when no limit is given
RANDOM_SHARE = {"easy": 0.5, "medium": 0.25, "hard": 0.0}


class _OutOfTime(Exception):
    pass


def choose_move(
    game: Game,
    level: str = DEFAULT_LEVEL,
    seed: int | None = None,
    time_limit: float | None = None,
) -> Move:
    """A legal move for the player to move."""
    if level not in LEVELS:
        raise UnknownLevel(f"unknown level {level!r}; known: {', '.join(LEVELS)}")
    if game.over:
        raise GameOver()
    start = time.monotonic()
    rng = random.Random(seed)
    moves = game.legal_moves()
    if len(moves) == 1 or rng.random() < RANDOM_SHARE[level]:
        return moves[rng.randrange(len(moves))]
    budget = TIME[level] if time_limit is None else max(0.0, float(time_limit))
    if level != "hard":
        budget /= 2
    choices = _table(game.drawing).choices
    p = game.position
    # one move on paper per distinct child, in a seeded order
    reps = set(p.moves(distinct=True))
    by_pmove: dict[PMove, list[Move]] = {}
    for m in moves:
        by_pmove.setdefault(choices[m].pmove, []).append(m)
    order = [pm for pm in by_pmove if pm in reps] or list(by_pmove)
    rng.shuffle(order)
    kids: dict[tuple[str, ...], list[PMove]] = {}
    for pm in order:
        kids.setdefault(solver.lands_of(p.play(pm)), []).append(pm)
    misere = game.misere
    best = _known_loss(kids, misere)
    if best is None and time.monotonic() - start < budget:
        best = _solve(kids, misere, start + budget)
    if best is None:
        pm = order[rng.randrange(len(order))]
        return rng.choice(by_pmove[pm])
    pm = rng.choice(kids[best])
    return rng.choice(by_pmove[pm])


def _known_loss(kids: dict[tuple[str, ...], list[PMove]], misere: bool) -> tuple[str, ...] | None:
    """A child the tables alone show lost for the player to move, if any."""
    for lands in sorted(kids, key=lambda ls: (sum(map(solver.key_lives, ls)), ls)):
        if misere:
            if not lands:
                continue  # the last move loses in misère play
            v = tables.misere(lands)
            if v is False:
                return lands
        else:
            x = 0
            for key in lands:
                n = tables.nimber(key)
                if n is None:
                    break
                x ^= n
            else:
                if x == 0:
                    return lands
    return None


def _solve(
    kids: dict[tuple[str, ...], list[PMove]], misere: bool, deadline: float
) -> tuple[str, ...] | None:
    """The first child (smallest first) the solver shows lost for the player to move,
    before the deadline."""
    try:
        with _deadline(deadline):
            for lands in sorted(kids, key=lambda ls: (sum(map(solver.key_lives, ls)), ls)):
                if not solver.SOLVER.wins(lands, misere):
                    return lands
    except _OutOfTime:
        return None
    return None


@contextmanager
def _deadline(at: float) -> Iterator[None]:
    """Raise :class:`_OutOfTime` inside the block once ``time.monotonic()`` passes ``at``."""
    left = at - time.monotonic()
    if left <= 0:
        raise _OutOfTime
    if threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer"):

        def ring(signum: int, frame: Any) -> None:
            raise _OutOfTime

        old = signal.signal(signal.SIGALRM, ring)
        signal.setitimer(signal.ITIMER_REAL, left)
        try:
            yield
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old)
        return
    calls = 0

    def tracer(frame: Any, event: str, arg: Any) -> None:
        nonlocal calls
        calls += 1
        if calls % 2000 == 0 and time.monotonic() > at:
            raise _OutOfTime

    old_trace = sys.gettrace()
    sys.settrace(tracer)
    try:
        yield
    finally:
        sys.settrace(old_trace)


def warm() -> None:
    """Read the shipped tables and choose a move on a small game now, at a worker's start-up:
    the first move asked for read them (~0.25 s of CPU), later ones take a few ms."""
    tables.load()
    choose_move(Game(3), "hard", seed=0, time_limit=0.5)
