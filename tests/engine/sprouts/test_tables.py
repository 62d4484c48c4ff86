"""The shipped tables: regenerating a part gives the same entries; loading is lazy."""

from __future__ import annotations

import subprocess
import sys

from engine.sprouts import gen_tables, tables
from engine.sprouts.position import Position
from engine.sprouts.solver import Solver, lands_of

from .facts import MISERE, NORMAL, START_NIMBERS


def test_table_covers_what_it_says() -> None:
    t = tables.load()
    assert t.spots >= 5 and t.misere_spots >= 5
    for n in range(1, t.spots + 1):
        assert t.nimbers[Position.start(n).canonical()] == START_NIMBERS[n - 1]
    for n in range(1, t.misere_spots + 1):
        assert t.misere[Position.start(n).canonical()] == (MISERE[n - 1] == "W")


def test_regenerated_part_matches_the_shipped_table() -> None:
    """Lands and misère positions reachable from up to 4 spots, computed afresh by the
    generator, are all in the shipped table with the same values."""
    part = gen_tables.build(4, 4)
    shipped = tables.load()
    assert len(part.nimbers) > 1000 and len(part.misere) > 1000
    assert {k: shipped.nimbers.get(k) for k in part.nimbers} == part.nimbers
    assert {k: shipped.misere.get(k) for k in part.misere} == part.misere


def test_round_trip(tmp_path: object) -> None:
    path = tmp_path / "t.json.gz"  # type: ignore[operator]
    part = gen_tables.build(3, 2)
    tables.dump(part, path)
    first = path.read_bytes()
    assert tables.load(path) == part
    tables.dump(tables.load(path), path)
    assert path.read_bytes() == first  # reproducible bytes


def test_import_does_not_load_the_table() -> None:
    code = (
        "import engine.sprouts, engine.sprouts.solver as s, engine.sprouts.tables as t;"
        "assert t.load.cache_info().currsize == 0;"
        "s.outcome('0*2');"
        "assert t.load.cache_info().currsize == 1"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_outcomes_near_bigger_starts_are_consistent() -> None:
    """The table's outcomes near bigger starts were found by search: each position that is
    not on the edge of that zone must win exactly when one of its children (all in the
    table) loses, and the starts agree with the published outcomes."""
    t = tables.load()
    walker = Solver(t)
    for n, depth in t.near.items():
        assert depth >= 1
        assert t.normal[Position.start(n).canonical()] == (NORMAL[n - 1] == "W")
        layer = {lands_of(Position.start(n))}
        for _ in range(depth):
            nxt = set()
            for pos in layer:
                kids = set(walker.children(pos))
                assert t.normal["+".join(pos)] == any(not t.normal["+".join(k)] for k in kids)
                nxt |= kids
            layer = nxt
