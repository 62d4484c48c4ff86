"""Who wins a Sprouts position, for normal and misère play.

Normal play splits a position into independent lands and adds their nimbers
(Sprague–Grundy). A land's nimber is the least ``m`` for which *land + \\*m* is a loss. Each
such question is a depth-first proof-number search (df-pn) over nodes *land + \\*heap*: it
always works on the child that looks cheapest to settle, by how many children stand between
it and a proof so far, so a win is found through whichever child's proof turns out short
instead of through the first child in a fixed order (0*11 took over half an hour that
way). A child of several lands keeps its largest land in the search and folds the others'
nimbers into the heap. The estimates only order the work: every fact kept is proven, so
the answers are exact. The shipped table (:mod:`engine.sprouts.tables`) answers the small
lands at once.

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
Node = tuple[str, int]  # one land and a nim heap: *land + \\*heap*
# A child in the search: its outcome when known (True: its mover wins), a node, or a sum of
# several lands with unknown nimbers (and a heap) not yet reduced to a node.
Child = bool | Node | tuple[Lands, int]

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
        self.bounds: dict[Node, tuple[int, int]] = {}  # unproven nodes: cost estimates
        self.node_kids: dict[Node, list[Child]] = {}
        self.move_counts: dict[str, int] = {}

    def clear(self) -> None:
        self.nimbers.clear()
        self.land_wins_memo.clear()
        self.misere_memo.clear()
        self.kids.clear()
        self.bounds.clear()
        self.node_kids.clear()
        self.move_counts.clear()

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
        node = (key, heap)
        while (win := self._proven(node)) is None:
            self._search(node, _INF, _INF)
        return win

    def _proven(self, node: Node) -> bool | None:
        key, heap = node
        v = self.known_nimber(key)
        if v is not None:
            return v != heap
        return self.land_wins_memo.get(node)

    def _costs(self, ref: Child) -> tuple[int, int]:
        """(cost to prove the child a win, cost to prove it a loss) for its mover: 0 and
        infinity once proven, a proof-number estimate otherwise."""
        if ref is True:
            return 0, _INF
        if ref is False:
            return _INF, 0
        if isinstance(ref[0], str):
            win = self._proven(ref)  # type: ignore[arg-type]
            if win is not None:
                return (0, _INF) if win else (_INF, 0)
            hit = self.bounds.get(ref)  # type: ignore[arg-type]
            if hit is not None:
                return hit
            # Not searched yet: one child may be enough to prove a win, a loss needs
            # them all (df-pn+'s usual first guess).
            return 1, self._moves(ref[0]) + ref[1]  # type: ignore[operator]
        return 1, 1

    def _moves(self, key: str) -> int:
        """How many distinct moves a land has (the children of its key before they are
        told apart by canonical form, which costs far more)."""
        n = self.move_counts.get(key)
        if n is None:
            n = sum(1 for _ in Position.parse(key).moves(distinct=True))
            if len(self.move_counts) >= _MEMO_MAX:
                self.move_counts.clear()
            self.move_counts[key] = n
        return n

    def _search(self, node: Node, win_limit: int, loss_limit: int) -> None:
        """Depth-first proof-number search (df-pn) of one node: it works on the child that
        looks cheapest to prove a loss until the node is proven or its estimated costs
        reach the limits. The estimates are only an order of work: every fact stored is
        proven, so the answer is exact whatever the estimates."""
        kids = self.node_kids.get(node)
        if kids is None:
            kids = self._node_children(node)
            if kids is None:
                self._prove(node, True)
                return
            if len(self.node_kids) >= _MEMO_MAX:
                self.node_kids.clear()
            self.node_kids[node] = kids
        while True:
            win_cost = best_loss = second = _INF
            loss_cost = best = best_win = 0
            for i, ref in enumerate(kids):
                pn, dn = self._costs(ref)
                loss_cost += pn
                if dn < best_loss:
                    second = best_loss
                    best_loss, best, best_win = dn, i, pn
                elif dn < second:
                    second = dn
            win_cost = best_loss
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
            if not isinstance(ref[0], str):  # a sum of lands not yet reduced to one
                kids[best] = self._reduce(*ref)  # type: ignore[arg-type]
                continue
            self._search(
                ref,  # type: ignore[arg-type]
                min(_INF, loss_limit - loss_cost + best_win),
                min(win_limit, second + 1),
            )

    def _prove(self, node: Node, win: bool) -> None:
        if len(self.land_wins_memo) >= _MEMO_MAX:
            self.land_wins_memo.clear()
        self.land_wins_memo[node] = win
        self.bounds.pop(node, None)
        self.node_kids.pop(node, None)
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

    def _child(self, lands: Lands, heap: int) -> Child:
        """*lands + \\*heap* as far as it is known without searching: True or False when
        its outcome is known, ``(land, heap)`` when one land's nimber is not, else the
        sum itself (reduced by :meth:`_reduce` when the search gets to it)."""
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
                return lands, heap
        if unknown is None:
            return x != 0
        ref = (unknown, x)
        win = self._proven(ref)
        return ref if win is None else win

    def _reduce(self, lands: Lands, heap: int) -> Child:
        """A sum of several lands whose nimbers are not known: find the nimbers of all but
        the largest, which stays in the search with their sum as its heap."""
        big = max(lands, key=lambda k: (self.known_nimber(k) is None, key_lives(k)))
        x = heap
        skipped = False
        for key in lands:
            if key == big and not skipped:
                skipped = True
            else:
                x ^= self.nimber(key)
        return self._child((big,), x)

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

    def _store(self, key: str, found: set[Lands]) -> list[Lands]:
        kids = sorted(found, key=_search_order)
        if len(self.kids) >= _CHILD_CACHE_MAX:
            self.kids.clear()
        self.kids[key] = kids
        return kids

    def loses(self, lands: Lands, heap: int = 0) -> bool:
        """Whether the player to move loses *lands + \\*heap* (normal play)."""
        ref = self._child(lands, heap)
        if not isinstance(ref, bool) and not isinstance(ref[0], str):
            ref = self._reduce(*ref)  # type: ignore[arg-type]
        if isinstance(ref, bool):
            return not ref
        return not self.land_wins(*ref)  # type: ignore[arg-type]

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
