"""Hand-built positions for each rule and for the cases Dots engines have got wrong."""

from __future__ import annotations

import pytest

from engine import BadOptions, GameOver, IllegalMove
from engine.dots import ILLEGAL_CODES, Game, Move, Zone

from .helpers import board, dead, diamond, moves, play
from .reference import Referee


def agrees_with_referee(game: Game) -> None:
    """Replay the game on the independent referee: same scores and the same dead points
    (a player's own dot on a ring or just inside it is the same position)."""
    ref = Referee(game.width, game.height)
    player = 0
    for m in game.moves:
        ref.play((m.x, m.y), player)
        player = 1 - player
    assert ref.scores() == game.captured_dots
    mine = {p: a for p, a in dead(game).items() if game.cell(*p).dot != a}
    theirs = {p: a for p, a in ref.area.items() if ref.dot.get(p) != a}
    assert mine == theirs


def test_tightest_ring_does_not_spread_past_an_inner_wall() -> None:
    g = board(7, 6)
    wall = [(1, 1), (2, 1), (3, 1), (4, 1), (5, 1), (1, 2), (3, 2), (5, 2), (1, 3), (3, 3)]
    wall += [(5, 3), (1, 4), (2, 4), (4, 4), (5, 4)]
    play(g, a=wall, b=[(2, 2)])
    play(g, a=[(3, 4)])
    assert g.scores == (1, 0)
    assert dead(g) == {(2, 2): 0, (2, 3): 0}
    assert g.is_legal(Move(4, 2)) or g.turn == 0
    assert [set(b.area) for b in g.bases] == [{(4, 2), (4, 3)}]
    agrees_with_referee(g)


def test_three_surroundings_sharing_borders() -> None:
    g = board(7, 7)
    left = [(1, 1), (2, 1), (3, 1), (3, 2), (3, 3), (2, 3), (1, 3), (1, 2)]
    play(g, a=left, b=[(2, 2)])
    assert g.scores == (1, 0)
    play(g, a=[(4, 1), (5, 1), (5, 3), (4, 3), (5, 2)], b=[(4, 2)])
    assert g.scores == (2, 0)
    play(g, a=[(3, 4), (3, 5), (2, 5), (1, 5), (1, 4)], b=[(2, 4)])
    assert g.scores == (3, 0)
    areas = [c.area for c in g.captures]
    assert areas == [frozenset({(2, 2)}), frozenset({(4, 2)}), frozenset({(2, 4)})]
    # The tightest rings are diamonds (corners are not needed) sharing a border dot.
    assert (3, 2) in g.captures[0].ring and (3, 2) in g.captures[1].ring
    assert (2, 3) in g.captures[0].ring and (2, 3) in g.captures[2].ring
    for p in [(3, 2), (3, 3), (2, 3), (1, 3)]:  # shared border dots stay live
        assert g.cell(*p).dot == 0 and not g.cell(*p).dead
    agrees_with_referee(g)


def test_one_move_closes_three_rings() -> None:
    # Four diagonal arms round (4, 2), joined below; the dot there closes three diamonds.
    g = board(8, 7)
    play(g, a=[(3, 1), (5, 1), (5, 3), (3, 3), (6, 2), (2, 2), (4, 4)], b=[(5, 2), (3, 2), (4, 3)])
    assert g.scores == (0, 0) and g.bases == ()
    play(g, a=[(4, 2)])
    assert g.scores == (3, 0)
    assert {c.area for c in g.captures} == {
        frozenset({(5, 2)}),
        frozenset({(3, 2)}),
        frozenset({(4, 3)}),
    }
    assert all(c.ply == g.ply - 1 and (4, 2) in c.ring for c in g.captures)
    agrees_with_referee(g)


def test_several_rings_closed_while_dots_are_freed() -> None:
    g = Game(7, 9)
    moves(g, [(3, 3), (3, 2), (1, 1), (2, 3), (0, 3), (4, 3), (6, 6), (3, 4)])
    assert g.scores == (0, 1)
    moves(g, [(3, 1), (6, 0), (2, 2), (6, 1), (4, 2), (6, 2), (1, 3), (6, 3), (5, 3), (6, 5)])
    moves(g, [(2, 4), (5, 8), (4, 4), (0, 8), (4, 6), (3, 6), (3, 7), (6, 8), (2, 6), (1, 8)])
    moves(g, [(3, 5)])  # frees A's (3, 3), takes B's ring and the B dot below in one move
    assert g.scores == (5, 0)
    assert [len(c.area) for c in g.captures[-2:]] == [1, 5]
    assert g.cell(3, 3).dot == 0 and not g.cell(3, 3).captured
    agrees_with_referee(g)


