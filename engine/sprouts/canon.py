"""Reduction and canonical form: one key per class of equivalent Sprouts positions.

Reductions (each keeps the game tree exactly, so they never merge inequivalent positions,
in normal or misère play):

* dead spots leave the walks; boundaries left empty disappear;
* a region where no move is possible (no spot with two lives, fewer than two live spots)
  disappears; a 1-life spot then shown only once is written ``2``;
* a 1-life spot whose two corners are next to each other on a walk (``…aa…``) keeps one:
  either corner gives the same children;
* a region with exactly two lives has exactly one move left, whose only effect is that its
  spots lose their lives; it becomes the single walk of its shared spots padded with ``2``;
* regions linked by no live spot are independent *lands*.

The key of a land is the least encoding over every relabelling of spots, rotation of walks,
order of boundaries and regions, and mirror image of each region on its own (a region's
contents evolve apart from the others, sharing only lives, so each may be reflected alone).
In the encoding a shared spot shows only an invariant colour: what the two regions it joins
look like, read from the spot, refined until stable. When the colours tell every shared spot
apart, the least encoding is just the sorted least regions; otherwise the spots left alike
are told apart in every possible way (individualisation and refinement, as in nauty) and
the least result is kept, trying once only the spots that an automorphism already found
exchanges. The key is exact: equal keys mean isomorphic reduced positions.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from itertools import count

from engine.sprouts.position import Position, Region, lands_of

# Tokens of the internal encoding. Separators are smallest, so choosing the least first
# boundary (region) greedily gives the least whole string.
_REGION_SEP = 0
_BOUND_SEP = 1
_ZERO, _ONE, _TWO = 2, 3, 4  # spots with 3 lives, 2 lives, 1 life shown once
_LOWER = 8  # + distance forward to the other corner of a lowercase spot
_MARK = 200  # tokens from here up are not lowercase distances
_UPPER = 256  # + colour of a shared spot
_KIND_LOWER = -2
_KIND_UPPER = -1

Land = tuple[Region, ...]
# A walk's least rotation forwards, its least rotation mirrored, and its mirrored tokens.
WalkForms = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]

_FORMS: dict[tuple[int, ...], WalkForms] = {}
_FORMS_MAX = 200_000
# A land's exact structure (region, boundary, spot names with lives) -> its key.
_KEYS: dict[tuple[tuple[tuple[int, ...], ...], ...], str] = {}
_KEYS_MAX = 500_000
_fresh_ids = count(-1, -1)  # ids of the private 1-life spots that normalising creates


def reduce(position: Position, *, simplify: bool = True) -> tuple[list[Land], dict[int, int]]:
    """The independent lands of ``position`` and the lives of their spots.

    With ``simplify=False`` only dead spots and spotless regions go (the tests use this to
    check that the other reductions keep the game tree).
    """
    lives = {s: v for s, v in position.spots.items() if v > 0}
    regions: list[list[list[int]]] = []
    for region in position.regions:
        bnds = [kept for bnd in region if (kept := [s for s in bnd if s in lives])]
        if not bnds:
            continue
        if simplify:
            spots = {s for bnd in bnds for s in bnd}
            if len(spots) < 2 and lives[next(iter(spots))] < 2:
                continue  # no move possible here
        regions.append(bnds)
    if simplify:
        _simplify(regions, lives)
    frozen = [tuple(tuple(b) for b in r) for r in regions]
    return [tuple(frozen[r] for r in group) for group in lands_of(frozen, lives)], lives


def _simplify(regions: list[list[list[int]]], lives: dict[int, int]) -> None:
    where: dict[int, int] = {}
    for region in regions:
        for s in {s for bnd in region for s in bnd}:
            where[s] = where.get(s, 0) + 1
    for i, region in enumerate(regions):
        for bnd in region:
            _merge_adjacent_corners(bnd, lives)
        spots = {s for bnd in region for s in bnd}
        if sum(lives[s] for s in spots) == 2:
            shared = sorted(s for s in spots if where[s] > 1)
            pad = []
            for _ in range(2 - len(shared)):
                s = next(_fresh_ids)
                lives[s] = 1
                pad.append(s)
            regions[i] = [shared + pad]


def _merge_adjacent_corners(bnd: list[int], lives: Mapping[int, int]) -> None:
    """Drop one of two neighbouring corners of a 1-life spot, until none is left."""
    i = 0
    while len(bnd) > 1 and i < len(bnd):
        j = (i + 1) % len(bnd)
        if bnd[i] == bnd[j] and lives[bnd[i]] == 1:
            del bnd[j]
            i = max(0, i - 1)
        else:
            i += 1


def canonical(position: Position, *, simplify: bool = True) -> str:
    """The canonical key of a whole position: sorted land keys joined by ``+``."""
    return "+".join(sorted(land_keys(position, simplify=simplify)))


def land_keys(position: Position, *, simplify: bool = True) -> list[str]:
    """The canonical key of every land of ``position`` (unsorted)."""
    lands, lives = reduce(position, simplify=simplify)
    return [land_key(land, lives) for land in lands]


def land_key(land: Land, lives: Mapping[int, int]) -> str:
    """The canonical GLOP text of one land (regions already reduced), memoised on the
    land's exact structure up to the names of its spots."""
    names: dict[int, int] = {}
    shape = tuple(
        tuple(tuple(names.setdefault(s, len(names) * 4 + lives[s]) for s in b) for b in r)
        for r in land
    )
    key = _KEYS.get(shape)
    if key is None:
        key = _Canon(land, lives).key()
        if len(_KEYS) >= _KEYS_MAX:
            _KEYS.clear()
        _KEYS[shape] = key
    return key


