"""Точки pictures: random positions from the engine draw without error at the expected size,
and the things a player looks for are where they should be."""

from __future__ import annotations

import random
from typing import Any

import pytest
from PIL import ImageChops

import engine
import render
from render import dots
from render.common import INK, PAPER, PLAYER, mix
from render.view import View
from tests.render.helpers import at, count, decode

CONFIGS: list[dict[str, Any]] = [
    {"preset": "quick"},
    {"preset": "tournament"},
    {"preset": "modern"},
    {"width": 5, "height": 5},
    {"width": 9, "height": 7, "grounding": True, "scoring": "territory"},
]


def _played(options: dict[str, Any], seed: int, moves: int | None) -> Any:
    g = engine.new("dots", **options)
    return engine.random_playout(g, random.Random(seed), max_moves=moves)


@pytest.mark.parametrize(
    "options", CONFIGS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items())
)
@pytest.mark.parametrize("moves", [0, 7, 160, None])
def test_random_positions_render(options: dict[str, Any], moves: int | None) -> None:
    if moves is None and options.get("preset") in ("tournament", "modern"):
        moves = 900  # a whole random game on the big boards takes too long for a unit test
    g = _played(options, 11, moves)
    views: list[View] = [{}, {"lang": "ru", "players": ["Алиса", "Боб"], "window": [3, 2, 8, 7]}]
    for view in views:
        img = decode(render.board_png(g, view))
        lay = dots.layout(g, view)
        assert img.size == (lay.width, lay.height)
        assert img.width >= 960  # room for the header at full size


def _game_with_captured_dot() -> tuple[Any, Any, tuple[int, int]]:
    for seed in range(200):
        g = _played({"width": 7, "height": 7}, seed, None)
        for cap in g.captures:
            for x, y in sorted(cap.area):
                cell = g.cell(x, y)
                if cell.captured and cell.area == cap.owner:
                    return g, cap, (x, y)
    raise AssertionError("no random 7×7 game with a captured dot")


def test_captured_area_has_the_capturers_fill() -> None:
    g, cap, (x, y) = _game_with_captured_dot()
    lay = dots.layout(g, {})
    img = decode(render.board_png(g, {}))
    cx, cy = lay.xy(x, y)
    off = 0.36 * lay.step  # diagonally off the dot, clear of the grid lines
    expected = mix(PAPER, PLAYER[cap.owner], dots.FILL_ALPHA[cap.owner])
    corners = [at(img, cx + sx * off, cy + sy * off) for sx in (-1, 1) for sy in (-1, 1)]
    assert expected in corners, (corners, expected)
    # The captured dot itself is drawn, faded: its centre is neither the live colour nor paper.
    centre = at(img, cx, cy)
    owner = g.cell(x, y).dot
    assert centre not in (PLAYER[owner], PAPER, expected)
    # An empty point far from any capture is plain paper.
    free = [
        (px, py)
        for px in range(g.width)
        for py in range(g.height)
        if g.cell(px, py).empty and not g.cell(px, py).dead
    ]
    if free:
        fx, fy = lay.xy(*free[0])
        assert at(img, fx + off, fy + off) == PAPER


def test_live_dots_have_their_players_colour_and_shape() -> None:
    g = engine.new("dots", preset="quick")
    g.play(g.parse_move("c3"))
    g.play(g.parse_move("h8"))
    lay = dots.layout(g, {})
    img = decode(render.board_png(g, {"last": False}))
    r = lay.dot_radius
    for move, player in (("c3", 0), ("h8", 1)):
        cx, cy = lay.xy(*_xy(g.parse_move(move)))
        assert at(img, cx, cy) == PLAYER[player]
        # Square (player 1) reaches into its corners, the circle (player 0) does not.
        corner = at(img, cx + 0.82 * r, cy + 0.82 * r)
        assert (corner == PAPER) == (player == 0), corner


def _xy(m: Any) -> tuple[int, int]:
    return (m.x, m.y)


