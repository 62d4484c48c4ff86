"""Bot processes for the reliability suite and the latency bench: ``python -m bot run`` as
separate OS processes in webhook mode behind a round-robin proxy, sharing one Redis.

* :class:`BotProcess` — one replica: start, SIGKILL, SIGTERM, its log, its CPU time read from
  ``/proc`` (nanoseconds from ``schedstat``, so one tap can be measured), its ``/metrics``.
* :class:`Proxy` — what nginx does in front of the replicas: round robin, the next replica
  when one refuses the connection, a 502 when one dies mid-request (the emulator then
  delivers the update again, as Telegram does), and optionally every n-th update to two
  replicas at once (a redelivery racing the first delivery).
* :class:`Cluster` — N replicas behind one proxy against one emulator and one Redis.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import IO, Any, TypedDict

import aiohttp
from aiohttp import web

from playground.server import Emulator
from tests.fixtures.ports import free_port

SECRET = "reliab-Hook_secret-7Qz"
HOOK_PATH = "/tg/hook"
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
# A replica starts in seconds on a quiet machine; the bound is for a loaded one (load 15 seen:
# each replica then takes ~10 s just to load its compiled kernels).
START_TIMEOUT = 120.0
_CLK_TCK = os.sysconf("SC_CLK_TCK")


def children(pid: int) -> set[int]:
    """Pids of a process's live children (from every thread's ``children`` list)."""
    out: set[int] = set()
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{tid}/children") as f:
                out.update(int(c) for c in f.read().split())
    except OSError:
        pass
    return out


def process_cpu(pid: int) -> float:
    """CPU seconds of a process (all its live threads), with nanosecond resolution where the
    kernel keeps schedstat; else utime + stime in clock ticks."""
    total = 0
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                total += int(f.read().split()[0])
        return total / 1e9
    except (FileNotFoundError, ProcessLookupError, ValueError, IndexError):
        pass
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / _CLK_TCK


def metric_sum(text: str, name: str, **labels: str) -> float:
    """The sum of a Prometheus sample over the label sets that contain ``labels``."""
    total = 0.0
    for line in text.splitlines():
        if not line.startswith(name):
            continue
        m = re.match(rf"^{re.escape(name)}(\{{[^}}]*\}})? (\S+)$", line)
        if m is None:
            continue
        got = dict(re.findall(r'(\w+)="([^"]*)"', m.group(1) or ""))
        if all(got.get(k) == v for k, v in labels.items()):
            total += float(m.group(2))
    return total


def histogram(text: str, name: str, **labels: str) -> list[tuple[float, float]]:
    """Cumulative (upper bound, count) pairs of a histogram, summed over matching label sets."""
    buckets: dict[float, float] = {}
    for line in text.splitlines():
        if not line.startswith(name + "_bucket"):
            continue
        m = re.match(rf"^{re.escape(name)}_bucket\{{([^}}]*)\}} (\S+)$", line)
        if m is None:
            continue
        got = dict(re.findall(r'(\w+)="([^"]*)"', m.group(1)))
        if all(got.get(k) == v for k, v in labels.items()):
            le = float("inf") if got["le"] == "+Inf" else float(got["le"])
            buckets[le] = buckets.get(le, 0.0) + float(m.group(2))
    return sorted(buckets.items())


class BotProcess:
    """One ``python -m bot run`` process; ``env`` is its whole configuration."""

    def __init__(self, name: str, env: dict[str, str], log_path: Path) -> None:
        self.name = name
        self.env = env
        self.log_path = log_path
        self.proc: subprocess.Popen[bytes] | None = None
        self._log: IO[bytes] | None = None
        self.starts = 0

    @property
    def port(self) -> int:
        return int(self.env["PORT"])

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int:
        assert self.proc is not None, f"{self.name} is not running"
        return self.proc.pid

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def start(self) -> None:
        if self.alive:
            raise RuntimeError(f"{self.name} is running already")
        self._log = open(self.log_path, "ab")  # noqa: SIM115 - closed when the process ends
        self._log.write(f"--- start {self.starts} ---\n".encode())
        self._log.flush()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "bot", "run"],
            env={**os.environ, **self.env},
            stdout=self._log,
            stderr=subprocess.STDOUT,
        )
        self.starts += 1

    async def wait_ready(self, timeout: float = START_TIMEOUT) -> None:
        """Until ``/healthz`` answers 200 (webhook mode)."""
        deadline = time.monotonic() + timeout
        async with aiohttp.ClientSession() as http:
            while True:
                if not self.alive:
                    raise AssertionError(f"{self.name} exited at start:\n{self.log_tail()}")
                try:
                    async with http.get(f"{self.url}/healthz") as r:
                        if r.status == 200:
                            return
                except aiohttp.ClientError:
                    pass
                if time.monotonic() > deadline:
                    raise AssertionError(f"{self.name} did not start:\n{self.log_tail()}")
                await asyncio.sleep(0.1)

    def kill(self) -> None:
        """SIGKILL: a crash; nothing in flight is finished."""
        if self.proc is not None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()
        self._close_log()

    def stop(self, timeout: float = 40.0) -> int:
        """SIGTERM (a deploy): the updates in flight finish; returns the exit code."""
        if self.proc is None:
            return 0
        if self.proc.poll() is None:
            self.proc.terminate()
        try:
            code = self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            code = self.proc.wait()
        self._close_log()
        return code

    def _close_log(self) -> None:
        if self._log is not None:
            self._log.close()
            self._log = None

    def cpu(self) -> float:
        return process_cpu(self.pid)

    def workers_cpu(self) -> float:
        """CPU seconds of the bot's live child processes (its AI and replay workers)."""
        total = 0.0
        for pid in children(self.pid):
            with contextlib.suppress(OSError):  # ended meanwhile
                total += process_cpu(pid)
        return total

    async def metrics(self) -> str:
        async with (
            aiohttp.ClientSession() as http,
            http.get(f"{self.url}/metrics") as r,
        ):
            return await r.text()

    def log_text(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def log_tail(self, n: int = 60) -> str:
        return "\n".join(self.log_text().splitlines()[-n:])


class Proxy:
    """Round robin over the replicas' webhook URLs, with failover like nginx's defaults."""

    def __init__(self, upstreams: list[str], duplicate_every: int = 0) -> None:
        self.upstreams = upstreams
        self.duplicate_every = duplicate_every
        self.counter = itertools.count()
        self.sent = [0] * len(upstreams)
        self.failed_over = 0
        self.bad_gateway = 0
        self.duplicates = 0
        self.url = ""
        self._session: aiohttp.ClientSession | None = None
        self._runner: web.AppRunner | None = None

    async def start(self) -> str:
        self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=90))
        app = web.Application(client_max_size=4 * 1024 * 1024)
        app.router.add_post(HOOK_PATH, self.handle)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", 0).start()
        self.url = f"http://127.0.0.1:{self._runner.addresses[0][1]}{HOOK_PATH}"
        return self.url

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
        if self._session is not None:
            await self._session.close()

    async def _forward(self, i: int, body: bytes, headers: dict[str, str]) -> web.Response:
        """Try replica ``i``, then the others while they refuse the connection; its answer
        (a webhook answer may carry a Bot API call) goes back as it came."""
        assert self._session is not None
        n = len(self.upstreams)
        for k in range(n):
            j = (i + k) % n
            try:
                async with self._session.post(self.upstreams[j], data=body, headers=headers) as r:
                    self.sent[j] += 1
                    data = await r.read()
                    ctype = r.headers.get("Content-Type")
                    return web.Response(
                        status=r.status, body=data, headers={"Content-Type": ctype} if ctype else {}
                    )
            except aiohttp.ClientConnectorError:
                self.failed_over += 1  # nothing was sent: the next replica may take it
                continue
            except (aiohttp.ClientError, TimeoutError):
                self.bad_gateway += 1  # it may have been processed: let Telegram resend
                return web.Response(status=502)
        self.bad_gateway += 1
        return web.Response(status=502)

    async def handle(self, request: web.Request) -> web.Response:
        n = next(self.counter)
        i = n % len(self.upstreams)
        body = await request.read()
        headers = {
            k: v
            for k, v in request.headers.items()
            if k.lower() in ("content-type", SECRET_HEADER.lower())
        }
        if self.duplicate_every and n % self.duplicate_every == self.duplicate_every - 1:
            self.duplicates += 1
            j = (i + 1) % len(self.upstreams)
            answer, _ = await asyncio.gather(
                self._forward(i, body, headers), self._forward(j, body, headers)
            )
            return answer
        return await self._forward(i, body, headers)