def test_onion_of_nested_captures() -> None:
    g = board(11, 11)
    play(g, b=[(5, 5)], a=diamond(5, 5, 1))
    assert g.scores == (1, 0)
    play(g, b=diamond(5, 5, 2))
    assert g.scores == (0, 4)  # A's four captured, B's dot freed
    play(g, a=diamond(5, 5, 3))
    assert g.scores == (9, 0)  # B's eight + B's inner dot; A's four freed
    play(g, b=diamond(5, 5, 4))
    assert g.scores == (0, 16)
    assert g.cell(5, 5).dot == 1 and g.cell(5, 5).area == 1
    assert all(g.cell(*p).area == 1 for p in diamond(5, 5, 3))
    agrees_with_referee(g)


def square(x0: int, y0: int, x1: int, y1: int) -> list[tuple[int, int]]:
    return [
        (x, y)
        for x in range(x0, x1 + 1)
        for y in range(y0, y1 + 1)
        if x in (x0, x1) or y in (y0, y1)
    ]


def test_hole_inside_a_capture_is_dead_not_an_empty_base() -> None:
    g = board(9, 9)
    play(g, a=diamond(4, 4, 1))
    assert len(g.bases) == 1
    play(g, a=square(1, 1, 7, 7), b=[(2, 2)])
    assert g.scores == (1, 0) and g.bases == ()
    assert g.cell(4, 4).dead and g.cell(4, 4).area == 0 and not g.is_legal(Move(4, 4))
    inside = {(x, y) for x in range(2, 7) for y in range(2, 7)}
    assert dead(g) == dict.fromkeys(inside - set(diamond(4, 4, 1)), 0) | {
        p: 0 for p in diamond(4, 4, 1)
    }
    agrees_with_referee(g)


def test_hole_of_an_island_joined_to_the_ring_is_dead_too() -> None:
    g = board(9, 9)
    play(g, a=[*diamond(4, 4, 1), (4, 2)])  # the island hangs from the top of the big ring
    play(g, a=square(1, 1, 7, 7), b=[(2, 5)])
    assert g.scores == (1, 0) and g.bases == ()
    assert g.cell(4, 4).dead and g.cell(4, 4).area == 0
    # The tightest ring cuts in through the island's stalk, leaving (4, 1) outside.
    assert (4, 2) in g.captures[0].ring and not g.cell(4, 1).dead
    agrees_with_referee(g)


def test_same_turn_capture_of_an_intruder_in_a_nested_base() -> None:
    g = board(9, 9)
    play(g, a=square(1, 1, 7, 7))
    play(g, a=diamond(4, 4, 1))  # a small empty ring inside a big one
    assert len(g.bases) == 2
    play(g, b=[(4, 4)])
    assert g.scores == (1, 0)
    assert dead(g) == {(4, 4): 0}  # the tightest empty ring catches it
    assert len(g.bases) == 1
    play(g, b=[(2, 2)])
    assert g.scores == (2, 0)  # the big ring catches the next one, with all inside
    assert g.cell(3, 4).dead and g.cell(6, 6).dead and g.bases == ()
    agrees_with_referee(g)


def test_symmetric_positions_give_symmetric_results() -> None:
    pts = [(2, 1), (2, 3), (1, 2), (3, 2), (3, 3), (4, 3), (2, 2)]
    for flip in (lambda x, y: (x, y), lambda x, y: (6 - x, y), lambda x, y: (y, x)):
        g = board(7, 7)
        play(g, a=[flip(*p) for p in [(2, 1), (1, 2), (3, 2)]], b=[flip(*p) for p in pts[4:6]])
        play(g, b=[flip(2, 2)])
        play(g, a=[flip(2, 3)])
        assert g.scores == (1, 0)
        assert dead(g) == {flip(2, 2): 0}


def test_territory_scoring_counts_the_area() -> None:
    g = board(7, 6, scoring="territory")
    wall = [(1, 1), (2, 1), (3, 1), (4, 1), (5, 1), (1, 2), (5, 2), (1, 3), (5, 3), (1, 4)]
    wall += [(2, 4), (4, 4), (5, 4)]
    play(g, a=wall, b=[(2, 2)])
    play(g, a=[(3, 4)])
    assert g.captured_dots == (1, 0)
    assert g.scores == (6, 0)  # the six points inside, empty or not


