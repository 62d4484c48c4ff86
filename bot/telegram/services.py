"""What every handler needs, kept in ``application.bot_data["svc"]``."""

from __future__ import annotations

import asyncio
import itertools
import time
from collections import OrderedDict
from collections.abc import Callable, Coroutine, Hashable
from dataclasses import dataclass, field
from typing import Any

import storage
from bot.match.clocks import Timeouts
from bot.settings import Settings
from bot.telegram.ai_pool import AIPool


class PictureCache:
    """Recently rendered board pictures by (match, version, view): a board shown in two
    places, or re-shown after a keyboard-only step, is rendered once."""

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self._items: OrderedDict[tuple[Any, ...], bytes] = OrderedDict()

    def get(self, key: tuple[Any, ...]) -> bytes | None:
        png = self._items.get(key)
        if png is not None:
            self._items.move_to_end(key)
        return png

    def put(self, key: tuple[Any, ...], png: bytes) -> None:
        self._items[key] = png
        self._items.move_to_end(key)
        while len(self._items) > self.size:
            self._items.popitem(last=False)


class FileIds:
    """Telegram file ids of recent pictures by picture key (LRU): a picture Telegram already
    holds is shown again by its id instead of being uploaded again (see media.py)."""

    def __init__(self, size: int = 1024) -> None:
        self.size = size
        self._items: OrderedDict[Hashable, str] = OrderedDict()
        self._turn = itertools.count()

    def get(self, key: Hashable) -> str | None:
        file_id = self._items.get(key)
        if file_id is not None:
            self._items.move_to_end(key)
        return file_id

    def put(self, key: Hashable, file_id: str) -> None:
        self._items[key] = file_id
        self._items.move_to_end(key)
        while len(self._items) > self.size:
            self._items.popitem(last=False)

    def next_turn(self) -> int:
        """Round-robin over the storage chats."""
        return next(self._turn)


class GameCache:
    """Live engine games by (match id, version): rebuilding a long Dots game from its record
    replays every move (~15 ms on 38×31), while copying a live one is ~0.05 ms. Every change
    of the game bumps the match version, so a hit is always the stored position."""

    def __init__(self, size: int = 512) -> None:
        self.size = size
        self._items: OrderedDict[tuple[str, int], Any] = OrderedDict()

    def get(self, match_id: str, version: int) -> Any | None:
        game = self._items.get((match_id, version))
        if game is None:
            return None
        self._items.move_to_end((match_id, version))
        return game.copy()

    def put(self, match_id: str, version: int, game: Any) -> None:
        self._items[(match_id, version)] = game.copy()
        self._items.move_to_end((match_id, version))
        while len(self._items) > self.size:
            self._items.popitem(last=False)


@dataclass
class Services:
    settings: Settings
    store: storage.Store
    ai: AIPool
    clock: Callable[[], float] = time.time
    timeouts: Timeouts = field(default_factory=Timeouts)
    pictures: PictureCache = field(default_factory=PictureCache)
    file_ids: FileIds = field(default_factory=FileIds)
    games: GameCache = field(default_factory=GameCache)
    # What each place shows now, by (match id, place index): skip edits that change nothing.
    shown: dict[tuple[str, int], tuple[Any, ...]] = field(default_factory=dict)
    bot_username: str = ""
    tasks: set[asyncio.Task[None]] = field(default_factory=set)

    def spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        """Run background work (AI turns) that shutdown cancels, like a dying process would."""
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def cancel_tasks(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        if self.tasks:
            await asyncio.gather(*self.tasks, return_exceptions=True)
