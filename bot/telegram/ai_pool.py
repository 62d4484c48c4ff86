"""The bot's moves, and the replays of ended games, are computed in worker processes: never
on the event loop, and never in the bot process's own CPU, which every tap shares.

Engine games cross the process boundary as their JSON records; the worker answers with the
move in the game's notation, which the match layer parses back like a typed move, or with the
replay's GIF bytes.
"""

from __future__ import annotations

import functools
import time
from typing import Any

import engine
import render
from bot.match.actions import AI_DONE, AI_STOP
from bot.telegram import metrics
from bot.telegram.workers import Workers
from engine.dots import solo
from render.view import View

# Seconds per move by level (the engines scale down further on small boards). Hard gets what
# the engines' own defaults give it (the issues allow 2 s a move): the Boxes solver's node
# budget, and the share of 5×5 endgames it solves exactly, are measured at 1.8 s. Expert
# (Точки only) thinks up to the move time the match allows, at most 5 s (issue #26).
TIME_LIMITS = {"easy": 0.3, "medium": 0.8, "hard": 1.8, "expert": 5.0}
# The engine's time when loading the game took the whole limit already: its quickest move.
MIN_LEFT = 0.001


def move_limit(level: str, time_scale: float = 1.0, budget: float | None = None) -> float:
    """The most one move of ``level`` may take: its level's time, scaled, within ``budget``
    (the bot's own clock). The job queue sizes its waits by it too (bot/telegram/jobs.py)."""
    limit = TIME_LIMITS.get(level, 1.0) * time_scale
    return limit if budget is None else min(limit, budget)


def think(
    state: dict[str, Any],
    level: str,
    seed: int | None,
    time_scale: float = 1.0,
    budget: float | None = None,
) -> tuple[str, float]:
    """Worker entry point: the chosen move in notation, and the seconds spent. ``budget``:
    the most the move may take (the bot's own clock, when it plays on one).

    The limit covers the whole move: the engine gets what is left of it after the record's
    replay and the STOP check (on a 38×31 board near its end the replay alone is some 25 ms,
    half a tight clock's 50 ms budget)."""
    started = time.perf_counter()
    limit = move_limit(level, time_scale, budget)
    game = engine.load(state)
    stop_play = _stop_play(game, level) if engine.stopping(game) is not None else None
    if stop_play is not None:
        return stop_play, time.perf_counter() - started
    left = max(MIN_LEFT, limit - (time.perf_counter() - started))
    move = engine.choose_move(game, level=level, seed=seed, time_limit=left)
    return game.format_move(move), time.perf_counter() - started


def _stop_play(game: Any, level: str) -> str | None:
    """STOP for the bot in a game whose facts have it (Dots: engine.dots.solo): alone after a
    STOP, a dot that gains or Done; otherwise its own STOP when that wins, or None for the
    level's ordinary move."""
    if game.stopped_by is not None:
        move = solo.solo_move(game)
        return AI_DONE if move is None else str(game.format_move(move))
    return AI_STOP if solo.calls_stop(game, game.turn, level) else None


def replay(state: dict[str, Any], view: View) -> bytes:
    """Worker entry point: the ended game as an animation (a whole game's frames, encoded:
    over 100 ms even for a small board, so it never runs on a tap's CPU)."""
    return render.replay(engine.load(state), view=view)


def load_ais(kernels: bool = True) -> None:
    """Worker start-up: each game's AI imported before the first move is asked for, and with
    ``kernels`` warmed (``engine.warm_ai``: Точки's compiled search, Рассада's tables), so that
    a worker's first move costs what the others do."""
    for kind in engine.GAMES:
        engine.ai_of(kind)
        if kernels:
            engine.warm_ai(kind)


class AIPool(Workers):
    """The bot's moves and the replays, shared by every match of this bot process.
    ``kernels``: the workers load the AIs' compiled kernels at start-up (off for the tests'
    bots, which start hundreds of times and mostly never ask for a searching level's move:
    such a move then loads them itself)."""

    def __init__(
        self, workers: int | None = None, time_scale: float = 1.0, *, kernels: bool = True
    ) -> None:
        super().__init__(workers, prepare=functools.partial(load_ais, kernels))
        self.time_scale = time_scale

    async def choose(
        self,
        state: dict[str, Any],
        level: str,
        seed: int | None = None,
        budget: float | None = None,
    ) -> tuple[str, float]:
        move, spent = await self.run(think, state, level, seed, self.time_scale, budget)
        metrics.AI_THINK.labels(level).observe(spent)
        return move, spent

    async def replay(self, state: dict[str, Any], view: View) -> bytes:
        return await self.run(replay, state, view)