class _Canon:
    """The least encoding of one land, and its GLOP text."""

    def __init__(self, land: Land, lives: Mapping[int, int]) -> None:
        self.land = land
        regions_of: dict[int, list[int]] = {}
        count: dict[int, int] = {}
        for r, region in enumerate(land):
            for bnd in region:
                for s in bnd:
                    count[s] = count.get(s, 0) + 1
                    if r not in regions_of.setdefault(s, []):
                        regions_of[s].append(r)
        kind: dict[int, int] = {}
        for s, c in count.items():
            life = lives[s]
            if life == 3:
                kind[s] = _ZERO
            elif life == 2:
                kind[s] = _ONE
            elif c == 1:
                kind[s] = _TWO
            elif len(regions_of[s]) == 1:
                kind[s] = _KIND_LOWER
            else:
                kind[s] = _KIND_UPPER
        self.kind = kind
        self.regions_of = regions_of
        self.shared = [s for s, k in kind.items() if k == _KIND_UPPER]
        # Each walk's tokens with shared spots left blank, and where those spots sit.
        self.templates: list[list[tuple[list[int], list[tuple[int, int]]]]] = [
            [self._template(bnd) for bnd in region] for region in land
        ]
        self.place = {
            (s, r): (w, i)
            for r, region in enumerate(land)
            for w, bnd in enumerate(region)
            for i, s in enumerate(bnd)
            if kind[s] == _KIND_UPPER
        }

    def key(self) -> str:
        self.best: list[int] | None = None
        self.best_names: dict[int, int] = {}  # colour -> shared spot, at the best leaf
        self.autos: list[dict[int, int]] = []  # automorphisms found (on shared spots)
        self.swaps: list[tuple[int, int]] = []  # those that exchange two spots only
        colour = self._refine(dict.fromkeys(self.shared, 0))
        self._find_swaps(colour)
        self._explore(colour, [], refined=True)
        assert self.best is not None
        return _text(self.best)

    def _find_swaps(self, colour: Mapping[int, int]) -> None:
        """Record each exchange of two alike shared spots that maps every region onto
        itself (as in a two-spot walk ``AB``): the search then tries only one of them."""
        classes: dict[int, list[int]] = {}
        for s, c in colour.items():
            classes.setdefault(c, []).append(s)
        for members in classes.values():
            for i, a in enumerate(members):
                for b in members[i + 1 :]:
                    if self._swap_fixes(a, b):
                        swap = dict(zip(self.shared, self.shared, strict=True))
                        swap[a], swap[b] = b, a
                        self.autos.append(swap)
                        self.swaps.append((a, b))

    def _swap_fixes(self, a: int, b: int) -> bool:
        def form(walks: Iterable[Sequence[int]]) -> list[tuple[int, ...]]:
            return sorted(_least_rotation(tuple(w)) for w in walks)

        for r in set(self.regions_of[a]) | set(self.regions_of[b]):
            region = self.land[r]
            swapped = [[b if s == a else a if s == b else s for s in w] for w in region]
            same = form(region)
            if form(swapped) != same and form(w[::-1] for w in swapped) != same:
                return False
        return True

    def _explore(self, colour: dict[int, int], path: list[int], refined: bool = False) -> None:
        """Individualise and refine (after nauty): the least sorted-regions encoding over
        every way the refinement leaves open to tell the shared spots apart. Two leaves
        with equal encodings reveal an automorphism; spots in one orbit of the automorphisms
        that fix the path so far are tried only once."""
        if not refined:
            colour = self._refine(colour)
        classes: dict[int, list[int]] = {}
        for s, c in colour.items():
            classes.setdefault(c, []).append(s)
        ties = [(len(v), c) for c, v in classes.items() if len(v) > 1]
        if not ties:
            enc = self._sorted_regions(colour)
            if self.best is None or enc < self.best:
                self.best = enc
                self.best_names = {c: s for s, c in colour.items()}
            elif enc == self.best:
                self.autos.append({s: self.best_names[c] for s, c in colour.items()})
            return
        # A class whose spots the exchanges found link together: every choice in it gives
        # the same result, and exchanges move nothing else, so take one of each such class
        # at once without branching.
        forced = [v[0] for v in classes.values() if len(v) > 1 and self._linked(v)]
        if forced:
            chosen = set(forced)
            self._explore({t: 2 * c + (t not in chosen) for t, c in colour.items()}, path + forced)
            return
        members = classes[min(ties)[1]]
        tried: list[int] = []
        for s in members:
            if tried and self._same_orbit(s, tried, members, path):
                continue
            tried.append(s)
            split = {t: 2 * c + (t != s) for t, c in colour.items()}
            self._explore(split, [*path, s])

    def _linked(self, members: list[int]) -> bool:
        """Whether the exchanges within ``members`` connect them all."""
        inside = set(members)
        parent = {m: m for m in members}

        def find(x: int) -> int:
            while parent[x] != x:
                x = parent[x]
            return x

        for a, b in self.swaps:
            if a in inside and b in inside:
                parent[find(a)] = find(b)
        return len({find(m) for m in members}) == 1

    def _same_orbit(self, s: int, tried: list[int], members: list[int], path: list[int]) -> bool:
        """Whether an automorphism fixing ``path`` maps ``s`` to a spot already tried."""
        gens = [g for g in self.autos if all(g[p] == p for p in path)]
        if not gens:
            return False
        parent = {m: m for m in members}

        def find(x: int) -> int:
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        for g in gens:
            for m in members:
                parent[find(m)] = find(g[m])
        root = find(s)
        return any(find(t) == root for t in tried)

    def _template(self, bnd: Sequence[int]) -> tuple[list[int], list[tuple[int, int]]]:
        """A walk's tokens from its first corner: a lowercase spot shows the distance
        forward to its other corner; shared spots are left for their colours."""
        kind = self.kind
        n = len(bnd)
        out = []
        shared = []
        first: dict[int, int] = {}
        for i, s in enumerate(bnd):
            k = kind[s]
            if k >= 0:
                out.append(k)
            elif k == _KIND_LOWER:
                j = first.get(s)
                if j is None:
                    first[s] = i
                    out.append(0)  # set when the other corner is met
                else:
                    out[j] = _LOWER + i - j
                    out.append(_LOWER + n - (i - j))
            else:
                out.append(_UPPER)
                shared.append((i, s))
        return out, shared

    def _walk_tokens(self, r: int, w: int, colour: Mapping[int, int]) -> list[int]:
        base, shared = self.templates[r][w]
        if not shared:
            return base
        toks = list(base)
        for i, s in shared:
            toks[i] = _UPPER + colour[s]
        return toks

    def _walk_forms(self, toks: list[int]) -> WalkForms:
        """A walk's least rotation read forwards, mirrored, and the mirrored tokens."""
        key = tuple(toks)
        hit = _FORMS.get(key)
        if hit is None:
            n = len(toks)
            back = tuple(
                _LOWER + n - (t - _LOWER) if _LOWER <= t < _MARK else t for t in reversed(toks)
            )
            hit = (_least_rotation(key), _least_rotation(back), back)
            if len(_FORMS) > _FORMS_MAX:
                _FORMS.clear()
            _FORMS[key] = hit
        return hit

    def _forms(self, colour: Mapping[int, int]) -> list[list[WalkForms]]:
        """Per region, per walk: its least forms read forwards and mirrored."""
        return [
            [self._walk_forms(self._walk_tokens(r, w, colour)) for w in range(len(region))]
            for r, region in enumerate(self.land)
        ]

    @staticmethod
    def _orient(walks: Sequence[WalkForms]) -> tuple[tuple[tuple[int, ...], ...], int]:
        """A region's least form over its two mirror images, and which image gives it
        (0 forwards, 1 mirrored, -1 both)."""
        if len(walks) == 1:
            f, b = walks[0][0], walks[0][1]
            return ((f,), 0) if f < b else ((b,), 1) if b < f else ((f,), -1)
        fwd = sorted(w[0] for w in walks)
        rev = sorted(w[1] for w in walks)
        if fwd < rev:
            return tuple(fwd), 0
        if rev < fwd:
            return tuple(rev), 1
        return tuple(fwd), -1

    def _refine(self, colour: dict[int, int]) -> dict[int, int]:
        """Colour refinement: a shared spot's colour grows by the forms of its two regions
        and its own walk read from it, until the classes stop splitting."""
        classes = len(set(colour.values()))
        while classes < len(self.shared):
            forms = self._forms(colour)
            regions = [self._orient(walks) for walks in forms]
            sig = {}
            for s in self.shared:
                seen = []
                for r in self.regions_of[s]:
                    w, i = self.place[(s, r)]
                    toks = self._walk_tokens(r, w, colour)
                    back = forms[r][w][2]
                    j = len(toks) - 1 - i
                    form, side = regions[r]
                    fwd = tuple(toks[i:]) + tuple(toks[:i])
                    rev = back[j:] + back[:j]
                    rooted = fwd if side == 0 else rev if side == 1 else min(fwd, rev)
                    seen.append((form, rooted))
                sig[s] = (colour[s], *sorted(seen))
            ranks = {v: i for i, v in enumerate(sorted(set(sig.values())))}
            colour = {s: ranks[sig[s]] for s in self.shared}
            if len(ranks) == classes:
                break
            classes = len(ranks)
        return colour

    def _sorted_regions(self, colour: Mapping[int, int]) -> list[int]:
        out: list[int] = []
        forms = self._forms(colour)
        for form in sorted(self._orient(walks)[0] for walks in forms):
            if out:
                out.append(_REGION_SEP)
            for i, walk in enumerate(form):
                if i:
                    out.append(_BOUND_SEP)
                out.extend(walk)
        return out


