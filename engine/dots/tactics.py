"""Точки tactics proved by exhaustive search: can a player force a capture within N of their
own moves against every defence? The proof behind a lesson task ("capture the blue dots",
"save your group"), so a task is right because the search says so, not because its answer
was typed in.

The question (:class:`Threat`): the ``attacker`` captures the ``targets`` (enemy dots; at
least ``at_least`` of them), or with no targets raises their score by ``at_least`` (enemy
dots captured, or points under territory scoring), within ``moves`` own moves. The goal is
checked after every ply, so a capture counts the moment it is made (a later liberation does
not undo the answer), and a defender's dot caught inside the attacker's empty ring counts
too: the rules catch it.

The search is exact minimax on the compiled board (:mod:`engine.dots.fastboard`, every rule
of the referee, with undo): the attacker tries every legal point, the defender answers with
every legal point (no "relevant zone": a dot anywhere may close a ring of the defender's
own first, or intrude into an empty ring). The one cut: on the attacker's **last** move only
points where :func:`engine.dots.fastboard.closing` says a ring could close are tried, since
a dot that closes no ring captures nothing (the attacker's score only grows by their own
rings; a dot of theirs in an enemy ring only loses) and the goal was not reached before it.
``tests/engine/dots/test_tactics.py`` checks the cut against the search without it, and the
whole search against a plain minimax over the referee's :class:`engine.dots.Game`.

After a STOP (:meth:`engine.dots.Game.stop`) the attacker is the player moving alone: the
defender never answers, and the search is over the attacker's own sequences only.

Cost: the tree is full width, ``F^(2N-1)`` leaves for ``F`` free points at worst; what makes
it fast is the order, which cuts nothing. The attacker first looks for a ring to close now
(then it has won), and the defender first tries the forcing prover's replies
(:mod:`engine.dots.forcing`: the points where the attacker's next dot reaches the goal, then
its own captures), then every other point nearest the last two dots: a "no" is usually
proved by the first reply tried. So it also checks whole 15×15 puzzles
(:func:`engine.puzzles.dots.exact`: every first move of a capture in 3 in about half a
second).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numba import njit

from engine.dots import fastboard
from engine.dots.fastboard import (
    M_CAUGHT,
    M_FREE,
    M_LASTP,
    M_N,
    M_S,
    M_TERR,
    M_TERRITORY,
    M_TURN,
    META,
    R_AREA,
    FastBoard,
    closing,
    gain,
    is_free,
    is_legal,
    place,
    put,
    undo_to,
)
from engine.dots.game import Game, Move
from engine.dots.kernel_cache import depends_on

# the cached kernels inline fastboard's: stale when it changes (engine.dots.kernel_cache)
depends_on(__file__, fastboard.__file__)

MAX_MOVES = 3  # the deepest question asked: the tree grows as F^(2N-1)


@dataclass(frozen=True)
class Threat:
    """Can ``attacker`` capture ``at_least`` of ``targets`` (enemy dots), or with no targets
    gain ``at_least`` points of score, within ``moves`` own moves?"""

    attacker: int
    moves: int
    targets: tuple[Move, ...] = ()
    at_least: int = 1

    def __post_init__(self) -> None:
        if self.attacker not in (0, 1):
            raise ValueError(f"no player {self.attacker}")
        if not 1 <= self.moves <= MAX_MOVES:
            raise ValueError(f"moves must be 1 to {MAX_MOVES}, not {self.moves}")
        if self.at_least < 1 or (self.targets and self.at_least > len(self.targets)):
            raise ValueError(f"at_least {self.at_least} cannot be reached")


@njit(cache=True)
def _score(st: np.ndarray, player: int) -> int:
    return int(st[M_TERR + player] if st[M_TERRITORY] else st[M_CAUGHT + player])


@njit(cache=True)
def _reached(st: np.ndarray, attacker: int, targets: np.ndarray, k: int, base: int) -> bool:
    """The goal holds now: ``k`` of the targets lie in the attacker's captured area (they
    were enemy dots, and dots never move), or, with no targets, the score grew by ``k``."""
    if targets.shape[0] == 0:
        return _score(st, attacker) - base >= k
    area = META + R_AREA * st[M_N]
    got = 0
    for t in range(targets.shape[0]):
        if st[area + targets[t]] == attacker:
            got += 1
    return got >= k


@njit(cache=True)
def _goal_points(
    st: np.ndarray,
    tr: np.ndarray,
    sc: np.ndarray,
    attacker: int,
    targets: np.ndarray,
    k: int,
    base: int,
    out: np.ndarray,
) -> int:
    """The free points where a dot of the attacker reaches the goal now (whoever is to move),
    in ``out``; their count. Only points that close a ring (:func:`closing`) can."""
    cnt = 0
    for p in range(st[M_N]):
        if is_free(st, p) and closing(st, p, attacker):
            mark = tr[0]
            put(st, tr, sc, p, attacker)
            if _reached(st, attacker, targets, k, base):
                out[cnt] = p
                cnt += 1
            undo_to(st, tr, mark)
    return cnt


@njit(cache=True)
def _order(st: np.ndarray, first: np.ndarray, nfirst: int) -> np.ndarray:
    """The legal points: ``first[:nfirst]`` (legal ones, in that order), then the rest nearest
    either player's last dot (Chebyshev distance): the moves that matter are usually next to
    the last two, so a refutation or a win is found early. Order only; every legal point is
    in it once."""
    n, s = st[M_N], st[M_S]
    pts = np.empty(n, dtype=np.int64)
    keys = np.empty(n, dtype=np.int64)
    lasts = (st[M_LASTP], st[M_LASTP + 1])
    m = 0
    for p in range(n):
        if not is_legal(st, p):
            continue
        d = n
        for last in lasts:
            if last >= 0:
                d = min(d, max(abs(p % s - last % s), abs(p // s - last // s)))
        rank = n
        for j in range(nfirst):
            if first[j] == p:
                rank = j
                break
        pts[m] = p
        keys[m] = (rank * (n + 1) + d) * n + p
        m += 1
    return pts[:m][np.argsort(keys[:m])]


@njit(cache=True)
def _forced(
    st: np.ndarray,
    tr: np.ndarray,
    sc: np.ndarray,
    attacker: int,
    left: int,
    targets: np.ndarray,
    k: int,
    base: int,
    cut: bool,
) -> bool:
    """Whether the attacker reaches the goal with at most ``left`` (≥ 1) more own moves,
    from a position where it does not hold yet; whoever is to move."""
    mover = st[M_TURN]
    first = np.empty(st[M_N], dtype=np.int64)
    if mover == attacker:
        if cut:  # a ring closed now wins at once; on the last move nothing else can
            if _goal_points(st, tr, sc, attacker, targets, k, base, first) > 0:
                return True
            if left == 1:
                return False
        pts = _order(st, first, 0)
        for j in range(pts.shape[0]):
            p = pts[j]
            if left == 1 and not closing(st, p, attacker):
                continue  # only reached without the cut (cut=False)
            mark = tr[0]
            place(st, tr, sc, p)
            ok = _reached(st, attacker, targets, k, base)
            if not ok and left > 1 and st[M_FREE] > 0:
                ok = _forced(st, tr, sc, attacker, left - 1, targets, k, base, cut)
            undo_to(st, tr, mark)
            if ok:
                return True
        return False
    # The defender: the forcing prover's replies first (the points where the attacker's next
    # dot reaches the goal, then the defender's own captures), so a refutation, when there is
    # one, is usually the first reply tried; every legal reply is still tried before a "yes".
    nf = _goal_points(st, tr, sc, attacker, targets, k, base, first)
    for p in range(st[M_N]):
        if is_free(st, p) and closing(st, p, mover) and gain(st, sc, p, mover) > 0:
            first[nf] = p
            nf += 1
    pts = _order(st, first, nf)
    for j in range(pts.shape[0]):
        p = pts[j]
        mark = tr[0]
        place(st, tr, sc, p)
        ok = _reached(st, attacker, targets, k, base)
        if not ok and st[M_FREE] > 0:
            ok = _forced(st, tr, sc, attacker, left, targets, k, base, cut)
        undo_to(st, tr, mark)
        if not ok:
            return False
    return bool(pts.shape[0] > 0)  # no reply at all: the board is full and the goal not reached


def forced(game: Game, threat: Threat, after: Move | None = None, *, cut: bool = True) -> bool:
    """Whether ``threat`` is forced from ``game`` (scores counted from here), after the player
    to move plays ``after`` if given (it counts as one of the attacker's moves when it is
    theirs). ``cut=False`` searches without the last-move cut (the tests' cross-check).
    Raises :class:`engine.IllegalMove` for an illegal ``after``."""
    fb = FastBoard.from_game(game)
    st, tr, sc = fb.st, fb.tr, fb.sc
    me = threat.attacker
    base = int(_score(st, me))
    targets = np.array([fb.index(m.x, m.y) for m in threat.targets], dtype=np.int64)
    left = threat.moves
    if after is not None:
        game.check(after)
        if fb.turn == me:
            left -= 1
        fb.place(fb.index(after.x, after.y))
    if _reached(st, me, targets, threat.at_least, base):
        return True
    if left == 0 or fb.free == 0 or game.over:
        return False
    return bool(_forced(st, tr, sc, me, left, targets, threat.at_least, base, cut))


def forcing_moves(game: Game, threat: Threat) -> list[Move]:
    """The first moves of the player to move after which ``threat`` is forced (every legal
    move is tried)."""
    return [m for m in game.legal_moves() if forced(game, threat, m)]


def saving_moves(game: Game, threat: Threat) -> list[Move]:
    """The moves of the player to move (the defender) after which ``threat`` is not forced."""
    return [m for m in game.legal_moves() if not forced(game, threat, m)]


def warm() -> None:
    """Compile (or load from numba's cache) the exact search's kernels at start-up: a Точки
    lesson's first answer would otherwise wait some seconds for the compiler."""
    g = Game(5, 5)
    for x, y in ((2, 1), (2, 2), (1, 2), (4, 4), (3, 2)):
        g.play(Move(x, y))
    forced(g, Threat(g.turn, 2))
    forced(g, Threat(1 - g.turn, 1), Move(2, 3))


def points(game: Game, notation: Sequence[str]) -> tuple[Move, ...]:
    """Moves from their notation (``"c4"``), in the order given."""
    return tuple(game.parse_move(t) for t in notation)
