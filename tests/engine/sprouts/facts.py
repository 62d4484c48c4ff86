"""Oracle facts of the rules (copied from the project reference) and shared helpers."""

from __future__ import annotations

import random

from engine.sprouts.position import Position

# First-player outcome with n starting spots, n = 1..17 (W: the first player wins).
NORMAL = "LLWWWLLLWWWLLLWWW"
MISERE = "WLLLWWLLLWWWLLLWW"
# Nimbers of the start 0*n, n = 1..9.
START_NIMBERS = [0, 0, 1, 1, 1, 0, 0, 0, 1]
# Distinct children of the start (up to equivalence), n = 1..6.
START_CHILDREN = [1, 2, 3, 3, 4, 4]
# Moves on paper from the start: n * 2^(n-1) + n(n-1)/2, n = 1..6.
START_MOVES = [1, 5, 15, 38, 90, 207]


def random_game(n: int, rng: random.Random) -> list[Position]:
    """Every position of one uniformly random game from n spots, start to end."""
    game = [Position.start(n)]
    while children := game[-1].children():
        game.append(rng.choice(children))
    return game
