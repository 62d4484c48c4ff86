"""The empty ring of the tournament rules (comment 1): a dot placed into an empty ring makes
it a capturing ring at the moment of the owner's next move. The engine credits the capture
at once (the same scores as the established engines), except where that move never comes:
the intruder fills the last free point, or the owner has called STOP (before the intrusion,
or right after it, instead of moving)."""

from __future__ import annotations

from engine.dots import Game, Move

from .helpers import moves

# Scenario 1 of the reference: A's empty diamond round (2, 2) on 5×5, B to move.
DIAMOND = [(2, 1), (0, 0), (1, 2), (4, 4), (3, 2), (0, 4), (2, 3)]
# 6×5 filled without a capture so that (2, 2), inside A's diamond, is the last free point
# and B is to move (found by a seeded random fill).
FILLED = [
    (2, 1), (4, 1), (1, 2), (5, 0), (3, 2), (4, 4), (2, 3), (1, 4), (5, 4), (5, 1), (2, 4),
    (0, 0), (3, 3), (4, 3), (1, 1), (0, 2), (3, 0), (0, 4), (0, 1), (4, 0), (4, 2), (3, 1),
    (1, 0), (0, 3), (5, 3), (2, 0), (3, 4), (1, 3), (5, 2),
]  # fmt: skip


def test_intruder_caught_when_the_owner_moves_again() -> None:
    g = moves(Game(5, 5), [*DIAMOND, (2, 2)])
    assert g.scores == (1, 0) and g.cell(2, 2).captured
    (cap,) = g.captures
    assert cap.intrusion and cap.credited == g.ply


def test_intruder_on_the_last_free_point_is_not_caught() -> None:
    g = moves(Game(6, 5), FILLED)
    assert g.legal_moves() == [Move(2, 2)] and g.turn == 1 and g.bases
    g.play(Move(2, 2))
    assert g.over and g.result is not None and g.result.reason == "end"
    assert g.scores == (0, 0) and not g.captures and not g.cell(2, 2).captured
    assert g.result.winner is None
    back = Game.from_json(g.to_json())
    assert back.scores == (0, 0) and Game.from_sgf(g.to_sgf()).scores == (0, 0)


def test_intruder_with_free_points_left_is_caught() -> None:
    """With free points left the owner still has a move: the capture counts."""
    g = moves(Game(6, 5), FILLED[:-2])
    assert len(g.legal_moves()) == 3 and g.turn == 1
    g.play(Move(2, 2))
    assert g.scores == (1, 0)


def test_intruder_moving_alone_after_the_owners_stop_is_not_caught() -> None:
    g = moves(Game(5, 5), DIAMOND)
    g.stop(0, now=0.0)  # A stops on B's turn; B moves alone
    g.play(Move(2, 2))
    assert g.scores == (0, 0) and not g.cell(2, 2).captured and g.cell(2, 2).dot == 1
    assert Game.from_json(g.to_json()).scores == (0, 0)
    assert [s.scores for s in g.replay()][-1] == (0, 0)
    assert Game.from_sgf(g.to_sgf()).scores == (0, 0)
    assert g.finish_stop().winner is None


def test_owners_stop_right_after_the_intrusion_sets_the_intruder_free() -> None:
    g = moves(Game(5, 5), [*DIAMOND, (2, 2)])
    assert g.scores == (1, 0)
    g.stop(0, now=0.0)  # instead of A's next move
    assert g.scores == (0, 0) and g.cell(2, 2).dot == 1 and not g.cell(2, 2).dead
    assert g.turn == 1
    assert Game.from_json(g.to_json()).scores == (0, 0)
    assert Game.from_sgf(g.to_sgf()).scores == (0, 0)
    assert [s.scores for s in g.replay()][-1] == (0, 0)


def test_a_stop_after_the_owners_next_move_keeps_the_capture() -> None:
    g = moves(Game(5, 5), [*DIAMOND, (2, 2), (4, 0)])  # A moved: the capture is credited
    g.stop(1, now=0.0)
    assert g.scores == (1, 0)
    g = moves(Game(5, 5), [*DIAMOND, (2, 2)])
    g.stop(1, now=0.0)  # the intruder's own STOP: A moves alone, so A's next move comes
    assert g.scores == (1, 0)
