"""A move drawn with a finger: paths classified as the legal move of their topology, and
refused, with a code and a place, when they are no move."""

from __future__ import annotations

import itertools
import math
import random
from typing import Any

import numpy as np
import pytest

from engine.core import GameOver, IllegalMove
from engine.sprouts import Game, Move, PathRefused, move_from_path
from engine.sprouts import path as path_module
from engine.sprouts.drawing import _point_seg_dist, _seg_dist, _segments, check_geometry
from engine.sprouts.game import _table
from engine.sprouts.mesh import route_mesh
from engine.sprouts.paper import request_for
from engine.sprouts.path import AT_SPOT, PATH_CODES, THROUGH_SPOT
from engine.sprouts.routing import _Fail

Pts = list[tuple[float, float]]


def _line_game(first: list[float] | None = None) -> Game:
    """Spots 1 (300, 375) and 2 (700, 375) joined straight through spot 4 (500, 375), and
    spot 3 (500, 150) alone above the line: drawn by hand, so the paths below are exact.
    ``first``: the curve from 1 to 4 another way (flat x, y pairs)."""
    record: dict[str, Any] = {
        "kind": "sprouts",
        "v": 1,
        "spots": 3,
        "misere": False,
        "moves": [[1, 2]],
        "drawing": {
            "w": 1000.0,
            "h": 750.0,
            "spots": [[300.0, 375.0], [700.0, 375.0], [500.0, 150.0], [500.0, 375.0]],
            "curves": [
                [1, 4, [300.0, 375.0, 400.0, 375.0, 500.0, 375.0]],
                [4, 2, [500.0, 375.0, 600.0, 375.0, 700.0, 375.0]],
            ],
        },
    }
    if first is not None:
        record["drawing"]["curves"][0][2] = first
    g = Game.from_json(record)
    check_geometry(g.drawing)
    return g


def _via(*pts: tuple[float, float], step: float = 5.0) -> Pts:
    """A polyline through ``pts`` with a point every ``step`` or so (as a finger sends)."""
    out: Pts = [pts[0]]
    for (x0, y0), (x1, y1) in itertools.pairwise(pts):
        n = max(1, math.ceil(math.hypot(x1 - x0, y1 - y0) / step))
        out += [(x0 + (x1 - x0) * k / n, y0 + (y1 - y0) * k / n) for k in range(1, n + 1)]
    return out


def _arc(cx: float, cy: float, r: float, start: float, end: float, n: int = 72) -> Pts:
    """Points on a circle from angle ``start`` to ``end`` (degrees, y down as on screen)."""
    return [
        (cx + r * math.cos(math.radians(start + (end - start) * k / n)),
         cy + r * math.sin(math.radians(start + (end - start) * k / n)))
        for k in range(n + 1)
    ]  # fmt: skip


def _shaken(path: Pts, amount: float, rng: random.Random) -> Pts:
    """A hand's tremor: every point moved up to ``amount`` (the ends too)."""
    return [(x + rng.uniform(-amount, amount), y + rng.uniform(-amount, amount)) for x, y in path]


def _refused(g: Game, start: int, path: Pts) -> PathRefused:
    with pytest.raises(PathRefused) as e:
        move_from_path(g, start, path)
    assert e.value.code in PATH_CODES
    return e.value


# -- which move ------------------------------------------------------------------------------


def test_a_loop_around_a_spot_encloses_it() -> None:
    g = Game(2)
    (x1, y1), (x2, y2) = g.drawing.place(1), g.drawing.place(2)
    # a circle through spot 1 round spot 2, both ways round, from either spot
    r = math.hypot(x2 - x1, y2 - y1)
    up = math.degrees(math.atan2(y1 - y2, x1 - x2))
    assert move_from_path(g, 1, _arc(x2, y2, r, up, up + 360)) == Move(1, 1, (2,))
    assert move_from_path(g, 1, _arc(x2, y2, r, up, up - 360)) == Move(1, 1, (2,))
    assert move_from_path(g, 2, _arc(x1, y1, r, up + 180, up - 180)) == Move(2, 2, (1,))
    # a small loop beside spot 1 encloses nothing
    assert move_from_path(g, 1, _arc(x1 - 60, y1, 60, 0, 360)) == Move(1, 1)
    assert move_from_path(g, 1, _via((x1, y1), (x2, y2))) == Move(1, 2)


