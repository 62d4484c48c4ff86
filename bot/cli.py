"""The ``tetrad`` command: ``tetrad local`` (emulator + embedded store + bot), ``tetrad run``."""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence
from urllib.parse import urlsplit

from bot.settings import Settings, SettingsError

LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class Redacting(logging.Formatter):
    """Writes ``***`` for secrets wherever they would appear: python-telegram-bot logs the
    Bot API URL (which holds the token) at DEBUG, and errors may quote URLs."""

    def __init__(self, fmt: str, secrets: Sequence[str]) -> None:
        super().__init__(fmt)
        self.secrets = sorted(secrets, key=len, reverse=True)  # the token before its parts

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        for secret in self.secrets:
            text = text.replace(secret, "***")
        return text


def _secrets(settings: Settings) -> list[str]:
    out = [settings.token or "", settings.webhook_secret or ""]
    if settings.token and ":" in settings.token:
        out.append(settings.token.split(":", 1)[1])
    out.append(urlsplit(settings.redis_url).password or "")
    return [s for s in out if len(s) >= 4]


def _setup_logging(level: str, secrets: Sequence[str] = ()) -> None:
    logging.basicConfig(level=level, format=LOG_FORMAT, stream=sys.stderr)
    if secrets:
        for handler in logging.getLogger().handlers:
            handler.setFormatter(Redacting(LOG_FORMAT, secrets))
    # The HTTP client logs every request (with the token in the URL) at INFO.
    logging.getLogger("httpx").setLevel(logging.WARNING)


def _cmd_run(args: argparse.Namespace) -> int:
    settings = Settings.from_env()
    _setup_logging(settings.log_level, _secrets(settings))
    from bot.telegram.main import run
    from bot.warmup import settle, warm_engines

    warm_engines()
    settle()
    run(settings)
    return 0


def _cmd_worker(args: argparse.Namespace) -> int:
    settings = Settings.from_env(need_token=False)
    _setup_logging(settings.log_level, _secrets(settings))
    from bot.telegram import job_worker

    return job_worker.run(settings)


def _cmd_local(args: argparse.Namespace) -> int:
    # The CLI is the composition root: the only place in bot/ that may start the playground.
    # The bot itself still reaches the emulator over HTTP only, like Telegram.
    from bot.warmup import kernels_cached, settle, warm_engines
    from playground.local import run_local

    if kernels_cached():
        print("tetrad local: loading the Рассада drawing engine", file=sys.stderr)
    else:
        print(
            "tetrad local: compiling the Рассада drawing engine (first run, ~25 s)",
            file=sys.stderr,
        )
    warm_engines()
    settle()
    return run_local(host=args.host, port=args.port, open_browser=not args.no_browser)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tetrad", description="Tetrad: Точки, Точки и квадраты and Рассада on Telegram."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="run the bot against Telegram (settings from environment)")
    run.set_defaults(func=_cmd_run)
    worker = sub.add_parser(
        "worker",
        help="do the bot's moves, replays and Рассада curves from the Redis job queue "
        "(the bot's WORKERS=queue)",
    )
    worker.set_defaults(func=_cmd_worker)
    local = sub.add_parser(
        "local", help="run the Telegram emulator, an embedded store and the bot; play in a browser"
    )
    local.add_argument("--host", default="127.0.0.1")
    local.add_argument("--port", type=int, default=8080)
    local.add_argument("--no-browser", action="store_true", help="do not open a browser")
    local.set_defaults(func=_cmd_local)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except SettingsError as e:
        print(f"tetrad: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
