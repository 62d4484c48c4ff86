"""Shipped opening tables and the boards they serve: every board that fits in 3×3, the key
(one per class of equal positions), lookups through turned, mirrored and padded masks."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from engine.boxes import Game, Move
from engine.boxes.ai import choose_move
from engine.boxes.board import board_for
from engine.boxes.solver import Searcher, value
from engine.boxes.tablegen import back_up, levels
from engine.boxes.tables import SHIPPED, classes_within, lookup, mask_class, table_for

from .helpers import brute_force
from .test_ai import exact_after

Mask = tuple[str, ...]
DotMap = Callable[[int, int], tuple[int, int]]

# -- the test's own geometry: turn, mirror and pad a mask, and carry lines along ------------------


def turned(mask: Mask) -> tuple[Mask, DotMap]:
    """A quarter turn clockwise: box (r, c) goes to (c, R-1-r), dot (r, c) to (c, R-r)."""
    R, C = len(mask), len(mask[0])
    rows = tuple("".join(mask[R - 1 - r][c] for r in range(R)) for c in range(C))
    return rows, lambda r, c: (c, R - r)


def mirrored(mask: Mask) -> tuple[Mask, DotMap]:
    C = len(mask[0])
    return tuple(row[::-1] for row in mask), lambda r, c: (r, C - c)


def padded(mask: Mask) -> tuple[Mask, DotMap]:
    """An empty row on top and an empty column on the left."""
    C = len(mask[0])
    return ("." * (C + 1), *("." + row for row in mask)), lambda r, c: (r + 1, c + 1)


def members(mask: Mask) -> list[tuple[Mask, DotMap]]:
    """The mask's eight images, each also padded, with the dot maps from ``mask``."""
    out = []
    for flip in (False, True):
        m, f = mirrored(mask) if flip else (mask, lambda r, c: (r, c))
        for _ in range(4):
            out.append((m, f))
            p, g = padded(m)
            out.append((p, lambda r, c, f=f, g=g: g(*f(r, c))))
            t, h = turned(m)
            m, f = t, (lambda r, c, f=f, h=h: h(*f(r, c)))
    return out


def carried(game: Game, target: Game, f: DotMap) -> int:
    """The lines drawn in ``game``, moved by dot map ``f`` onto ``target``'s board."""
    out = 0
    for n in game.board.lines:
        if game.drawn_mask >> n & 1:
            (r1, c1), (r2, _) = sorted(f(r, c) for r, c in game.board.dots(n))
            move = Move("h", r1, c1) if r1 == r2 else Move("v", r1, c1)
            out |= 1 << target.line_number(move)
    return out


def random_position(mask: Mask, lines: int, rng: random.Random) -> Game:
    g = Game(mask=list(mask))
    for m in rng.sample(g.all_lines(), lines):
        g.play(m)
    return g


# -- every board within 3×3 ---------------------------------------------------------------------

CLASSES = classes_within(3, 3)


def test_the_classes_within_three_by_three() -> None:
    assert len(CLASSES) == 85  # 511 masks; the square's 8 symmetries and edge trimming
    assert ("###", "###", "###") in CLASSES and ("#",) in CLASSES
    assert mask_class(("...", ".#.", "...")) == ("#",)
    assert mask_class(("##.", "###", "###")) == mask_class(("###", "###", ".##"))
    assert mask_class(("#.", ".#")) == mask_class((".#", "#.")) != mask_class(("##",))
    assert all(mask_class(m) == m for m in SHIPPED)


@pytest.mark.parametrize("rep", CLASSES, ids=["/".join(m) for m in CLASSES])
def test_every_board_within_three_by_three_from_the_empty_board(rep: Mask) -> None:
    """The value through the tables (on a turned/mirrored/padded member of the class) equals
    an exact computation without them: plain minimax on small boards, the search on the
    class's own mask otherwise; and hard's first move keeps it."""
    rng = random.Random("/".join(rep))
    member, _ = rng.choice(members(rep))
    g = Game(mask=list(member))
    got = value(g, time_limit=None)
    board = board_for(rep)
    if len(board.lines) <= 14:
        expected = brute_force(board)(0)
    else:
        s = Searcher(board)
        s.set_position(0)
        expected = s.value()
    assert got == expected
    if len(board.boxes) >= 7:  # the boards the tables are for (smaller ones are quick)
        # A wall-clock limit no busy machine reaches: the searches here take under a second of
        # CPU, and hard's 1.8 s deadline cut on a loaded CI box turns it into medium.
        assert exact_after(g, choose_move(g, "hard", seed=1, time_limit=60)) == expected