def test_the_same_spots_joined_either_way_round_are_different_moves() -> None:
    g = _line_game()
    over_3 = move_from_path(g, 1, _via((300, 375), (300, 80), (700, 80), (700, 375)))
    under_3 = move_from_path(g, 1, _via((300, 375), (300, 260), (700, 260), (700, 375)))
    below = move_from_path(g, 2, _via((700, 375), (700, 500), (300, 500), (300, 375)))
    assert over_3.inside == (3,) and under_3.inside == () and below.inside == ()
    # another shape of the same line: round spot 3 and up into spot 2 from under it
    round_3 = move_from_path(
        g, 1, _via((300, 375), (200, 375), (200, 80), (800, 80), (800, 500), (700, 500), (700, 375))
    )
    assert round_3 == over_3
    assert under_3 != below and {under_3.turn, below.turn} == {"cw", "ccw"}
    assert {over_3, round_3, under_3, below} <= set(g.legal_moves())
    # what the engine draws for each has the same topology: spot 3 enclosed or not
    for move in (over_3, round_3, under_3, below):
        h = g.copy()
        h.play(move)
        enclosed = [f for f in h.drawing.faces if f.outer is not None]
        holes = {s for f in enclosed for w in f.holes for s in h.drawing.walks[w].spots}
        assert (3 in holes) == (move in (over_3, round_3))


def test_a_merge_and_a_loop_from_the_line() -> None:
    g = _line_game()
    assert move_from_path(g, 3, _via((500, 150), (500, 375 - 30), (520, 375 - 40), (700, 375)))\
        == Move(2, 3)  # fmt: skip
    loop_over_4 = _via((500, 150), (350, 300), (350, 420), (650, 420), (650, 300), (500, 150))
    e = _refused(g, 3, loop_over_4)  # crosses the line twice
    assert e.code == "crosses_curve"


def test_noisy_paths_still_classify() -> None:
    rng = random.Random(7)
    g = _line_game()
    paths = {
        Move(1, 2, (3,)): _via((300, 375), (300, 80), (700, 80), (700, 375), step=3),
        Move(3, 3): _arc(560, 150, 60, 180, 180 + 360, n=200),
    }
    for want, path in paths.items():
        for _ in range(20):
            shaky = _shaken(path, 4.0, rng)
            got = move_from_path(g, 3 if want.a == 3 else 1, shaky)
            assert got.a == want.a and got.b == want.b and got.inside == want.inside


def test_a_sloppy_start_on_the_spot_is_forgiven() -> None:
    """The finger lands a little off the spot, even across its own curve, and leaves the
    spot's disc where it means to go."""
    g = _line_game()
    clean = move_from_path(g, 1, _via((300, 375), (300, 80), (700, 80), (700, 375)))
    for first in [(315.0, 390.0), (290.0, 400.0), (325.0, 380.0), (270.0, 360.0)]:
        path = _via(first, (300, 330), (300, 80), (700, 80), (700, 375))
        assert move_from_path(g, 1, path) == clean
    # too far off the spot (its disc is AT_SPOT wide)
    e = _refused(g, 1, _via((340, 390), (340, 330), (300, 80), (700, 80), (700, 375)))
    assert (e.code, e.at) == ("not_at_spot", (340.0, 390.0))


