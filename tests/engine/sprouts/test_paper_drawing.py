"""The drawing on its own: what it derives (faces, walks, the position) and the exact check."""

from __future__ import annotations

import pytest

from engine.sprouts.drawing import Curve, Drawing, DrawingError, check_geometry
from engine.sprouts.position import Position


def _diamond(third: tuple[float, float]) -> Drawing:
    """Spot 1 with a loop through spot 2, and a third spot inside or outside the loop."""
    loop = [
        Curve(1, 2, ((100.0, 100.0), (200.0, 0.0), (300.0, 100.0))),
        Curve(2, 1, ((300.0, 100.0), (200.0, 200.0), (100.0, 100.0))),
    ]
    return Drawing([(100.0, 100.0), (300.0, 100.0), third], loop, 600.0, 400.0)


def test_a_path_gives_one_region() -> None:
    d = Drawing(
        [(100.0, 100.0), (300.0, 100.0), (200.0, 100.0)],
        [
            Curve(1, 3, ((100.0, 100.0), (150.0, 100.0), (200.0, 100.0))),
            Curve(3, 2, ((200.0, 100.0), (250.0, 100.0), (300.0, 100.0))),
        ],
    )
    check_geometry(d)
    p = d.position
    assert len(p.regions) == 1
    (region,) = p.regions
    assert len(region) == 1 and sorted(region[0]) == [1, 2, 3, 3]
    assert p.canonical() == Position.parse("1a1a").canonical()


def test_a_loop_splits_the_plane_and_knows_what_it_encloses() -> None:
    inside, outside = _diamond((200.0, 100.0)), _diamond((500.0, 100.0))
    for d in (inside, outside):
        check_geometry(d)
        assert len(d.faces) == 2
        assert d.position.canonical() == Position.parse("0.AB|AB").canonical()
    # the same game, but not the same picture on paper
    assert inside.plane_key() != outside.plane_key()
    bounded = [f for f in inside.faces if f.outer is not None]
    assert [inside.walks[w].spots for w in bounded[0].holes] == [(3,)]


def test_enlarging_keeps_the_picture() -> None:
    d = _diamond((200.0, 100.0))
    big = d.scaled(1.5)
    check_geometry(big)
    assert big.plane_key() == d.plane_key() and big.width == 900.0


def test_crossing_curves_are_caught() -> None:
    d = Drawing(
        [(100.0, 100.0), (300.0, 100.0), (200.0, 0.0), (200.0, 200.0)],
        [
            Curve(1, 2, ((100.0, 100.0), (300.0, 100.0))),
            Curve(3, 4, ((200.0, 0.0), (200.0, 200.0))),
        ],
    )
    with pytest.raises(DrawingError):
        check_geometry(d)


def test_a_curve_too_close_to_a_spot_is_caught() -> None:
    d = Drawing(
        [(100.0, 100.0), (300.0, 100.0), (200.0, 104.0)],
        [Curve(1, 2, ((100.0, 100.0), (300.0, 100.0)))],
    )
    with pytest.raises(DrawingError):
        check_geometry(d)


def test_curves_too_close_are_caught() -> None:
    d = Drawing(
        [(100.0, 100.0), (300.0, 100.0), (100.0, 101.0), (300.0, 101.0)],
        [
            Curve(1, 2, ((100.0, 100.0), (300.0, 100.0))),
            Curve(3, 4, ((100.0, 101.0), (300.0, 101.0))),
        ],
    )
    with pytest.raises(DrawingError):
        check_geometry(d)


def test_json_round_trip_and_bad_data() -> None:
    d = _diamond((200.0, 100.0))
    back = Drawing.from_json(d.to_json())
    assert back.to_json() == d.to_json() and back.plane_key() == d.plane_key()
    bad = d.to_json()
    bad["curves"][0][2][0] = 101.0  # no longer starts at its spot
    with pytest.raises(DrawingError):
        Drawing.from_json(bad)
    with pytest.raises(DrawingError):
        Drawing.from_json({"spots": [[0, 0]], "curves": [[1, 5, [0, 0, 1, 1]]], "w": 1, "h": 1})
