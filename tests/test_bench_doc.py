"""``python -m bench --only X`` rewrites only X's tables in docs/PERFORMANCE.md."""

from __future__ import annotations

from bench.run import Table, document, fmt, merged


def _doc(commit: str, tables: list[Table]) -> str:
    return document({"commit": commit}, tables, "python -m bench", 60.0)


def _table(title: str, value: float) -> Table:
    t = Table(title, ["what", "figure"])
    t.add("x", value)
    return t


def test_a_partial_run_replaces_its_tables_and_keeps_the_others() -> None:
    whole = _doc("aaaa", [_table("Engines", 1.0), _table("Render", 2.0), _table("Latency", 3.0)])
    partial = _doc("bbbb", [_table("Render", 20.0), _table("New", 5.0)])
    out = merged(whole, partial)
    assert out.index("### Engines") < out.index("### Render") < out.index("### Latency")

    def row(v: float) -> str:
        return f"| x | {fmt(v)} |"

    assert row(20.0) in out and row(2.0) not in out  # re-measured
    assert row(1.0) in out and row(3.0) in out  # kept
    assert out.index("### Latency") < out.index("### New")  # new tables go last
    assert "| commit | bbbb |" in out and "previous run (commit aaaa)" in out
    assert merged(out, partial).count("### Render") == 1