def test_a_start_across_a_curve_that_bends_near_the_spot(monkeypatch: pytest.MonkeyPatch) -> None:
    """The finger lands in the bend of the spot's own curve, crosses it and leaves the disc
    on its other side, where neither the straight line from the spot nor the finger's own
    line reaches without crossing: the line hugging the curve does."""
    hook = [300, 375, 315, 375, 325, 385, 330, 400, 340, 420, 420, 430, 500, 400, 500, 375]
    g = _line_game([float(v) for v in hook])
    hugs: list[int] = []
    real = path_module._Drawn._hug

    def spy(self: Any, spot: int, e: int, x: Any, after: Any) -> Any:
        hugs.append(e)
        return real(self, spot, e, x, after)

    monkeypatch.setattr(path_module._Drawn, "_hug", spy)
    clean = move_from_path(g, 1, _via((300, 375), (300, 80), (700, 80), (700, 375)))
    assert hugs == []
    got = move_from_path(
        g, 1, _via((320, 395), (345, 390), (350, 300), (350, 80), (700, 80), (700, 375))
    )
    assert hugs == [0] and got == clean and got.inside == (3,)


# -- refusals --------------------------------------------------------------------------------


def test_a_crossing_is_refused_where_it_crosses() -> None:
    g = _line_game()
    e = _refused(g, 3, _via((500, 150), (450, 500), (300, 500), (300, 375)))
    assert e.code == "crosses_curve"
    x = 500 - 50 * (375 - 150) / (500 - 150)  # where the first leg meets the line y = 375
    assert e.at == pytest.approx((x, 375.0), abs=0.1)
    assert isinstance(e, IllegalMove) and e.params["at"] == e.at


def test_running_through_a_spot_is_refused() -> None:
    g = _line_game()
    e = _refused(g, 1, _via((300, 375), (500, 150), (700, 375)))
    assert (e.code, e.at, e.params["spot"]) == ("through_spot", (500.0, 150.0), 3)
    # passing just clear of it is fine
    y = 150 - THROUGH_SPOT - 1
    ok = _via((300, 375), (300, y), (700, y), (700, 375))
    assert move_from_path(g, 1, ok).inside == (3,)
    e = _refused(g, 1, _via((300, 375), (300, y + 2), (700, y + 2), (700, 375)))
    assert (e.code, e.at) == ("through_spot", (500.0, 150.0))


def test_spots_without_lives() -> None:
    g = _line_game()
    e = _refused(g, 4, _arc(500, 300, 75, 90, 90 + 360))  # spot 4 has one life: no loop
    assert (e.code, e.at) == ("no_lives", (500.0, 375.0))
    h = Game(2)
    h.play(h.parse_move("1-1"))  # spot 1 has one life left, as has spot 3 on the loop
    h.play(h.moves_between(1, 3)[0])  # and now none
    (x, y), (x2, y2) = h.drawing.place(1), h.drawing.place(2)
    e = _refused(h, 1, _via((x, y), (x2, y2)))
    assert (e.code, e.at, e.params["spot"]) == ("no_lives", (x, y), 1)


def test_the_ends_must_be_at_spots() -> None:
    g = _line_game()
    e = _refused(g, 1, _via((300, 375 - AT_SPOT - 5), (300, 80)))
    assert (e.code, e.at) == ("not_at_spot", (300.0, 375 - AT_SPOT - 5))
    e = _refused(g, 1, _via((300, 375), (300, 80), (900, 80)))
    assert (e.code, e.at) == ("not_at_spot", (900.0, 80.0))
    assert _refused(g, 9, _via((300, 375), (300, 80))).code == "not_at_spot"


def test_a_path_crossing_itself_is_refused() -> None:
    g = _line_game()
    figure = _via(
        (300, 375),
        (300, 200),
        (420, 100),
        (420, 250),
        (250, 150),
        (200, 100),
        (700, 100),
        (700, 375),
    )
    e = _refused(g, 1, figure)
    assert e.code == "self_crossing"


def test_too_short() -> None:
    g = _line_game()
    assert _refused(g, 3, [(500.0, 150.0)]).code == "too_short"
    assert _refused(g, 3, _arc(505, 150, 5, 180, 540)).code == "too_short"
    assert _refused(g, 3, []).code == "too_short"


