"""Cut verified puzzles from bot-vs-bot and random games: ``python -m engine.puzzles.generate
--game boxes --count 300 --seed 1`` writes ``engine/puzzles/data/boxes.json.gz`` and prints how
many candidates it rejected and why, and where the time went (playing the source games or
judging the candidates). The shipped Рассада bank is ``--game sprouts --count 300 --seed 1
--every 2``: every second position of each game is cut, since drawing a game on paper costs
as much as solving its positions.

Reproducible: one seed gives the same games, the same cuts and the same file on any machine,
because every budget is counted in the solver's nodes, never in seconds.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter, defaultdict
from dataclasses import replace
from pathlib import Path
from types import ModuleType
from typing import Any

from engine.puzzles import Puzzle, boxes, dots, path_of, sprouts, write

# Each game's cutter: ``candidates(seed)`` yields (position, cut seed), ``key(position)`` names
# a position, ``judge(position, cut seed)`` keeps or rejects it, and ``PREFIX`` starts its
# ids. A cutter with ``SHARES`` (a kind of puzzle → its most share of the bank) names each
# puzzle's kind with ``kind_of(puzzle)``: the commonest kinds do not crowd the rarer out; one
# with ``tactic(puzzle)`` keeps one puzzle per tactic it names (the same ladder cut from the
# positions before and after a move far away).
CUTTERS: dict[str, ModuleType] = {"boxes": boxes, "sprouts": sprouts, "dots": dots}


def difficulties(scores: list[float], levels: int = 5) -> list[int]:
    """Each score's level 1..``levels`` by its rank among ``scores`` (equal shares per level)."""
    order = sorted(range(len(scores)), key=lambda i: (scores[i], i))
    out = [0] * len(scores)
    for rank, i in enumerate(order):
        out[i] = 1 + rank * levels // len(scores)
    return out


def generate(
    count: int,
    seed: int,
    game: str = "boxes",
    every: int | None = None,
    total: int | None = None,
) -> tuple[list[Puzzle], Counter[str], dict[str, float]]:
    """``count`` puzzles (ids b0001… for boxes, s0001… for sprouts, d0001… for dots), each
    position once, the rejections by reason and the seconds spent by step. ``every``: which
    positions of a source game are cut (:func:`engine.puzzles.cuts`). ``total``: the bank the
    shares of its kinds are counted in (default ``count``), so the first puzzles of a bank
    come again from a shorter run."""
    cut = CUTTERS[game]
    out: list[Puzzle] = []
    scores: list[float] = []
    why: Counter[str] = Counter()
    spent: defaultdict[str, float] = defaultdict(float)
    seen: set[Any] = set()
    kinds: Counter[str] = Counter()
    tactics: set[Any] = set()
    source = cut.candidates(seed, every)
    while True:
        t0 = time.process_time()
        position, cut_seed = next(source)
        t1 = time.process_time()
        spent["playing the source games"] += t1 - t0
        key = cut.key(position)
        if key in seen:
            why["same position as another"] += 1
            continue
        seen.add(key)
        reason, puzzle, hard = cut.judge(position, cut_seed)
        spent["judging the candidates"] += time.process_time() - t1
        if puzzle is None:
            why[reason] += 1
            continue
        if hasattr(cut, "tactic"):
            if cut.tactic(puzzle) in tactics:
                why["same tactic as another"] += 1
                continue
            tactics.add(cut.tactic(puzzle))
        shares: dict[str, float] = getattr(cut, "SHARES", {})
        kind = cut.kind_of(puzzle) if shares else ""
        if kind in shares and kinds[kind] >= shares[kind] * (total or count):
            why[f"enough {kind} puzzles"] += 1
            continue
        kinds[kind] += 1
        out.append(replace(puzzle, id=f"{cut.PREFIX}{len(out) + 1:04d}"))
        scores.append(hard)
        if len(out) == count:
            break
    levels = difficulties(scores)
    return [replace(p, difficulty=d) for p, d in zip(out, levels, strict=True)], why, spent


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", choices=sorted(CUTTERS), default="boxes")
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--every", type=int, default=None, help="cut every N-th position of a source game"
    )
    ap.add_argument("--out", type=Path, default=None, help="default: the shipped bank")
    args = ap.parse_args(argv)
    if args.every is not None and args.every < 1:
        ap.error("--every must be at least 1")
    t0 = time.monotonic()
    puzzles, why, spent = generate(args.count, args.seed, args.game, args.every)
    out = write(args.game, puzzles, args.out or path_of(args.game))
    tried = len(puzzles) + sum(why.values())
    print(f"{len(puzzles)} puzzles from {tried} candidates in {time.monotonic() - t0:.0f} s")
    cpu = sum(spent.values())
    print(f"CPU {cpu:.0f} s, {cpu / max(1, len(puzzles)):.2f} s a puzzle:")
    for step, seconds in sorted(spent.items(), key=lambda kv: -kv[1]):
        print(f"  {seconds:7.1f} s  {step}")
    print(f"rejected {sum(why.values())}:")
    for reason, n in why.most_common():
        print(f"  {n:5d}  {reason}")
    levels = Counter(p.difficulty for p in puzzles)
    print("difficulty:", ", ".join(f"{d}: {levels[d]}" for d in sorted(levels)))
    print(f"wrote {out} ({out.stat().st_size} bytes)")


if __name__ == "__main__":
    main(sys.argv[1:])
