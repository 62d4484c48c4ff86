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
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np
from numba import njit

from engine.dots import Game
from engine.dots import ai as old
from engine.dots.fastboard import FastBoard, place, undo_to
from engine.dots.search import Tree, params, playout, run


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
    args = ap.parse_args()
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