def test_bad_data_and_an_ended_game() -> None:
    g = _line_game()
    for bad in ([(1.0, float("nan"))], [(1.0, 2.0, 3.0)], "path", [(0.0, 0.0)] * 5000):
        with pytest.raises(IllegalMove) as e:
            move_from_path(g, 1, bad)  # type: ignore[arg-type]
        assert e.value.code == "not_a_move"
    h = Game(1)
    h.play(h.parse_move("1-1"))
    h.play(h.legal_moves()[0])
    assert h.over
    with pytest.raises(GameOver):
        move_from_path(h, 3, _via(h.drawing.place(3), (0, 0)))


# -- the engine's own curves, shaken, read back as their moves ---------------------------------


def _room(line: np.ndarray, g: Game) -> float:
    """How far the routed ``line`` keeps from other curves, spots and itself: a tremor under
    a third of it changes nothing."""
    d = g.drawing
    a, b = line[:-1], line[1:]
    room = [10.0]
    if d.curves:
        segs = _segments(d)[0]
        i = np.repeat(np.arange(len(a)), len(segs))
        j = np.tile(np.arange(len(segs)), len(a))
        dist = _seg_dist(a[i], b[i], segs[j, 0], segs[j, 1])
        inner = (i > 0) & (i < len(a) - 1)  # the stubs at the end spots meet others there
        room.append(float(dist[inner].min()) if inner.any() else 10.0)
    si, sj = np.triu_indices(len(a), 3)
    if len(si):
        room.append(float(_seg_dist(a[si], b[si], a[sj], b[sj]).min()))
    places = np.asarray([(s.x, s.y) for s in d.spots])
    for p in places:
        dist = _point_seg_dist(np.broadcast_to(p, a.shape), a, b)
        away = np.hypot(*(line - p).T).min() > 1e-9
        if away:
            room.append(float(dist.min()))
    return min(room)


@pytest.mark.parametrize(
    ("n", "seed", "plies"),
    [
        (3, 1, 2),
        (5, 2, 4),
        (6, 3, 8),
        (8, 4, 10),
        (12, 5, 20),
        (10, 7, 14),
        (12, 9, 26),
        (7, 11, 9),
    ],
)
def test_every_routed_curve_shaken_reads_back_as_its_move(n: int, seed: int, plies: int) -> None:
    rng = random.Random(seed)
    g = Game(n)
    while not g.over and g.ply < plies:
        g.play(rng.choice(g.legal_moves()))
    assert not g.over
    d = g.drawing
    table = _table(d)
    moves = g.legal_moves()
    rng.shuffle(moves)
    tried = 0
    for m in moves[:25]:
        ch = table.choice(m)
        assert ch is not None
        try:
            r = route_mesh(d, request_for(d, ch))
        except _Fail:
            continue
        line = np.asarray([*r.first, *r.second[1:]])
        amount = _room(line, g) / 3
        shaky = line + np.random.default_rng(seed).uniform(-amount, amount, line.shape)
        shaky[[0, -1]] = line[[0, -1]]
        path = [tuple(p) for p in shaky.tolist()]
        ends = [next(s.number for s in d.spots if (s.x, s.y) == tuple(p)) for p in line[[0, -1]]]
        if rng.random() < 0.5:
            path, ends = path[::-1], ends[::-1]
        assert move_from_path(g, ends[0], path) == m, (g.format_move(m), path)
        # the finger lands and lifts anywhere on the spots' discs
        for k, spot in ((0, ends[0]), (-1, ends[1])):
            r_at = min(
                AT_SPOT,
                *(
                    math.dist(d.place(spot), d.place(s.number)) / 2
                    for s in d.spots
                    if s.number != spot
                ),
            )
            off, th = 0.7 * r_at * math.sqrt(rng.random()), rng.uniform(0, 2 * math.pi)
            x, y = d.place(spot)
            path[k] = (x + off * math.cos(th), y + off * math.sin(th))
        assert move_from_path(g, ends[0], path) == m, (g.format_move(m), path)
        tried += 1
    assert tried >= len(moves[:25]) // 2
