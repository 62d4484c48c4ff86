"""Shared helpers: build positions by the lines left undrawn, and a plain minimax oracle."""

from __future__ import annotations

from functools import cache

from engine.boxes import Game, Move
from engine.boxes.board import Board
from engine.boxes.solver import value


def position(game: Game, undrawn: list[Move]) -> Game:
    """Draw every line of ``game`` except ``undrawn`` (in board order)."""
    keep = set(undrawn)
    for m in game.all_lines():
        if m not in keep:
            game.play(m)
    return game


def brute_force(board: Board):
    """Plain minimax over every line (no pruning rules): value for the player to move."""

    @cache
    def f(drawn: int) -> int:
        if drawn == board.full:
            return 0
        best = -99
        for n in board.lines:
            if drawn >> n & 1:
                continue
            after = drawn | 1 << n
            k = sum(all(after >> m & 1 for m in board.box_lines[b]) for b in board.line_boxes[n])
            v = k + f(after) if k else -f(after)
            best = max(best, v)
        return best

    return f


def solve(game: Game) -> int:
    """The exact value by search only (no shipped table)."""
    v = value(game, use_table=False, time_limit=None)
    assert v is not None
    return v
