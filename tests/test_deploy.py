"""The scaled deployment (deploy/docker-compose.scale.yml) read as docker compose reads it
(there is no Docker daemon on the CI machine): its services, their commands and their
environment agree with what the bot reads (bot/settings.py) and with each other.

One primary, one replica of it, three sentinels monitoring it under the name the bots' and
workers' ``redis+sentinel://`` URL asks for (a quorum a majority can reach), two bot
replicas on the queue behind the proxy, two workers; every variable set is one the bot
reads, and each service's settings load.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.cli import build_parser
from bot.settings import Settings
from storage import sentinel

DEPLOY = Path(__file__).resolve().parents[1] / "deploy"
COMPOSE = DEPLOY / "docker-compose.scale.yml"
# What an operator exports before `docker compose up` (the ${…:?} ones must be set).
EXPORTED = {
    "TELEGRAM_BOT_TOKEN": "123456:" + "A" * 35,
    "WEBHOOK_URL": "https://bot.example.org/tg",
    "WEBHOOK_SECRET": "s3cret-Hook",
}
_VARIABLE = re.compile(r"\$\{(\w+)(?::([?-])([^}]*))?\}")


def interpolate(value: str, env: dict[str, str]) -> str:
    """Compose's ``${NAME}``, ``${NAME:-default}`` and ``${NAME:?error}`` (unset → error)."""

    def one(m: re.Match[str]) -> str:
        name, how, text = m.group(1), m.group(2), m.group(3) or ""
        if env.get(name):
            return env[name]
        if how == "?":
            raise AssertionError(f"{name} must be set: {text}")
        return text if how == "-" else ""

    return _VARIABLE.sub(one, value)


def compose() -> dict[str, Any]:
    data = yaml.safe_load(COMPOSE.read_text())
    assert isinstance(data, dict)
    return data


def environment(service: dict[str, Any], env: dict[str, str]) -> dict[str, str]:
    raw = service.get("environment") or {}
    assert isinstance(raw, dict), "environment as a mapping"
    return {k: interpolate(str(v), env) for k, v in raw.items()}


class Reads(dict[str, str]):
    """An environment that records the names the settings ask for."""

    def __init__(self, values: dict[str, str]) -> None:
        super().__init__(values)
        self.asked: set[str] = set()

    def get(self, key: str, default: Any = None) -> Any:
        self.asked.add(key)
        return super().get(key, default)


def words(command: Any) -> list[str]:
    return shlex.split(command) if isinstance(command, str) else [str(c) for c in command]


def sentinel_conf(service: dict[str, Any]) -> list[str]:
    """The lines a sentinel service writes into its config before it starts."""
    script = words(service["command"])[-1]
    assert "--sentinel" in script, script
    return re.findall(r"'([^']*)'", script)


def replicas(service: dict[str, Any]) -> int:
    return int((service.get("deploy") or {}).get("replicas", service.get("scale", 1)))


def test_the_scaled_deployment_has_every_part() -> None:
    services = compose()["services"]
    sentinels = sorted(
        n for n, s in services.items() if "--sentinel" in " ".join(words(s.get("command", [])))
    )
    assert len(sentinels) == 3, sentinels
    assert replicas(services["bot"]) == 2 and replicas(services["worker"]) == 2
    assert {"redis-primary", "redis-replica", "proxy"} <= set(services)

    # the replica follows the primary, on the port the primary serves
    replica = words(services["redis-replica"]["command"])
    at = replica.index("--replicaof")
    assert replica[at + 1 : at + 3] == ["redis-primary", "6379"]
    assert "--replicaof" not in words(services["redis-primary"]["command"])
    for name in ("redis-primary", "redis-replica"):
        assert services[name]["volumes"], f"{name} keeps its data"

    # the sentinels watch the primary under one name, with a quorum a majority reaches
    monitored = set()
    for name in sentinels:
        conf = sentinel_conf(services[name])
        assert "port 26379" in conf
        (monitor,) = [line.split() for line in conf if line.startswith("sentinel monitor")]
        _, _, service, host, port, quorum = monitor
        monitored.add((service, host, port))
        assert 2 <= int(quorum) <= len(sentinels) // 2 + 1
        assert "sentinel resolve-hostnames yes" in conf  # it names the primary by service
    assert monitored == {("mymaster", "redis-primary", "6379")}


@pytest.mark.parametrize("name", ["bot", "worker"])
def test_bots_and_workers_load_their_settings_and_find_the_sentinels(name: str) -> None:
    services = compose()["services"]
    service = services[name]
    env = Reads(environment(service, EXPORTED))
    settings = Settings.from_env(env, need_token=name == "bot")
    unknown = set(env) - env.asked
    assert not unknown, f"{name} sets variables the bot never reads: {sorted(unknown)}"

    # the URL names the three sentinels by service and port, and the monitored primary
    url = sentinel.parse(settings.redis_url)
    sentinel_ports = {
        n: next(line.split()[1] for line in sentinel_conf(s) if line.startswith("port "))
        for n, s in services.items()
        if "--sentinel" in " ".join(words(s.get("command", [])))
    }
    assert {(h, str(p)) for h, p in url.sentinels} == set(sentinel_ports.items())
    assert url.service == "mymaster"
    assert set(sentinel_ports) <= set(service["depends_on"])

    # the command is the tetrad subcommand it means (the image's entrypoint is `tetrad`)
    args = build_parser().parse_args(words(service["command"]))
    assert args.command == ("run" if name == "bot" else "worker")
    if name == "bot":
        assert settings.workers == "queue", "the bots put their heavy work on the queue"
        assert settings.webhook_url == EXPORTED["WEBHOOK_URL"]
        assert str(settings.port) in [str(p) for p in service["expose"]]
    else:
        assert settings.warm_workers


def test_the_proxy_reaches_the_bots_on_their_port() -> None:
    services = compose()["services"]
    proxy = services["proxy"]
    (mount,) = proxy["volumes"]
    source, target, *_ = mount.split(":")
    conf = (COMPOSE.parent / source).read_text()
    assert target == "/etc/nginx/nginx.conf"
    port = environment(services["bot"], EXPORTED)["PORT"]
    assert f"http://bot:{port}" in conf, "nginx sends the updates to the bot service"
    assert "bot" in proxy["depends_on"]


def test_a_missing_required_variable_is_named() -> None:
    """The compose file refuses to start without the token, as compose's ${…:?} does."""
    bot = compose()["services"]["bot"]
    with pytest.raises(AssertionError, match="TELEGRAM_BOT_TOKEN"):
        environment(bot, {k: v for k, v in EXPORTED.items() if k != "TELEGRAM_BOT_TOKEN"})
