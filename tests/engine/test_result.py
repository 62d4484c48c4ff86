"""GameResult: one winner, joint winners (three or four players sharing the top score), a
draw; records old and new."""

from __future__ import annotations

import pytest

from engine import BadRecord, GameResult


@pytest.mark.parametrize(
    ("scores", "winner", "winners"),
    [
        ((5, 4), 0, (0,)),
        ((4, 4), None, ()),  # two players level: a draw
        ((3, 3, 0, 0), None, (0, 1)),  # joint winners, the others lost
        ((1, 4, 4), None, (1, 2)),
        ((2, 2, 2, 1), None, (0, 1, 2)),
        ((3, 3, 3), None, ()),  # everyone level: a draw
        ((0, 0, 1, 0), 2, (2,)),
    ],
)
def test_by_scores(scores: tuple[int, ...], winner: int | None, winners: tuple[int, ...]) -> None:
    r = GameResult.by_scores(scores)
    assert (r.winner, r.winners, r.draw) == (winner, winners, not winners)
    assert GameResult.from_json(r.to_json()) == r


def test_records() -> None:
    joint = GameResult.by_scores((3, 3, 0, 0))
    assert joint.to_json() == {"s": [3, 3, 0, 0], "w": None, "r": "end", "ws": [0, 1]}
    assert "ws" not in GameResult.by_scores((3, 1)).to_json()  # as before
    old = {"s": [3, 3, 0, 0], "w": None, "r": "end"}  # a record from before: a draw
    assert GameResult.from_json(old).draw
    assert GameResult.from_json({"s": [1, 0], "w": 0}).winners == (0,)
    for bad in ({**old, "ws": [0]}, {**old, "ws": [0, 0]}, {**old, "ws": [0, 7]}, {**old, "ws": 3}):
        with pytest.raises(BadRecord):
            GameResult.from_json(bad)
    with pytest.raises(ValueError):
        GameResult((3, 1), 0, winners=(1,))
