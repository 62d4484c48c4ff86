"""How long the bot thinks per move, by game and level: ``python -m bench.ai_times [--quick]
[--only LEVEL[,LEVEL]]``.

Each move is timed through ``bot.telegram.ai_pool.think`` — the very function the bot's worker
processes run, with the bot's time limits (``TIME_LIMITS``: easy 0.3 s, medium 0.8 s, hard
1.8 s, Точки's expert 5 s at AI_TIME_SCALE=1; the engines stop earlier on small boards and in
solved endgames) — on
positions spread over a game: random legal play to 0 %, 10 %, … of the board's moves (a
position is the record a worker gets, so a move's time includes replaying it). Prints
p50 / p95 / max per game and level, and whether the slowest move stayed within the level's
limit + 10 % (the issues' bound). ``--budget S`` plays each move on a clock that leaves it
``S`` seconds (the bot's tightest is 0.05: ``bot.match.clocks.think_budget``), ``--games dots``
picks games. One process, one move at a time; on a shared machine the wall times include
waiting for a core.
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import dataclass
from typing import Any

import engine
from bench.quantiles import summary
from bot.telegram.ai_pool import TIME_LIMITS, think

# (label, kind, options, moves in a typical game to spread the positions over)
BOARDS: list[tuple[str, str, dict[str, Any], int]] = [
    ("Dots 38×31", "dots", {"preset": "tournament"}, 700),
    ("Dots 15×15", "dots", {"preset": "quick"}, 180),
    ("Boxes 3×3", "boxes", {"rows": 3, "cols": 3}, 24),
    ("Boxes 5×5", "boxes", {"rows": 5, "cols": 5}, 60),
    ("Sprouts 4", "sprouts", {"spots": 4}, 11),
    ("Sprouts 8", "sprouts", {"spots": 8}, 23),
]
LEVELS = ("easy", "medium", "hard", "expert")
MARGIN = 0.10  # a move may overrun its level's limit by this share at most


@dataclass
class Times:
    board: str
    level: str
    seconds: list[float]
    budget: float | None = None  # the bot's clock's share for the move, when it plays on one

    @property
    def row(self) -> dict[str, Any]:
        q = summary(self.seconds)
        limit = TIME_LIMITS[self.level]
        if self.budget is not None:
            limit = min(limit, self.budget)
        return {
            "board": self.board,
            "level": self.level,
            "moves": len(self.seconds),
            "p50 s": q["p50"],
            "p95 s": q["p95"],
            "max s": q["max"],
            "limit s": limit,
            "within": q["max"] <= limit * (1 + MARGIN),
        }


def positions(kind: str, options: dict[str, Any], moves: int, n: int) -> list[dict[str, Any]]:
    """``n`` positions spread over a game (random legal play), as the records the bot
    hands to its workers; positions with no move left are skipped."""
    out = []
    for i in range(n):
        g = engine.new(kind, **options)
        engine.random_playout(g, random.Random(i), max_moves=int(moves * i / max(1, n)))
        if g.legal_moves():
            out.append(g.to_json())
    return out


def measure(
    per_level: int,
    log: Any = print,
    levels: tuple[str, ...] = LEVELS,
    budget: float | None = None,
    kinds: tuple[str, ...] | None = None,
) -> list[Times]:
    """Each board's positions through ``think`` at each of ``levels`` the game has (with
    ``budget``: on a clock that leaves the move that much; ``kinds``: those games only)."""
    results = []
    for label, kind, options, moves in BOARDS:
        if kinds is not None and kind not in kinds:
            continue
        if kind not in engine.GAMES:
            log(f"note: {kind} is not in engine.GAMES yet; no AI times for {label}")
            continue
        engine.warm_ai(kind)  # as the bot's workers do at start-up: no move waits for numba
        states = positions(kind, options, moves, per_level)
        own = engine.facts_of(kind).levels
        for level in (lv for lv in levels if lv in own):
            spent = []
            for k, state in enumerate(states):
                t0 = time.perf_counter()
                think(state, level, seed=k, budget=budget)
                spent.append(time.perf_counter() - t0)
            result = Times(label, level, spent, budget)
            results.append(result)
            r = result.row
            log(
                f"{label:12} {level:6} {r['moves']:3} moves  p50 {r['p50 s']:.3f} s  "
                f"p95 {r['p95 s']:.3f} s  max {r['max s']:.3f} s  (limit {r['limit s']:g} s: "
                f"{'within' if r['within'] else 'OVER'} +{MARGIN:.0%})"
            )
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="4 positions per level")
    parser.add_argument("--positions", type=int, help="positions per board and level")
    parser.add_argument(
        "--only", metavar="LEVEL[,LEVEL]", help=f"these levels only, of {','.join(LEVELS)}"
    )
    parser.add_argument(
        "--budget",
        type=float,
        help="seconds the bot's clock leaves the move (its least: 0.05, bot.match.clocks)",
    )
    parser.add_argument("--games", help="comma-separated kinds only (dots, boxes, sprouts)")
    args = parser.parse_args(argv)
    levels = tuple(args.only.split(",")) if args.only else LEVELS
    unknown = [lv for lv in levels if lv not in LEVELS]
    if unknown:
        parser.error(f"unknown levels: {', '.join(unknown)} (levels: {', '.join(LEVELS)})")
    # 8 by default: about 1.5 minutes on a 2-core machine (Точки's expert: 5 s a move)
    kinds = tuple(args.games.split(",")) if args.games else None
    per = args.positions or (4 if args.quick else 8)
    results = measure(per, levels=levels, budget=args.budget, kinds=kinds)
    return 0 if all(r.row["within"] for r in results) else 1


if __name__ == "__main__":
    raise SystemExit(main())
