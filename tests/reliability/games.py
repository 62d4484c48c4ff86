"""Which games the suite plays, and a mix of matches over them.

A game takes part once the engine registers it and the bot has its keyboard module, so a
game that lands later (Рассада) joins every scenario by itself; until then the suite prints
a note naming what is missing.
"""

from __future__ import annotations

import asyncio
import importlib.util
import random

import engine
from tests.reliability.people import Board, ObservedWorld, ai_match, group_match, link_match

# (kind, the /new menu path of its quick game without the opponent)
GAMES = (("dots", "d.q.-"), ("boxes", "b.3.2"), ("sprouts", "s.4.-"))


def playable() -> list[tuple[str, str]]:
    out = []
    for kind, path in GAMES:
        if kind not in engine.GAMES:
            print(f"note: {kind} is not in engine.GAMES yet; its scenarios are skipped")
        elif importlib.util.find_spec(f"bot.match.ui.{kind}") is None:
            print(f"note: the bot has no keyboard for {kind} yet; its scenarios are skipped")
        else:
            out.append((kind, path))
    return out


async def make_matches(
    world: ObservedWorld,
    n: int,
    prefix: str,
    *,
    parallel: int = 8,
    kinds: tuple[str, ...] | None = None,
) -> list[Board]:
    """``n`` matches spread over the games (those of ``kinds``, if given) and over the three
    ways to play: a group with a spectator, a link challenge (a board in each private chat),
    and a game against the bot."""
    games = [g for g in playable() if kinds is None or g[0] in kinds]
    gate = asyncio.Semaphore(parallel)

    async def one(i: int) -> Board:
        kind, path = games[i % len(games)]
        style = (i // len(games)) % 3
        async with gate:
            a = world.add_user(f"{prefix}a{i}")
            b = world.add_user(f"{prefix}b{i}")
            if style == 0:
                s = world.add_user(f"{prefix}s{i}")
                return await group_match(world, kind, path, [a, b], [s], f"{prefix} {i}")
            if style == 1:
                return await link_match(world, kind, a, b)
            return await ai_match(world, kind, path + ".ae", a)

    return list(await asyncio.gather(*(one(i) for i in range(n))))


async def play(board: Board, rounds: int, rng: random.Random) -> int:
    """Racing rounds until the match ends or ``rounds`` were played; the rounds played."""
    for k in range(rounds):
        if not await board.race(rng):
            return k
    return rounds
