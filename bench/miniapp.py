"""The Mini App: how long a move takes from the page's request to the other player's page,
how big the boards are, how soon the page paints; and its screenshots.

    python -m bench.miniapp [--matches 1,50] [--moves 20] [--loads 5] [--screenshots docs/screens]

The real bot runs in this process (long polling the playground emulator) with its Mini App
served on a free port and a temporary redis-server as its store. Each match is a 10×10 Dots
game between two people, each with the page's two connections: the API (moves, signed
initData) and the live stream (Server-Sent Events). A move is timed from the POST until its
200 (applied: stored by the tap's compare-and-set write) and until the other player's
stream delivers that version (pushed: through Redis pub/sub). With N matches at once every
match plays its moves concurrently. SVG bytes: each game at a late position, raw and
gzipped (aiohttp compresses the API's JSON for clients that accept gzip). First paint:
headless Chromium opening the page (first-contentful-paint and board shown). Timings on a
busy machine are noisy: compare rows of one run.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import gzip
import json
import random
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

import aiohttp

import engine
import render
import storage
from bot.telegram.app import running
from playground.limits import Limits
from playground.server import Emulator
from tests.fixtures.playground import FakeClock, bot_settings
from tests.fixtures.ports import free_port
from tests.fixtures.redis import temporary_server
from tests.playground.browser import chromium
from tests.webapp.made import make_match
from tests.webapp.page import DARK, LIGHT, PHONE, RECORD
from tests.webapp.signing import init_data

LATE = {  # late positions of each game, for the SVG sizes
    "dots 38×31, 700 moves": ("dots", {"width": 38, "height": 31}, 700),
    "boxes 8×8, 100 lines": ("boxes", {"rows": 8, "cols": 8}, 100),
    "sprouts 8 spots, 12 moves": ("sprouts", {"spots": 8}, 12),
}
SHOTS = {  # the screenshots' positions
    "dots": ({"width": 15, "height": 15}, 60),
    "boxes": ({"rows": 4, "cols": 4}, 14),
    "sprouts": ({"spots": 5}, 4),
}


@dataclasses.dataclass
class Bot:
    base: str
    token: str
    store: storage.Store


@asynccontextmanager
async def bot(redis_url: str) -> AsyncIterator[Bot]:
    emulator = Emulator(limits=Limits())
    await emulator.start()
    port = free_port()
    settings = dataclasses.replace(
        bot_settings(emulator, redis_url),
        miniapp_url=f"http://127.0.0.1:{port}/app/",
        port=port,
        group_edits_per_minute=6000.0,
    )
    try:
        async with running(settings, clock=FakeClock()):
            store = await storage.connect(redis_url)
            try:
                yield Bot(f"http://127.0.0.1:{port}", emulator.world.token, store)
            finally:
                await store.close()
    finally:
        await emulator.stop()


class Page:
    """One player's page: the API and the live stream."""

    def __init__(self, http: aiohttp.ClientSession, b: Bot, ref: str, user: int) -> None:
        self.http, self.ref = http, ref
        self.url = f"{b.base}/app/api/match/{ref}"
        self.data = init_data(b.token, user, f"u{user}")
        self.seen: dict[int, float] = {}
        self.changed = asyncio.Event()
        self.task: asyncio.Task[None] | None = None

    async def listen(self) -> None:
        async with self.http.get(f"{self.url}/live?tma={quote(self.data)}") as r:
            async for raw in r.content:
                line = raw.decode()
                if line.startswith("data: "):
                    state = json.loads(line[6:])
                    self.seen.setdefault(state.get("version", -1), time.perf_counter())
                    self.changed.set()

    async def first(self) -> int:
        """The version the stream's first event showed."""
        while not self.seen:
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), 30)
        return min(self.seen)

    async def pushed(self, version: int) -> float:
        while version not in self.seen:
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), 30)
        return self.seen[version]

    async def move(self, version: int, move: str) -> tuple[int, dict[str, Any]]:
        headers = {"Authorization": f"tma {self.data}"}
        async with self.http.post(
            f"{self.url}/move", json={"version": version, "move": move}, headers=headers
        ) as r:
            return r.status, await r.json()


async def play(
    http: aiohttp.ClientSession,
    b: Bot,
    ref: str,
    users: tuple[int, int],
    moves: int,
    seed: int,
    out: list[tuple[float, float]],
) -> None:
    pages = [Page(http, b, ref, u) for u in users]
    for p in pages:
        p.task = asyncio.create_task(p.listen())
    version = max(await asyncio.gather(*(p.first() for p in pages)))
    points = [f"{c}{r}" for c in "abcdefghij" for r in range(1, 11)]
    random.Random(seed).shuffle(points)
    turn = 0
    try:
        for move in points:
            if moves <= 0:
                break
            t0 = time.perf_counter()
            status, body = await pages[turn].move(version, move)
            applied = time.perf_counter()
            if status != 200:
                continue
            version, moves = body["version"], moves - 1
            pushed = await pages[1 - turn].pushed(version)
            out.append((applied - t0, pushed - t0))
            turn = body["turn"]
    finally:
        for p in pages:
            assert p.task is not None
            p.task.cancel()


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, round(q * (len(values) - 1)))] * 1000


