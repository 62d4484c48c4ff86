"""The fixed geometry of one board (which lines and boxes exist and how they touch), shared by
every game, search and table on that board.

Lines are numbered like OpenSpiel's ``dots_and_boxes`` over the bounding rectangle of R×C
boxes: horizontal line (r, c) is ``r·C + c`` and vertical line (r, c) is
``(R+1)·C + r·(C+1) + c``, rows counted from the top. On a shaped board some numbers name no
line. Positions are bit sets of drawn line numbers (Python ints), cheap to copy and hash.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from itertools import product

Dot = tuple[int, int]


class Board:
    """Geometry of an R×C bounding rectangle with a mask of existing boxes."""

    def __init__(self, mask: tuple[str, ...]) -> None:
        self.mask = mask
        self.rows = R = len(mask)
        self.cols = C = len(mask[0])
        self.nlines = (R + 1) * C + R * (C + 1)
        self.box_exists = [mask[r][c] == "#" for r in range(R) for c in range(C)]
        self.boxes = [b for b in range(R * C) if self.box_exists[b]]
        self.rectangular = all(self.box_exists)
        # The four sides of every box, and the existing boxes each line borders.
        self.box_lines: list[tuple[int, int, int, int]] = []
        for r, c in product(range(R), range(C)):
            self.box_lines.append((self.h(r, c), self.h(r + 1, c), self.v(r, c), self.v(r, c + 1)))
        touching: list[list[int]] = [[] for _ in range(self.nlines)]
        for b in self.boxes:
            for line in self.box_lines[b]:
                touching[line].append(b)
        self.line_boxes: list[tuple[int, ...]] = [tuple(t) for t in touching]
        self.lines = [n for n in range(self.nlines) if touching[n]]
        # Each line's two boxes, the second -1 for a line with one box (a ground line).
        self.line_ends: list[tuple[int, int]] = [
            (t[0], t[1] if len(t) > 1 else -1) if t else (-1, -1) for t in self.line_boxes
        ]
        # Each box's sides shared with another box, with that box.
        self.links: list[tuple[tuple[int, int], ...]] = [
            tuple((n, o) for n in sides for o in self.line_boxes[n] if o != b)
            for b, sides in enumerate(self.box_lines)
        ]
        self.full = sum(1 << n for n in self.lines)
        # The figure's outline: the lines with a box on one side only (the edge, and the rim of
        # every hole). In Палочки it is drawn before the game starts.
        self.outline = sum(1 << n for n in self.lines if len(self.line_boxes[n]) == 1)
        self.centrality = self._centrality()
        self.symmetries = self._symmetries()
        self._grounds = self._ground_groups()
        # Lines that are one of several ground lines of their box (only one of them matters).
        self.twin_ground = [False] * self.nlines
        for group, _ in self._grounds:
            for n in range(self.nlines):
                if group >> n & 1:
                    self.twin_ground[n] = True
        self._chunks = self._chunk_tables()
        # Deep into a big board symmetric twins are rare and the reduction costs more than it
        # saves: positions with more lines than this are their own key.
        self.symmetric_upto = self.nlines if self.nlines <= 40 else 16

    # -- numbering ----------------------------------------------------------------------

    def h(self, r: int, c: int) -> int:
        return r * self.cols + c

    def v(self, r: int, c: int) -> int:
        return (self.rows + 1) * self.cols + r * (self.cols + 1) + c

    def coords(self, n: int) -> tuple[str, int, int]:
        """Line number -> ("h" | "v", r, c)."""
        first_v = (self.rows + 1) * self.cols
        if n < first_v:
            return ("h", *divmod(n, self.cols))
        return ("v", *divmod(n - first_v, self.cols + 1))

    def number(self, orient: str, r: int, c: int) -> int | None:
        """("h" | "v", r, c) -> line number within the bounding rectangle, or None."""
        if orient == "h" and 0 <= r <= self.rows and 0 <= c < self.cols:
            return self.h(r, c)
        if orient == "v" and 0 <= r < self.rows and 0 <= c <= self.cols:
            return self.v(r, c)
        return None

    def line_between(self, a: Dot, b: Dot) -> int | None:
        """The number of the line joining two neighbouring dots, or None."""
        (r1, c1), (r2, c2) = sorted((a, b))
        if r1 == r2 and c2 == c1 + 1:
            return self.number("h", r1, c1)
        if c1 == c2 and r2 == r1 + 1:
            return self.number("v", r1, c1)
        return None

    def dots(self, n: int) -> tuple[Dot, Dot]:
        orient, r, c = self.coords(n)
        return ((r, c), (r, c + 1)) if orient == "h" else ((r, c), (r + 1, c))

    def _centrality(self) -> list[int]:
        """Each line's rank by distance from the middle of the board (0 = most central)."""
        mr, mc = self.rows / 2, self.cols / 2

        def dist(n: int) -> float:
            (r1, c1), (r2, c2) = self.dots(n)
            return abs((r1 + r2) / 2 - mr) + abs((c1 + c2) / 2 - mc)

        order = sorted(range(self.nlines), key=lambda n: (dist(n), n))
        rank = [0] * self.nlines
        for i, n in enumerate(order):
            rank[n] = i
        return rank

    # -- symmetry -----------------------------------------------------------------------

    def _symmetries(self) -> list[list[int]]:
        """Line permutations of the rectangle's symmetries that map the mask onto itself."""
        R, C = self.rows, self.cols
        by_dots = {frozenset(self.dots(n)): n for n in range(self.nlines)}
        by_sides = {frozenset(sides): b for b, sides in enumerate(self.box_lines)}

        def maps(square: bool) -> list[Callable[[int, int], tuple[int, int]]]:
            out = [
                lambda r, c: (r, c),
                lambda r, c: (r, C - c),
                lambda r, c: (R - r, c),
                lambda r, c: (R - r, C - c),
            ]
            if square:
                out += [
                    lambda r, c: (c, r),
                    lambda r, c: (C - c, r),
                    lambda r, c: (c, R - r),
                    lambda r, c: (C - c, R - r),
                ]
            return out

        perms: list[list[int]] = []
        for f in maps(R == C):
            perm = [by_dots[frozenset(f(*d) for d in self.dots(n))] for n in range(self.nlines)]
            if all(
                self.box_exists[by_sides[frozenset(perm[n] for n in self.box_lines[b])]]
                == self.box_exists[b]
                for b in range(R * C)
            ):
                perms.append(perm)
        return perms

    def _chunk_tables(self) -> list[list[list[int]]]:
        tables = []
        for perm in self.symmetries[1:]:
            per_sym = []
            for base in range(0, self.nlines, 8):
                table = []
                for byte in range(256):
                    out = 0
                    for bit in range(8):
                        if byte >> bit & 1 and base + bit < self.nlines:
                            out |= 1 << perm[base + bit]
                    table.append(out)
                per_sym.append(table)
            tables.append(per_sym)
        return tables

    def _ground_groups(self) -> list[tuple[int, list[int]]]:
        """For every box with two or more *ground* lines (lines that border no other box):
        the mask of those lines, and for each count k the mask of the k lowest of them."""
        out = []
        for b in self.boxes:
            ground = sorted(n for n in self.box_lines[b] if len(self.line_boxes[n]) == 1)
            if len(ground) >= 2:
                lows = [sum(1 << n for n in ground[:k]) for k in range(len(ground) + 1)]
                out.append((lows[-1], lows))
        return out

    def key(self, drawn: int) -> int:
        """A table key: positions with one key have one value. Which of a box's ground lines
        are drawn does not matter (in strings and coins they are interchangeable strings to
        the ground), so the lowest-numbered ones stand for them; then the smallest image under
        the board's symmetries. A symmetry takes ground lines to ground lines, so every member
        of a class of such equal positions has the same key (the shipped tables rely on it),
        except past ``symmetric_upto`` lines, where the symmetries are skipped.
        """
        best = self._ground_lowest(drawn)
        if drawn.bit_count() > self.symmetric_upto:
            return best
        for per_sym in self._chunks:
            img = 0
            x = drawn
            for table in per_sym:
                img |= table[x & 255]
                x >>= 8
            img = self._ground_lowest(img)
            if img < best:
                best = img
        return best

    def _ground_lowest(self, drawn: int) -> int:
        for group, lows in self._grounds:
            x = drawn & group
            if x:
                low = lows[x.bit_count()]
                if x != low:
                    drawn ^= x ^ low
        return drawn


@lru_cache(maxsize=64)
def board_for(mask: tuple[str, ...]) -> Board:
    return Board(mask)