def _least_rotation(t: tuple[int, ...]) -> tuple[int, ...]:
    n = len(t)
    if n <= 1:
        return t
    tt = t + t
    return min(tt[i : i + n] for i in range(n))


_DIGITS = {_ZERO: "0", _ONE: "1", _TWO: "2"}
_UPPERCASE = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _text(tokens: list[int]) -> str:
    """GLOP text of a least encoding: shared spots named in order of first appearance,
    lowercase ones per region, and a run of isolated spots written ``0*k``."""
    if not tokens:
        return ""
    regions: list[list[list[int]]] = [[[]]]
    for t in tokens:
        if t == _REGION_SEP:
            regions.append([[]])
        elif t == _BOUND_SEP:
            regions[-1].append([])
        else:
            regions[-1][-1].append(t)
    upper: dict[int, str] = {}
    texts = []
    for region in regions:
        lowers = 0
        parts: list[str] = []
        zeros = 0
        for walk in region:
            if walk == [_ZERO]:
                zeros += 1
                continue
            n = len(walk)
            partner: dict[int, str] = {}
            chars = []
            for i, t in enumerate(walk):
                if t >= _UPPER:
                    if t not in upper:
                        upper[t] = _UPPERCASE[len(upper)]
                    chars.append(upper[t])
                elif t >= _LOWER:
                    ch = partner.pop(i, None)
                    if ch is None:
                        ch = _UPPERCASE[lowers].lower()
                        lowers += 1
                        partner[(i + t - _LOWER) % n] = ch
                    chars.append(ch)
                else:
                    chars.append(_DIGITS[t])
            parts.append("".join(chars))
        if zeros:
            parts.insert(0, "0" if zeros == 1 else f"0*{zeros}")
        texts.append(".".join(parts))
    return "|".join(texts)
