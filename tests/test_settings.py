from __future__ import annotations

import os
import subprocess
import sys

import pytest

from bot.settings import Settings, SettingsError

TOKEN = "123456:" + "A" * 35


def test_defaults() -> None:
    s = Settings.from_env({"TELEGRAM_BOT_TOKEN": TOKEN})
    assert s.api_url == "https://api.telegram.org"
    assert s.base_url == "https://api.telegram.org/bot"
    assert s.redis_url.startswith("redis://") and s.port == 8080
    assert s.default_language == "en" and s.webhook_url is None
    assert s.ai_show_after == 0.6
    assert 1 <= s.route_workers <= 2  # Рассада curves go to worker processes by default
    assert s.ai_workers == min(2, os.cpu_count() or 1)  # as the AI pool chose before AI_WORKERS


def test_ai_workers_is_a_count() -> None:
    assert Settings.from_env({"TELEGRAM_BOT_TOKEN": TOKEN, "AI_WORKERS": "1"}).ai_workers == 1


def test_route_workers_can_be_turned_off() -> None:
    assert Settings.from_env({"TELEGRAM_BOT_TOKEN": TOKEN, "ROUTE_WORKERS": "0"}).route_workers == 0


def test_moves_are_thought_in_the_bot_unless_workers_is_queue() -> None:
    assert Settings.from_env({"TELEGRAM_BOT_TOKEN": TOKEN}).workers == "local"
    assert Settings.from_env({"TELEGRAM_BOT_TOKEN": TOKEN, "WORKERS": "Queue"}).workers == "queue"


def test_api_url_with_bot_suffix_is_normalised() -> None:
    s = Settings.from_env({"TELEGRAM_BOT_TOKEN": TOKEN, "TELEGRAM_API_URL": "http://x:1/bot/"})
    assert s.base_url == "http://x:1/bot"


def test_sentinel_redis_url_is_taken() -> None:
    url = "redis+sentinel://:pw@10.0.0.1:26379,10.0.0.2/mymaster/2"
    assert Settings.from_env({"TELEGRAM_BOT_TOKEN": TOKEN, "REDIS_URL": url}).redis_url == url


@pytest.mark.parametrize(
    ("env", "needle"),
    [
        ({}, "TELEGRAM_BOT_TOKEN is not set"),
        ({"TELEGRAM_BOT_TOKEN": "nope"}, "does not look like"),
        ({"TELEGRAM_BOT_TOKEN": TOKEN, "REDIS_URL": "postgres://x"}, "REDIS_URL"),
        (
            {"TELEGRAM_BOT_TOKEN": TOKEN, "REDIS_URL": "redis+sentinel://:pw@h1,h2:26380/"},
            "REDIS_URL 'redis\\+sentinel://:\\*\\*\\*@h1,h2:26380/' is not a Sentinel URL: "
            "the path must name the monitored primary",
        ),
        ({"TELEGRAM_BOT_TOKEN": TOKEN, "REDIS_URL": "redis+sentinel://h1:x/m"}, "h1:x"),
        ({"TELEGRAM_BOT_TOKEN": TOKEN, "PORT": "70000"}, "PORT"),
        ({"TELEGRAM_BOT_TOKEN": TOKEN, "LOG_LEVEL": "loud"}, "LOG_LEVEL"),
        ({"TELEGRAM_BOT_TOKEN": TOKEN, "DEFAULT_LANGUAGE": "de"}, "DEFAULT_LANGUAGE"),
        ({"TELEGRAM_BOT_TOKEN": TOKEN, "WEBHOOK_URL": "https://h/x"}, "WEBHOOK_SECRET"),
        ({"TELEGRAM_BOT_TOKEN": TOKEN, "TELEGRAM_API_URL": "ftp://x"}, "TELEGRAM_API_URL"),
        ({"TELEGRAM_BOT_TOKEN": TOKEN, "AI_SHOW_AFTER": "soon"}, "AI_SHOW_AFTER"),
        ({"TELEGRAM_BOT_TOKEN": TOKEN, "AI_SHOW_AFTER": "-1"}, "AI_SHOW_AFTER"),
        ({"TELEGRAM_BOT_TOKEN": TOKEN, "ROUTE_WORKERS": "two"}, "ROUTE_WORKERS"),
        ({"TELEGRAM_BOT_TOKEN": TOKEN, "ROUTE_WORKERS": "-1"}, "ROUTE_WORKERS"),
        ({"TELEGRAM_BOT_TOKEN": TOKEN, "ROUTE_WORKERS": "65"}, "ROUTE_WORKERS"),
        ({"TELEGRAM_BOT_TOKEN": TOKEN, "AI_WORKERS": "0"}, "AI_WORKERS must be .* from 1 to 64"),
        ({"TELEGRAM_BOT_TOKEN": TOKEN, "AI_WORKERS": "one"}, "AI_WORKERS"),
        ({"TELEGRAM_BOT_TOKEN": TOKEN, "AI_WORKERS": "65"}, "AI_WORKERS"),
        ({"TELEGRAM_BOT_TOKEN": TOKEN, "WORKERS": "fleet"}, "WORKERS must be one of"),
        ({"TELEGRAM_BOT_TOKEN": TOKEN, "WORKERS": "queue", "REDIS_URL": "memory://x"}, "memory"),
    ],
)
def test_bad_settings(env: dict[str, str], needle: str) -> None:
    with pytest.raises(SettingsError, match=needle):
        Settings.from_env(env)


def test_cli_reports_bad_settings_in_one_line() -> None:
    env = {"PATH": "", "REDIS_URL": "memory://"}
    out = subprocess.run(
        [sys.executable, "-m", "bot", "run"], env=env, capture_output=True, text=True
    )
    assert out.returncode == 2
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "TELEGRAM_BOT_TOKEN" in lines[0], out.stderr
