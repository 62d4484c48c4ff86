"""The bot's modules import each other in one direction: no circles, and no imports inside
functions to dodge one (bot/cli.py alone imports lazily, to start fast)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LAZY_OK = {"bot.cli"}


def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted((ROOT / "bot").rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _targets(node: ast.Import | ast.ImportFrom, known: dict[str, Path]) -> set[str]:
    if isinstance(node, ast.Import):
        return {a.name for a in node.names if a.name in known}
    if node.level or not node.module:
        return set()
    found = set()
    for alias in node.names:
        sub = f"{node.module}.{alias.name}"
        if sub in known:
            found.add(sub)
        elif node.module in known:
            found.add(node.module)
    return found


def _graph() -> tuple[dict[str, set[str]], list[str]]:
    known = _modules()
    graph: dict[str, set[str]] = {}
    lazy = []
    for name, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        top = {id(n) for n in tree.body}
        edges: set[str] = set()
        for node in ast.walk(tree):
            if not isinstance(node, ast.Import | ast.ImportFrom):
                continue
            targets = _targets(node, known)
            if id(node) in top:
                edges |= targets
            elif targets and name not in LAZY_OK:
                lazy.append(f"{name}:{node.lineno} imports {sorted(targets)} inside a function")
        graph[name] = edges - {name}
    return graph, lazy


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}  # 1 on the path, 2 done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, set())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_no_import_circles() -> None:
    graph, _ = _graph()
    cycle = _cycle(graph)
    assert cycle is None, " -> ".join(cycle or [])


def test_no_imports_inside_functions() -> None:
    _, lazy = _graph()
    assert not lazy, "\n".join(lazy)


def test_the_checker_sees_a_circle() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None
