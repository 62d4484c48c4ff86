"""Who wins a Sprouts position, for normal and misère play.

Normal play splits a position into independent lands and adds their nimbers
(Sprague–Grundy). A land's nimber is the least ``m`` for which *land + \\*m* is a loss; each
such question is a memoised win/loss search that stops at the first losing child, so most of
the tree is never expanded. A child of several lands keeps its largest land in the search and
folds the others' nimbers into the heap. The shipped table (:mod:`engine.sprouts.tables`)
answers the small lands at once.

Misère play has no such sum rule: a memoised win/loss search over whole positions (sorted
tuples of land keys), expanding one land at a time.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from engine.sprouts import tables
from engine.sprouts.canon import land_keys
from engine.sprouts.position import Move, Position

Lands = tuple[str, ...]  # a whole position: its land keys, sorted

# Bounds on the memo tables (entries); past them a table starts afresh, which only costs
# time: every entry is a proven fact, and none is needed for a search to finish.
_CHILD_CACHE_MAX = 300_000
_MEMO_MAX = 2_000_000
_REPEAT = re.compile(r"(?<=0)\*(\d+)")


def key_lives(key: str) -> int:
    """Lives of a land (or position) from its canonical key."""
    total2 = 0  # twice the lives: a letter's one life shows at two corners
    for i, part in enumerate(_REPEAT.split(key)):
        if i % 2:  # the k of "0*k"; its first spot was counted as the "0" before it
            total2 += 6 * (int(part) - 1)
            continue
        for ch in part:
            if ch == "0":
                total2 += 6
            elif ch == "1":
                total2 += 4
            elif ch == "2":
                total2 += 2
            elif ch.isalpha():
                total2 += 1
    return total2 // 2


def _search_order(lands: Lands) -> tuple:
    """Children whose largest land is smallest first: the search on them is cheapest, and
    the smaller lands are often settled by the table."""
    lives = sorted(map(key_lives, lands), reverse=True)
    return (lives[0] if lives else 0, -len(lands), lands)


class Solver:
    """Memo tables for one process; the module functions share :data:`SOLVER`."""

    def __init__(self, table: tables.Tables | None = None, *, use_table: bool = True) -> None:
        """``table`` answers small positions at once: by default the shipped table, loaded
        on the first question; ``use_table=False`` searches everything."""
        if table is None and not use_table:
            table = tables.Tables()
        self._table = table
        self.nimbers: dict[str, int] = {}
        self.land_wins_memo: dict[tuple[str, int], bool] = {}
        self.misere_memo: dict[Lands, bool] = {}
        self.kids: dict[str, list[Lands]] = {}

    def clear(self) -> None:
        self.nimbers.clear()
        self.land_wins_memo.clear()
        self.misere_memo.clear()
        self.kids.clear()

    # -- children --------------------------------------------------------------------------

    def land_children(self, key: str) -> list[Lands]:
        """The distinct children of a land, as sorted land tuples, smallest first."""
        hit = self.kids.get(key)
        if hit is None:
            p = Position.parse(key)
            hit = self._store(
                key, {tuple(sorted(land_keys(p.play(m)))) for m in p.moves(distinct=True)}
            )
        return hit

    def children(self, lands: Lands) -> Iterable[Lands]:
        """The distinct children of a whole position (as sorted land tuples)."""
        seen: set[Lands] = set()
        for i, key in enumerate(lands):
            if i and lands[i - 1] == key:
                continue
            rest = lands[:i] + lands[i + 1 :]
            for ch in self.land_children(key):
                child = tuple(sorted(rest + ch))
                if child not in seen:
                    seen.add(child)
                    yield child

    # -- normal play -----------------------------------------------------------------------

    @property
    def table(self) -> tables.Tables:
        if self._table is None:
            self._table = tables.load()
        return self._table

    def known_nimber(self, key: str) -> int | None:
        v = self.nimbers.get(key)
        if v is None:
            v = self.table.nimbers.get(key)
        return v

    def nimber(self, key: str) -> int:
        """The nimber of one land."""
        v = self.known_nimber(key)
        if v is None:
            v = 0
            while self.land_wins(key, v):
                v += 1
            self._remember(key, v)
        return v

    def _remember(self, key: str, nimber: int) -> None:
        if len(self.nimbers) >= _MEMO_MAX:
            self.nimbers.clear()
        self.nimbers[key] = nimber

    def land_wins(self, key: str, heap: int) -> bool:
        """Whether the player to move wins *land + \\*heap* (normal play)."""
        v = self.known_nimber(key)
        if v is not None:
            return v != heap
        memo = self.land_wins_memo.get((key, heap))
        if memo is not None:
            return memo
        win = any(not self.land_wins(key, h) for h in range(heap))
        if not win:
            kids = self.kids.get(key)
            if kids is None:
                kids = self._expand(key, heap)
            if kids is None or any(self._known_loss(ch, heap) for ch in kids):
                win = True
            else:
                win = any(self.loses(ch, heap) for ch in kids)
        if len(self.land_wins_memo) >= _MEMO_MAX:
            self.land_wins_memo.clear()
        self.land_wins_memo[(key, heap)] = win
        if not win:
            self._remember(key, heap)
        return win

    def _expand(self, key: str, heap: int) -> list[Lands] | None:
        """The children of a land, or None as soon as one is a known loss with ``heap``
        (a win found before paying for the rest)."""
        p = Position.parse(key)
        found: set[Lands] = set()
        for m in p.moves(distinct=True):
            child = tuple(sorted(land_keys(p.play(m))))
            if child not in found:
                found.add(child)
                if self._known_loss(child, heap):
                    return None
        return self._store(key, found)

    def _store(self, key: str, found: set[Lands]) -> list[Lands]:
        kids = sorted(found, key=_search_order)
        if len(self.kids) >= _CHILD_CACHE_MAX:
            self.kids.clear()
        self.kids[key] = kids
        return kids

    def _known_loss(self, lands: Lands, heap: int) -> bool:
        x = heap
        for key in lands:
            v = self.known_nimber(key)
            if v is None:
                return False
            x ^= v
        return x == 0

    def loses(self, lands: Lands, heap: int = 0) -> bool:
        """Whether the player to move loses *lands + \\*heap* (normal play)."""
        if not lands:
            return heap == 0
        if heap == 0 and self.table.normal:
            known = self.table.normal.get("+".join(lands))
            if known is not None:
                return not known
        if len(lands) == 1:
            return not self.land_wins(lands[0], heap)
        # Search the largest land whose nimber is not known; the others' nimbers go into
        # the heap (known ones cost nothing).
        big = max(
            range(len(lands)),
            key=lambda i: (self.known_nimber(lands[i]) is None, key_lives(lands[i])),
        )
        x = heap
        for i, key in enumerate(lands):
            if i != big:
                x ^= self.nimber(key)
        return not self.land_wins(lands[big], x)

    # -- misère play -----------------------------------------------------------------------

    def misere_wins(self, lands: Lands) -> bool:
        """Whether the player to move wins (misère: whoever moves last loses)."""
        if not lands:
            return True
        memo = self.misere_memo.get(lands)
        if memo is None:
            memo = self.table.misere.get("+".join(lands))
        if memo is None:
            memo = any(not self.misere_wins(ch) for ch in self.children(lands))
            if len(self.misere_memo) >= _MEMO_MAX:
                self.misere_memo.clear()
            self.misere_memo[lands] = memo
        return memo

    def wins(self, lands: Lands, misere: bool = False) -> bool:
        return self.misere_wins(lands) if misere else not self.loses(lands)


SOLVER = Solver()


def lands_of(position: Position | str) -> Lands:
    """A position (or GLOP text) as the sorted tuple of its land keys."""
    if isinstance(position, str):
        position = Position.parse(position)
    return tuple(sorted(land_keys(position)))


def outcome(position: Position | str, misere: bool = False) -> bool:
    """True when the player to move wins with perfect play."""
    return SOLVER.wins(lands_of(position), misere)


def nimber(position: Position | str) -> int:
    """The nimber of a position (normal play): the XOR of its lands' nimbers."""
    x = 0
    for key in lands_of(position):
        x ^= SOLVER.nimber(key)
    return x


