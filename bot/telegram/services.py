"""What every handler needs, kept in ``application.bot_data["svc"]``."""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Callable, Coroutine, Hashable
from dataclasses import dataclass, field
from typing import Any

import storage
from bot.match.clocks import Timeouts
from bot.settings import Settings
from bot.telegram.ai_pool import AIPool
from bot.telegram.jobs import QueueThinker, Replayer, Thinker
from bot.telegram.route_pool import RoutePool
from engine.recent import Recent

CANCEL_WAIT = 5.0  # seconds shutdown waits for cancelled background tasks


class PictureCache(Recent[tuple[Any, ...], bytes]):
    """Recently rendered board pictures by (match, version, view): a board shown in two
    places, or re-shown after a keyboard-only step, is rendered once."""

    def __init__(self, size: int = 256) -> None:
        super().__init__(size)


class FileIds(Recent[Hashable, str]):
    """Telegram file ids of recent pictures by picture key (LRU): a picture Telegram already
    holds is shown again by its id instead of being uploaded again (see media.py)."""

    def __init__(self, size: int = 1024) -> None:
        super().__init__(size)
        self._turn = itertools.count()

    def next_turn(self) -> int:
        """Round-robin over the storage chats."""
        return next(self._turn)


class GameCache:
    """Live engine games by (match id, version): rebuilding a long Dots game from its record
    replays every move (~15 ms on 38×31), while copying a live one is ~0.05 ms. Every change
    of the game bumps the match version, so a hit is always the stored position."""

    def __init__(self, size: int = 512) -> None:
        self._games: Recent[tuple[str, int], Any] = Recent(size)

    def get(self, match_id: str, version: int) -> Any | None:
        game = self._games.get((match_id, version))
        return None if game is None else game.copy()

    def put(self, match_id: str, version: int, game: Any) -> None:
        self._games.put((match_id, version), game.copy())


@dataclass
class Services:
    settings: Settings
    store: storage.Store
    ai: AIPool
    queue: QueueThinker | None = None  # WORKERS=queue: `tetrad worker`s do the heavy jobs
    routes: RoutePool | None = None  # None: Рассада curves are routed in the bot process
    clock: Callable[[], float] = time.time
    timeouts: Timeouts = field(default_factory=Timeouts)
    pictures: PictureCache = field(default_factory=PictureCache)
    file_ids: FileIds = field(default_factory=FileIds)
    games: GameCache = field(default_factory=GameCache)
    # What this process showed last in each place, by (match id, place index), and the
    # revision it showed: skip edits that change nothing (see boards._shown_before).
    shown: dict[tuple[str, int], tuple[Any, str | None]] = field(default_factory=dict)
    bot_username: str = ""
    ready: bool = False  # the worker pools are warm: updates are taken (see app._post_init)
    tasks: set[asyncio.Task[None]] = field(default_factory=set)

    @property
    def thinker(self) -> Thinker:
        """Who thinks the bot's moves: the queue's workers, or this process's pool."""
        return self.ai if self.queue is None else self.queue

    @property
    def replayer(self) -> Replayer:
        """Who draws the replays of ended games: the queue's workers, or this process's pool."""
        return self.ai if self.queue is None else self.queue

    def spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        """Run background work (AI turns) that shutdown cancels, like a dying process would."""
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def cancel_tasks(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        if self.tasks:  # bounded: a task that swallowed its cancellation is left behind
            await asyncio.wait(list(self.tasks), timeout=CANCEL_WAIT)