class Env(TypedDict, total=False):
    """Settings a replica may be started with beside the defaults (typed, so that a dict
    of them unpacks into :class:`Cluster`'s keyword arguments)."""

    ROUTE_WORKERS: str
    WARM_WORKERS: str


# The env of a replica that routes no Рассада curve: no route workers to start.
NO_ROUTES: Env = {"ROUTE_WORKERS": "0"}
# ... and plays no bot move nor draws a replay either: its AI pool starts only if asked.
NO_WORKERS: Env = {**NO_ROUTES, "WARM_WORKERS": "0"}


def bot_env(
    emulator: Emulator,
    redis_url: str,
    *,
    port: int,
    webhook_url: str,
    **extra: str,
) -> dict[str, str]:
    """The environment of one replica; ``extra`` overrides (e.g. LOG_LEVEL="DEBUG")."""
    env = {
        "TELEGRAM_BOT_TOKEN": emulator.world.token,
        "TELEGRAM_API_URL": emulator.url,
        "REDIS_URL": redis_url,
        "WEBHOOK_URL": webhook_url,
        "WEBHOOK_SECRET": SECRET,
        "PORT": str(port),
        "AI_TIME_SCALE": "0.05",
        "AI_SHOW_AFTER": "60",
        # The emulator's flood limits are off for load; the bot's own pacing must not
        # stand in for them either.
        "GROUP_EDITS_PER_MINUTE": "60000",
        "MESSAGES_PER_SECOND": "10000",
        "LOG_LEVEL": "INFO",
    }
    env.update(extra)
    return env


