"""Win rates of each AI level against three baselines on Dots and Boxes.

``python -m bench.boxes_arena [--games 40] [--size 5] [--levels easy,medium,hard]``

Baselines: *random* (any undrawn line); *greedy*, the safe-move greedy player: it takes
every box it can, never draws a third side of a box while another line exists, and otherwise
draws a random line; *greedy-small*, the same but it then gives away the fewest boxes it can
(it never hands back two, so it never keeps control). Each pairing plays ``--games`` games,
the AI moving first in half of them, on at most two worker processes. Prints wins, draws,
losses, the win rate and the mean margin (AI boxes minus baseline boxes).
"""

from __future__ import annotations

import argparse
import random
import time
from concurrent.futures import ProcessPoolExecutor

from engine.boxes import Game
from engine.boxes.ai import Position, choose_move

BASELINES = ("random", "greedy", "greedy-small")


def baseline_move(game: Game, name: str, rng: random.Random) -> int:
    pos = Position(game)
    if name == "random":
        return rng.choice(pos.undrawn())
    n = pos.any_capture()
    if n is not None:
        return n
    safe = pos.safe_lines()
    if safe:
        return rng.choice(safe)
    if name == "greedy-small":
        return pos.cheapest_sacrifice(rng)
    return rng.choice(pos.undrawn())


def play_one(args: tuple[str, str, int, int, int]) -> tuple[int, float, int]:
    """One game; returns (AI margin, slowest AI move in seconds, AI moves)."""
    level, baseline, size, seed, ai_seat = args
    rng = random.Random(seed)
    g = Game(size, size)
    slowest, ai_moves = 0.0, 0
    while not g.over:
        if g.turn == ai_seat:
            t = time.perf_counter()
            move = choose_move(g, level, seed=seed * 1000 + g.ply)
            slowest = max(slowest, time.perf_counter() - t)
            ai_moves += 1
            g.play(move)
        else:
            g.play(g.line_move(baseline_move(g, baseline, rng)))
    s = g.scores
    return s[ai_seat] - s[1 - ai_seat], slowest, ai_moves


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--size", type=int, default=5)
    parser.add_argument("--levels", default="easy,medium,hard")
    parser.add_argument("--baselines", default=",".join(BASELINES))
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    print(f"boxes arena: {args.size}x{args.size}, {args.games} games per pairing")
    print(
        f"{'level':<7} {'vs':<12} {'games':>5} {'W':>4} {'D':>4} {'L':>4} {'win%':>6} "
        f"{'margin':>7} {'slowest move':>13} {'time':>7}"
    )
    with ProcessPoolExecutor(max_workers=min(2, args.workers)) as pool:
        for level in args.levels.split(","):
            for baseline in args.baselines.split(","):
                t0 = time.perf_counter()
                jobs = [(level, baseline, args.size, i, i % 2) for i in range(args.games)]
                results = list(pool.map(play_one, jobs))
                margins = [m for m, _, _ in results]
                wins = sum(m > 0 for m in margins)
                draws = sum(m == 0 for m in margins)
                losses = len(margins) - wins - draws
                slowest = max(s for _, s, _ in results)
                print(
                    f"{level:<7} {baseline:<12} {len(margins):>5} {wins:>4} {draws:>4} "
                    f"{losses:>4} {100 * wins / len(margins):>5.1f}% "
                    f"{sum(margins) / len(margins):>+7.2f} {slowest:>12.2f}s "
                    f"{time.perf_counter() - t0:>6.0f}s",
                    flush=True,
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
