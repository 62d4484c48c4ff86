"""`tetrad worker` processes for the reliability tests: started on a Redis URL (plain or
``redis+sentinel://``), known by the pids they register with the queue, stopped with
SIGTERM (the job in hand is finished) or killed."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time

from bot.telegram.jobs import ThinkQueue, think_queue

WAIT = 40.0  # bounded waits for processes on a busy machine


class Fleet:
    """`tetrad worker` processes on the test's Redis."""

    def __init__(self, redis_url: str) -> None:
        self.redis_url = redis_url
        self.processes: list[subprocess.Popen[bytes]] = []
        self.queue: ThinkQueue = think_queue(redis_url)

    def start(self, *, warm: bool = False) -> subprocess.Popen[bytes]:
        """A worker; ``warm``: it loads the AIs' compiled kernels before its first job."""
        env = dict(os.environ, REDIS_URL=self.redis_url, WARM_WORKERS="1" if warm else "0")
        cmd = [sys.executable, "-c", "import sys; from bot.cli import main; sys.exit(main())"]
        process = subprocess.Popen([*cmd, "worker"], env=env)
        self.processes.append(process)
        return process

    async def pids(self) -> dict[str, int]:
        """The saq worker id → process id of each worker that registered (is ready)."""
        info = await self.queue.info()
        return {w: int((i["metadata"] or {})["pid"]) for w, i in info["workers"].items()}

    async def ready(self, n: int) -> None:
        deadline = time.monotonic() + WAIT
        while len(await self.pids()) < n:
            assert time.monotonic() < deadline, f"{n} workers not ready in {WAIT:.0f} s"
            await asyncio.sleep(0.1)

    def stop(self) -> None:
        for p in self.processes:
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        for p in self.processes:
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
