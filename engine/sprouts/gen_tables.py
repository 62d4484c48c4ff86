"""Generate the shipped tables: ``python -m engine.sprouts.gen_tables`` (about an hour).

* Land nimbers: every land reachable from ``0*1`` … ``0*N`` is found by expanding lands (a
  land evolves apart from the others, so the lands of every reachable position are exactly
  this closure); nimbers follow bottom-up, fewest lives first, as the mex of the children.
* Misère outcomes: every whole position reachable from the small starts, bottom-up.
* Normal outcomes near a bigger start: the positions within a few moves of it, by search.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from engine.sprouts import tables
from engine.sprouts.position import Position
from engine.sprouts.solver import Lands, Solver, key_lives, lands_of


def closure(
    starts: Iterable[int], progress: Callable[[int, int], None] | None = None
) -> dict[str, list[Lands]]:
    """Every land reachable from the given starts, with its distinct children."""
    solver = Solver(use_table=False)
    found: dict[str, list[Lands]] = {}
    todo = [key for n in starts for key in lands_of(Position.start(n))]
    while todo:
        key = todo.pop()
        if key in found:
            continue
        kids = found[key] = solver.land_children(key)
        solver.kids.clear()
        todo.extend(land for kid in kids for land in kid if land not in found)
        if progress is not None and len(found) % 1000 == 0:
            progress(len(found), len(todo))
    return found


def nimbers(children: dict[str, list[Lands]]) -> dict[str, int]:
    """The nimber of every land of a closure (mex over the children's XORs)."""
    out: dict[str, int] = {}
    for key in sorted(children, key=key_lives):
        options = set()
        for kid in children[key]:
            x = 0
            for land in kid:
                x ^= out[land]
            options.add(x)
        n = 0
        while n in options:
            n += 1
        out[key] = n
    return out


def misere_outcomes(children: dict[str, list[Lands]], starts: Iterable[int]) -> dict[str, bool]:
    """The misère outcome of every whole position reachable from the starts, keyed by
    the position's key; ``children`` must hold every land they reach (see :func:`closure`)."""
    solver = Solver(use_table=False)
    solver.kids = children
    found: dict[Lands, list[Lands]] = {}
    todo = [lands_of(Position.start(n)) for n in starts]
    while todo:
        lands = todo.pop()
        if lands in found:
            continue
        kids = found[lands] = list(solver.children(lands))
        todo.extend(kid for kid in kids if kid not in found)
    wins: dict[Lands, bool] = {}
    for lands in sorted(found, key=lambda ls: sum(map(key_lives, ls))):
        wins[lands] = not found[lands] or any(not wins[kid] for kid in found[lands])
    return {"+".join(lands): win for lands, win in wins.items()}


def near_start(n: int, depth: int, known: dict[str, int]) -> dict[str, bool]:
    """Normal-play outcomes of the whole positions within ``depth`` moves of the ``n``-spot
    start, found by the search (``known`` nimbers answer the smaller lands)."""
    solver = Solver(tables.Tables(nimbers=known))
    layers = [{lands_of(Position.start(n))}]
    for _ in range(depth):
        layers.append({child for pos in layers[-1] for child in solver.children(pos)})
    out: dict[str, bool] = {}
    for layer in reversed(layers):  # deepest first: their answers help the shallower ones
        for pos in sorted(layer):
            out["+".join(pos)] = not solver.loses(pos)
    return out


def build(
    spots: int,
    misere_spots: int,
    near: dict[int, int] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> tables.Tables:
    """The tables: land nimbers up to ``spots``, misère outcomes up to ``misere_spots``, and
    normal outcomes within ``near[n]`` moves of each bigger start ``n``."""
    children = closure(range(1, max(spots, misere_spots) + 1), progress)
    starts = range(1, spots + 1)
    known = nimbers(children if spots >= misere_spots else closure(starts))
    normal: dict[str, bool] = {}
    for n, depth in sorted((near or {}).items()):
        normal.update(near_start(n, depth, known))
    return tables.Tables(
        spots=spots,
        misere_spots=misere_spots,
        near=dict(near or {}),
        nimbers=known,
        misere=misere_outcomes(children, range(1, misere_spots + 1)),
        normal=normal,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spots", type=int, default=6, help="land nimbers up to (default 6)")
    parser.add_argument("--misere-spots", type=int, default=5, help="misère up to (default 5)")
    parser.add_argument(
        "--near",
        default="7:2",
        help="n:depth,… positions within depth moves of the n-spot start (default 7:2)",
    )
    parser.add_argument("--out", type=Path, default=tables.PATH, help="file to write")
    args = parser.parse_args(argv)
    t0 = time.monotonic()

    def progress(done: int, left: int) -> None:
        print(f"  {done} lands, {left} queued, {time.monotonic() - t0:.0f}s", file=sys.stderr)

    pairs = (item.split(":") for item in args.near.split(",") if item)
    near = {int(n): int(depth) for n, depth in pairs}
    result = build(args.spots, args.misere_spots, near, progress)
    tables.dump(result, args.out)
    print(
        f"{len(result.nimbers)} lands (up to {args.spots} spots), {len(result.misere)} misère "
        f"positions (up to {args.misere_spots} spots), {len(result.normal)} positions near "
        f"{near} in {time.monotonic() - t0:.0f}s"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