def test_last_move_is_ringed_only_when_asked() -> None:
    g = _played({"preset": "quick"}, 3, 20)
    lay = dots.layout(g, {})
    cx, cy = lay.xy(g.last_move.x, g.last_move.y)
    d = 0.5 * lay.step / 2**0.5  # on the ring, diagonally
    marked = decode(render.board_png(g, {}))
    plain = decode(render.board_png(g, {"last": False}))
    assert at(marked, cx + d, cy + d) == INK
    assert at(plain, cx + d, cy + d) != INK


def test_zone_is_shown_before_the_first_moves() -> None:
    g = engine.new("dots", preset="tournament")
    lay = dots.layout(g, {})
    z = g.zone
    assert z is not None
    inside = lay.xy(z.x + 1, z.y + 1)
    outside = lay.xy(0, 0)
    off = 0.4 * lay.step
    img = decode(render.board_png(g, {}))
    assert at(img, inside[0] + off, inside[1] + off) == mix(PAPER, dots.ZONE_TINT, dots.ZONE_ALPHA)
    assert at(img, outside[0] + off, outside[1] + off) == PAPER
    g.play(engine.dots.Move(z.x + 2, z.y + 2))
    g.play(engine.dots.Move(z.x + 4, z.y + 4))
    assert g.zone is None
    img = decode(render.board_png(g, {}))
    assert at(img, inside[0] + off, inside[1] + off) == PAPER


def test_window_outline() -> None:
    """The keyboard's window is a light band half a step outside its points, in a colour no
    dot, grid line or label uses, and crossing no dot."""
    g = _played({"preset": "quick"}, 4, 60)
    lay = dots.layout(g, {})
    x0, y0 = lay.xy(2, 3)
    x1 = lay.xy(9, 9)[0]
    box = (x0, y0 - lay.step, x1, y0)  # the strip above the window's top row
    without = decode(render.board_png(g, {}))
    with_window = decode(render.board_png(g, {"window": [2, 3, 8, 7]}))
    assert count(without, dots.FRAME, (0, 0, lay.width, lay.height)) == 0
    assert count(with_window, dots.FRAME, box) > lay.step * lay.frame_width  # a band across
    assert min(dots.FRAME) > 120 and dots.FRAME not in (*PLAYER, INK)
    for x in range(lay.cols):  # every dot looks as it did without the frame
        for y in range(lay.rows):
            if g.cell(x, y).dot is not None:
                assert at(with_window, *lay.xy(x, y)) == at(without, *lay.xy(x, y))
    # Nonsense windows are ignored rather than failing the picture.
    decode(render.board_png(g, {"window": "left"}))  # type: ignore[arg-type]  # bad on purpose
    decode(render.board_png(g, {"window": [50, 50, 8, 7]}))


