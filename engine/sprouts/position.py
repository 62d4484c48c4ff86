"""Sprouts positions as regions and boundaries, GLOP 2.x notation, and every child.

A position is the drawing seen combinatorially. The plane (a sphere: no face is special) is cut
by the curves into *regions*; each region is bounded by *boundaries*, one per connected piece
of the drawing that touches it. A boundary is the cyclic sequence of spots met when walking
along that piece with the region on the left hand (so the outer boundary of a bounded region
is read counter-clockwise and the others clockwise). A spot appears in a walk once per
*corner* it shows to the region: an isolated spot or the end of a line shows one corner, a
spot with two line ends shows two (both in one region, or one in each of two regions).

Moves only look at this structure: a curve inside one region from a corner of spot ``a`` to a
corner of spot ``b`` (or back to the same corner: a loop), with a new spot ``c`` on it.
Joining two boundaries merges them; joining a boundary to itself splits the region in two,
and every other boundary of the region lands on one side or the other.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations, product
from typing import Self

from engine.core import EngineError

Boundary = tuple[int, ...]
Region = tuple[Boundary, ...]

MAX_LIVES = 3
_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_REPEAT = re.compile(r"0\*(\d+)")


class BadPosition(EngineError, ValueError):
    """A GLOP string or an explicit structure that is not a Sprouts position."""


@dataclass(frozen=True, slots=True)
class Move:
    """One topologically distinct way to draw a curve in a position.

    ``a`` and ``b`` are corners ``(boundary index, index in that boundary)`` inside region
    ``region``; they are equal for a loop. When both corners lie on one boundary the region
    splits: its first part is bounded by the walk from ``a`` forward along the boundary to
    ``b`` and back along the new curve (for a loop: the inside of the loop), and
    ``first_side`` names the other boundaries of the region (by index) that go with it; the
    rest go with the second part. For corners on two boundaries ``first_side`` is empty.
    """

    region: int
    a: tuple[int, int]
    b: tuple[int, int]
    first_side: frozenset[int] = frozenset()


class Position:
    """An immutable Sprouts position: regions of boundaries of spot ids, and lives per spot.

    Build one with :meth:`parse` (GLOP 2.x), :meth:`start` or the constructor from explicit
    regions (dead spots may stay in the walks; they are ignored by the rules and omitted when
    printing). ``str(p)`` prints GLOP 2.x; :meth:`canonical` is the key for equivalence.
    """

    __slots__ = ("_hash", "_lives", "regions")

    regions: tuple[Region, ...]
    _lives: dict[int, int]

    def __init__(
        self,
        regions: Iterable[Iterable[Iterable[int]]],
        lives: Mapping[int, int],
        *,
        check: bool = True,
    ) -> None:
        self.regions = tuple(tuple(tuple(b) for b in r) for r in regions)
        self._lives = dict(lives)
        self._hash: int | None = None
        if check:
            self._validate()

    # -- construction ------------------------------------------------------------------

    @classmethod
    def start(cls, n: int) -> Self:
        """The start of an ``n``-spot game: spots 1..n, isolated, in one region."""
        if n < 0:
            raise BadPosition(f"a game needs a non-negative number of spots, not {n}")
        if n == 0:
            return cls((), {})
        return cls([[(s,) for s in range(1, n + 1)]], dict.fromkeys(range(1, n + 1), MAX_LIVES))

    @classmethod
    def parse(cls, text: str) -> Self:
        """Read GLOP 2.x notation; spot ids are 1, 2, … in order of appearance.

        Uppercase letters are scoped to their land, lowercase ones to their region.
        """
        if not isinstance(text, str):
            raise BadPosition(f"a position is a string, not {type(text).__name__}")
        reader = _GlopReader()
        text = "".join(text.split())
        if text:
            for land in text.split("+"):
                reader.land(land)
        return cls(reader.regions, reader.lives)

    def _validate(self) -> None:
        seen: dict[int, list[tuple[int, int]]] = {}
        for r, region in enumerate(self.regions):
            for bi, bnd in enumerate(region):
                if not bnd:
                    raise BadPosition("a boundary needs at least one spot")
                for s in bnd:
                    seen.setdefault(s, []).append((r, bi))
        for s, uses in seen.items():
            life = self._lives.get(s)
            if life is None or not isinstance(life, int) or not 0 <= life <= MAX_LIVES:
                raise BadPosition(f"spot {s} needs 0..3 lives, has {life!r}")
            if life == 3 and (len(uses) != 1 or len(self.regions[uses[0][0]][uses[0][1]]) != 1):
                raise BadPosition(f"spot {s} with 3 lives must stand alone on its boundary")
            if life == 2 and len(uses) != 1:
                raise BadPosition(f"spot {s} with 2 lives has one corner, not {len(uses)}")
            if life == 1 and len(uses) > 2:
                raise BadPosition(f"spot {s} with 1 life has at most two corners")
            if len(uses) > 3:
                raise BadPosition(f"spot {s} has more than three corners")
            if life > 0 and len({r for r, _ in uses}) == 1 and len(set(uses)) > 1:
                raise BadPosition(f"spot {s} lies on two boundaries of one region")
        extra = [s for s, life in self._lives.items() if s not in seen and life]
        if extra:
            raise BadPosition(f"live spots {extra} appear in no region")

    # -- reading ---------------------------------------------------------------------------

    @property
    def lives(self) -> int:
        """Total lives left: every move removes exactly one."""
        return sum(v for s, v in self._lives.items() if v > 0)

    def lives_of(self, spot: int) -> int:
        return self._lives[spot]

    @property
    def spots(self) -> dict[int, int]:
        """Every spot id with its lives (a fresh dict; dead spots included)."""
        return dict(self._lives)

    @property
    def next_spot(self) -> int:
        """The id the next move gives its new spot."""
        return max(self._lives, default=0) + 1

    def canonical(self) -> str:
        """The equivalence key: equal exactly for positions with the same game tree shape
        under relabelling, rotations, reordering, mirroring regions and sound reductions."""
        from engine.sprouts.canon import canonical

        return canonical(self)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return self.regions == other.regions and self._lives == other._lives

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash((self.regions, tuple(sorted(self._lives.items()))))
        return self._hash

    def __repr__(self) -> str:
        return f"Position.parse({str(self)!r})"

    def __str__(self) -> str:
        return format_glop(self.regions, self._lives)

    # -- moves -----------------------------------------------------------------------------

    def moves(
        self, *, distinct: bool = False, between: tuple[int, int] | None = None
    ) -> Iterator[Move]:
        """Every move on paper up to topology, each once (their children may coincide).

        With ``distinct=True``, moves that differ only in which of several alike boundaries
        they use are given once: boundaries of a region sharing no spot with another region
        and with the same walk are interchangeable (the children are equal up to renaming).
        The solver uses this; the drawing wants every move. ``between=(a, b)`` gives only
        the moves joining spots ``a`` and ``b``, in the same order.
        """
        lives = self._lives
        ends = None if between is None else set(between)
        shared = self._shared_spots() if distinct else set()
        for r, region in enumerate(self.regions):
            if distinct:
                groups = _alike(region, lives, shared)
            else:
                groups = [[i] for i in range(len(region))]
            rank = {b: (g, k) for g, members in enumerate(groups) for k, b in enumerate(members)}

            corners = [
                (bi, i, s) for bi, bnd in enumerate(region) for i, s in enumerate(bnd) if lives[s]
            ]
            for (b1, i1, s1), (b2, i2, s2) in combinations(corners, 2):
                if s1 == s2 or not _usable(rank, b1, b2):
                    continue  # two corners of a 1-life spot: a loop needs two lives
                if ends is not None and ends != {s1, s2}:
                    continue
                if b1 != b2:
                    yield Move(r, (b1, i1), (b2, i2))
                else:
                    for side in _sides(groups, b1):
                        yield Move(r, (b1, i1), (b2, i2), side)
            for bi, i, s in corners:
                if ends is not None and ends != {s}:
                    continue
                if lives[s] >= 2 and _usable(rank, bi, bi):
                    for side in _sides(groups, bi):
                        yield Move(r, (bi, i), (bi, i), side)

    def _shared_spots(self) -> set[int]:
        """Live spots that show corners to two regions."""
        first: dict[int, int] = {}
        out = set()
        for r, region in enumerate(self.regions):
            for bnd in region:
                for s in bnd:
                    if self._lives[s] and first.setdefault(s, r) != r:
                        out.add(s)
        return out

    def children(self) -> list[Position]:
        """The child of every move of :meth:`moves`, in the same order (duplicates kept)."""
        return [self.play(m) for m in self.moves()]

    def spots_of(self, move: Move) -> tuple[int, int]:
        """The spot ids the move joins (equal for a loop)."""
        region = self.regions[move.region]
        return region[move.a[0]][move.a[1]], region[move.b[0]][move.b[1]]

    def play(self, move: Move) -> Position:
        """The child after ``move``; the new spot gets id :attr:`next_spot`.

        The child's regions are this position's with region ``move.region`` replaced in place
        by the merged region, or by the split's first part then its second part. A new region's
        boundaries are the new walk first, then the region's other boundaries in their order.
        """
        try:
            region = self.regions[move.region]
            ba, ia = move.a
            bb, ib = move.b
            a, b = region[ba][ia], region[bb][ib]
        except (IndexError, TypeError, ValueError, AttributeError):
            raise BadPosition(f"no such move {move!r} in {self}") from None
        lives = self._lives
        loop = move.a == move.b
        if lives[a] < (2 if loop else 1) or lives[b] < 1 or (a == b and not loop):
            raise BadPosition(f"move {move!r} needs lives that spots {a}, {b} do not have")
        c = self.next_spot
        new_lives = dict(lives)
        new_lives[a] -= 1
        new_lives[b] -= 1
        new_lives[c] = 1
        others = [i for i in range(len(region)) if i not in (ba, bb)]
        walk_a = _rotate(region[ba], ia)
        new: tuple[Region, ...]
        if ba != bb:
            if move.first_side:
                raise BadPosition("a merging move has no sides")
            part_a = walk_a if lives[a] == MAX_LIVES else (*walk_a, a)
            walk_b = _rotate(region[bb], ib)
            part_b = walk_b if lives[b] == MAX_LIVES else (*walk_b, b)
            merged = (*part_a, c, *part_b, c)
            new = ((merged, *(region[i] for i in others)),)
        else:
            side = move.first_side
            if not side <= set(others):
                raise BadPosition(f"move {move!r} names a boundary that is not in the region")
            if loop:
                first: Boundary = (a, c)
                second: Boundary = (a, c) if lives[a] == MAX_LIVES else (*walk_a, a, c)
            else:
                k = (ib - ia) % len(region[ba])
                first = (*walk_a[: k + 1], c)
                second = (*walk_a[k:], a, c)
            new = (
                (first, *(region[i] for i in others if i in side)),
                (second, *(region[i] for i in others if i not in side)),
            )
        regions = (*self.regions[: move.region], *new, *self.regions[move.region + 1 :])
        return Position(regions, new_lives, check=False)


class _GlopReader:
    """Builds explicit regions from GLOP text, one land at a time."""

    def __init__(self) -> None:
        self.regions: list[list[list[int]]] = []
        self.lives: dict[int, int] = {}

    def spot(self, lives: int) -> int:
        s = len(self.lives) + 1
        self.lives[s] = lives
        return s

    def land(self, text: str) -> None:
        upper: dict[str, tuple[int, list[int]]] = {}  # letter -> (spot, regions it lies in)
        for region_text in text.split("|"):
            self.region(region_text, upper)
        for ch, (_, where) in upper.items():
            if len(where) != 2:
                raise BadPosition(f"uppercase {ch} must lie in two regions of its land")

    def region(self, text: str, upper: dict[str, tuple[int, list[int]]]) -> None:
        r = len(self.regions)
        region: list[list[int]] = []
        self.regions.append(region)
        for part in text.split("."):
            m = _REPEAT.fullmatch(part)
            if m is not None and int(m.group(1)) >= 1:
                region.extend([self.spot(3)] for _ in range(int(m.group(1))))
                continue
            if not part:
                raise BadPosition("empty boundary, region or land")
            lower: dict[str, tuple[int, list[int]]] = {}  # scoped to the walk: both corners
            walk = []
            for ch in part:
                if ch in "012":
                    if ch == "0" and len(part) > 1:
                        raise BadPosition(f"a 3-life spot 0 stands alone, not in {part!r}")
                    walk.append(self.spot(3 - int(ch)))
                elif "A" <= ch <= "Z":
                    if ch not in upper:
                        upper[ch] = (self.spot(1), [])
                    s, where = upper[ch]
                    if r in where:
                        raise BadPosition(f"{ch} lies twice in one region")
                    where.append(r)
                    walk.append(s)
                elif "a" <= ch <= "z":
                    if ch not in lower:
                        lower[ch] = (self.spot(1), [])
                    s, uses = lower[ch]
                    uses.append(len(walk))
                    walk.append(s)
                else:
                    raise BadPosition(f"unexpected {ch!r} in {part!r}")
            for ch, (_, uses) in lower.items():
                if len(uses) != 2:
                    raise BadPosition(f"lowercase {ch} must appear twice on one boundary")
            region.append(walk)


def _rotate(bnd: Boundary, i: int) -> Boundary:
    return bnd[i:] + bnd[:i]


def _usable(rank: Mapping[int, tuple[int, int]], b1: int, b2: int) -> bool:
    """Whether a move between boundaries ``b1`` and ``b2`` uses the first of each group of
    alike boundaries (the first two when both ends lie in one group)."""
    (g1, k1), (g2, k2) = rank[b1], rank[b2]
    if b1 == b2:
        return k1 == 0
    if g1 == g2:
        return {k1, k2} == {0, 1}
    return k1 == 0 and k2 == 0


def _sides(groups: Sequence[Sequence[int]], skip: int) -> Iterator[frozenset[int]]:
    """Every way to send the region's other boundaries to the first side of a split; within
    a group of alike boundaries only how many go matters."""
    rest = [[b for b in g if b != skip] for g in groups]
    rest = [g for g in rest if g]
    for counts in product(*(range(len(g) + 1) for g in rest)):
        yield frozenset(b for g, k in zip(rest, counts, strict=True) for b in g[:k])


def _alike(region: Region, lives: Mapping[int, int], shared: set[int]) -> list[list[int]]:
    """Group a region's boundaries into interchangeable ones (a boundary with a shared spot
    is alone in its group)."""
    groups: dict[object, list[int]] = {}
    for bi, bnd in enumerate(region):
        live = [s for s in bnd if lives[s]]
        key: object
        if any(s in shared for s in live):
            key = bi
        else:
            at: dict[int, list[int]] = {}
            for i, s in enumerate(live):
                at.setdefault(s, []).append(i)
            toks = []
            for i, s in enumerate(live):
                if len(at[s]) == 2:  # a lowercase spot: the distance to its other corner
                    other = at[s][1] if at[s][0] == i else at[s][0]
                    toks.append(-((other - i) % len(live)))
                else:
                    toks.append(lives[s])
            key = min((tuple(toks[i:] + toks[:i]) for i in range(len(toks))), default=())
        groups.setdefault(key, []).append(bi)
    return list(groups.values())


def lands_of(regions: Sequence[Region], live: Mapping[int, int]) -> list[list[int]]:
    """Group region indices into lands: regions linked by a shared live spot, in order."""
    parent = list(range(len(regions)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    first_region: dict[int, int] = {}
    for r, region in enumerate(regions):
        for bnd in region:
            for s in bnd:
                if live.get(s, 0) > 0:
                    q = first_region.setdefault(s, r)
                    parent[find(r)] = find(q)
    groups: dict[int, list[int]] = {}
    for r in range(len(regions)):
        groups.setdefault(find(r), []).append(r)
    return list(groups.values())


def format_glop(regions: Sequence[Region], lives: Mapping[int, int]) -> str:
    """GLOP 2.x text of explicit regions: dead spots, then empty boundaries and regions, are
    left out; lands are printed in the order of their first region."""
    live_regions = [
        tuple(kept for bnd in region if (kept := tuple(s for s in bnd if lives[s] > 0)))
        for region in regions
    ]
    live_regions = [r for r in live_regions if r]
    where: dict[int, set[int]] = {}
    for r, region in enumerate(live_regions):
        for bnd in region:
            for s in bnd:
                where.setdefault(s, set()).add(r)
    count: dict[int, int] = {}
    for region in live_regions:
        for bnd in region:
            for s in bnd:
                count[s] = count.get(s, 0) + 1
    lands = []
    for group in lands_of(live_regions, lives):
        upper: dict[int, str] = {}
        texts = []
        for r in group:
            lower: dict[int, str] = {}
            parts: list[str] = []
            for bnd in live_regions[r]:
                chars = []
                for s in bnd:
                    life = lives[s]
                    if life > 1 or count[s] == 1:
                        chars.append(str(3 - life))
                    elif len(where[s]) > 1:
                        chars.append(upper.setdefault(s, _letter(len(upper))))
                    else:
                        chars.append(lower.setdefault(s, _letter(len(lower)).lower()))
                parts.append("".join(chars))
            texts.append(_join_boundaries(parts))
        lands.append("|".join(texts))
    return "+".join(lands)


def _letter(i: int) -> str:
    if i >= len(_LETTERS):
        raise BadPosition("more than 26 letters of one kind do not fit GLOP notation")
    return _LETTERS[i]


def _join_boundaries(parts: Sequence[str]) -> str:
    """Join boundaries with ``.``, writing a run of two or more isolated spots as ``0*k``."""
    out: list[str] = []
    i = 0
    while i < len(parts):
        j = i
        while j < len(parts) and parts[j] == "0":
            j += 1
        if j - i >= 2:
            out.append(f"0*{j - i}")
            i = j
        else:
            out.append(parts[i])
            i += 1
    return ".".join(out)
