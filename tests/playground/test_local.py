"""`tetrad local`: one command runs the emulator, the store and the real bot."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import aiohttp
import pytest

from playground import local
from playground.client import PlaygroundClient
from playground.server import Emulator

ROOT = Path(__file__).resolve().parents[2]


async def test_serve_runs_the_bot_against_a_demo_world(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.delenv("REDIS_URL", raising=False)
    # One AI worker and one route worker: warm before the first update as `tetrad local`'s
    # are, without two of each (1.4 s of CPU apiece) that this test never uses.
    monkeypatch.setenv("AI_WORKERS", "1")
    monkeypatch.setenv("ROUTE_WORKERS", "1")
    started: list[Emulator] = []
    real_start = Emulator.start

    async def remember(self: Emulator, host: str = "127.0.0.1", port: int = 0) -> str:
        started.append(self)
        return await real_start(self, host, port)

    monkeypatch.setattr(Emulator, "start", remember)
    ready = asyncio.Event()
    task = asyncio.create_task(local.serve("127.0.0.1", 0, open_browser=False, ready=ready))
    try:
        await asyncio.wait_for(ready.wait(), 90)  # bounded: a busy machine starts slowly
        url = started[0].url
        async with aiohttp.ClientSession() as s, s.get(url + "/") as r:
            assert r.status == 200 and "Tetrad playground" in await r.text()
        async with PlaygroundClient(url) as pg:
            state = await pg._get("/pg/state")
            assert [u["username"] for u in state["users"]] == ["alice", "bob"]
            assert any(c["title"] == "Friends" and c["bot_member"] for c in state["chats"])
            alice = await pg.user("alice")
            await alice.send("/start")
            assert "Тетрадь" in ((await alice.private.last_message()).text or "")
            # Inline mode uploads its pictures to the storage chat, which nobody's list shows.
            ref = next(c["ref"] for c in state["chats"] if c["title"] == "Friends")
            friends = await pg.chat(ref)
            answer = await alice.inline("", friends)
            assert answer.answered and answer.results
            assert all(r.type == "photo" and r.thumbnail for r in answer.results)
            storage = next(c for c in state["chats"] if c["title"] == local.STORAGE_CHANNEL)
            assert storage["type"] == "channel" and storage["members"] == []
            assert started[0].world.chats[storage["ref"]].messages  # the uploads
            for name in ("alice", "bob"):
                listed = await pg._get(f"/pg/chats?user={(await pg.user(name)).id}")
                assert local.STORAGE_CHANNEL not in [c["title"] for c in listed]
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


def test_local_settings_default_to_the_embedded_store() -> None:
    emulator = Emulator()
    emulator.url = "http://127.0.0.1:1"
    s = local.local_settings(emulator, {"WEBHOOK_URL": "https://x.example/hook"})
    assert s.redis_url == "memory://" and s.api_url == emulator.url and s.webhook_url is None
    s = local.local_settings(emulator, {"REDIS_URL": "redis://localhost:6400/1"})
    assert s.redis_url == "redis://localhost:6400/1"


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_the_command_prints_the_url_and_stops_cleanly(stop: signal.Signals) -> None:
    """Ctrl-C, and SIGTERM (a service manager, ``kill``), stop the bot: its route workers
    (started at once by ROUTE_WORKERS) are ended and multiprocessing's resource tracker
    finds no semaphore of their pool left behind. Killed by SIGTERM's default action, the
    process left five (the pool's call and result queues) and the tracker warned of them."""
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env["ROUTE_WORKERS"] = "1"
    env["AI_WORKERS"] = "1"  # the AI pool's semaphores are the same kind; one worker has them
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot", "local", "--no-browser", "--port", "0"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert re.search(r"open http://127\.0\.0\.1:\d+/", line), line
        assert "memory://" in line
        proc.send_signal(stop)
        _, err = proc.communicate(timeout=60)  # EOF once the resource tracker is gone too
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert "tetrad local: stopped" in err
    assert "leaked" not in err and "Traceback" not in err, err
    # The kernels are in numba's cache (the session warmed them): nothing compiles.
    assert "loading the Рассада drawing engine" in err and "compiling" not in err, err
