"""Who wins a Sprouts position, for normal and misère play.

Normal play splits a position into independent lands and adds their nimbers
(Sprague–Grundy). A land's nimber is the least ``m`` for which *land + \\*m* is a loss; each
such question is a proof search over nodes *land + \\*heap*. A child of several lands keeps
its largest land in the search and folds the others' nimbers into the heap. The shipped
table (:mod:`engine.sprouts.tables`) answers the small lands at once.

Misère play has no such sum rule: the proof search runs over whole positions (sorted tuples
of land keys); a child is one land's child with the other lands kept.

Both searches are depth-first proof-number searches (df-pn, :class:`_ProofSearch`): they
settle a win through whichever child's proof turns out short rather than the first child
of a fixed order (0*11 normal took over half an hour that way, and now under a second).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Iterable
from typing import Any, NamedTuple

from engine.sprouts import tables
from engine.sprouts.canon import land_keys
from engine.sprouts.position import Move, Position

Lands = tuple[str, ...]  # a whole position: its land keys, sorted
Node = tuple[str, int]  # normal play: one land and a nim heap, *land + \\*heap*

# Bounds on the memo tables (entries); past them a table starts afresh, which only costs
# time: every entry is a proven fact, and none is needed for a search to finish.
_CHILD_CACHE_MAX = 300_000
_MEMO_MAX = 2_000_000
_INF = 1 << 60  # a cost that means "proven the other way"
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


def _search_order(lands: Lands) -> tuple[int, int, Lands]:
    """Children whose largest land is smallest first: the search on them is cheapest, and
    the smaller lands are often settled by the table."""
    lives = sorted(map(key_lives, lands), reverse=True)
    return (lives[0] if lives else 0, -len(lands), lands)


class _Sum(NamedTuple):
    """A child of several lands whose nimbers are not known yet, plus a heap: the search
    finds the nimbers of all but one (:meth:`Solver._reduce`) only when it gets to it."""

    lands: Lands
    heap: int


# A child in a proof search: its outcome when known (True: its mover wins), a node, or a
# _Sum not yet reduced to a node.
Child = Any


class _ProofSearch:
    """Depth-first proof-number search (df-pn) over one kind of node.

    It works on the child that looks cheapest to settle until the node is proven or its
    estimated costs reach the limits it was given, then lets the parent choose again, so a
    win is found through whichever child's proof turns out short rather than through the
    first child of a fixed order. The estimates (how many nodes stand between a node and a
    proof) only order the work: every fact kept is proven, so the answers are exact.
    """

    def __init__(
        self,
        proven: Callable[[Any], bool | None],
        children: Callable[[Any], list[Child] | None],
        guess: Callable[[Any], int],
        settle: Callable[[Any, bool], None],
        reduce: Callable[[_Sum], Child] | None = None,
    ) -> None:
        """``proven(node)``: the known outcome or None; ``children(node)``: the children
        not known to be wins, or None when one is known to be a loss; ``guess(node)``: the
        first estimate of the cost to prove a loss (its number of moves); ``settle``
        records a proof; ``reduce`` turns a :class:`_Sum` into a child."""
        self.proven = proven
        self.children = children
        self.guess = guess
        self.settle = settle
        self.reduce = reduce
        self.bounds: dict[Hashable, tuple[int, int]] = {}  # unproven nodes: cost estimates
        self.kids: dict[Hashable, list[Child]] = {}

    def clear(self) -> None:
        self.bounds.clear()
        self.kids.clear()

    def wins(self, node: Hashable) -> bool:
        """Whether the player to move at ``node`` wins."""
        while (win := self.proven(node)) is None:
            self._search(node, _INF, _INF)
        return win

    def _costs(self, ref: Child) -> tuple[int, int]:
        """(cost to prove a win, cost to prove a loss) for the child's mover: 0 and
        infinity once proven; before the node is searched, one child may be enough for a
        win but a loss needs them all (df-pn+'s usual first guess)."""
        if ref is True:
            return 0, _INF
        if ref is False:
            return _INF, 0
        if isinstance(ref, _Sum):
            return 1, 1
        win = self.proven(ref)
        if win is not None:
            return (0, _INF) if win else (_INF, 0)
        hit = self.bounds.get(ref)
        return hit if hit is not None else (1, self.guess(ref))

    def _search(self, node: Hashable, win_limit: int, loss_limit: int) -> None:
        kids = self.kids.get(node)
        if kids is None:
            kids = self.children(node)
            if kids is None:
                self._prove(node, True)
                return
            if len(self.kids) >= _MEMO_MAX:
                self.kids.clear()
            self.kids[node] = kids
        while True:
            best_loss = second = _INF
            loss_cost = best = best_win = 0
            for i, ref in enumerate(kids):
                pn, dn = self._costs(ref)
                loss_cost += pn
                if dn < best_loss:
                    second = best_loss
                    best_loss, best, best_win = dn, i, pn
                elif dn < second:
                    second = dn
            win_cost = best_loss  # a win needs one losing child, a loss every child a win
            if win_cost == 0 or loss_cost == 0:
                self._prove(node, win_cost == 0)
                return
            loss_cost = min(loss_cost, _INF)
            if win_cost >= win_limit or loss_cost >= loss_limit:
                if len(self.bounds) >= _MEMO_MAX:
                    self.bounds.clear()
                self.bounds[node] = (win_cost, loss_cost)
                return
            ref = kids[best]
            if isinstance(ref, _Sum):
                assert self.reduce is not None
                kids[best] = self.reduce(ref)
                continue
            self._search(
                ref, min(_INF, loss_limit - loss_cost + best_win), min(win_limit, second + 1)
            )

    def _prove(self, node: Hashable, win: bool) -> None:
        self.bounds.pop(node, None)
        self.kids.pop(node, None)
        self.settle(node, win)


class Solver:
    """Memo tables for one process; the module functions share :data:`SOLVER`."""

    def __init__(self, table: tables.Tables | None = None, *, use_table: bool = True) -> None:
        """``table`` answers small positions at once: by default the shipped table, loaded
        on the first question; ``use_table=False`` searches everything."""
        if table is None and not use_table:
            table = tables.Tables()
        self._table = table
        self.nimbers: dict[str, int] = {}
        self.land_wins_memo: dict[Node, bool] = {}
        self.misere_memo: dict[Lands, bool] = {}
        self.kids: dict[str, list[Lands]] = {}
        self.move_counts: dict[str, int] = {}
        self._normal = _ProofSearch(
            self._proven,
            self._node_children,
            lambda node: self._moves(node[0]) + node[1],
            self._settle,
            self._reduce,
        )
        self._misere = _ProofSearch(
            self._misere_proven,
            self._misere_children,
            lambda lands: sum(map(self._moves, lands)),
            self._misere_settle,
        )

    def clear(self) -> None:
        self.nimbers.clear()
        self.land_wins_memo.clear()
        self.misere_memo.clear()
        self.kids.clear()
        self.move_counts.clear()
        self._normal.clear()
        self._misere.clear()

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

    def _store(self, key: str, found: set[Lands]) -> list[Lands]:
        kids = sorted(found, key=_search_order)
        if len(self.kids) >= _CHILD_CACHE_MAX:
            self.kids.clear()
        self.kids[key] = kids
        return kids

    def _moves(self, key: str) -> int:
        """How many distinct moves a land has (its children before they are told apart by
        canonical form, which costs far more)."""
        n = self.move_counts.get(key)
        if n is None:
            n = sum(1 for _ in Position.parse(key).moves(distinct=True))
            if len(self.move_counts) >= _MEMO_MAX:
                self.move_counts.clear()
            self.move_counts[key] = n
        return n

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
        return self._normal.wins((key, heap))

    def loses(self, lands: Lands, heap: int = 0) -> bool:
        """Whether the player to move loses *lands + \\*heap* (normal play)."""
        ref = self._child(lands, heap)
        if isinstance(ref, _Sum):
            ref = self._reduce(ref)
        if isinstance(ref, bool):
            return not ref
        return not self.land_wins(*ref)

    def _proven(self, node: Node) -> bool | None:
        key, heap = node
        v = self.known_nimber(key)
        if v is not None:
            return v != heap
        return self.land_wins_memo.get(node)

    def _settle(self, node: Node, win: bool) -> None:
        if len(self.land_wins_memo) >= _MEMO_MAX:
            self.land_wins_memo.clear()
        self.land_wins_memo[node] = win
        if not win:
            self._remember(*node)

    def _node_children(self, node: Node) -> list[Child] | None:
        """The children of *land + \\*heap*: each land move (reduced as far as known
        nimbers allow) and then each smaller heap; None when one is a known loss."""
        key, heap = node
        kids = self.kids.get(key)
        if kids is None:
            kids = self._expand(key, heap)
            if kids is None:
                return None
        refs: list[Child] = []
        for lands in kids:
            ref = self._child(lands, heap)
            if ref is False:
                return None
            if ref is not True:
                refs.append(ref)
        refs.extend((key, h) for h in range(heap))
        return refs

    def _expand(self, key: str, heap: int) -> list[Lands] | None:
        """The children of a land, or None as soon as one is a known loss with ``heap``
        (a win found before paying for the rest)."""
        p = Position.parse(key)
        found: set[Lands] = set()
        for m in p.moves(distinct=True):
            child = tuple(sorted(land_keys(p.play(m))))
            if child not in found:
                found.add(child)
                if self._child(child, heap) is False:
                    return None
        return self._store(key, found)

    def _child(self, lands: Lands, heap: int) -> Child:
        """*lands + \\*heap* as far as it is known without searching: True or False when
        its outcome is known, the node ``(land, heap)`` when one land's nimber is not,
        else a :class:`_Sum`."""
        if not lands:
            return heap != 0
        if heap == 0 and self.table.normal:
            known = self.table.normal.get("+".join(lands))
            if known is not None:
                return known
        x = heap
        unknown = None
        for key in lands:
            v = self.known_nimber(key)
            if v is not None:
                x ^= v
            elif unknown is None:
                unknown = key
            else:
                return _Sum(lands, heap)
        if unknown is None:
            return x != 0
        ref = (unknown, x)
        win = self._proven(ref)
        return ref if win is None else win

    def _reduce(self, ref: _Sum) -> Child:
        """Find the nimbers of all lands but the largest, which stays in the search with
        their sum as its heap."""
        lands = ref.lands
        big = max(lands, key=lambda k: (self.known_nimber(k) is None, key_lives(k)))
        i = lands.index(big)
        x = ref.heap
        for key in lands[:i] + lands[i + 1 :]:
            x ^= self.nimber(key)
        return self._child((big,), x)

    # -- misère play -----------------------------------------------------------------------

    def misere_wins(self, lands: Lands) -> bool:
        """Whether the player to move wins (misère: whoever moves last loses)."""
        return self._misere.wins(lands)

    def _misere_proven(self, lands: Lands) -> bool | None:
        if not lands:
            return True
        win = self.misere_memo.get(lands)
        if win is None:
            win = self.table.misere.get("+".join(lands))
        return win

    def _misere_settle(self, lands: Lands, win: bool) -> None:
        if len(self.misere_memo) >= _MEMO_MAX:
            self.misere_memo.clear()
        self.misere_memo[lands] = win

    def _misere_children(self, lands: Lands) -> list[Child] | None:
        kids: list[Child] = []
        for child in self.children(lands):
            win = self._misere_proven(child)
            if win is False:
                return None
            if win is None:
                kids.append(child)
        return kids

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