# -- the key ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "mask", [("###", "###", "###"), ("###", "#.#", "###"), ("#.#", "...", "##."), ("####",)]
)
def test_one_key_per_class_of_positions(mask: Mask) -> None:
    """Turning the position by a symmetry of the board, or swapping which ground lines of a
    box are drawn, keeps the key."""
    board = board_for(mask)
    rng = random.Random(2)
    grounds = [
        [n for n in board.box_lines[b] if len(board.line_boxes[n]) == 1] for b in board.boxes
    ]
    for _ in range(200):
        drawn = sum(1 << n for n in rng.sample(board.lines, rng.randrange(len(board.lines))))
        key = board.key(drawn)
        for perm in board.symmetries:
            image = sum(1 << perm[n] for n in board.lines if drawn >> n & 1)
            assert board.key(image) == key
        for group in grounds:
            on = [n for n in group if drawn >> n & 1]
            off = [n for n in group if not drawn >> n & 1]
            if on and off:
                swapped = drawn ^ (1 << rng.choice(on)) ^ (1 << rng.choice(off))
                assert board.key(swapped) == key


# -- lookups through the symmetries ---------------------------------------------------------------


@pytest.mark.parametrize("rep", list(SHIPPED), ids=[name for name, _ in SHIPPED.values()])
def test_lookup_through_turned_mirrored_and_padded_masks(rep: Mask) -> None:
    table = table_for(rep)
    assert table is not None and table.mask == rep
    rng = random.Random(7)
    positions = [random_position(rep, rng.randrange(table.max_lines + 1), rng) for _ in range(25)]
    values = [lookup(p.board, p.drawn_mask) for p in positions]
    assert None not in values and len(set(values)) > 1  # a wrong mapping would show
    for member, f in members(rep):
        target = Game(mask=list(member))
        assert table_for(member) is table
        for p, v in zip(positions, values, strict=True):
            assert lookup(target.board, carried(p, target, f)) == v, (member, p.drawn_mask)
    # Against the search (no table) on one member, at the deepest level the table holds.
    member, f = members(rep)[5]
    target = Game(mask=list(member))
    for _ in range(2):
        p = random_position(rep, table.max_lines, rng)
        drawn = carried(p, target, f)
        s = Searcher(target.board)
        s.set_position(drawn)
        assert lookup(target.board, drawn) == s.value()


def test_a_lopsided_position_on_a_turned_board() -> None:
    """3×3 less a corner, turned a quarter: an asymmetric position looked up through the turn
    has the value of the same position searched on the turned board, and reading the turned
    board's line numbers on the unturned board (a wrong mapping) gives another value."""
    rep = ("###", "###", "##.")
    g = Game(mask=list(rep))
    for m in (Move("v", 0, 2), Move("v", 1, 2), Move("v", 2, 1), Move("h", 1, 0)):
        g.play(m)
    member, f = turned(rep)
    assert member == ("###", "###", ".##")
    target = Game(mask=list(member))
    drawn = carried(g, target, f)
    s = Searcher(target.board)
    s.set_position(drawn)
    exact = s.value()
    assert lookup(target.board, drawn) == lookup(g.board, g.drawn_mask) == exact
    wrong = Searcher(g.board)  # same 3×3 numbering, so the numbers are lines there too
    wrong.set_position(drawn & g.board.full)
    assert wrong.value() != exact


# -- regeneration ---------------------------------------------------------------------------------


@pytest.mark.parametrize("rep", list(SHIPPED), ids=[name for name, _ in SHIPPED.values()])
def test_shipped_table_regenerates(rep: Mask) -> None:
    table = table_for(rep)
    assert table is not None and table.max_lines == SHIPPED[rep][1]
    board = board_for(rep)
    tiers = levels(board, table.max_lines)
    assert set(table.values) == {drawn for tier in tiers for drawn in tier}
    # The shallow levels are exactly the one-ply minimax of the level below …
    for tier in tiers[:3]:
        for drawn in tier:
            assert table.values[drawn] == back_up(board, drawn, table.values)
    # … and a sample of the deepest level agrees with a fresh search.
    searcher = Searcher(board)
    for drawn in random.Random(4).sample(tiers[-1], 4):
        searcher.set_position(drawn)
        assert searcher.value() == table.values[drawn]
