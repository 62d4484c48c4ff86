"""Рассада pictures, drawn from a stand-in drawing with the engine's documented surface
(tests/render/fakes.py) until the engine's own drawing lands."""

from __future__ import annotations

import itertools
import math
from typing import Any

import pytest
from PIL import ImageChops

import engine
import render
from engine.sprouts import Game as SproutsGame
from render import sprouts
from render.common import INK, PAPER, PLAYER
from render.view import View
from tests.render.fakes import Curve, Drawing, FakeSprouts, Move, Spot, random_sprouts
from tests.render.helpers import at, count, decode


@pytest.mark.parametrize("spots", [1, 2, 5, 12])
@pytest.mark.parametrize("moves", [0, 3, 40])
def test_random_positions_render(spots: int, moves: int) -> None:
    g = random_sprouts(spots, moves, seed=spots * 100 + moves)
    views: list[View] = [{}, {"lang": "ru", "players": ["Аня", "Боря"]}]
    for view in views:
        img = decode(render.board_png(g, view))
        lay, _ = sprouts.layout(g, view)
        assert img.size == (lay.width, lay.height)
        assert img.width >= 960
    if not g.over:
        legal = g.legal_moves()
        decode(render.board_png(g, {"preview": legal[len(legal) // 2]}))


def _two_curves() -> FakeSprouts:
    """Spots 1 and 2 joined by a straight curve through 3, then 1 to 2 again below it
    through 4 (player 1's move, the newest)."""
    g = FakeSprouts(2)
    g.drawing = Drawing(
        [Spot(1, 0, 0, 1), Spot(2, 10, 0, 1), Spot(3, 5, 0, 1), Spot(4, 5, 6, 1)],
        [
            Curve([(0, 0), (5, 0), (10, 0)]),
            Curve([(0, 0), (2, 4), (5, 6), (8, 4), (10, 0)]),
        ],
    )
    g._moves = [Move(1, 2), Move(1, 2)]
    return g


def test_newest_curve_is_in_the_movers_colour_older_ones_in_ink() -> None:
    g = _two_curves()
    _, fit = sprouts.layout(g, {})
    img = decode(render.board_png(g, {}))
    old = fit((2.5, 0))
    assert at(img, *old) == INK
    new = fit((3.5, 5.0))  # the middle of the segment (2, 4)–(5, 6)
    assert at(img, *new) == PLAYER[1]
    plain = decode(render.board_png(g, {"last": False}))
    assert at(plain, *new) == INK


def test_lives_are_arcs_round_the_spot() -> None:
    g = FakeSprouts(1)
    g.drawing = Drawing([Spot(1, 0, 0, 3), Spot(2, 10, 0, 2), Spot(3, 20, 0, 0)], [])
    lay, fit = sprouts.layout(g, {})
    img = decode(render.board_png(g, {}))
    r = lay.spot_radius
    ring = r + 0.28 * r + max(2.0, 0.26 * r) / 2  # the middle of the life arcs
    pale = sprouts.mix(PAPER, sprouts.MUTED, 0.35)

    def arc(spot: int, k: int) -> tuple[int, int, int]:
        x, y = fit((10.0 * (spot - 1), 0.0))
        a = math.radians(-90 + k * 120)
        return at(img, x + ring * math.cos(a), y + ring * math.sin(a))

    assert [arc(1, k) for k in range(3)] == [INK, INK, INK]
    assert [arc(2, k) for k in range(3)] == [INK, INK, pale]
    assert not {arc(3, k) for k in range(3)} & {INK, pale}  # dead: no arcs at all


def test_preview_draws_the_candidate_dashed_in_the_choosers_colour() -> None:
    g = random_sprouts(3, 2, seed=1)
    lay, _ = sprouts.layout(g, {})
    box = (0, sprouts.header_height(lay.u), lay.width, lay.height)
    mover = PLAYER[g.turn]
    before = count(decode(render.board_png(g, {"last": False})), mover, box)
    legal = g.legal_moves()
    shown = count(decode(render.board_png(g, {"preview": legal[0], "last": False})), mover, box)
    assert shown > before + 50
    # A move that cannot be played is not previewed; the picture still comes.
    same = count(decode(render.board_png(g, {"preview": Move(99, 98), "last": False})), mover, box)
    assert same == before


def test_dashes_cut_a_line_into_pieces_of_the_asked_length() -> None:
    pieces = sprouts._dashes([(0.0, 0.0), (10.0, 0.0), (10.0, 10.0)], 3.0, 2.0)
    lengths = [sum(math.dist(a, b) for a, b in itertools.pairwise(p)) for p in pieces]
    assert lengths[:-1] == pytest.approx([3.0] * (len(lengths) - 1))
    assert sum(lengths) == pytest.approx(20 * 3 / 5, abs=3.0)
    assert pieces[1][0] == pytest.approx((5.0, 0.0))


def test_previews_of_one_position_share_its_layout_and_inked_paper() -> None:
    """Flipping between previews moves nothing that is there: each draws the position's
    spots and curves where they are (one inked paper, drawn once) and only its candidate;
    the inked layer cached gives the same pixels as a picture drawn from nothing."""
    g = engine.new("sprouts", spots=3)
    for _ in range(2):
        g.play(g.legal_moves()[0])
    # two joins of two spots (a loop may be previewed tidied: see the test after this one)
    joins = [m for m in g.legal_moves() if m.a != m.b]
    first, second = joins[0], joins[-1]
    strokes: list[int] = []
    real = sprouts._stroke_into

    def counting(canvas: Any, lines: Any, width: float, fg: Any) -> None:
        strokes.append(len(lines))
        real(canvas, lines, width, fg)

    sprouts._inked.clear()
    sprouts._stroke_into = counting  # type: ignore[assignment]
    try:
        one = render.board_png(g, {"preview": first})
        inked = len(strokes)
        two = render.board_png(g, {"preview": second})
        assert len(strokes) == inked + 2  # only the other candidate and its ring, dashed
        sprouts._inked.clear()
        fresh = render.board_png(g, {"preview": second})
    finally:
        sprouts._stroke_into = real  # type: ignore[assignment]
    assert decode(two).tobytes() == decode(fresh).tobytes()
    # The spots no candidate touches: the same pixels in both previews.
    frames = []
    for m in (first, second):
        trial = g.copy()
        trial.play(m)
        sketch = sprouts.sketch_of(trial.drawing)
        assert sketch is not None
        frames.append(sprouts.preview_frame(g.drawing, sketch, {})[1])
    assert vars(frames[0]) == vars(frames[1])
    a, b = decode(one), decode(two)
    r = math.floor(sprouts.layout(g, {})[0].spot_radius * 0.7)  # a spot's body: no curve
    ends = {first.a, first.b, second.a, second.b}
    untouched = [s for s in g.drawing.spots if s.number not in ends]
    assert untouched
    for s in untouched:
        x, y = (round(v) for v in frames[0]((s.x, s.y)))
        box = (x - r, y - r, x + r, y + r)
        assert a.crop(box).tobytes() == b.crop(box).tobytes()


def test_a_lesson_pages_mark_is_drawn_as_its_preview() -> None:
    """A Рассада lesson page points at a move not yet played (``view["marks"]``, notation):
    it is drawn exactly as the keyboard's preview of that move; a mark that is no move here,
    or no mark, draws the game as it is, and a preview of the view's own comes first."""
    g = SproutsGame(2)
    plain = decode(render.board_png(g, {}))
    marked = decode(render.board_png(g, {"marks": ["1-2"]}))
    previewed = decode(render.board_png(g, {"preview": g.parse_move("1-2")}))
    assert ImageChops.difference(marked, previewed).getbbox() is None
    assert ImageChops.difference(marked, plain).getbbox() is not None
    for nothing in (["1-3"], ["no move"], []):
        drawn = decode(render.board_png(g, {"marks": nothing}))
        assert ImageChops.difference(drawn, plain).getbbox() is None, nothing
    loop = decode(render.board_png(g, {"marks": ["1-2"], "preview": g.parse_move("1-1")}))
    own = decode(render.board_png(g, {"preview": g.parse_move("1-1")}))
    assert ImageChops.difference(loop, own).getbbox() is None


@pytest.mark.parametrize(("spots", "moves"), [(2, 0), (3, 2), (4, 5)])
def test_a_previewed_move_never_draws_its_new_spot_over_another(spots: int, moves: int) -> None:
    """A loop round an empty inside is routed thin, so its spot would sit on the one it
    leaves: such a preview shows the move's tidied drawing, as it will be once played."""
    g = engine.new("sprouts", spots=spots)
    for _ in range(moves):
        g.play(g.legal_moves()[-1])
    for candidate in g.legal_moves():
        trial = g.copy()
        trial.play(candidate)
        drawing, lay, fit, _, spot, _ = sprouts.scene(g, trial, {})
        assert spot is not None and spot is drawing.spots[-1]
        new = fit((float(spot.x), float(spot.y)))
        gaps = [math.dist(new, fit((float(s.x), float(s.y)))) for s in drawing.spots[:-1]]
        assert min(gaps) >= sprouts.CROWDED * lay.spot_radius, g.format_move(candidate)
