"""The import arrows of DESIGN.md: engine and render stay pure; only bot/cli starts the
playground; storage knows nothing of the bot or the games."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SERVICES = {"telegram", "redis", "aiohttp", "fakeredis", "httpx", "asyncio"}
OURS = {"engine", "render", "storage", "bot", "playground", "bench", "tests"}

# package -> top-level modules it must never import
FORBIDDEN: dict[str, set[str]] = {
    "engine": SERVICES | (OURS - {"engine"}),
    "render": SERVICES | (OURS - {"engine", "render"}),
    "storage": {"telegram", "engine", "render", "bot", "playground", "bench", "tests"},
    "bot": {"playground", "bench", "tests"},
    "playground": {"bot", "storage", "engine", "render", "bench", "tests"},
}
# The CLI is the composition root: `tetrad local` starts the playground next to the bot, and
# playground/local.py (only) imports the bot to run it in the same process.
EXEMPT = {("bot/cli.py", "playground"), ("playground/local.py", "bot")}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_import_direction(package: str) -> None:
    bad = []
    for path in sorted((ROOT / package).rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        for name in _imports(path) & FORBIDDEN[package]:
            if (rel, name) not in EXEMPT:
                bad.append(f"{rel} imports {name}")
    assert not bad, "\n".join(bad)


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
