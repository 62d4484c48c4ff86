"""Every move on paper, named for people: ``1-2``, ``3-3``, ``1-2 [4,5]`` and qualifiers.

A move on paper is a move of the derived :class:`Position` (region, corners, which other
boundaries go to each side) plus, in the plane, one more choice when the curve splits the
*unbounded* face: which of the two new faces is the bounded one (the closed line may go
round the spots or leave them out). Two moves that differ in any of these give pictures that
no deformation of the plane turns into each other, so both are listed (the position solver
may still see the two children as the same game).

Notation (the order of the two spots does not matter; the smaller is written first)::

    a-b [e,f,...] @r a:x cw #k

* ``a-b`` joins spots ``a`` and ``b``; ``a-a`` is a loop.
* ``[e,f,...]`` — the spots the new closed line encloses, when the move closes one (every
  spot strictly inside, dead ones too; nothing written means none). A curve across a bounded
  region between two spots of its outer edge makes two closed lines; there the brackets name
  the spots on the LEFT of the new curve going from the smaller-numbered spot to the larger,
  as seen on the picture.
* ``@r`` — only when the two spots share more than one region: a spot (live when possible)
  on the edge of the chosen region and of no other region they share; ``@out`` for the
  outer (unbounded) region and ``@in`` for the other when no spot tells them apart
  (``@in1``, ``@in2``… in a fixed order when several bounded regions share all their spots,
  e.g. the two sides of a path across the inside of a loop).
* ``a:x`` — only when spot ``a`` shows two corners to the region: the corner that starts at
  its curve towards spot ``x`` and turns clockwise on the picture.
* ``cw``/``ccw`` — only when all of the above still leaves two moves (a curve between two
  spots of one piece, round it one way or the other, enclosing the same spots either way):
  the turn on the picture of the closed line, read from the smaller-numbered spot along the
  new curve.
* ``#k`` — a last-resort index among moves that nothing above tells apart (not expected).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Container, Iterable
from dataclasses import dataclass
from typing import Any

from engine.core import BadNotation
from engine.sprouts import position as pos
from engine.sprouts.drawing import Drawing, Face, Spot, Walk


@dataclass(frozen=True, slots=True)
class Move:
    """A move on paper as written: end spots ``a <= b`` and only the qualifiers that this
    position needs (see the module notation). ``inside`` lists the enclosed spots."""

    a: int
    b: int
    inside: tuple[int, ...] = ()
    region: str | None = None
    corner_a: int | None = None
    corner_b: int | None = None
    turn: str | None = None
    variant: int | None = None

    def to_json(self) -> list[Any]:
        out: list[Any] = [
            self.a,
            self.b,
            list(self.inside),
            self.region,
            self.corner_a,
            self.corner_b,
            self.turn,
            self.variant,
        ]
        while out and out[-1] is None:
            out.pop()
        return out

    @classmethod
    def from_json(cls, data: Any) -> Move:
        if not isinstance(data, list) or not 2 <= len(data) <= 8:
            raise ValueError(f"bad move record {data!r}")
        a, b, *rest = data
        inside = tuple(rest[0]) if rest else ()
        extra = (rest[1:] + [None] * 5)[:5]
        m = cls(a, b, inside, *extra)
        if not _well_formed(m):
            raise ValueError(f"bad move record {data!r}")
        return m

    def __str__(self) -> str:
        return format_move(self)


def _well_formed(m: Any) -> bool:
    def num(v: Any) -> bool:
        return type(v) is int and v > 0

    return (
        isinstance(m, Move)
        and num(m.a)
        and num(m.b)
        and m.a <= m.b
        and isinstance(m.inside, tuple)
        and all(num(s) for s in m.inside)
        and (m.region is None or (isinstance(m.region, str) and m.region.isalnum()))
        and (m.corner_a is None or num(m.corner_a))
        and (m.corner_b is None or num(m.corner_b))
        and m.turn in (None, "cw", "ccw")
        and (m.variant is None or num(m.variant))
    )


@dataclass(frozen=True, slots=True)
class Choice:
    """How to draw a :class:`Move`: the position's move, which part of a split is the
    enclosed one (0: the position's first part, 1: its second; None for a merge), and what
    the keyboard shows about it."""

    move: Move
    pmove: pos.Move
    inner: int | None
    face: int
    inside: frozenset[int]
    reach: tuple[int, ...]  # live spots on the region's edge besides the two ends


class MoveTable:
    """Every legal move of one drawing, in a fixed order, with lookups by pair and text.

    Built a pair of spots at a time, when asked: a tap needs one pair's moves, while a young
    game lists many (a 12-spot game's first position has 24,642 moves and took 0.9 s to
    name them all, its children tens of milliseconds). The order and the names are those of
    the whole list: a pair's moves depend on that pair alone."""

    def __init__(self, drawing: Drawing) -> None:
        # What naming needs, not the drawing: the drawing keeps its table, and a table that
        # kept the drawing would make a reference cycle, every dropped drawing (and its
        # thousands of moves) left for the cyclic garbage collector to find.
        self._parts = (drawing.position, drawing.faces, drawing.walks, drawing.spots)
        self._namer: _Namer | None = None
        self._between: dict[tuple[int, int], list[Move]] = {}
        self._choices: dict[Move, Choice] = {}
        self._whole = False
        self.pairs: frozenset[tuple[int, int]] = _pairs(drawing)

    def between(self, a: int, b: int) -> list[Move]:
        """The moves joining spots ``a <= b``, in the table's order (shared: do not change)."""
        moves = self._between.get((a, b))
        if moves is None:
            if (a, b) not in self.pairs:
                return []
            moves = self._keep(a, b, self._named().pair(a, b))
        return moves

    def _named(self) -> _Namer:
        if self._namer is None:
            self._namer = _Namer(*self._parts)
        return self._namer

    def _keep(self, a: int, b: int, choices: list[Choice]) -> list[Move]:
        moves = [ch.move for ch in choices]
        self._choices.update((ch.move, ch) for ch in choices)
        self._between[(a, b)] = moves
        return moves

    def choice(self, move: Move) -> Choice | None:
        """How to draw ``move``, or None when it is not a legal move here."""
        if move not in self._choices:
            self.between(move.a, move.b)
        return self._choices.get(move)

    @property
    def moves(self) -> list[Move]:
        """Every move: pair by pair in the order of the spots."""
        self._complete()
        return [m for pair in sorted(self._between) for m in self._between[pair]]

    @property
    def choices(self) -> dict[Move, Choice]:
        """Every move's :class:`Choice`."""
        self._complete()
        return self._choices

    def _complete(self) -> None:
        """The pairs not built yet, in one pass over the position."""
        if not self._whole:
            for (a, b), choices in self._named().every(skip=self._between).items():
                self._keep(a, b, choices)
            self._whole = True

    def parse(self, text: str, spots: int, lives: dict[int, int]) -> Move:
        return _parse(self, text, spots, lives)


def _pairs(drawing: Drawing) -> frozenset[tuple[int, int]]:
    """The pairs of spots some move joins, without listing the moves: any two live spots
    on one region, and a spot with two lives or more on a region to itself (every such
    corner pair and loop has a move on paper, see :meth:`_Namer._raw`)."""
    lives = {s.number: s.lives for s in drawing.spots}
    out: set[tuple[int, int]] = set()
    for region in drawing.position.regions:
        live = sorted({s for bnd in region for s in bnd if lives[s]})
        out.update((s, t) for i, s in enumerate(live) for t in live[i + 1 :])
        out.update((s, s) for s in live if lives[s] >= 2)
    return frozenset(out)


class _Namer:
    """What naming a pair's moves needs from the drawing, derived once per table."""

    def __init__(
        self, position: pos.Position, faces: list[Face], walks: list[Walk], spots: tuple[Spot, ...]
    ) -> None:
        self.p = position
        self.faces = faces
        self.lives = {s.number: s.lives for s in spots}
        # spot sets as bit masks (bit s for spot s); a spot lies on one boundary of a region
        self.masks = [[_mask(walks[w].spots) for w in f.walks] for f in self.faces]
        self.face_all = [_or(ms) for ms in self.masks]
        self.corner_names: dict[tuple[int, int, int], int | None] = {}
        self.walk_parts: dict[tuple[int, int, int, int], tuple[int, int]] = {}
        self.spots_of: dict[int, tuple[int, ...]] = {}

    def pair(self, a: int, b: int) -> list[Choice]:
        return self._named(a, b, self._raw(self.p.moves(between=(a, b))))

    def every(self, skip: Container[tuple[int, int]]) -> dict[tuple[int, int], list[Choice]]:
        """Every pair's moves but those in ``skip``, from one pass over the position."""
        groups: dict[tuple[int, int], list[tuple[Any, ...]]] = defaultdict(list)
        for item in self._raw(self.p.moves()):
            if (item[0], item[1]) not in skip:
                groups[(item[0], item[1])].append(item)
        return {pair: self._named(*pair, items) for pair, items in groups.items()}

    def _raw(self, pmoves: Iterable[pos.Move]) -> list[tuple[Any, ...]]:
        """Each position move with the facts that name it: its spots (smaller first), region,
        corners, enclosed spots, turn, and which part of a split is enclosed."""
        p, faces, lives, masks, face_all = self.p, self.faces, self.lives, self.masks, self.face_all
        raw: list[tuple[Any, ...]] = []
        for pm in pmoves:
            r = pm.region
            region = p.regions[r]
            (ba, ia), (bb, ib) = pm.a, pm.b
            sa, sb = region[ba][ia], region[bb][ib]
            bounded = faces[r].outer is not None
            inside = 0
            turn = None
            one = two = 0
            variants: tuple[int | None, ...] = (None,)
            if ba == bb:
                loop = pm.a == pm.b
                key = (r, ba, ia, ib)
                parts = self.walk_parts.get(key)
                if parts is None:
                    walk = region[ba]
                    wa = walk[ia:] + walk[:ia]
                    k = (ib - ia) % len(walk)
                    parts = (_mask(wa[: k + 1]), _mask((*wa[k:], sa)))
                    self.walk_parts[key] = parts
                side = 0
                for i in pm.first_side:
                    side |= masks[r][i]
                rest = face_all[r] & ~masks[r][ba] & ~side
                one, two = parts[0] | side, parts[1] | rest
                fresh = loop and lives[sa] == 3
                if not bounded:
                    variants = (0,) if fresh else (0, 1)
                elif ba == 0:
                    variants = (0 if (loop or sa < sb) else 1,)
                elif 0 in pm.first_side:
                    variants = () if fresh else (1,)  # a fresh loop's two readings: keep one
                else:
                    variants = (0,)
            ca = _corner(self.corner_names, region, r, ba, ia, sa, lives)
            cb = _corner(self.corner_names, region, r, bb, ib, sb, lives)
            for inner in variants:
                if inner is not None:
                    mine, other = (one, two) if inner == 0 else (two, one)
                    inside = mine & ~other & ~(1 << sa) & ~(1 << sb)
                    if sa != sb and not (bounded and ba == 0):
                        turn = "ccw" if (inner == 0) == (sa < sb) else "cw"
                if sa <= sb:
                    raw.append((sa, sb, r, ca, cb, inside, turn, pm, inner))
                else:
                    raw.append((sb, sa, r, cb, ca, inside, turn, pm, inner))
        return raw

    def _named(self, sa: int, sb: int, items: list[tuple[Any, ...]]) -> list[Choice]:
        """One pair's moves with the qualifiers only this pair needs, in the table's order."""
        face_set = sorted({it[2] for it in items})
        names = _region_names(face_set, self.face_all, self.faces, self.lives, sa, sb)
        by_face: dict[int, list[tuple[Any, ...]]] = defaultdict(list)
        for it in items:
            by_face[it[2]].append(it)
        built: list[tuple[tuple[Any, ...], Move, tuple[Any, ...]]] = []
        for r in face_set:
            its = by_face[r]
            need_ca = len({it[3] for it in its}) > 1
            need_cb = len({it[4] for it in its}) > 1
            region_name = names[r] if len(face_set) > 1 else None
            keyed: dict[tuple[Any, ...], list[tuple[Any, ...]]] = defaultdict(list)
            for it in its:
                keyed[(it[3] if need_ca else None, it[4] if need_cb else None, it[5])].append(it)
            for (ca, cb, inside), same in keyed.items():
                need_turn = len(same) > 1 and len({it[6] for it in same}) == len(same)
                spots = self.spots_of.get(inside)
                if spots is None:
                    spots = self.spots_of[inside] = _spots(inside)
                for k, it in enumerate(same):
                    turn = it[6] if need_turn else None
                    variant = k + 1 if len(same) > 1 and not need_turn else None
                    m = Move(sa, sb, spots, region_name, ca, cb, turn, variant)
                    order = (r, ca or 0, cb or 0, len(spots), spots, turn or "", variant or 0)
                    built.append((order, m, it))
        built.sort(key=lambda b: b[0])
        out: list[Choice] = []
        reach_of: dict[int, tuple[int, ...]] = {}
        for _, m, it in built:
            r = it[2]
            reach = reach_of.get(r)
            if reach is None:
                live = self.face_all[r] & ~(1 << sa) & ~(1 << sb)
                reach = reach_of[r] = tuple(s for s in _spots(live) if self.lives[s] > 0)
            out.append(Choice(m, it[7], it[8], r, frozenset(m.inside), reach))
        return out


def _mask(spots: Any) -> int:
    m = 0
    for s in spots:
        m |= 1 << s
    return m


def _or(ms: list[int]) -> int:
    out = 0
    for m in ms:
        out |= m
    return out


def _spots(mask: int) -> tuple[int, ...]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return tuple(out)


def _corner(
    cache: dict[tuple[int, int, int], int | None],
    region: tuple[tuple[int, ...], ...],
    r: int,
    bi: int,
    i: int,
    spot: int,
    lives: dict[int, int],
) -> int | None:
    key = (r, bi, i)
    if key not in cache:
        cache[key] = _corner_name(region, bi, i, spot, lives)
    return cache[key]


def _corner_name(
    region: tuple[tuple[int, ...], ...], bi: int, i: int, spot: int, lives: dict[int, int]
) -> int | None:
    """The corner's name when the spot shows the region two corners: the spot the walk goes
    to next from this corner."""
    if lives[spot] != 1 or sum(b.count(spot) for b in region) < 2:
        return None
    walk = region[bi]
    return walk[(i + 1) % len(walk)]


def _region_names(
    face_set: list[int],
    face_all: list[int],
    faces: list[Any],
    lives: dict[int, int],
    sa: int,
    sb: int,
) -> dict[int, str]:
    if len(face_set) < 2:
        return {}
    names: dict[int, str] = {}
    nameless = []
    for r in face_set:
        rest = _or([face_all[q] for q in face_set if q != r])
        own = _spots(face_all[r] & ~rest & ~(1 << sa) & ~(1 << sb))
        live = [s for s in own if lives[s] > 0]
        if live or own:
            names[r] = str(min(live or own))
        elif faces[r].outer is None:
            names[r] = "out"
        else:
            nameless.append(r)
    for k, r in enumerate(nameless):
        names[r] = "in" if len(nameless) == 1 else f"in{k + 1}"
    return names


# -- text --------------------------------------------------------------------------------------

_DASHES = str.maketrans({"–": "-", "—": "-", "−": "-"})
_MOVE = re.compile(
    r"(\d{1,4})(?::(\d{1,4}))?\s*-\s*(\d{1,4})(?::(\d{1,4}))?"
    r"(?:\s*@\s*([a-z0-9]{1,6}))?"
    r"(?:\s*\[\s*((?:\d{1,4}\s*(?:,\s*)?)*)\])?"
    r"(?:\s*(ccw|cw))?"
    r"(?:\s*#\s*(\d{1,3}))?"
)


def format_move(m: Move) -> str:
    text = f"{m.a}" + (f":{m.corner_a}" if m.corner_a else "")
    text += f"-{m.b}" + (f":{m.corner_b}" if m.corner_b else "")
    if m.region:
        text += f" @{m.region}"
    if m.inside:
        text += f" [{','.join(map(str, m.inside))}]"
    if m.turn:
        text += f" {m.turn}"
    if m.variant:
        text += f" #{m.variant}"
    return text


def _parse(table: MoveTable, text: str, spots: int, lives: dict[int, int]) -> Move:
    if not isinstance(text, str):
        raise BadNotation(f"not text: {text!r}", text=repr(text)[:40])
    t = text.strip().lower().translate(_DASHES)
    m = _MOVE.fullmatch(t)
    if m is None:
        raise BadNotation(
            f"{text[:40]!r} is not a move (write two spots, like 1-2)", text=text[:40]
        )
    a, ca, b, cb = (int(g) if g else None for g in m.group(1, 2, 3, 4))
    assert a is not None and b is not None
    region, turn = m.group(5), m.group(7)
    variant = int(m.group(8)) if m.group(8) else None
    inside = frozenset(int(s) for s in re.findall(r"\d+", m.group(6) or ""))
    for s in (a, b, *inside):
        if not 1 <= s <= spots:
            raise BadNotation(f"there is no spot {s}", code="no_such_spot", spot=s)
    for s in (a, b):
        if lives[s] == 0:
            raise BadNotation(f"spot {s} has no lives left", code="dead_spot", spot=s)
    if a > b:
        a, b, ca, cb = b, a, cb, ca
    cands = [
        mv
        for mv in table.between(a, b)
        if (region is None or mv.region == region)
        and (ca is None or mv.corner_a == ca)
        and (cb is None or mv.corner_b == cb)
        and (turn is None or mv.turn == turn)
        and (variant is None or mv.variant == variant)
    ]
    if not table.between(a, b):
        raise BadNotation(
            f"spots {a} and {b} cannot be joined", code="not_joinable", a=a, b=b, text=text[:40]
        )
    exact = [mv for mv in cands if frozenset(mv.inside) == inside]
    if not exact and inside:
        exact = [mv for mv in cands if inside <= frozenset(mv.inside)]
        if len(exact) > 1:
            least = min(len(mv.inside) for mv in exact)
            exact = [mv for mv in exact if len(mv.inside) == least]
    if len(exact) == 1:
        return exact[0]
    if not exact:
        raise BadNotation(f"no move {text[:40]!r} here", code="no_such_move", text=text[:40])
    options = ", ".join(format_move(mv) for mv in exact[:4])
    raise BadNotation(
        f"{text[:40]!r} could mean several moves: {options}",
        code="ambiguous_move",
        text=text[:40],
        options=options,
    )
