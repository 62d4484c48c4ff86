"""Exact two-player values: alpha-beta over drawn-line sets with a transposition table.

The value of a position is the best net score for the player to move: the boxes they will
still win minus the boxes the other player will win, with perfect play from here. It does not
depend on the score so far, so the table is keyed on the position alone: early on by the drawn
lines (:meth:`Board.key`, which folds in symmetries), later by the strings-and-coins shape, in
which a chain is only its ends and length wherever its boxes lie (:meth:`Searcher._analyse`);
each entry keeps bounds and the best move found, which is tried first next time. The search
only looks at moves that can be best:

- a *free* box (its fourth side borders the edge, a hole, or another box it completes too,
  so drawing it changes nothing else) is taken at once: holding it back only lets the
  opponent take it (proof: the box behaves as a token that can be cashed at any time);
- a box whose capture leaves another box capturable (a chain being eaten) is either taken or
  declined by drawing the far side of the next box (the "all but two" hand-back); every other
  move is no better than taking it; declining before a chain's last two loses two against
  declining later, so the boxes before them are taken in one go too
  (:meth:`Searcher.settle_capture`), and the owner of a chain's last two nets at least 0;
- with nothing to capture, one line per box's ground lines and one per run of boxes with two
  sides drawn stand for the others (see :meth:`Searcher._moves`; of runs with the same ends
  and length only one), and opening a long chain or loop is skipped when its ceiling
  (2 - length, 4 - length for a loop) cannot help;
- when every open box has exactly two sides drawn (only chains and loops are left, every move
  opens one), the value comes from a small recursion over the multiset of chain and loop
  lengths (all or all-but-two / all-but-four), exact and independent of the board.

The value is found by MTD(f) (null-window searches), stepping over values of the wrong parity;
the bounds kept in the table are rounded to the parity of their position's open boxes too (a
bound of 1 where only even values are possible is a bound of 2), which saves some re-searches.
Before searching a position's moves, the table's bounds of the children already met (also past
the free boxes a sacrifice hands over) may refute it at once or rule moves out (an enhanced
transposition cutoff). Move order: the table's best move, then the replies that refuted the
siblings searched before (the same reply often refutes them all), then the static order of
:meth:`Searcher._analyse`. The analysis of each position (key and moves) is memoised.
A node is one visit of a position after its free boxes are taken (they are taken in one go).
"""

from __future__ import annotations

import gc
import time
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache

from engine.boxes.board import Board, board_for
from engine.boxes.game import Game
from engine.boxes.tables import lookup as table_lookup

DEFAULT_TIME_LIMIT = 10.0
# The CPU cost of a search in units of about a microsecond, counted so that a budget follows
# CPU time while staying a pure function of the position: every node costs COST_NODE, and the
# first visit of a position (its key and moves worked out by :meth:`Searcher._analyse`)
# COST_ANALYSE more; table hits and memoised analyses cost only the node. Least squares of
# CPU time against the two counts over 5×5 endgame searches (``python -m bench.boxes_cost``)
# gave 11.3 µs a node and 8.8 µs an analysis (R² 0.998; the per-search rates then spread
# 1.27× against 1.37× for nodes alone); rounded up to whole units.
COST_NODE = 12
COST_ANALYSE = 10
Key = int  # a table key: Board.key's lines (>= 0) or a strings-and-coins shape (< 0)


class OutOfBudget(Exception):
    """The search ran past its node or time budget."""


