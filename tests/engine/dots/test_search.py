"""The tree search and its forcing-line solver on hand-made positions, and the search's
determinism for a seed."""

from __future__ import annotations

import numpy as np

from engine.dots import Game, Move
from engine.dots.fastboard import FastBoard
from engine.dots.search import choose, ladder

from .helpers import _filler, board, play

# Player 0 (A) has a wall along row 5 and a stopper at (12, 6); player 1 (B) has two dots in
# row 6, next to the bottom edge (row 7). A plays (4, 7) on the edge, threatening to close
# at (5, 6); B fills it, A plays (5, 7), and so on along the edge until the chain runs into
# the stopper and is caught.
WALL = [(x, 5) for x in range(2, 12)] + [(2, 6), (3, 7), (12, 6)]
CHAIN = [(3, 6), (4, 6)]


def _ladder(breaker: list[tuple[int, int]]) -> tuple[Game, tuple[tuple[int, int], int]]:
    g = play(board(14, 8), WALL, CHAIN + breaker)
    if g.turn != 0:  # A to move: B plays a filler
        g.play(Move(*_filler(g, 1)))
    fb = FastBoard.from_game(g)
    mv, won = ladder(fb.st, fb.tr, fb.sc, 12, 2000)
    return g, (fb.xy(int(mv)) if mv >= 0 else (-1, -1), int(won))


def test_an_edge_ladder_that_works() -> None:
    g, (move, won) = _ladder([])
    assert g.turn == 0
    assert move == (4, 7)
    assert won >= 2  # at least the two dots threatened at once (B may give them up)
    # The referee agrees: B filling every threat loses the whole chain at the stopper.
    for x in range(4, 11):
        g.play(Move(x, 7))
        assert g.scores == (0, 0)
        g.play(Move(x + 1, 6))
    g.play(Move(11, 7))
    assert g.scores == (9, 0)


def test_a_breaker_on_the_edge_stops_the_ladder() -> None:
    g, (move, won) = _ladder([(8, 7)])
    assert g.turn == 0
    assert (move, won) == ((-1, -1), 0)


def test_the_search_plays_the_ladder() -> None:
    g, _ = _ladder([])
    mv, figures = choose(g, seed=3, iterations=300)
    assert (g._board.xs[mv], g._board.ys[mv]) == (4, 7)
    assert figures["forced"] >= 2  # B has nothing to take: the line is played at once


def test_same_seed_same_move() -> None:
    g, _ = _ladder([(8, 7)])
    a = choose(g, seed=11, iterations=200)
    b = choose(g, seed=11, iterations=200)
    assert a[0] == b[0] and a[1]["nodes"] == b[1]["nodes"] and a[1]["value"] == b[1]["value"]


def test_no_iterations_still_gives_a_legal_move() -> None:
    """A budget of 0 playouts (or less) runs one: before, the root had no children and the
    choice raised ValueError."""
    g, _ = _ladder([(8, 7)])
    for iterations in (0, -3):
        move, figures = choose(g, seed=3, iterations=iterations)
        assert move in g.legal_indices()
        assert figures["iterations"] == 1.0


def _nearly_full(free: int, **options: object) -> Game:
    g = Game(7, 7, **options)  # type: ignore[arg-type]
    seed = 0
    while not g.over and len(g.legal_indices()) > free:
        legal = g.legal_indices()
        g.play_index(legal[(seed * 7919) % len(legal)])
        seed += 1
    return g


def test_every_level_on_a_nearly_finished_board() -> None:
    from engine.dots.ai import BENCH_LEVELS, LEVELS, choose_move

    for free in (1, 2, 3):
        for options in ({}, {"start": "cross"}, {"scoring": "territory"}):
            g = _nearly_full(free, **options)
            if g.over:
                continue
            for level in LEVELS + BENCH_LEVELS:
                m = choose_move(g, level, seed=free, time_limit=0.2, iterations=50)
                assert g.is_legal(m), (level, free, options)


