"""Dots engine speed: full random games on 39×32, per-move ``play()`` latency, JSON size.

Prints figures; the issue's targets are a full random 39×32 game (about 1200 moves) in at
most 150 ms, ``play()`` p99 at most 1 ms, and ``to_json`` of a finished game at most 4 KB.
The baseline in the same run is the cost of just choosing the random moves (walking a
shuffled list of points), so the engine's share is visible. Timings on a shared machine are
noisy: the best and the median of several games are both shown.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from engine.dots import Game
from engine.dots.ai import choose_move
from engine.dots.game import Edge


def random_game(
    seed: int, width: int = 39, height: int = 32, edge: Edge = "safe"
) -> tuple[Game, list[float], float]:
    """One uniformly random game to the end: each move is the next point of a shuffled list
    that is still free (uniform over the free points). Returns the game, per-play() seconds,
    and the whole game's seconds (choosing included)."""
    rng = random.Random(seed)
    g = Game(width, height, edge=edge)
    order = g.legal_indices()
    rng.shuffle(order)
    b = g.board
    times: list[float] = []
    clock = time.perf_counter
    t0 = clock()
    for i in order:
        if g.over:
            break
        if b.dot[i] != -1 or b.area[i] != -1:
            continue
        t = clock()
        g.play_index(i)
        times.append(clock() - t)
    return g, times, clock() - t0


def choosing_only(seed: int, width: int = 39, height: int = 32) -> float:
    """The baseline: the same walk over a shuffled list without playing anything."""
    rng = random.Random(seed)
    order = list(range(width * height))
    rng.shuffle(order)
    t0 = time.perf_counter()
    for _ in order:
        pass
    return time.perf_counter() - t0


def public_play_game(seed: int) -> float:
    """A random game through the checked public API (``play(Move)``), for comparison."""
    rng = random.Random(seed)
    g = Game(39, 32)
    moves = g.legal_moves()
    rng.shuffle(moves)
    t0 = time.perf_counter()
    for m in moves:
        if g.over:
            break
        if g.is_legal(m):
            g.play(m)
    return time.perf_counter() - t0


def measure(games: int = 20, ai: bool = True) -> dict[str, float]:
    """The figures ``main`` prints (milliseconds and bytes), for ``python -m bench``."""
    totals, plays, moves, sizes = [], [], [], []
    for seed in range(games):
        g, times, total = random_game(seed)
        totals.append(total)
        plays.extend(times)
        moves.append(g.ply)
        sizes.append(len(json.dumps(g.to_json(), separators=(",", ":")).encode()))
    plays.sort()

    def pct(q: float) -> float:
        return plays[min(len(plays) - 1, int(q * len(plays)))] * 1e3

    g, _, _ = random_game(0)
    t0 = time.perf_counter()
    Game.from_json(g.to_json())
    out = {
        "games": games,
        "moves per game": statistics.median(moves),
        "full game best ms": min(totals) * 1e3,
        "full game median ms": statistics.median(totals) * 1e3,
        "full game worst ms": max(totals) * 1e3,
        "baseline ms": statistics.median(choosing_only(s) for s in range(games)) * 1e3,
        "play p50 ms": pct(0.5),
        "play p99 ms": pct(0.99),
        "play max ms": plays[-1] * 1e3,
        "json max bytes": max(sizes),
        "from_json ms": (time.perf_counter() - t0) * 1e3,
    }
    if ai:
        for level in ("easy", "medium", "hard"):
            g = Game(38, 31)
            rng = random.Random(1)
            for _ in range(300):
                ms = g.legal_moves()
                g.play(ms[rng.randrange(len(ms))])
            t0 = time.perf_counter()
            choose_move(g, level, seed=1)
            out[f"choose_move {level} ms"] = (time.perf_counter() - t0) * 1e3
    return out


def edge_and_solo(games: int) -> dict[str, float]:
    """The capturable-edge variant's full random game against the safe edge's (same seeds),
    and the bot's solo phase after STOP (engine.dots.solo) on random mid-game positions."""
    from engine.dots.solo import solo_move

    safe = statistics.median(random_game(s)[2] for s in range(games))
    edged = statistics.median(random_game(s, edge="capturable")[2] for s in range(games))
    out = {"edge safe ms": safe * 1e3, "edge capturable ms": edged * 1e3}
    for (w, h), ply in (((15, 15), 80), ((39, 32), 300)):
        spent, dots = [], []
        for seed in range(3):
            rng = random.Random(seed)
            g = Game(w, h)
            while g.ply < ply:
                g.play_index(rng.choice(g.legal_indices()))
            g.stop(0)
            t0 = time.perf_counter()
            n = 0
            while (m := solo_move(g)) is not None:
                g.play(m)
                n += 1
            spent.append(time.perf_counter() - t0)
            dots.append(n)
        out[f"solo {w}x{h} ms"] = statistics.median(spent) * 1e3
        out[f"solo {w}x{h} dots"] = statistics.median(dots)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    args = ap.parse_args()
    f = measure(args.games)
    public = [public_play_game(s) for s in range(min(5, args.games))]
    print(f"Dots speed, 39x32, {args.games} uniformly random games to the end")
    print(f"  moves per game       median {f['moves per game']:.0f}")
    print(
        f"  full game            best {f['full game best ms']:.1f} ms, median "
        f"{f['full game median ms']:.1f} ms, worst {f['full game worst ms']:.1f} ms "
        f"(target <= 150 ms)"
    )
    print(f"  baseline (choosing)  median {f['baseline ms']:.2f} ms per game")
    print(
        f"  public play(Move)    median {statistics.median(public) * 1e3:.1f} ms per game "
        f"(with is_legal + Move checks)"
    )
    print(
        f"  play() latency       median {f['play p50 ms']:.3f} ms, "
        f"p99 {f['play p99 ms']:.3f} ms, max {f['play max ms']:.3f} ms (target p99 <= 1 ms)"
    )
    print(f"  to_json size         max {f['json max bytes']:.0f} bytes (target <= 4096)")
    print(f"  from_json (replay)   {f['from_json ms']:.1f} ms for a finished game")
    for level in ("easy", "medium", "hard"):
        print(
            f"  choose_move {level:<6}   {f[f'choose_move {level} ms']:.0f} ms on 38x31 "
            f"after 300 random moves (default limit)"
        )
    e = edge_and_solo(min(5, args.games))
    print(
        f"  edge capturable      median {e['edge capturable ms']:.1f} ms per game, "
        f"{e['edge capturable ms'] / e['edge safe ms']:.2f}x the safe edge's "
        f"{e['edge safe ms']:.1f} ms (same seeds)"
    )
    for size in ("15x15", "39x32"):
        print(
            f"  STOP solo phase      {e[f'solo {size} ms']:.0f} ms for "
            f"{e[f'solo {size} dots']:.0f} dots on {size} (median of 3 random positions)"
        )


if __name__ == "__main__":
    main()
