"""Dots search speed: the compiled board's move apply/undo, playouts per second and the tree
search's iterations per second, on 20×20 and 38×31 at 10, 100 and 300 dots placed, against
the classic hard level's playouts in the same run (the bot's hard before the tree search,
now the bench level classic-hard; the search is the hard and expert levels').

The positions come from random games (uniform legal moves, fixed seeds). A playout here is
one of the search's: from the position, at most ``engine.dots.ai.SEARCH["depth"]`` moves
(to the end when 0) with its policy (capture, block, answer near the last dot, random
otherwise); the classic hard level's playout is its own
(``engine.dots.ai._playout``: the first move and 10 plies on 20×20, 14 on larger boards,
with the referee's board). Issue target: ≥ 20,000 playouts/s on 20×20 at 100 dots, ≥ 30×
the classic hard level's. Timings on a shared machine are noisy: both sides are measured in turn in
the same run, in CPU seconds of this process. ``python -m bench.dots_search --help`` for the
options; the think time per move at the bot's limits is ``python -m bench.ai_times``.

``--profile`` prints where a playout's time goes instead. The playout is one compiled kernel,
which neither cProfile nor a clock can look into, so the phases are timed by replaying the very
playouts recorded: their moves placed and undone (the board), the same with the policy's
capture and block reads before each move (``engine.dots.search._tactic``: the difference is
the tactics), and the rest of the playout's time is its other steps (the shuffle of the free
points, the random draws, the answers next to the last dot and the base tests).
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np
from numba import njit

from engine.dots import Game
from engine.dots import ai as old
from engine.dots.fastboard import M_TURN, FastBoard, place, undo_to
from engine.dots.search import P_GUARD, P_LOOK, Tree, _tactic, params, playout, run


def _clock() -> float:
    """CPU seconds of this process: on a shared machine the wall clock counts the others'
    work too (the rates here are of one core's work)."""
    return time.process_time()


def position(width: int, height: int, dots: int, seed: int) -> Game:
    rng = random.Random(seed)
    g = Game(width, height)
    while g.ply < dots and not g.over:
        g.play_index(rng.choice(g.legal_indices()))
    return g


@njit(cache=False)
def _apply_undo(st: np.ndarray, tr: np.ndarray, sc: np.ndarray, cells: np.ndarray) -> int:
    done = 0
    for k in range(cells.shape[0]):
        mark = tr[0]
        place(st, tr, sc, cells[k])
        undo_to(st, tr, mark)
        done += 1
    return done


def apply_undo_us(g: Game, reps: int) -> float:
    fb = FastBoard.from_game(g)
    cells = np.array(g.legal_indices() * reps, dtype=np.int64)
    _apply_undo(fb.st, fb.tr, fb.sc, cells[:10])
    t = _clock()
    n = _apply_undo(fb.st, fb.tr, fb.sc, cells)
    return (_clock() - t) / n * 1e6


def playouts_per_s(g: Game, seconds: float) -> tuple[float, float]:
    """The search's playouts a second from ``g``, and the µs a playout move takes."""
    fb = FastBoard.from_game(g)
    n = fb.n
    order = np.empty(n, dtype=np.int32)
    played = np.empty(4 * n, dtype=np.int32)
    rng = np.array([12345], dtype=np.uint64)
    prm = params(**old.SEARCH)  # the search's settings (levels hard, expert)
    done = moves = 0
    t0 = _clock()
    while _clock() - t0 < seconds:
        for _ in range(20):
            moves += playout(fb.st, fb.tr, fb.sc, rng, prm, order, played, 0)
            fb.undo(0)
        done += 20
    spent = _clock() - t0
    return done / spent, spent / max(moves, 1) * 1e6


def iterations_per_s(g: Game, seconds: float) -> float:
    fb = FastBoard.from_game(g)
    tree = Tree(1 << 19)
    rng = np.array([12345], dtype=np.uint64)
    hint = np.zeros(fb.n, dtype=np.float64)
    prm = params(**old.SEARCH)  # the search's settings (levels hard, expert)
    done = 0
    t0 = _clock()
    while _clock() - t0 < seconds:
        if tree.size[0] > (1 << 19) - 8 * fb.n:
            break
        done += run(fb.st, fb.tr, fb.sc, tree.move, tree.mover, tree.first, tree.count,
                    tree.stats, tree.size, rng, prm, hint, 20, fb.turn)  # fmt: skip
    return done / (_clock() - t0)


@njit(cache=False)
def _replay(
    st: np.ndarray,
    tr: np.ndarray,
    sc: np.ndarray,
    played: np.ndarray,
    ends: np.ndarray,
    look: int,
    guard: bool,
    tactics: bool,
) -> int:
    """Play the recorded playouts again (``played[ends[k-1]:ends[k]]``), each undone at its
    end; with ``tactics`` the playout's capture and block read comes before each move, as
    the playout makes it (its result unused: the move is the recorded one)."""
    start = 0
    memo = np.full(4, -1, dtype=np.int64)
    for k in range(ends.shape[0]):
        memo[:] = -1
        for j in range(start, ends[k]):
            if tactics:
                _tactic(st, sc, st[M_TURN], look, guard, memo)
            place(st, tr, sc, played[j])
        undo_to(st, tr, 0)
        start = ends[k]
    return start


def profile(g: Game, seconds: float) -> dict[str, float]:
    """A playout's time by phase, in µs per playout move (the module notes say how)."""
    fb = FastBoard.from_game(g)
    n = fb.n
    prm = params(**old.SEARCH)
    order = np.empty(n, dtype=np.int32)
    rng = np.array([12345], dtype=np.uint64)
    count = 50
    played = np.empty(count * (n + 1), dtype=np.int32)
    ends = np.empty(count, dtype=np.int64)
    look, guard = int(prm[P_LOOK]), bool(prm[P_GUARD] > 0)
    _replay(fb.st, fb.tr, fb.sc, played, ends[:0], look, guard, True)  # compiled before timing
    playout(fb.st, fb.tr, fb.sc, rng, prm, order, played, 0)
    fb.undo(0)
    total = moves = 0.0
    t0 = _clock()
    while _clock() - t0 < seconds:  # the same 50 playouts' seed each round: the same moves
        rng[0] = 12345
        t = _clock()
        npl = 0
        for k in range(count):
            npl = playout(fb.st, fb.tr, fb.sc, rng, prm, order, played, npl)
            fb.undo(0)
            ends[k] = npl
        total += _clock() - t
        moves += npl
    rounds = moves / npl
    phase = {}
    for name, tactics in (("board", False), ("tactics", True)):
        t = _clock()
        for _ in range(int(rounds)):
            _replay(fb.st, fb.tr, fb.sc, played, ends, look, guard, tactics)
        phase[name] = (_clock() - t) / (int(rounds) * npl) * 1e6
    per_move = total / moves * 1e6
    return {
        "moves": npl / count,
        "total": per_move,
        "board": phase["board"],
        "tactics": phase["tactics"] - phase["board"],
        "rest": per_move - phase["tactics"],
    }


def print_profile(seconds: float) -> None:
    print(f"Dots playout profile, {seconds:.1f} s per position: µs per playout move (share)")
    print(f"{'board':>7} {'dots':>5} {'moves':>6} {'total':>7} {'place+undo':>15} "
          f"{'tactics':>15} {'rest':>15}")  # fmt: skip
    for w, h in ((20, 20), (38, 31)):
        for dots in (10, 100, 300):
            r = profile(position(w, h, dots, 7), seconds)
            cells = " ".join(
                f"{r[k]:>7.2f} ({100 * r[k] / r['total']:>3.0f}%)"
                for k in ("board", "tactics", "rest")
            )
            print(f"{w:>3}x{h:<3} {dots:>5} {r['moves']:>6.1f} {r['total']:>7.2f} {cells}")


def old_playouts_per_s(g: Game, seconds: float) -> float:
    rng = random.Random(1)
    legal = g.legal_indices()
    depth = 10 if g.width * g.height <= 400 else 14
    done = 0
    t0 = _clock()
    while _clock() - t0 < seconds:
        old._playout(g, legal[done % len(legal)], g.turn, rng, depth)
        done += 1
    return done / (_clock() - t0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=1.0, help="per measurement (default 1)")
    ap.add_argument("--profile", action="store_true", help="a playout's time by phase instead")
    args = ap.parse_args()
    if args.profile:
        print_profile(args.seconds)
        return
    warm = position(9, 9, 20, 1)
    playouts_per_s(warm, 0.01)
    iterations_per_s(warm, 0.01)
    apply_undo_us(warm, 1)
    print(f"Dots search speed, {args.seconds:.1f} s per figure, one process")
    head = (
        f"{'board':>7} {'dots':>5} {'apply+undo':>11} {'playouts/s':>11} {'per move':>9} "
        f"{'classic/s':>11} {'ratio':>7} {'MCTS it/s':>10}"
    )
    print(head)
    for w, h in ((20, 20), (38, 31)):
        for dots in (10, 100, 300):
            g = position(w, h, dots, 7)
            us = apply_undo_us(g, 20)
            ours, per_move = playouts_per_s(g, args.seconds)
            theirs = old_playouts_per_s(g, args.seconds)
            its = iterations_per_s(g, args.seconds)
            print(
                f"{w:>3}x{h:<3} {dots:>5} {us:>9.2f}µs {ours:>11,.0f} {per_move:>7.2f}µs "
                f"{theirs:>11,.0f} "
                f"{ours / theirs:>6.1f}× {its:>10,.0f}"
            )


if __name__ == "__main__":
    main()
