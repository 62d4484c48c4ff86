"""Dots arena: AI levels against each other and against two baselines, with win rates.

Baselines: ``random`` (a uniformly random legal move) and ``greedy`` (the biggest immediate
capture, else a random free point next to the last few dots). Each pairing plays the same
number of games with colours alternating; a game is played to the end (full board) and the
scores decide. Run ``python -m bench.dots_arena --help`` for the options; at most
``--workers`` processes (default 2) play at once.
"""

from __future__ import annotations

import argparse
import random
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from engine.dots import Game, Move
from engine.dots.ai import LEVELS, choose_move
from engine.dots.rings import EMPTY

BASELINES = ("random", "greedy")


def random_move(game: Game, rng: random.Random) -> Move:
    moves = game.legal_moves()
    return moves[rng.randrange(len(moves))]


def greedy_move(game: Game, rng: random.Random) -> Move:
    """The biggest immediate capture, else a random free point next to the last dots."""
    b = game._board
    me = game.turn
    legal = game.legal_indices()
    best, at = 0, -1
    for i in legal:
        g = b.gain(i, me)
        if g > best:
            best, at = g, i
    if at < 0:
        near = set()
        for j in game._hist[-4:]:
            for d in b.dirs:
                q = j + d
                if b.dot[q] == EMPTY and b.area[q] == EMPTY and 0 <= b.xs[q] < game.width:
                    near.add(q)
        pool = sorted(near & set(legal)) or legal
        at = pool[rng.randrange(len(pool))]
    return Move(b.xs[at], b.ys[at])


@dataclass(frozen=True)
class Match:
    first: str
    second: str
    width: int
    height: int
    seed: int
    time_limit: float | None


def play(match: Match) -> tuple[Match, tuple[int, int], float, int]:
    """One game to the end; (match, final scores, seconds, plies)."""
    rng = random.Random(match.seed)
    g = Game(match.width, match.height)
    players = (match.first, match.second)
    t0 = time.perf_counter()
    while not g.over:
        who = players[g.turn]
        if who == "random":
            m = random_move(g, rng)
        elif who == "greedy":
            m = greedy_move(g, rng)
        else:
            m = choose_move(g, who, seed=rng.randrange(1 << 30), time_limit=match.time_limit)
        g.play(m)
    return match, g.scores, time.perf_counter() - t0, g.ply


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", default="20x20", help="board WxH (default 20x20)")
    ap.add_argument("--games", type=int, default=40, help="games per pairing (default 40)")
    ap.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    ap.add_argument("--time", type=float, default=0.15, help="hard's seconds per move")
    ap.add_argument(
        "--pairs",
        default="hard:greedy,medium:greedy,easy:greedy,easy:random,hard:medium,medium:easy",
        help="comma-separated A:B pairings",
    )
    args = ap.parse_args()
    w, h = (int(v) for v in args.size.lower().split("x"))
    pairs = [tuple(p.split(":")) for p in args.pairs.split(",")]
    for a, b in pairs:
        for who in (a, b):
            if who not in LEVELS + BASELINES:
                raise SystemExit(f"unknown player {who!r}")
    matches = []
    for a, b in pairs:
        for k in range(args.games):
            first, second = (a, b) if k % 2 == 0 else (b, a)
            matches.append(Match(first, second, w, h, 1000 * k + 7, args.time))
    print(
        f"Dots arena: {w}x{h}, {args.games} games per pairing, colours alternating, "
        f"hard time limit {args.time}s/move, {args.workers} worker process(es)"
    )
    results: dict[tuple[str, str], list[int]] = {p: [0, 0, 0] for p in pairs}  # type: ignore[misc]
    seconds: dict[tuple[str, str], float] = dict.fromkeys(pairs, 0.0)  # type: ignore[arg-type]
    margin: dict[tuple[str, str], int] = dict.fromkeys(pairs, 0)  # type: ignore[arg-type]
    t0 = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for match, scores, secs, _plies in pool.map(play, matches):
            key = next(p for p in pairs if {match.first, match.second} == set(p))
            a = key[0]
            a_idx = 0 if match.first == a else 1
            diff = scores[a_idx] - scores[1 - a_idx]
            results[key][0 if diff > 0 else 1 if diff == 0 else 2] += 1
            seconds[key] += secs
            margin[key] += diff
    for (a, b), (won, drawn, lost) in results.items():
        n = won + drawn + lost
        print(
            f"{a:>7} vs {b:<7} {won:3d}W {drawn:3d}D {lost:3d}L of {n:3d}  "
            f"win rate {100.0 * won / n:5.1f}%  mean margin {margin[(a, b)] / n:+6.1f} dots  "
            f"({seconds[(a, b)] / n:6.1f} s/game)"
        )
    print(f"total {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