def winning_moves(position: Position | str, misere: bool = False) -> list[Move]:
    """The moves of ``position.moves()`` whose child is a loss for the opponent."""
    if isinstance(position, str):
        position = Position.parse(position)
    verdict: dict[Lands, bool] = {}
    out = []
    for m in position.moves():
        child = lands_of(position.play(m))
        if child not in verdict:
            verdict[child] = not SOLVER.wins(child, misere)
        if verdict[child]:
            out.append(m)
    return out


def winning_move(position: Position | str, misere: bool = False) -> Move | None:
    """One move of ``position.moves()`` whose child is a loss for the opponent, or None when
    there is none. It stops at the first one found, trying the cheapest children first, so
    it is much quicker than :func:`winning_children` from a winning position."""
    if isinstance(position, str):
        position = Position.parse(position)
    first: dict[Lands, Move] = {}
    for m in position.moves():
        first.setdefault(lands_of(position.play(m)), m)
    for child in sorted(first, key=_search_order):
        if not SOLVER.wins(child, misere):
            return first[child]
    return None


def winning_children(position: Position | str, misere: bool = False) -> list[Position]:
    """The children of ``position`` (one per winning move, in the order of
    ``position.moves()``) that are losses for the player who moves next."""
    if isinstance(position, str):
        position = Position.parse(position)
    return [position.play(m) for m in winning_moves(position, misere)]