async def latency(b: Bot, counts: list[int], moves: int) -> list[str]:
    rows = [
        "| matches | moves | applied p50 | p95 | p99 | pushed p50 | p95 | p99 |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    user = 1000
    limits = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=limits) as http:
        for n in counts:
            out: list[tuple[float, float]] = []
            games = []
            for i in range(n):
                users = (user, user + 1)
                user += 2
                ref = await make_match(b.store, "dots", {"width": 10, "height": 10}, 0, i, users)
                games.append(play(http, b, ref, users, moves, i, out))
            await asyncio.gather(*games)
            applied, pushed = [a for a, _ in out], [p for _, p in out]
            rows.append(
                f"| {n} | {len(out)} | "
                + " | ".join(
                    f"{pct(v, q):.0f} ms" for v in (applied, pushed) for q in (0.5, 0.95, 0.99)
                )
                + " |"
            )
    return rows


def svg_sizes() -> list[str]:
    rows = ["| board | SVG bytes | gzip bytes |", "|---|---:|---:|"]
    for name, (kind, options, moves) in LATE.items():
        game = engine.new(kind, **options)
        engine.random_playout(game, random.Random(1), max_moves=moves)
        svg = render.board_svg(game, {"lang": "en"}).encode()
        rows.append(f"| {name} | {len(svg):,} | {len(gzip.compress(svg, 6)):,} |")
    return rows


def page_url(b: Bot, ref: str, user: int, theme: dict[str, str]) -> str:
    launch = {
        "tgWebAppData": init_data(b.token, user, "Alice"),
        "tgWebAppVersion": "8.0",
        "tgWebAppPlatform": "web",
        "tgWebAppThemeParams": json.dumps(theme),
    }
    return f"{b.base}/app/?m={ref}#" + "&".join(f"{k}={quote(v)}" for k, v in launch.items())


async def first_paint(b: Bot, loads: int) -> list[str]:
    ref = await make_match(b.store, "dots", {"width": 38, "height": 31}, 400, 3, (1, 2))
    fcp, ready = [], []
    async with chromium() as browser:
        for _ in range(loads):
            context = await browser.new_context(viewport=PHONE)
            page = await context.new_page()
            t0 = time.perf_counter()
            await page.goto(page_url(b, ref, 1, LIGHT))
            await page.wait_for_selector("body[data-ready='1']")
            ready.append(time.perf_counter() - t0)
            fcp.append(
                await page.evaluate(
                    "performance.getEntriesByName('first-contentful-paint')[0].startTime"
                )
                / 1000
            )
            await context.close()
    return [
        "| page (38×31 Dots, 400 moves) | p50 | max |",
        "|---|---:|---:|",
        f"| first contentful paint | {pct(fcp, 0.5):.0f} ms | {max(fcp) * 1000:.0f} ms |",
        f"| board shown (API read + SVG) | {pct(ready, 0.5):.0f} ms | {max(ready) * 1000:.0f} ms |",
    ]


async def screenshots(b: Bot, folder: Path) -> list[str]:
    folder.mkdir(parents=True, exist_ok=True)
    made = []
    async with chromium() as browser:
        for k, (kind, (options, moves)) in enumerate(SHOTS.items()):
            users = (10 + 2 * k, 11 + 2 * k)  # a pair per game: live streams per user are few
            ref = await make_match(b.store, kind, options, moves, 11, users)
            for name, theme in (("light", LIGHT), ("dark", DARK)):
                context = await browser.new_context(viewport=PHONE, color_scheme=name)
                page = await context.new_page()
                await page.add_init_script(RECORD)
                await page.goto(page_url(b, ref, users[moves % 2], theme))
                await page.wait_for_selector("body[data-ready='1']")
                await page.wait_for_timeout(300)  # fonts
                path = folder / f"miniapp-{kind}-{name}.png"
                await page.screenshot(path=str(path))
                made.append(str(path))
                await context.close()
    return made


async def measure(args: argparse.Namespace) -> None:
    with temporary_server() as url:
        async with bot(url) as b:
            if args.screenshots:
                for path in await screenshots(b, Path(args.screenshots)):
                    print("wrote", path)
                return
            counts = [int(n) for n in args.matches.split(",")]
            print("### Mini App: move request → applied → pushed to the other page\n")
            print("\n".join(await latency(b, counts, args.moves)))
            print("\n### Mini App: board SVG at late positions\n")
            print("\n".join(svg_sizes()))
            print("\n### Mini App: first paint in headless Chromium (412×915)\n")
            print("\n".join(await first_paint(b, args.loads)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", default="1,50", help="concurrent matches per row")
    parser.add_argument("--moves", type=int, default=20, help="moves per match")
    parser.add_argument("--loads", type=int, default=5, help="page loads for first paint")
    parser.add_argument("--screenshots", help="write the 412×915 screenshots here instead")
    asyncio.run(measure(parser.parse_args()))


if __name__ == "__main__":
    main()