def test_grounding_through_dots_and_captured_area_not_diagonals() -> None:
    g = board(6, 6, grounding=True)
    # A: (0,2)-(1,2) orthogonal from the edge; (2,1), (3,2), (2,3) hang on (1,2) diagonally.
    play(g, a=[(0, 2), (1, 2), (2, 1), (3, 2)])
    assert g.ungrounded(0) == {(2, 1), (3, 2)}
    play(g, b=[(2, 2)], a=[(2, 3)])  # the diamond captures (2, 2): its area joins them
    assert g.scores == (1, 0)
    assert g.ungrounded(0) == frozenset()
    assert {(0, 2), (1, 2), (2, 1), (3, 2), (2, 3)} <= g.grounded(0)


def test_grounding_with_a_hole_enclosed_by_grounded_dots() -> None:
    g = board(7, 7, grounding=True)
    ring = [(x, y) for x in range(1, 6) for y in range(1, 6) if x in (1, 5) or y in (1, 5)]
    play(g, a=[(0, 3), *ring, (3, 3)], b=[(6, 0)])
    assert len(g.bases) == 1
    assert g.ungrounded(0) == {(3, 3)}  # empty hole points do not ground
    assert g.turn == 1
    play(g, b=[(6, 1)])
    res = g.ground(0)
    assert res.reason == "ground" and g.over
    b_caught = g.captured_dots[1]
    assert res.scores == (0, b_caught + 1)
    assert g.scores == res.scores and res.winner == 1


def test_ground_needs_the_variant_and_the_turn() -> None:
    g = Game(6, 6)
    with pytest.raises(IllegalMove) as e:
        g.ground(0)
    assert e.value.code == "no_grounding"
    g = Game(6, 6, grounding=True)
    with pytest.raises(IllegalMove) as e:
        g.ground(1)
    assert e.value.code == "not_your_turn"


def test_stop_phase() -> None:
    g = moves(Game(7, 7), [(3, 3), (3, 2), (2, 3)])
    assert g.turn == 1
    early = g.copy()
    early.stop(0, now=0.0)  # on the other player's turn: nothing ties STOP to a turn
    assert early.stopped_by == 0 and early.turn == 1 and early.deadline == 180.0
    g.stop(1, now=1000.0)
    assert g.stopped_by == 1 and g.deadline == 1180.0 and g.stop_ply == 3
    assert not g.expired(1179.9) and g.expired(1180.0)
    assert g.turn == 0
    moves(g, [(4, 3), (3, 4), (2, 2)])  # A moves alone
    assert g.turn == 0 and g.cell(2, 2).dot == 0 and g.ply == 6
    with pytest.raises(IllegalMove) as e:
        g.stop(0)
    assert e.value.code == "already_stopped"
    back = Game.from_json(g.to_json())
    assert back.deadline == 1180.0 and back.turn == 0 and back.stopped_by == 1
    states = [s.to_json() for s in g.replay()]
    assert len(states) == 7 and "stop" not in states[3 - 1] and states[3]["stop"] == [3, 1, 1180.0]
    res = g.finish_stop()
    assert res.reason == "stop" and res.winner is None and g.over
    with pytest.raises(GameOver):
        g.finish_stop()


def test_finish_stop_needs_a_stop_and_captures_decide() -> None:
    g = Game(5, 5)
    with pytest.raises(IllegalMove) as e:
        g.finish_stop()
    assert e.value.code == "not_stopped"
    g = moves(Game(5, 5), [(2, 1), (2, 2), (1, 2)])
    g.stop(1)
    assert g.deadline is None
    moves(g, [(3, 2), (2, 3)])  # A closes the ring alone
    assert g.scores == (1, 0)
    assert g.finish_stop().winner == 0


def test_first_move_zone() -> None:
    g = Game.preset("tournament")
    assert (g.width, g.height) == (38, 31)
    z = g.zone
    assert z is not None and (z.x, z.y, z.width, z.height) == (15, 8, 8, 15)
    assert len(g.legal_moves()) == 120
    with pytest.raises(IllegalMove) as e:
        g.play(Move(0, 0))
    assert e.value.code == "outside_zone"
    g.play(Move(15, 8))
    assert g.zone is not None and not g.is_legal(Move(14, 8)) and g.is_legal(Move(22, 22))
    g.play(Move(22, 22))
    assert g.zone is None and g.is_legal(Move(0, 0)) and len(g.legal_moves()) == 38 * 31 - 2