class Cluster:
    """``replicas`` bot processes behind one :class:`Proxy`, sharing ``redis_url``."""

    def __init__(
        self,
        emulator: Emulator,
        redis_url: str,
        log_dir: Path,
        replicas: int = 2,
        *,
        duplicate_every: int = 0,
        **env: str,
    ) -> None:
        self.emulator = emulator
        self.redis_url = redis_url
        self.log_dir = log_dir
        self.ports = [free_port() for _ in range(replicas)]
        self.proxy = Proxy(
            [f"http://127.0.0.1:{p}{HOOK_PATH}" for p in self.ports], duplicate_every
        )
        # One worker per replica routes its Рассада curves, and one thinks its moves: the
        # tests go through the workers as deployed bots do (warm before the first update),
        # without two of each per replica crowding a 2-core CI machine (an AI worker costs
        # a replica's start 1.4 s of CPU). A test that plays no Рассада or no bot moves says
        # so (:data:`NO_ROUTES`, :data:`NO_WORKERS`).
        self.extra_env = {"ROUTE_WORKERS": "1", "AI_WORKERS": "1", **env}
        self.bots: list[BotProcess] = []

    async def start(self) -> None:
        await self.proxy.start()
        for k, port in enumerate(self.ports):
            env = bot_env(
                self.emulator,
                self.redis_url,
                port=port,
                webhook_url=self.proxy.url,
                **self.extra_env,
            )
            self.bots.append(BotProcess(f"replica{k}", env, self.log_dir / f"replica{k}.log"))
        for bot in self.bots:
            bot.start()
        await asyncio.gather(*(bot.wait_ready() for bot in self.bots))

    async def restart(self, k: int) -> None:
        bot = self.bots[k]
        if bot.alive:
            bot.stop()
        bot.start()
        await bot.wait_ready()

    async def stop(self) -> list[int]:
        """SIGTERM every replica; their exit codes."""
        codes = await asyncio.gather(*(asyncio.to_thread(b.stop) for b in self.bots))
        await self.proxy.stop()
        return list(codes)

    async def metric(self, name: str, **labels: str) -> float:
        texts = await asyncio.gather(*(b.metrics() for b in self.bots if b.alive))
        return sum(metric_sum(t, name, **labels) for t in texts)

    def logs(self) -> str:
        return "\n".join(b.log_text() for b in self.bots)

    async def __aenter__(self) -> Cluster:
        try:
            await self.start()
        except BaseException:
            await self.stop()
            raise
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.stop()