@contextmanager
def gc_paused() -> Iterator[None]:
    """Hold off Python's cyclic garbage collector: a search makes no reference cycles, but
    its tables hold many container objects, which each collection walks again (8-13 % of the
    CPU of a 1.5 s search, growing faster than the search)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


@lru_cache(maxsize=200_000)
def loony_value(chains: tuple[int, ...], loops: tuple[int, ...]) -> int:
    """Net score for the player who must open one of these chains/loops (lengths sorted)."""
    if not chains and not loops:
        return 0
    best = -(10**9)
    for i, n in enumerate(chains):
        if i and chains[i - 1] == n:
            continue
        rest = loony_value(chains[:i] + chains[i + 1 :], loops)
        # A single box, or a pair opened in the middle: the opponent takes all. A long chain:
        # the opponent takes all, or all but two and hands two back to keep control.
        v = -(n + rest) if n <= 2 else -max(n + rest, n - 4 - rest)
        best = max(best, v)
    for i, n in enumerate(loops):
        if i and loops[i - 1] == n:
            continue
        rest = loony_value(chains, loops[:i] + loops[i + 1 :])
        v = -max(n + rest, n - 8 - rest)  # all, or all but four (two pairs handed back)
        best = max(best, v)
    return best


class Searcher:
    """Alpha-beta search on one board; the table persists across calls on the same board."""

    def __init__(
        self,
        board: Board,
        tt: dict[Key, tuple[int, int, int]] | None = None,
        *,
        shape_from: int | None = None,
    ) -> None:
        self.board = board
        # key -> (lower bound, upper bound, best line found or -1)
        self.tt: dict[Key, tuple[int, int, int]] = {} if tt is None else tt
        # Positions with more lines drawn than this are keyed by their strings-and-coins shape
        # (:meth:`_analyse`), the others by :meth:`Board.key` (which folds in symmetries).
        self.shape_from = board.symmetric_upto if shape_from is None else shape_from
        self.info: dict[int, tuple[Key, list[int] | None, dict[int, int]]] = {}
        # A position with free boxes -> the boxes they make and the position once taken.
        self.settles: dict[int, tuple[int, int]] = {}
        # Each box's sides with what lies across them: another box, or -1 (the ground).
        self.across = [
            tuple((n, o) for n in sides for o in (*board.line_boxes[n], -1)[:2] if o != b)
            if board.box_exists[b]
            else ()
            for b, sides in enumerate(board.box_lines)
        ]
        self.line_boxes = board.line_boxes
        self.box_lines = board.box_lines
        # Sort keys of lines (nearer the middle first) and a box's unit in the ground counts.
        self.order = [board.centrality[n] << 10 | n for n in range(board.nlines)]
        self.ground_bits = [1 << 3 * b for b in range(board.rows * board.cols)]
        self.box_mask = [sum(1 << n for n in sides) for sides in board.box_lines]
        self.lines = board.lines
        self.boxes = board.boxes
        self.nodes = 0
        self.analyses = 0  # positions analysed afresh (:meth:`_analyse`)
        self.cost_limit: int | None = None  # on :meth:`cost`
        self.suggest: tuple[int, ...] = ()  # moves to try first in the next position searched
        self.node_limit: int | None = None
        self.deadline: float | None = None
        self.drawn = 0
        self.sides = [0] * (board.rows * board.cols)
        self.three: set[int] = set()
        self.left = len(board.boxes)  # open boxes

    def cost(self) -> int:
        """The search's CPU cost so far (see ``COST_NODE``): a pure function of the work."""
        return self.nodes * COST_NODE + self.analyses * COST_ANALYSE

    def set_position(self, drawn: int) -> None:
        self.drawn = drawn
        sides = [0] * (self.board.rows * self.board.cols)
        for n in self.lines:
            if drawn >> n & 1:
                for b in self.line_boxes[n]:
                    sides[b] += 1
        self.sides = sides
        self.three = {b for b in self.boxes if sides[b] == 3}
        self.left = sum(sides[b] < 4 for b in self.boxes)

    # -- moves ------------------------------------------------------------------------------

    def draw(self, n: int) -> int:
        self.drawn |= 1 << n
        done = 0
        sides, three = self.sides, self.three
        for b in self.line_boxes[n]:
            s = sides[b] = sides[b] + 1
            if s == 3:
                three.add(b)
            elif s == 4:
                three.discard(b)
                done += 1
        self.left -= done
        return done

    def undraw(self, n: int) -> None:
        self.drawn &= ~(1 << n)
        sides, three = self.sides, self.three
        for b in self.line_boxes[n]:
            s = sides[b] = sides[b] - 1
            if s == 3:
                three.add(b)
                self.left += 1
            elif s == 2:
                three.discard(b)

    def open_side(self, b: int) -> int:
        """The one undrawn side of a box with three sides drawn."""
        return (self.box_mask[b] & ~self.drawn).bit_length() - 1

    def free_capture(self) -> int | None:
        """A line that completes boxes and touches no box with two sides, if any."""
        sides, line_boxes = self.sides, self.line_boxes
        for b in self.three:
            n = self.open_side(b)
            bs = line_boxes[n]
            if len(bs) == 1 or sides[bs[0] if bs[1] == b else bs[1]] != 2:
                return n
        return None

    def settle_capture(self) -> int | None:
        """A capture that is best whatever else the position holds: a free one, or the first
        box of a chain being eaten with at least two more boxes behind it.

        Of the latter (box b capturable, then c1 and c2 with two sides, then c3 with no three
        sides, or the ground), the only rival of taking b is declining it (the far side of c1;
        see :meth:`_captures`), and taking b and then declining c1 (the far side of c2) beats
        that by two: the opponent, handed b and c1, may take them and then c2, which leaves
        the same lines drawn as their taking c1 and c2 after the later decline, with one box
        more for them and the same player to move. So in a chain only the last two boxes
        are a decision (all, or all but two): the boxes before are taken in one go."""
        n = self.free_capture()
        if n is not None:
            return n
        avail = self.board.full ^ self.drawn
        for b in self.three:
            n = self.open_side(b)
            c, via, k = self._two_sided_run(b, n, avail, 2)  # c1, then c2
            if k == 2 and self._sides_across(c, via) != 3:  # c3 (or the ground) not capturable
                return n
        return None

    def _two_sided_run(self, b: int, n: int, avail: int, most: int) -> tuple[int, int, int]:
        """From box ``b`` out through its line ``n``: up to ``most`` boxes in a row with two
        sides each; the last box reached, the line leading out of it, and how many."""
        sides, line_boxes, box_mask = self.sides, self.line_boxes, self.box_mask
        c, via, k = b, n, 0
        while k < most:
            bs = line_boxes[via]
            if len(bs) == 1:
                break
            nxt = bs[0] if bs[1] == c else bs[1]
            if sides[nxt] != 2:
                break
            c, k = nxt, k + 1
            via = ((box_mask[c] & avail) ^ (1 << via)).bit_length() - 1
        return c, via, k

    def _sides_across(self, c: int, line: int) -> int:
        """The sides drawn of the box across ``line`` from box ``c`` (-1: the ground)."""
        bs = self.line_boxes[line]
        return -1 if len(bs) == 1 else self.sides[bs[0] if bs[1] == c else bs[1]]

    def _chain_end(self) -> bool:
        """Whether a capturable box b is the first of a chain's last two (b, then c1 with two
        sides, then the ground or a box with at most one side): then the mover nets at least
        0 from here. Taking both and declining them (the far side of c1) lead to the same
        lines, Q, the first with two boxes more for the mover and the mover to play, the
        second with two more for the opponent and the opponent to play (taking the pair is
        free), so the mover has 2 + v(Q) or -(2 + v(Q)), whichever is not negative."""
        avail = self.board.full ^ self.drawn
        for b in self.three:
            c, far, k = self._two_sided_run(b, self.open_side(b), avail, 1)
            if k == 1 and self._sides_across(c, far) <= 1:
                return True
        return False

    def candidates(self, first: int = -1) -> list[int] | None:
        """The moves worth searching, best-first (``first``, a table's best move, leads when
        it is among them); None when only chains and loops remain. Call with no free capture
        on the board."""
        found = self._moves(first)
        return None if found is None else list(found[0])

    def _moves(self, first: int) -> tuple[list[int], dict[int, int]] | None:
        """:meth:`candidates`, and a ceiling on the value of each move that opens a long run.

        Moves are left out when another listed move is at least as good:

        - a box's ground line when another ground line of that box is listed (in strings and
          coins they are interchangeable strings to the ground);
        - the opening of a run when another run with the same ends (boxes or the ground) and
          length is listed (the positions after either are the same up to the run's boxes);
        - all but one line touching a *run* (boxes with two sides drawn, joined by undrawn
          lines: a chain or a loop) when no box is capturable. A single box gives itself
          away whichever side is drawn: the opponent takes it for free and the same position
          follows. A pair is opened in the middle: from an end the opponent may take both to
          the same position, or decline them, one more option. Three or more (a long run)
          opened anywhere let the opponent take all or all but two (four in a loop), and
          either way the same position follows up to the order of the strings: the run's boxes
          gone, the lines at both of its ends drawn.

        Of a long run the two options net the opponent L + v and L - 4 - v (L - 8 - v for a
        loop) for some v, so the opener gets at most 2 - L (4 - L for a loop): the ceiling.
        """
        if not self.three:
            _, found, ceilings = self._analysis()
            if found is None:
                return None
            moves = found
        else:
            moves = self._captures()
            ceilings = {}
        if first >= 0 and moves[0] != first and first in moves:
            moves = [first, *(m for m in moves if m != first)]
        return moves, ceilings

    def _captures(self) -> list[int]:
        """With a chain being eaten: take each capturable box, or decline it (draw the far
        side of the box behind it)."""
        line_boxes = self.line_boxes
        captures: list[int] = []
        declines: list[int] = []
        for b in self.three:
            n = self.open_side(b)
            captures.append(n)
            bs = line_boxes[n]
            nxt = bs[0] if bs[1] == b else bs[1]
            declines.append(self._far_side(nxt, n))
        return captures + [m for m in declines if m not in captures]

    def _far_side(self, b: int, n: int) -> int:
        """The other undrawn side of box ``b`` (two sides drawn) besides line ``n``."""
        drawn = self.drawn
        for m in self.box_lines[b]:
            if m != n and not drawn >> m & 1:
                return m
        raise AssertionError("box has no second open side")

    def _isolated(self, start: int, walked: set[int]) -> tuple[int, bool, int]:
        """The path or cycle of boxes with two sides drawn through ``start``, with no other
        box at its ends (added to ``walked``): its size, whether it is a cycle, and a line
        between two of its boxes (-1 if none)."""
        avail, masks, ends = self.board.full ^ self.drawn, self.box_mask, self.board.line_ends
        both = masks[start] & avail
        first = both.bit_length() - 1
        size = 1
        inner = -1
        for via in (first, (both ^ 1 << first).bit_length() - 1):
            c, x = ends[via]
            if c == start:
                c = x
            if c >= 0:
                inner = via
            while c >= 0 and c != start:
                walked.add(c)
                size += 1
                via = ((masks[c] & avail) ^ 1 << via).bit_length() - 1
                x, y = ends[via]
                c = y if x == c else x
            if c == start:
                return size, True, inner
        return size, False, inner

    def open_components(self) -> list[tuple[list[int], dict[int, int]]]:
        """The open boxes split into groups joined by undrawn lines: each group's boxes and
        its undrawn lines (line -> how many of the group's boxes it borders)."""
        drawn, sides = self.drawn, self.sides
        line_boxes, box_lines = self.line_boxes, self.box_lines
        seen: set[int] = set()
        out: list[tuple[list[int], dict[int, int]]] = []
        for start in self.boxes:
            if sides[start] == 4 or start in seen:
                continue
            seen.add(start)
            stack = [start]
            comp: list[int] = []
            lines: dict[int, int] = {}
            while stack:
                b = stack.pop()
                comp.append(b)
                for n in box_lines[b]:
                    if drawn >> n & 1:
                        continue
                    lines[n] = lines.get(n, 0) + 1
                    for o in line_boxes[n]:
                        if o not in seen:
                            seen.add(o)
                            stack.append(o)
            out.append((comp, lines))
        return out

    def components(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Chain and loop lengths when every open box has exactly two sides drawn (a group
        with as many lines as boxes is a loop; one more line makes it a chain)."""
        chains: list[int] = []
        loops: list[int] = []
        for comp, lines in self.open_components():
            (chains if len(lines) > len(comp) else loops).append(len(comp))
        return tuple(sorted(chains)), tuple(sorted(loops))

    def key(self) -> Key:
        """The table key of the current position (see ``shape_from``)."""
        return self._analysis()[0]

    def _analysis(self) -> tuple[Key, list[int] | None, dict[int, int]]:
        """The table key, and with no box capturable the moves worth searching (None when
        only chains and loops remain) with the ceilings of long runs: memoised per position."""
        drawn = self.drawn
        info = self.info.get(drawn)
        if info is None:
            if len(self.info) > _INFO_CAP:
                self.info.clear()
                self.settles.clear()
            if self.three:  # a chain being eaten: keyed by its lines (cheaper, as good)
                info = self.info[drawn] = (self.board.key(drawn), None, {})
            else:
                self.analyses += 1
                info = self.info[drawn] = self._analyse()
        return info

    # Not split (C901): the solver's per-node analysis: one pass, no calls, on purpose.
    def _analyse(self) -> tuple[Key, list[int] | None, dict[int, int]]:  # noqa: C901
        """One pass over the open boxes gives both the key and the moves.

        The key is equal for positions whose strings-and-coins graphs are the same up to the
        boxes of their chains and loops (so are their values). The *kernel* boxes (open, and
        not with exactly two sides drawn) are kept as they are: the lines undrawn between two
        of them and how many of each one's ground lines are undrawn. The boxes with two sides
        drawn form paths and cycles: a path is kept as its two ends (kernel boxes or the
        ground) and its length, a cycle as its length. Positions with at most ``shape_from``
        lines drawn use :meth:`Board.key` instead (it folds in the board's symmetries).

        The moves: a safe line is one whose boxes have fewer than two sides; of a box's
        ground lines one is listed (they are interchangeable). One move per path or cycle, and
        one per class of paths with the same ends and length (isomorphic positions follow);
        see :meth:`_moves` for which line. Order: safe lines between two boxes, then safe
        ground lines, each nearer the middle first, then sacrifices, smaller runs first (of
        the orders tried on 5×5 endgames this one searched the fewest nodes; ranking safe
        lines by the sides their boxes have searched up to 40 % more).
        """
        drawn, sides, across = self.drawn, self.sides, self.across
        avail, masks, ends = self.board.full ^ drawn, self.box_mask, self.board.line_ends
        order, ground_bits = self.order, self.ground_bits
        kernel_lines = 0  # undrawn lines between two kernel boxes
        grounds = 0  # per kernel box, its undrawn ground lines (3 bits each)
        parts: list[int] = []  # paths and cycles, packed
        walked: set[int] = set()  # boxes with two sides already on a part
        twos = 0
        kernel = False
        safe: list[int] = []
        sacrifices: list[int] = []
        ceilings: dict[int, int] = {}
        for b in self.boxes:
            s = sides[b]
            if s == 2:
                twos += 1
                continue
            if s == 4:
                continue
            kernel = True
            grounded = False
            for n, o in across[b]:
                if drawn >> n & 1:
                    continue
                if o < 0:
                    grounds += ground_bits[b]
                    if not grounded:
                        grounded = True
                        safe.append(1 << 20 | order[n])
                elif sides[o] != 2:
                    kernel_lines |= 1 << n
                    if o > b:
                        safe.append(order[n])
                elif o not in walked:
                    # Walk the path of boxes with two sides from o (entered by n).
                    walked.add(o)
                    length = 1
                    inner = -1
                    c, via = o, n
                    while True:
                        m = ((masks[c] & avail) ^ (1 << via)).bit_length() - 1
                        x, y = ends[m]
                        if x == c:
                            x = y
                        if x < 0 or sides[x] != 2:
                            break
                        if length == 1:
                            inner = m
                        walked.add(x)
                        length += 1
                        c, via = x, m
                    hi, lo = (b, x) if x <= b else (x, b)
                    code = (hi << 8 | (lo + 1)) << 8 | length
                    if code not in parts:
                        if length == 2:
                            n = inner
                        elif length >= 3:
                            ceilings[n] = 2 - length
                        sacrifices.append(length << 11 | 1 << 10 | n)
                    parts.append(code)
        if len(walked) < twos:  # isolated chains (both ends on the ground) and loops
            for b in self.boxes:
                if sides[b] == 2 and b not in walked:
                    walked.add(b)
                    size, loop, inner = self._isolated(b, walked)
                    code = (2 if loop else 1) << 24 | size
                    if code not in parts:
                        if size == 2:
                            n = inner
                        else:
                            n = (masks[b] & avail).bit_length() - 1
                            if size >= 3:
                                ceilings[n] = (4 if loop else 2) - size
                        sacrifices.append(size << 11 | n)
                    parts.append(code)
        if drawn.bit_count() <= self.shape_from:
            key: Key = self.board.key(drawn)
        else:
            # One int (cheaper to hash than a tuple): the kernel, each part in 27 bits, the
            # number of parts in the low byte; negative, so never equal to a key of lines.
            parts.sort()
            packed = grounds << self.board.nlines | kernel_lines
            for code in parts:
                packed = packed << 27 | code
            key = ~(packed << 8 | len(parts))
        if not kernel:  # every open box has two sides: chains and loops
            return key, None, ceilings
        safe.sort()
        sacrifices.sort()
        moves = [x & 1023 for x in safe]
        moves += [x & 1023 for x in sacrifices]
        return key, moves, ceilings

    # -- search -----------------------------------------------------------------------------

    def search(self, alpha: int, beta: int) -> int:
        """Value of the current position for the player to move (fail-soft alpha-beta)."""
        self.nodes += 1
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise OutOfBudget
        if (
            self.cost_limit is not None
            and self.nodes * COST_NODE + self.analyses * COST_ANALYSE > self.cost_limit
        ):
            raise OutOfBudget
        if self.deadline is not None and not self.nodes & 1023 and time.monotonic() > self.deadline:
            raise OutOfBudget
        if not self.three:
            return self._search_settled(alpha, beta)
        # Free boxes are taken at once, all of them (they are never worth holding back).
        gained = 0
        taken: list[int] = []
        start = self.drawn
        n = self.settle_capture()
        while n is not None:
            gained += self.draw(n)
            taken.append(n)
            n = self.settle_capture() if self.three else None
        if not taken:
            return self._search_settled(alpha, beta)
        self.settles[start] = (gained, self.drawn)
        try:
            return gained + self._search_settled(alpha - gained, beta - gained)
        finally:
            for n in reversed(taken):
                self.undraw(n)

    # Not split (C901): the alpha-beta inner loop: inlined for speed.
    def _search_settled(self, alpha: int, beta: int) -> int:  # noqa: C901
        drawn = self.drawn
        if drawn == self.board.full:
            return 0
        if self.three and beta <= (self.left & 1) and self._chain_end():
            return self.left & 1  # the mover owns a chain's last two: a bound that cuts
        info = self.info.get(drawn)
        if info is None:
            info = self._analysis()
        key = info[0]
        entry = self.tt.get(key)
        if entry is not None:
            lo, hi, first = entry
            if lo == hi or lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            alpha = max(alpha, lo)
            beta = min(beta, hi)
        else:
            lo, hi, first = -999, 999, -1
        if self.three:
            moves = self._captures()
            ceilings = None
        else:
            listed = info[1]
            if listed is None:
                v = loony_value(*self.components())
                self.tt[key] = (v, v, -1)
                return v
            moves, ceilings = listed, info[2]
        # The siblings' refutations next (after the table's best move, which leads).
        suggest = self.suggest
        self.suggest = ()
        if suggest:
            lead = [m for m in suggest if m in moves]
            if lead:
                if first < 0:
                    first = lead[0]
                moves = [*lead, *(m for m in moves if m not in lead)]
        if first >= 0 and moves[0] != first and first in moves:
            moves = [first, *(m for m in moves if m != first)]
        if ceilings is not None:
            # A child already bounded in the table may refute this position at once, and one
            # whose bound cannot raise alpha needs no search (its bound stands for it).
            memo, tt = self.info, self.tt
            known: list[int] | None = None
            ceil = -999
            settles = self.settles
            for n in moves:
                after = drawn | 1 << n
                child = memo.get(after)
                g = 0
                if child is None:
                    settled = settles.get(after)
                    if settled is None:
                        continue
                    g, after = settled
                    child = memo.get(after)
                    if child is None:
                        continue
                e = tt.get(child[0])
                if e is not None:
                    if -e[1] - g >= beta:
                        v = -e[1] - g
                        self.tt[key] = (max(lo, v), hi, n)
                        return v
                    if -e[0] - g <= alpha:
                        if known is None:
                            known = []
                        known.append(n)
                        if -e[0] - g > ceil:
                            ceil = -e[0] - g
            if known is not None:
                moves = [n for n in moves if n not in known]
        else:
            ceil = -999
        alpha0 = alpha
        best = ceil
        # Replies that refuted earlier moves here (the last three, latest first): tried first in
        # the next child that has no best move of its own (9-15 % fewer nodes on 5×5).
        refutations: tuple[int, ...] = ()
        for n in moves:
            if ceilings:
                c = ceilings.get(n)
                if c is not None and c <= alpha:  # cannot raise alpha: bound, do not search
                    if c > best:
                        best = c
                    continue
            k = self.draw(n)
            try:
                if k:
                    v = k + self.search(alpha - k, beta - k)
                else:
                    self.suggest = refutations
                    v = -self.search(-beta, -alpha)
                    r = self._reply(-1)
                    if r >= 0:
                        refutations = (r, *(x for x in refutations[:2] if x != r))
            finally:
                self.suggest = ()
                self.undraw(n)
            if v > best:
                best = v
                if v > alpha:
                    first = n
                    alpha = v
                    if alpha >= beta:
                        break
        # A value has the parity of the open boxes: a bound rounds to the nearest such value.
        if best <= alpha0:
            best -= (best ^ self.left) & 1
            hi = min(hi, best)
        elif best >= beta:
            best += (best ^ self.left) & 1
            lo = max(lo, best)
        else:
            lo = hi = best
        self.tt[key] = (lo, hi, first)
        return best

    def _reply(self, default: int) -> int:
        """The best reply the table holds for the position just searched, else ``default``
        (also when the reply's side took free boxes first: not followed)."""
        info = self.info.get(self.drawn)
        if info is not None:
            entry = self.tt.get(info[0])
            if entry is not None and entry[2] >= 0:
                return entry[2]
        return default

    def value(self, guess: int | None = None) -> int:
        """Exact value by MTD(f): null-window searches closing in on the value from a guess
        (narrow windows cut far more than one wide search; the table keeps the work). A value
        has the parity of the open boxes (the mover's boxes minus the others', out of all of
        them), so each bound steps over the values of the other parity."""
        parity = self.left & 1
        lo, hi = -self.left, self.left
        if guess is None:
            entry = self.tt.get(self.key())
            guess = parity if entry is None else max(entry[0], min(entry[1], parity))
        g = guess
        while lo < hi:
            beta = g + 1 if g == lo else g
            g = self.search(beta - 1, beta)
            if g < beta:
                hi = g - ((g ^ parity) & 1)
                g = hi
            else:
                lo = g + ((g ^ parity) & 1)
                g = lo
        return g

    def move_values(self, moves: list[int] | None = None) -> dict[int, int]:
        """Exact value (for the player to move now) of each given line, default every line."""
        if moves is None:
            moves = [n for n in self.lines if not self.drawn >> n & 1]
        out: dict[int, int] = {}
        for n in moves:
            k = self.draw(n)
            try:
                out[n] = k + self.value() if k else -self.value()
            finally:
                self.undraw(n)
        return out

    def best_lines(self, *, some: bool = False) -> tuple[int, list[int]]:
        """The position's value and the lines that achieve it among the moves worth trying
        (a free capture, when there is one, is the only line returned). With ``some``, a
        search that runs out of budget after finding one best line returns those found so
        far (the table's best move is checked first, so that is nearly free)."""
        with gc_paused():
            return self._best_lines(some)

    def _best_lines(self, some: bool) -> tuple[int, list[int]]:
        n = self.free_capture()
        if n is not None:
            k = self.draw(n)
            try:
                return k + self.value(), [n]
            finally:
                self.undraw(n)
        best = self.value()
        entry = self.tt.get(self.key())
        moves = self.candidates(-1 if entry is None else entry[2])
        if moves is None:
            moves = self.loony_openings()
        bests: list[int] = []
        for n in moves:  # a null window each: does this line reach the value?
            k = self.draw(n)
            try:
                if self._child(k, best - 1, best) >= best:
                    bests.append(n)
            except OutOfBudget:
                if some and bests:
                    break
                raise
            finally:
                self.undraw(n)
        return best, bests

    def _child(self, k: int, alpha: int, beta: int) -> int:
        """Value of the line just drawn (it completed ``k`` boxes) for the player who drew it."""
        if k:
            return k + self.search(alpha - k, beta - k)
        return -self.search(-beta, -alpha)

    def loony_openings(self) -> list[int]:
        """One opening line per distinct chain/loop: a chain's end (the middle of a pair), any
        line of a loop. Opening elsewhere only gives the opponent more choice."""
        out: list[int] = []
        kinds: set[tuple[bool, int]] = set()
        for comp, lines in self.open_components():
            loop = len(lines) == len(comp)
            if (loop, len(comp)) in kinds:
                continue
            kinds.add((loop, len(comp)))
            inner = [n for n, touching in lines.items() if touching == 2]
            ends = [n for n, touching in lines.items() if touching == 1]
            out.append(inner[0] if (loop or len(comp) == 2) and inner else ends[0])
        return out


_TABLES: dict[tuple[str, ...], dict[int, tuple[int, int, int]]] = {}
_TT_CAP = 2_000_000
_INFO_CAP = 200_000  # memoised analyses (a few hundred bytes each) kept per searcher


def searcher_for(board: Board) -> Searcher:
    """A searcher whose table is kept per board for this process (reused across moves)."""
    tt = _TABLES.get(board.mask)
    if tt is None or len(tt) > _TT_CAP:
        tt = _TABLES[board.mask] = {}
    return Searcher(board, tt)


def value(
    game: Game,
    *,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    node_limit: int | None = None,
    use_table: bool = True,
) -> int | None:
    """Exact best net score for the player to move (two players), or None when the search
    cannot finish within ``time_limit`` seconds / ``node_limit`` nodes."""
    board, drawn = game.board, game.drawn_mask
    if game.players != 2:
        raise ValueError("exact values are defined for two players")
    if drawn == board.full:
        return 0
    if use_table:
        v = table_lookup(board, drawn)
        if v is not None:
            return v
    s = searcher_for(board) if use_table else Searcher(board)
    s.set_position(drawn)
    s.node_limit = node_limit
    s.deadline = None if time_limit is None else time.monotonic() + time_limit
    try:
        with gc_paused():
            return s.value()
    except OutOfBudget:
        return None


def value_of_rectangle(
    rows: int,
    cols: int,
    *,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    node_limit: int | None = None,
    use_table: bool = True,
) -> int | None:
    """Value of the empty rows×cols board (first player's net score)."""
    return value(
        Game(rows, cols), time_limit=time_limit, node_limit=node_limit, use_table=use_table
    )


__all__ = [
    "OutOfBudget",
    "Searcher",
    "board_for",
    "gc_paused",
    "loony_value",
    "searcher_for",
    "value",
]
