"""A tiny placeholder game (take 1–3 from a pile; taking the last wins) that stands in for the
conformance suite until the real engines register. Lives in tests only."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Self

from engine.core import BadNotation, BadRecord, Game, GameOver, GameResult, IllegalMove, register


@dataclass(frozen=True, slots=True)
class Take:
    n: int


@register
class Tally(Game[Take]):
    kind = "tally"
    move_type = Take
    PRESETS = {"small": {"pile": 5}}

    def __init__(self, pile: int = 10) -> None:
        self.pile = pile
        self.history: list[int] = []
        self._result = None

    @property
    def players(self) -> int:
        return 2

    @property
    def turn(self) -> int:
        return len(self.history) % 2

    @property
    def options(self) -> dict[str, Any]:
        return {"pile": self.pile + sum(self.history)}

    @property
    def moves(self) -> list[Take]:
        return [Take(n) for n in self.history]

    @property
    def ply(self) -> int:
        return len(self.history)

    @property
    def scores(self) -> tuple[int, ...]:
        if self.pile > 0 or not self.history:
            return (0, 0)
        last = (len(self.history) - 1) % 2
        return (1, 0) if last == 0 else (0, 1)

    def legal_moves(self) -> list[Take]:
        if self.over:
            return []
        return [Take(n) for n in range(1, min(3, self.pile) + 1)]

    def check(self, move: Take) -> None:
        if self.over:
            raise GameOver()
        if not isinstance(move, Take):
            raise IllegalMove("not a move", code="not_a_move")
        if not 1 <= move.n <= min(3, self.pile):
            raise IllegalMove(f"cannot take {move.n}", code="too_many", n=move.n)

    def play(self, move: Take) -> None:
        self.check(move)
        self.pile -= move.n
        self.history.append(move.n)
        if self.pile == 0:
            self._result = GameResult.by_scores(self.scores)

    def parse_move(self, text: str) -> Take:
        t = text.strip()
        if not t.isdigit():
            raise BadNotation(f"not a number: {text!r}")
        return Take(int(t))

    def format_move(self, move: Take) -> str:
        return str(move.n)

    def to_json(self) -> dict[str, Any]:
        start = self.pile + sum(self.history)
        d: dict[str, Any] = {"kind": self.kind, "v": 1, "pile": start, "h": list(self.history)}
        if self._result is not None:
            d["end"] = self._result.to_json()
        return d

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        if data.get("v") != 1:
            raise BadRecord(f"unsupported record version {data.get('v')!r}")
        try:
            g = cls(int(data["pile"]))
            for n in data["h"]:
                g.play(Take(int(n)))
        except (KeyError, TypeError, ValueError) as e:
            raise BadRecord(str(e)) from e
        if "end" in data:
            g._result = GameResult.from_json(data["end"])
        return g