def test_zone_sizes_are_options() -> None:
    g = Game(9, 9, start="zone", zone_width=3, zone_height=2)
    assert len(g.legal_moves()) == 6 and g.zone == Zone(3, 3, 3, 2)
    assert Game(9, 9, start="zone").zone.width == 8  # type: ignore[union-attr]
    with pytest.raises(BadOptions):
        Game(9, 9, start="zone", zone_width=10)
    with pytest.raises(BadOptions):
        Game(9, 9, start="zone", zone_width=1, zone_height=1)


def test_central_cross() -> None:
    g = Game.preset("modern")
    assert (g.width, g.height, g.turn, g.ply) == (39, 32, 0, 0)
    assert [(x, y, p) for x, y, p in g.cross_points()] == [
        (18, 15, 0),
        (19, 16, 0),
        (19, 15, 1),
        (18, 16, 1),
    ]
    assert g.cell(18, 15).dot == 0 and g.cell(18, 16).dot == 1
    assert len(g.legal_moves()) == 39 * 32 - 4
    assert "AB[sp][tq]AW[tp][sq]" in g.to_sgf()


def test_options_presets_and_bad_options() -> None:
    assert Game.preset("quick").options == {"width": 15, "height": 15, "start": "free"}
    for bad in (
        {"width": 4},
        {"height": 33},
        {"width": 40},
        {"start": "spiral"},
        {"scoring": "points"},
        {"grounding": "yes"},
    ):
        with pytest.raises(BadOptions):
            Game(**bad)  # type: ignore[arg-type]
    g = Game(9, 7, start="zone", zone_width=3, zone_height=3, grounding=True, scoring="territory")
    assert Game(**g.options).to_json() == g.to_json()


def test_agreement_and_full_board_end_by_scores() -> None:
    g = moves(Game(5, 5), [(2, 1), (2, 2), (1, 2), (0, 0), (3, 2), (4, 4), (2, 3)])
    assert g.scores == (1, 0)
    res = g.agree()
    assert res.reason == "agreement" and res.winner == 0
    g = Game(5, 5)
    while not g.over:
        g.play(g.legal_moves()[0])
    assert g.result is not None and g.result.reason == "end" and g.legal_moves() == []


def test_illegal_moves_have_codes_with_messages() -> None:
    g = moves(Game(7, 5), [(2, 2), (2, 1), (6, 4), (1, 2), (6, 0), (3, 2), (5, 4), (2, 3)])
    g.play(Move(0, 0))
    g.play(Move(0, 4))
    cases = [Move(9, 9), Move(0, 0), "h1", None, Move(-1, 0)]
    seen = set()
    for m in cases:
        with pytest.raises(IllegalMove) as e:
            g.play(m)  # type: ignore[arg-type]
        seen.add(e.value.code)
        ILLEGAL_CODES[e.value.code].format(**e.value.params)
    assert {"off_board", "occupied", "not_a_move"} <= seen
    g2 = moves(Game(7, 5), [(2, 2), (2, 1), (6, 4), (1, 2), (6, 0), (3, 2), (0, 4), (2, 3)])
    with pytest.raises(IllegalMove) as e:
        g2.play(Move(2, 2))
    # (2, 2) holds a captured dot: occupied; an empty captured point is a dead point.
    assert e.value.code == "occupied"


def test_empty_captured_point_is_dead() -> None:
    g = board(7, 6)
    wall = [(1, 1), (2, 1), (3, 1), (4, 1), (5, 1), (1, 2), (5, 2), (1, 3), (5, 3), (1, 4)]
    wall += [(2, 4), (4, 4), (5, 4)]
    play(g, a=wall, b=[(2, 2)])
    play(g, a=[(3, 4)])
    assert g.turn == 1
    with pytest.raises(IllegalMove) as e:
        g.play(Move(3, 3))
    assert e.value.code == "dead_point"
    ILLEGAL_CODES[e.value.code].format(**e.value.params)


def test_agree_lets_the_scores_decide_or_draws() -> None:
    caught = [(2, 1), (0, 0), (1, 2), (4, 4), (3, 2), (0, 4), (2, 3), (2, 2)]  # 1:0
    g = moves(Game(5, 5), caught)
    assert g.agree().winner == 0
    g = moves(Game(5, 5), caught)
    res = g.agree(draw=True)
    assert res.winner is None and res.reason == "agreement" and res.scores == (1, 0)
    back = Game.from_sgf(g.to_sgf())
    assert back.result == res and Game.from_json(g.to_json()).result == res