@pytest.mark.parametrize("preset", ["quick", "tournament"])
def test_map_divides_the_board_into_numbered_parts(preset: str) -> None:
    """The map picture: a light line between neighbouring parts, a big light number in each,
    drawn under the dots (every dot and the last-move ring look as without the map)."""
    g = _played({"preset": preset}, 7, 120)
    lay = dots.layout(g, {})
    parts = [[0, 0, 8, 6], [8, 0, 7, 6], [0, 6, 8, 9], [8, 6, 7, 9]]
    plain = decode(render.board_png(g, {}))
    shown = decode(render.board_png(g, {"map": parts}))
    edge = (lay.xy(7, 0)[0] + lay.step // 2) - 1  # the line between parts 1 and 2
    column = shown.crop((edge - 2, lay.xy(0, 1)[1], edge + 3, lay.xy(0, 4)[1]))
    assert any(c == dots.FRAME for _, c in column.getcolors(10_000) or [])
    for x, y, w, h in parts:  # a number in the middle of each part
        ax, ay = lay.xy(x, y)
        bx, by = lay.xy(x + w - 1, y + h - 1)
        middle = (
            ax + (bx - ax) // 4,
            ay + (by - ay) // 4,
            bx - (bx - ax) // 4,
            by - (by - ay) // 4,
        )
        diff = ImageChops.difference(plain.crop(middle), shown.crop(middle)).convert("L")
        changed = diff.point(lambda v: 255 if v else 0).histogram()[255]
        assert changed > lay.step**2, (x, y, changed)
    for px in range(lay.cols):
        for py in range(lay.rows):
            if g.cell(px, py).dot is not None:
                assert at(shown, *lay.xy(px, py)) == at(plain, *lay.xy(px, py))
    decode(render.board_png(g, {"map": "no"}))  # type: ignore[arg-type]  # bad on purpose
    decode(render.board_png(g, {"map": [[1, 2], [90, 90, 8, 7]]}))


def test_turn_is_underlined_in_the_movers_colour() -> None:
    g = engine.new("dots", preset="quick")
    lay = dots.layout(g, {})
    header = (0, 0, lay.width, lay.by - lay.band)
    for mover in (0, 1):
        img = decode(render.board_png(g, {}))
        assert count(img, PLAYER[mover], header) > count(img, PLAYER[1 - mover], header)
        g.play(g.legal_moves()[40])


def test_stop_and_grounding_finish() -> None:
    g = _played({"width": 12, "height": 12, "grounding": True}, 4, 60)
    g.stop(g.turn)
    decode(render.board_png(g, {"lang": "ru"}))
    g.finish_stop()
    decode(render.board_png(g, {"lang": "en"}))
    h = _played({"width": 12, "height": 12, "grounding": True}, 5, 60)
    h.ground(h.turn)
    decode(render.board_png(h, {}))


def test_column_names_follow_the_engine() -> None:
    g = engine.new("dots", preset="modern")
    for x in range(g.width):
        assert g.format_move(engine.dots.Move(x, 0)).rstrip("0123456789") == dots.column_name(x)


def test_the_starting_cross_is_drawn() -> None:
    g = engine.new("dots", preset="modern")
    assert g.ply == 0
    lay = dots.layout(g, {})
    img = decode(render.board_png(g, {}))
    for x, y, player in g.cross_points():
        assert at(img, *lay.xy(x, y)) == PLAYER[player]


def test_a_board_built_dot_by_dot_equals_one_drawn_at_once() -> None:
    """Pictures after each move reuse the board before; the result must not depend on it."""
    g = engine.new("dots", width=8, height=7)
    rng = random.Random(0)
    stepwise = []
    for ply in range(48):
        if ply == 36:
            g.stop(g.turn)  # from here one player places every dot
        legal = g.legal_moves()
        g.play(legal[rng.randrange(len(legal))])
        stepwise.append(render.board_png(g, {}))
    dots._BODIES.clear()
    dots._territory.cache_clear()
    assert render.board_png(g, {}) == stepwise[-1]
    assert len(g.captures) > 0  # the walk crossed captures (territory changes) too
    # The same points without STOP belong to other players: no board may be mixed up.
    same_moves = type(g)(**g.options)
    for m in g.moves[:38]:  # two dots past STOP, the rings still the same
        same_moves.play(m)
    for n, state in enumerate(g.replay()):
        if n == 38:  # g two dots past STOP is now the latest board drawn
            assert dots.territory(state) == dots.territory(same_moves)
            render.board_png(state, {})
            break
    stamped = render.board_png(same_moves, {})
    assert stamped == _fresh(same_moves)
    # The AI's reply comes in the same picture: two new dots stamped at once.
    dots._BODIES.clear()
    h = type(g)(**g.options)
    for m in g.moves[:20]:
        h.play(m)
    render.board_png(h, {})
    h.play(g.moves[20])
    h.play(g.moves[21])
    fresh = type(g)(**g.options)
    for m in g.moves[:22]:
        fresh.play(m)
    assert render.board_png(h, {}) == _fresh(fresh)


def _fresh(g: Any) -> bytes:
    dots._BODIES.clear()
    dots._territory.cache_clear()
    return render.board_png(g, {})
