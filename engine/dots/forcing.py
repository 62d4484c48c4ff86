"""A forcing-sequence prover for Точки: does the player to move capture within N of their own
moves (N ≤ 3) against *every* defence, and which first moves do it; or, for the defender, which
moves stop every such capture. Puzzles are cut with it (:mod:`engine.puzzles.dots`) and the bot
plays its best defence in a multi-move puzzle.

It works on the compiled search board (:mod:`engine.dots.fastboard`: place and undo in
microseconds, the referee's rules step for step); the scans over the board are numba kernels
here, the and–or tree over them is plain Python (a few hundred nodes for N = 3).

**The goal** is counted from the position asked about: the attacker's captured count grows by
at least ``k``, or (``group``) every dot of a named enemy group is captured.

**The attacker's moves** are forcing ones: a move that reaches the goal at once, or a *threat*,
one after which the attacker would reach it with the next dot if it were their move again. A
quiet move gives the defender a free move, so within N ≤ 3 it wins only in contrived positions;
the prover proves forcing lines (what a ladder, a double threat or a net is) and says so. A
threat's new ring passes through the new dot (the position before it had no capture, or the
attacker would have taken it), and a ring point has a ring neighbour among the attacker's dots,
so only points next to an attacker dot are tried. When the first position already holds a
capture, a move anywhere may keep it (the defender cannot stop two at once): there every legal
move is tried.

**The defender's replies** are only the moves that matter, and that set is complete. After a
threat, let T be the points where the attacker's next dot reaches the goal (the threats) and C
the points where a defender dot captures something. A defender move p outside T ∪ C cannot
stop any threat: p captures nothing, so the attacker's live dots are the same after it and
every ring through a point t of T still closes round the same inside (the rings of a new dot
are traced through the attacker's live dots only, and t is still free); p can only add a dot of
its own to an inside (more is captured) or stand outside it (nothing changes). A defender dot
that makes an empty base round t does not help either: a dot that captures is never caught in
an enemy base. So after any p outside T ∪ C the attacker reaches the goal at once, and the
prover only tries T ∪ C. ``tests/engine/test_dots_forcing.py`` checks this against a search that
tries every reply, on small boards.

A saving move (:func:`prove_save`) is looked for among all legal moves: a ladder breaker may be
anywhere along the chase.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
from numba import njit

from engine.dots import fastboard
from engine.dots.fastboard import (
    EMPTY,
    M_CAUGHT,
    M_FREE,
    M_N,
    M_S,
    M_TURN,
    META,
    R_AREA,
    R_DOT,
    R_LIVE,
    FastBoard,
    _dir,
    closing,
    gain,
    place,
    put,
    undo_to,
)
from engine.dots.game import Game, Move
from engine.dots.kernel_cache import depends_on

# the cached kernels inline fastboard's: stale when it changes (engine.dots.kernel_cache)
depends_on(__file__, fastboard.__file__)

MAX_DEPTH = 3


# -- kernels: one scan of the board each --------------------------------------------------------


@njit(cache=True)
def _met(st: np.ndarray, a: int, base: int, k: int, group: np.ndarray) -> bool:
    """Whether the attacker ``a`` has reached the goal: every dot of ``group`` captured (when
    it names any), else ``k`` more enemy dots captured than ``base``."""
    if group.shape[0] > 0:
        live = META + (R_LIVE + 1 - a) * st[M_N]
        for t in range(group.shape[0]):  # noqa: SIM110 (numba: no generators)
            if st[live + group[t]]:
                return False
        return True
    return bool(st[M_CAUGHT + a] - base >= k)


@njit(cache=True)
def _free(st: np.ndarray, p: int) -> bool:
    n = st[M_N]
    return bool(st[META + R_DOT * n + p] == EMPTY and st[META + R_AREA * n + p] == EMPTY)


@njit(cache=True)
def goal_points(
    st: np.ndarray,
    tr: np.ndarray,
    sc: np.ndarray,
    a: int,
    base: int,
    k: int,
    group: np.ndarray,
    out: np.ndarray,
) -> int:
    """The free points where a dot of ``a`` reaches the goal now (whoever is to move), in
    ``out``; their count (0 stops at none; ``out`` of length 1 asks only whether any). Only the
    points where the dot closes a ring are played (:func:`fastboard.closing`: elsewhere a dot
    captures nothing)."""
    n = st[M_N]
    cnt = 0
    for p in range(n):
        if _free(st, p) and closing(st, p, a):
            mark = tr[0]
            put(st, tr, sc, p, a)
            ok = _met(st, a, base, k, group)
            undo_to(st, tr, mark)
            if ok:
                out[cnt] = p
                cnt += 1
                if cnt >= out.shape[0]:
                    return cnt
    return cnt


@njit(cache=True)
def threats(
    st: np.ndarray,
    tr: np.ndarray,
    sc: np.ndarray,
    base: int,
    k: int,
    group: np.ndarray,
    anywhere: bool,
    out: np.ndarray,
) -> int:
    """The mover's forcing moves that do not reach the goal at once: points next to their own
    dots (or, with ``anywhere``, any free point) after which their next dot would reach it
    (see the module's docstring); their count, in ``out``."""
    n, s = st[M_N], st[M_S]
    a = st[M_TURN]
    mine = META + (R_LIVE + a) * n
    one = np.empty(1, dtype=np.int32)
    cnt = 0
    for p in range(n):
        if not _free(st, p):
            continue
        near = anywhere
        for d in range(8):
            if st[mine + p + _dir(s, d)]:
                near = True
                break
        if not near:
            continue
        mark = tr[0]
        place(st, tr, sc, p)
        threat = not _met(st, a, base, k, group) and st[M_FREE] > 0
        if threat and goal_points(st, tr, sc, a, base, k, group, one) > 0 and cnt < out.shape[0]:
            out[cnt] = p
            cnt += 1
        undo_to(st, tr, mark)
    return cnt


@njit(cache=True)
def counter_captures(st: np.ndarray, sc: np.ndarray, d: int, out: np.ndarray) -> int:
    """The free points where a dot of ``d`` would capture something now; their count."""
    n = st[M_N]
    cnt = 0
    for p in range(n):
        if _free(st, p) and closing(st, p, d) and gain(st, sc, p, d) > 0 and cnt < out.shape[0]:
            out[cnt] = p
            cnt += 1
    return cnt


# -- the and–or search ------------------------------------------------------------------------


@dataclass(frozen=True)
class Goal:
    """What the attacker must do, counted from the position asked about."""

    base: int
    k: int
    group: np.ndarray


class _Search:
    """One question on one board: the attacker (``a``) and the goal; counts nodes."""

    def __init__(self, fb: FastBoard, a: int, goal: Goal) -> None:
        self.fb, self.a, self.goal = fb, a, goal
        self.nodes = 0
        self._buf = np.empty(fb.n, dtype=np.int32)

    def _goal_points(self, limit: int) -> list[int]:
        g, fb = self.goal, self.fb
        out = self._buf[: max(1, min(limit, fb.n))]
        cnt = goal_points(fb.st, fb.tr, fb.sc, self.a, g.base, g.k, g.group, out)
        return [int(v) for v in out[:cnt]]

    def met(self) -> bool:
        g = self.goal
        return bool(_met(self.fb.st, self.a, g.base, g.k, g.group))

    def threats(self, anywhere: bool = False) -> list[int]:
        g, fb = self.goal, self.fb
        cnt = threats(fb.st, fb.tr, fb.sc, g.base, g.k, g.group, anywhere, self._buf)
        return [int(v) for v in self._buf[:cnt]]

    def replies(self) -> list[int]:
        """The defender's moves that matter (T ∪ C of the module's docstring), threats first."""
        fb = self.fb
        found = self._goal_points(fb.n)
        cnt = counter_captures(fb.st, fb.sc, 1 - self.a, self._buf)
        extra = [int(v) for v in self._buf[:cnt] if int(v) not in found]
        return found + extra

    def play(self, p: int) -> int:
        mark = self.fb.mark()
        self.fb.place(p)
        self.nodes += 1
        return mark

    def attack(self, left: int) -> tuple[int, ...] | None:
        """The attacker to move: the shortest forcing line (attacker, defender, …, the move
        that reaches the goal) within ``left`` moves against the best defence, or None."""
        now = self._goal_points(1)
        if now:
            return (now[0],)
        if left <= 1:
            return None
        for m in self.threats():
            line = self.after_threat(m, left)
            if line is not None:
                return line
        return None

    def after_threat(self, m: int, left: int) -> tuple[int, ...] | None:
        """The attacker plays the threat ``m`` with ``left`` moves in hand: the line against
        the defender's best reply (the one that holds out longest), or None if one holds."""
        mark = self.play(m)
        try:
            if self.fb.free == 0:
                return None
            worst: tuple[int, ...] | None = None
            for r in self.replies():
                mark2 = self.play(r)
                try:
                    line = self.deepening(left - 1)
                finally:
                    self.fb.undo(mark2)
                if line is None:
                    return None
                if worst is None or len(line) > len(worst):
                    worst = (r, *line)
            return None if worst is None else (m, *worst)
        finally:
            self.fb.undo(mark)

    def deepening(self, left: int) -> tuple[int, ...] | None:
        """:meth:`attack` at the fewest moves that do it (the shortest line first)."""
        for n in range(1, left + 1):
            line = self.attack(n)
            if line is not None:
                return line
        return None

    def first_moves(self, depth: int) -> dict[int, tuple[int, ...]]:
        """Every first move that reaches the goal within ``depth`` against every defence,
        with its line. With a capture on the board already, a move anywhere may keep it (the
        defender cannot stop two), so then every legal move is tried."""
        out: dict[int, tuple[int, ...]] = {p: (p,) for p in self._goal_points(self.fb.n)}
        if depth >= 2:
            for m in self.threats(anywhere=bool(out)):
                best = None
                for n in range(2, depth + 1):
                    best = self.after_threat(m, n)
                    if best is not None:
                        break
                if best is not None:
                    out[m] = best
        return out


@dataclass(frozen=True)
class Proof:
    """The prover's answer: ``moves`` every winning first move (each with its ``lines``:
    attacker, defender, …), ``line`` the principal one (the shortest, then the first on the
    board), ``depth`` its attacker moves, ``nodes`` the positions searched."""

    moves: tuple[Move, ...]
    lines: dict[Move, tuple[Move, ...]]
    line: tuple[Move, ...]
    depth: int
    nodes: int


def _goal(fb: FastBoard, a: int, k: int, group: Iterable[tuple[int, int]] | None) -> Goal:
    pts = np.array([fb.index(x, y) for x, y in group or ()], dtype=np.int32)
    return Goal(fb.caught[a], k, pts)


def _board(game: Game) -> FastBoard:
    if game.over or game.stopped_by is not None:
        raise ValueError("the prover reads a game in play, before any STOP")
    return FastBoard.from_game(game)


def _moves(fb: FastBoard, line: Iterable[int]) -> tuple[Move, ...]:
    return tuple(Move(*fb.xy(p)) for p in line)


def prove_capture(
    game: Game,
    depth: int,
    *,
    k: int = 1,
    group: Iterable[tuple[int, int]] | None = None,
    attacker: int | None = None,
) -> Proof | None:
    """Whether the player to move (or ``attacker``, as if it were their move) captures ``k``
    dots, or every dot of ``group``, within ``depth`` of their own moves against every
    defence; None if no forcing line does."""
    if not 1 <= depth <= MAX_DEPTH:
        raise ValueError(f"depth is 1..{MAX_DEPTH}, not {depth}")
    fb = _board(game)
    a = fb.turn if attacker is None else attacker
    fb.st[M_TURN] = a
    s = _Search(fb, a, _goal(fb, a, k, group))
    found = s.first_moves(depth)
    if not found:
        return None
    lines = {Move(*fb.xy(p)): _moves(fb, line) for p, line in sorted(found.items())}
    best = min(lines.values(), key=len)
    return Proof(tuple(lines), lines, best, (len(best) + 1) // 2, s.nodes)


def captures_within(
    fb: FastBoard, a: int, depth: int, goal: Goal, nodes: list[int] | None = None
) -> tuple[int, ...] | None:
    """The board-level question: ``a`` (to move on ``fb``, which is left as it was) reaches
    ``goal`` within ``depth`` — its shortest line, or None."""
    s = _Search(fb, a, goal)
    line = s.deepening(depth)
    if nodes is not None:
        nodes[0] += s.nodes
    return line


@dataclass(frozen=True)
class Save:
    """The defender's answer: ``moves`` every move after which the opponent cannot capture
    within the depth (cut short past ``most``), ``refuted`` for each other move tried the
    opponent's line that captures after it, ``nodes`` the positions searched."""

    moves: tuple[Move, ...]
    refuted: dict[Move, tuple[Move, ...]]
    complete: bool
    nodes: int


def prove_save(
    game: Game,
    depth: int,
    *,
    k: int = 1,
    group: Iterable[tuple[int, int]] | None = None,
    most: int | None = None,
) -> Save:
    """The moves of the player to move after which the opponent cannot capture ``k`` dots (or
    ``group``) within ``depth`` of their moves, found among all legal moves (nearest the
    opponent's threat first); ``complete`` False when more than ``most`` were found and the
    search stopped."""
    if not 1 <= depth <= MAX_DEPTH:
        raise ValueError(f"depth is 1..{MAX_DEPTH}, not {depth}")
    fb = _board(game)
    me = fb.turn
    a = 1 - me
    goal = _goal(fb, a, k, group)
    # The goal counts from the position after the save: a capture of ours meanwhile does not
    # change what the opponent must take.
    fb.st[M_TURN] = a
    first = captures_within(fb, a, depth, goal)
    fb.st[M_TURN] = me
    hot = set(first or ())
    order = sorted(fb.legal_indices(), key=lambda p: (p not in hot, _distance(fb, p, hot), p))
    saves: list[Move] = []
    refuted: dict[Move, tuple[Move, ...]] = {}
    count = [0]
    for p in order:
        mark = fb.mark()
        fb.place(p)
        count[0] += 1
        line = None if fb.free == 0 else captures_within(fb, a, depth, goal, count)
        fb.undo(mark)
        if line is None:
            saves.append(Move(*fb.xy(p)))
            if most is not None and len(saves) > most:
                return Save(tuple(saves), refuted, False, count[0])
        else:
            refuted[Move(*fb.xy(p))] = _moves(fb, line)
    return Save(tuple(saves), refuted, True, count[0])


def _distance(fb: FastBoard, p: int, hot: set[int]) -> int:
    if not hot:
        return 0
    x, y = fb.xy(p)
    return min(max(abs(x - hx), abs(y - hy)) for hx, hy in (fb.xy(h) for h in hot))


__all__ = ["MAX_DEPTH", "Proof", "Save", "prove_capture", "prove_save"]


def warm() -> None:
    """Compile (or load from numba's cache) the prover's kernels at start-up: a Точки
    puzzle's first answer would otherwise wait some seconds for the compiler."""
    g = Game(5, 5)
    for x, y in ((2, 1), (2, 2), (1, 2), (4, 4), (3, 2)):
        g.play(Move(x, y))
    prove_capture(g, 2)
    prove_save(g, 1)