def test_the_search_moves_alone_after_stop() -> None:
    g = _nearly_full(6)
    g.stop(g.turn)
    mover = g.turn
    while not g.over:
        mv, _ = choose(g, seed=g.ply, iterations=40)
        assert mv in g.legal_indices()
        g.play_index(mv)
        assert g.over or g.turn == mover


def test_hard_is_deterministic_for_a_seed_with_an_iteration_budget() -> None:
    from engine.dots.ai import choose_move

    g = _nearly_full(25)
    for level in ("hard", "expert"):
        a = choose_move(g, level, seed=4, iterations=150)
        b = choose_move(g, level, seed=4, iterations=150)
        assert a == b and g.is_legal(a)


def _searched_twice(
    reply_in_tree: bool, dots: int
) -> tuple[dict[str, float], float, list[int], list[int]]:
    """A search with reuse, its move and a reply played, and a second search: (its figures,
    the visits of the reply's node in the first tree, that node's children's moves, the
    second tree's root children's moves)."""
    from engine.dots import search

    search._KEPT.clear()
    g = Game(12, 12)
    for k in range(dots):
        legal = g.legal_indices()
        g.play_index(legal[(k * 7919) % len(legal)])
    me = g.turn
    mv, first = choose(g, seed=5, iterations=3000, reuse=True)
    if "forced" in first:
        return first, 0.0, [], []
    tree = search._KEPT[me][2]
    node = search._child(tree, 0, mv)
    f, cnt = int(tree.first[node]), int(tree.count[node])
    kids = [c for c in range(f, f + cnt) if tree.first[c] >= 0]
    g.play_index(mv)
    if reply_in_tree:
        reply = max(kids, key=lambda c: float(tree.stats[c, search.S_N]))
        g.play_index(int(tree.move[reply]))
    else:
        played = {int(tree.move[c]) for c in range(f, f + cnt)}
        g.play_index(next(i for i in g.legal_indices() if i not in played))
    visits = float(tree.stats[reply, search.S_N]) if reply_in_tree else 0.0
    old = (
        [int(tree.move[c]) for c in range(tree.first[reply], tree.first[reply] + tree.count[reply])]
        if reply_in_tree
        else []
    )
    _, figures = choose(g, seed=6, iterations=1, reuse=True)
    new = search._KEPT[me][2]
    moves = [int(new.move[c]) for c in range(new.first[0], new.first[0] + new.count[0])]
    return figures, visits, old, moves


def test_the_next_search_starts_from_the_subtree_of_the_two_moves_played() -> None:
    searched = 0
    for dots in (30, 40, 50, 60):
        figures, visits, old, moves = _searched_twice(True, dots)
        if "forced" in figures:  # a forcing line is played at once, without a tree
            continue
        searched += 1
        assert visits > 0 and figures["reused"] == visits
        assert moves == old  # the node's children, in their order, are the new root's
    assert searched >= 2


def test_a_reply_the_tree_never_saw_starts_afresh() -> None:
    figures, _, _, moves = _searched_twice(False, 30)
    assert "forced" not in figures
    assert figures["reused"] == 0.0 and moves  # a new root, expanded from the position


def test_a_playout_with_guard_saves_the_dot_just_played_into_an_open_ring() -> None:
    """A's last dot went into B's ring open at (4, 5); B's last dot is not next to that
    point, so only the guard (blocks next to the mover's own last dot) sees the threat."""
    from engine.dots.search import _tactic

    from .helpers import moves

    g = moves(board(10, 10), [(15, 0), (3, 4), (15, 1), (5, 4), (4, 4), (4, 3)])
    assert g.turn == 0 and g._board.gain(g._board.index(4, 5), 1) == 1
    fb = FastBoard.from_game(g)
    memo = np.full(4, -1, dtype=np.int64)  # no memo from a ply before
    assert _tactic(fb.st, fb.sc, 0, 96, True, memo) == fb.index(4, 5)
    memo[0] = -1
    assert _tactic(fb.st, fb.sc, 0, 96, False, memo) == -1
