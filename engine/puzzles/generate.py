"""Cut verified puzzles from bot-vs-bot and random games: ``python -m engine.puzzles.generate
--game boxes --count 300 --seed 1`` writes ``engine/puzzles/data/boxes.json.gz`` and prints how
many candidates it rejected and why.

Reproducible: one seed gives the same games, the same cuts and the same file on any machine,
because every budget is counted in the solver's nodes, never in seconds.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

from engine.boxes import Game
from engine.boxes.ai import choose_move
from engine.puzzles import Puzzle, path_of, write
from engine.puzzles import boxes as bx

# Boards and how many lines may be left at the cut: the exact solver values every line of
# these within the node budget (4×4 and 3×3 much more slowly per line left than 5×5 with
# half its lines drawn, where captures have split the board into chains).
BOARDS = ((3, 3, 16), (3, 4, 20), (4, 4, 22), (4, 5, 26), (5, 5, 30), (3, 5, 22))
MIN_LEFT = 5  # fewer lines leave nothing to think about
NODE_LIMIT = 400_000
SOURCES = ("easy", "medium", "random")


def _game(rng: random.Random, rows: int, cols: int, source: str, seed: int) -> list[Game]:
    """One whole game, as the positions before each move."""
    g = Game(rows, cols)
    seen = []
    while not g.over:
        seen.append(g.copy())
        if source == "random":
            g.play(rng.choice(g.legal_moves()))
        else:  # the two seats at the source level, each move on its own seed
            g.play(choose_move(g, source, seed=seed + g.ply))
    return seen


def candidates(seed: int) -> Iterator[tuple[Game, int]]:
    """Endgame positions (with a per-cut seed for the bots that name a natural move)."""
    rng = random.Random(seed)
    n = 0
    while True:
        rows, cols, most = rng.choice(BOARDS)
        source = rng.choice(SOURCES)
        n += 1
        positions = [
            p
            for p in _game(rng, rows, cols, source, seed * 100_000 + n * 100)
            if MIN_LEFT <= len(p.legal_moves()) <= most
        ]
        for p in rng.sample(positions, min(2, len(positions))):
            yield p, rng.randrange(1 << 30)


def judge(game: Game, cut_seed: int) -> tuple[str, Puzzle | None, float]:
    """A candidate's fate: ("ok", puzzle, its hardness) or (the reason it was rejected, None,
    0); the puzzle's difficulty is set once the whole bank is ranked."""
    analysis = bx.analyse(game, node_limit=NODE_LIMIT)
    if analysis is None:
        return "solver budget", None, 0.0
    accepted = analysis.accepted
    legal = len(analysis.values)
    if len(accepted) == legal:
        return "every move keeps the value", None, 0.0
    if len(accepted) > max(2, legal // 3):
        return "too many right moves", None, 0.0
    naturals = bx.natural_moves(game, cut_seed)
    losing = [m for m in naturals if m not in accepted]
    if not losing:
        return "no natural move loses", None, 0.0
    wrong = losing[0]
    trap_takes = bx.takes_box(game, game.parse_move(wrong))
    hard = bx.hardness(analysis, wrong, trap_takes)
    puzzle = Puzzle(
        game="boxes",
        id="",
        position=game.to_json(),
        turn=game.turn,
        value=analysis.best,
        accepted=tuple(sorted(accepted)),
        wrong=wrong,
        values=dict(sorted(analysis.values.items())),
        difficulty=3,
        hint=bx.hint_of(game, sorted(accepted)[0]),
    )
    return "ok", puzzle, hard


def generate(count: int, seed: int) -> tuple[list[Puzzle], Counter[str]]:
    """``count`` puzzles (ids b0001…), each position once, and the rejections by reason."""
    out: list[Puzzle] = []
    scores: list[float] = []
    why: Counter[str] = Counter()
    seen: set[tuple[tuple[str, ...], int]] = set()
    for game, cut_seed in candidates(seed):
        key = (game.mask, game.board.key(game.drawn_mask))
        if key in seen:
            why["same position as another"] += 1
            continue
        seen.add(key)
        reason, puzzle, hard = judge(game, cut_seed)
        if puzzle is None:
            why[reason] += 1
            continue
        out.append(replace(puzzle, id=f"b{len(out) + 1:04d}"))
        scores.append(hard)
        if len(out) == count:
            break
    levels = bx.difficulties(scores)
    return [replace(p, difficulty=d) for p, d in zip(out, levels, strict=True)], why


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", choices=["boxes"], default="boxes")
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, default=None, help="default: the shipped bank")
    args = ap.parse_args(argv)
    t0 = time.monotonic()
    puzzles, why = generate(args.count, args.seed)
    out = write(args.game, puzzles, args.out or path_of(args.game))
    tried = len(puzzles) + sum(why.values())
    print(f"{len(puzzles)} puzzles from {tried} candidates in {time.monotonic() - t0:.0f} s")
    print(f"rejected {sum(why.values())}:")
    for reason, n in why.most_common():
        print(f"  {n:5d}  {reason}")
    levels = Counter(p.difficulty for p in puzzles)
    print("difficulty:", ", ".join(f"{d}: {levels[d]}" for d in sorted(levels)))
    print(f"wrote {out} ({out.stat().st_size} bytes)")


if __name__ == "__main__":
    main(sys.argv[1:])
