"""The import arrows of DESIGN.md "Layers": engine and render stay pure; the match layer
(bot/match) knows no Telegram, Redis, storage or pictures, so a second front end can reuse it
untouched; only bot/cli starts the playground; storage knows nothing of the bot or the games.

Imports are read from the source (every ``import``, also those inside functions and relative
ones), so an import hidden in a function to dodge a circle still counts.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SERVICES = {"telegram", "redis", "aiohttp", "fakeredis", "httpx", "asyncio"}
OURS = {"engine", "render", "storage", "bot", "playground", "bench", "tests"}

# source folder -> modules (a name forbids it and everything under it) it must never import
FORBIDDEN: dict[str, set[str]] = {
    "engine": SERVICES | (OURS - {"engine"}),
    "render": SERVICES | (OURS - {"engine", "render"}),
    "storage": {"telegram", "engine", "render", "bot", "playground", "bench", "tests"},
    "bot": {"playground", "bench", "tests"},
    "bot/match": SERVICES
    | {"PIL", "storage", "render", "playground", "bench", "tests"}
    | {"bot.telegram", "bot.cli", "bot.warmup", "bot.pictures", "bot.settings"},
    "playground": {"bot", "storage", "engine", "render", "bench", "tests"},
}
# The CLI is the composition root: `tetrad local` starts the playground next to the bot, and
# playground/local.py (only) imports the bot to run it in the same process.
EXEMPT = {("bot/cli.py", "playground"), ("playground/local.py", "bot")}


def imports(source: str, module: str) -> set[str]:
    """Every module ``source`` (the text of ``module``, dotted) imports, relative ones made
    absolute; ``from a import b`` counts as ``a.b`` too (b may be a submodule)."""
    package = module.rsplit(".", 1)[0] if not module.endswith("__init__") else module
    package = package.removesuffix(".__init__")
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                up = parts[: len(parts) - (node.level - 1)]
                base = ".".join([*up, base] if base else up)
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def _module(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts)


def _hits(name: str, forbidden: set[str]) -> set[str]:
    return {f for f in forbidden if name == f or name.startswith(f + ".")}


@pytest.mark.parametrize("folder", sorted(FORBIDDEN))
def test_import_direction(folder: str) -> None:
    bad = []
    for path in sorted((ROOT / folder).rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        for name in sorted(imports(path.read_text(encoding="utf-8"), _module(path))):
            for rule in _hits(name, FORBIDDEN[folder]):
                if (rel, rule) not in EXEMPT:
                    bad.append(f"{rel} imports {name}")
    assert not bad, "\n".join(sorted(set(bad)))


@pytest.mark.parametrize(
    ("source", "module", "found"),
    [
        ("import telegram.ext", "bot.match.x", "telegram.ext"),
        ("def f():\n    from storage import matches\n", "bot.match.x", "storage.matches"),
        ("class A:\n    def f(self):\n        import redis\n", "bot.match.x", "redis"),
        ("from ..telegram import act", "bot.match.turns", "bot.telegram.act"),
        ("from . import render", "bot.match.ui.dots", "bot.match.ui.render"),
        ("from .views import x", "bot.match.__init__", "bot.match.views"),
        ("from bot import telegram", "bot.match.x", "bot.telegram"),
    ],
)
def test_the_reader_sees_hidden_and_relative_imports(source: str, module: str, found: str) -> None:
    """The check itself can fail: imports inside functions and relative ones are seen."""
    assert found in imports(source, module)


def test_a_forbidden_import_in_the_match_layer_is_named() -> None:
    for source in ("from bot.telegram.act import load", "def f():\n    import aiohttp\n"):
        names = imports(source, "bot.match.turns")
        assert any(_hits(n, FORBIDDEN["bot/match"]) for n in names), source
    assert not _hits("bot.match.turns", FORBIDDEN["bot/match"])
    assert not _hits("bot.i18n", FORBIDDEN["bot/match"])


def test_engine_and_render_load_no_services() -> None:
    services = sorted(SERVICES - {"asyncio"})
    code = (
        "import sys, engine, render\n"
        "import importlib, pkgutil\n"
        "for pkg in (engine, render):\n"
        "    for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + '.'):\n"
        "        importlib.import_module(m.name)\n"
        f"bad = sorted(n for n in sys.modules if n.split('.')[0] in {services!r})\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "", f"engine/render pulled in: {out.stdout.strip()}"


def test_the_match_layer_loads_no_services() -> None:
    """Importing every bot.match module pulls in no Telegram, Redis, aiohttp or Pillow."""
    code = (
        "import sys, importlib, pkgutil, bot.match\n"
        "for m in pkgutil.walk_packages(bot.match.__path__, 'bot.match.'):\n"
        "    importlib.import_module(m.name)\n"
        "bad = sorted(n for n in sys.modules\n"
        "             if n.split('.')[0] in ('telegram', 'redis', 'aiohttp', 'PIL', 'storage',\n"
        "                                    'render', 'fakeredis', 'httpx')\n"
        "             or n.startswith('bot.telegram'))\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "", f"bot.match pulled in: {out.stdout.strip()}"
