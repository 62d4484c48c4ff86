"""The shipped tables, loaded on first use.

* the nimber of every land reachable from the start with up to ``spots`` spots;
* the misère outcome of every whole position reachable with up to ``misere_spots`` spots;
* the normal-play outcome of every whole position within ``near[n]`` moves of the ``n``-spot
  start, so that the AI's first moves in bigger games need no long search.

``python -m engine.sprouts.gen_tables`` writes them. Keys are canonical keys, so a change of
the canonical form makes them stale: the tests regenerate part of the tables and compare.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

PATH = Path(__file__).with_name("tables.json.gz")  # package data, next to this module
VERSION = 1


class TableError(RuntimeError):
    """The shipped table is of another version."""


@dataclass(frozen=True)
class Tables:
    spots: int = 0
    misere_spots: int = 0
    near: dict[int, int] = field(default_factory=dict)  # start n -> moves from it covered
    nimbers: dict[str, int] = field(default_factory=dict)
    misere: dict[str, bool] = field(default_factory=dict)  # whole position key -> mover wins
    normal: dict[str, bool] = field(default_factory=dict)  # the same, normal play, near starts


def nimber(key: str) -> int | None:
    """The shipped nimber of a land, or None when the land is not in the table."""
    return load().nimbers.get(key)


def misere(lands: Iterable[str]) -> bool | None:
    """The shipped misère outcome (True: the mover wins) of a whole position given as its
    sorted land keys, or None when it is not in the table."""
    return load().misere.get("+".join(lands))


@cache
def load(path: Path = PATH) -> Tables:
    """The tables in ``path`` (read once per process; empty when the file is missing)."""
    try:
        with gzip.open(path, "rt", encoding="ascii") as f:
            data = json.load(f)
    except FileNotFoundError:
        return Tables()
    if data.get("v") != VERSION:
        raise TableError(f"{path} has table version {data.get('v')!r}, expected {VERSION}")
    return Tables(
        spots=data["spots"],
        misere_spots=data["misere_spots"],
        near={int(n): d for n, d in data.get("near", {}).items()},
        nimbers={key: int(n) for n, keys in data["nimbers"].items() for key in keys},
        misere=_outcomes(data["misere"]),
        normal=_outcomes(data.get("normal", {})),
    )


def _outcomes(groups: dict[str, list[str]]) -> dict[str, bool]:
    return {key: w == "W" for w, keys in groups.items() for key in keys}


def _grouped(outcomes: dict[str, bool]) -> dict[str, list[str]]:
    groups: dict[str, list[str]] = {"L": [], "W": []}
    for key, win in outcomes.items():
        groups["W" if win else "L"].append(key)
    return {w: sorted(keys) for w, keys in groups.items()}


def dump(tables: Tables, path: Path = PATH) -> None:
    """Write tables: keys grouped by value and sorted, so the file is reproducible."""
    nimbers: dict[str, list[str]] = {}
    for key, n in tables.nimbers.items():
        nimbers.setdefault(str(n), []).append(key)
    data = {
        "v": VERSION,
        "spots": tables.spots,
        "misere_spots": tables.misere_spots,
        "near": {str(n): d for n, d in sorted(tables.near.items())},
        "nimbers": {n: sorted(keys) for n, keys in sorted(nimbers.items())},
        "misere": _grouped(tables.misere),
        "normal": _grouped(tables.normal),
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    with gzip.GzipFile(path, "wb", mtime=0) as f:
        f.write(json.dumps(data, separators=(",", ":")).encode("ascii"))
