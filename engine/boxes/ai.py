"""Computer players: ``choose_move(game, level, seed=None, time_limit=None) -> Move``.

- easy: takes a box when it can, otherwise a random safe line (one that gives nothing away),
  otherwise the line that gives away the fewest boxes.
- medium: as easy, plus the long-chain rule while safe lines remain (steer the parity of
  long chains) and, once only chains and loops remain, exact endgame play: all-but-two /
  all-but-four to keep control, and which chain to open.
- hard, two players: the exact solver (shipped opening tables for small boards, otherwise
  alpha-beta within the time budget); medium's chain analysis while the board is too big.
- hard, three or four players: a paranoid alpha-beta (everyone else plays against the mover)
  over the same capture rules, deepened while the budget lasts.

A pure function of (game, level, seed, time_limit): budgets are counted in the work a search
does (its CPU cost by a fitted model, or its nodes; calibrated to the time limit), so one seed
gives one move on any machine that is not much slower than a busy 2-core one; a wall-clock stop
at the limit guards slower machines.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import TypeVar

from engine.boxes.game import Game, Move
from engine.boxes.solver import OutOfBudget, Searcher, loony_value
from engine.boxes.tables import lookup as table_lookup
from engine.boxes.tables import table_for
from engine.core import GameOver
from engine.core import UnknownLevel as UnknownLevel  # raised here, for all games
from engine.facts import DEFAULT_LEVEL

_T = TypeVar("_T")

LEVELS = Game.facts.levels
DEFAULT_TIME_LIMIT = {"easy": 0.2, "medium": 0.5, "hard": 1.8}
# Hard's exact search is budgeted in the solver's cost units (``Searcher.cost``: a weight per
# node and per fresh analysis, about a microsecond of CPU each) per second of its time limit.
# ``python -m bench.boxes_cost`` (5×5 endgames, 30/28/26 lines left, each search's least CPU
# time over three passes on a busy 2-core machine) measured 0.99M–1.25M units per CPU second
# over the searches of 3000+ nodes, median 1.12M; this is under the slowest, so even that one
# stays within the limit (at that slowest rate a search the budget stops takes 1.64 s of CPU).
# The hardest 30-lines-left positions measured need 1.53M and 1.59M units (seeds 1007, 1244
# of ``bench.boxes_speed``), within the 1.62M this gives. Under heavy load (both cores busy)
# CPU seconds stretch by up to 1.5×, which no count of the work can foresee: the wall-clock
# deadline then ends the search. The budget, not the clock, usually ends a search, so a move
# is the same on any machine not much slower.
COST_PER_SECOND = 900_000
PARANOID_NODES_PER_SECOND = 100_000  # the 3–4 player search counts every position it visits
# Hard tries the exact search when at most this many lines remain, or when few safe lines
# remain (the search grows with the safe lines; with many of them it cannot finish).
EXACT_LINES = 30
EXACT_SAFE_LINES = 8
EXACT_MAX_LINES = 44  # beyond this even few safe lines leave too much to search
LONG = 3  # a chain of three or more boxes is long: its owner can hand back two


def hard_budget(limit: float) -> int:
    """Hard's exact-search budget in cost units for a time limit in seconds."""
    return int(limit * COST_PER_SECOND)


def choose_move(
    game: Game,
    level: str = DEFAULT_LEVEL,
    seed: int | None = None,
    time_limit: float | None = None,
) -> Move:
    """A move for the player to move in ``game`` (which is left unchanged)."""
    if level not in LEVELS:
        raise UnknownLevel(f"unknown level {level!r}; use one of {', '.join(LEVELS)}")
    if game.over:
        raise GameOver()
    rng = random.Random(seed)
    limit = DEFAULT_TIME_LIMIT[level] if time_limit is None else max(0.05, float(time_limit))
    pos = Position(game)
    if level == "easy":
        n = pos.easy(rng)
    elif level == "medium":
        n = pos.medium(rng)
    elif game.players == 2:
        n = pos.hard(rng, limit)
    else:
        n = pos.paranoid(rng, limit, game)
    return game.line_move(n)


class Position(Searcher):
    """A scratch copy of the game's lines with the analyses the levels share."""

    def __init__(self, game: Game) -> None:
        super().__init__(game.board)
        self.set_position(game.drawn_mask)
        self.players = game.players
        self.first_player_turn = game.turn == 0
        # Lines the players draw in the whole game (Палочки's outline is not theirs).
        self.player_lines = (
            game.board.full & ~(game.board.outline if game.border else 0)
        ).bit_count()

    # -- analyses ---------------------------------------------------------------------------

    def undrawn(self) -> list[int]:
        return [n for n in self.lines if not self.drawn >> n & 1]

    def any_capture(self) -> int | None:
        """Some line that completes a box now (free captures first)."""
        n = self.free_capture()
        if n is None and self.three:
            n = self.open_side(min(self.three))
        return n

    def safe_lines(self) -> list[int]:
        """Lines that complete nothing and put no third side on a box."""
        sides, lb = self.sides, self.line_boxes
        return [n for n in self.undrawn() if all(sides[b] < 2 for b in lb[n])]

    def eat(self) -> tuple[int, list[int]]:
        """Take every box capturable in a row; return the boxes taken and the lines drawn
        (undo with :meth:`uneat`)."""
        taken: list[int] = []
        total = 0
        while self.three:
            m = self.open_side(min(self.three))
            total += self.draw(m)
            taken.append(m)
        return total, taken

    def uneat(self, taken: list[int]) -> None:
        for m in reversed(taken):
            self.undraw(m)

    def giveaway(self, n: int) -> int:
        """How many boxes the opponent can take in a row after we draw ``n``."""
        k0 = self.draw(n)
        total, taken = self.eat()
        self.uneat(taken)
        self.undraw(n)
        return total - k0

    def cheapest_sacrifice(self, rng: random.Random) -> int:
        costs = {n: self.giveaway(n) for n in self.undrawn()}
        low = min(costs.values())
        return rng.choice([n for n, c in costs.items() if c == low])

    def long_chains(self) -> int:
        """Long chains in the skeleton of boxes with two or more sides drawn: the chains the
        endgame will most likely hold (the long-chain rule counts them)."""
        sides, lb, drawn = self.sides, self.line_boxes, self.drawn
        seen: set[int] = set()
        count = 0
        for start in self.boxes:
            if sides[start] < 2 or sides[start] == 4 or start in seen:
                continue
            seen.add(start)
            stack, size = [start], 0
            while stack:
                b = stack.pop()
                size += 1
                for n in self.box_lines[b]:
                    if drawn >> n & 1:
                        continue
                    for o in lb[n]:
                        if o not in seen and 2 <= sides[o] < 4:
                            seen.add(o)
                            stack.append(o)
            count += size >= LONG
        return count

    def wants_even_chains(self) -> bool:
        """Long-chain rule: the first player wants dots + long chains even, the second odd.

        It counts turns: every line the players draw ends a turn unless it completes boxes,
        and the last one does, so turns = lines - boxes + 1 + (moves completing two boxes).
        On a plain rectangle lines - boxes + 1 is its dots (Euler); the same count holds on
        shapes with holes and with Палочки's outline, where the dots would be wrong."""
        return ((self.player_lines - len(self.boxes) + 1) % 2 == 0) == self.first_player_turn

    # -- levels -------------------------------------------------------------------------------

    def easy(self, rng: random.Random) -> int:
        n = self.any_capture()
        if n is not None:
            return n
        safe = self.safe_lines()
        if safe:
            return rng.choice(safe)
        return self.cheapest_sacrifice(rng)

    def medium(self, rng: random.Random) -> int:
        n = self.free_capture()
        if n is not None:
            return n
        if self.three:
            return self.endgame_capture()
        safe = self.safe_lines()
        if safe:
            return self.chain_rule_line(safe, rng)
        if self.candidates() is None:  # only chains and loops: exact
            return rng.choice(self.loony_best())
        return self.cheapest_sacrifice(rng)

    def endgame_capture(self) -> int:
        """Facing a chain being eaten: take it, or hand back the last two when that keeps
        control (decided exactly once only chains and loops remain, else by the chain rule)."""
        n = self.open_side(min(self.three))
        # Only the last two boxes of the last open chain are worth declining.
        if len(self.three) > 1 or self.giveaway_after(n) != 1:
            return n
        decline = self.decline_line(n)
        rest = self._after(n, lambda: self.loony_or_none(mover_opens=True))
        take_all = None if rest is None else 1 + rest
        if take_all is None:
            # Not a clean endgame: keep control while long chains remain.
            return decline if (decline is not None and self.long_chains_after(n) > 0) else n
        if decline is None:
            return n
        hand_back = self._after(decline, lambda: self.loony_or_none(mover_opens=False))
        if hand_back is not None and hand_back > take_all:
            return decline
        return n

    def giveaway_after(self, n: int) -> int:
        """Boxes still capturable in a row after taking with line ``n``."""
        self.draw(n)
        total, taken = self.eat()
        self.uneat(taken)
        self.undraw(n)
        return total

    def decline_line(self, n: int) -> int | None:
        """The far side of the box behind capture line ``n`` (the hand-back move)."""
        for b in self.line_boxes[n]:
            if self.sides[b] == 2:
                for m in self.box_lines[b]:
                    if m != n and not self.drawn >> m & 1:
                        return m
        return None

    def _after(self, n: int, fn: Callable[[], _T]) -> _T:
        """``fn()`` read with line ``n`` drawn (undrawn again after)."""
        self.draw(n)
        try:
            return fn()
        finally:
            self.undraw(n)

    def loony_or_none(self, *, mover_opens: bool) -> int | None:
        """Net for us once the capture sequence ends, if only chains and loops remain."""
        gained, taken = self.eat()
        try:
            if self.safe_lines() or not all(self.sides[b] in (2, 4) for b in self.boxes):
                return None
            v = loony_value(*self.components())
            if mover_opens:
                return gained + v  # we took, then we open
            return -(gained + v)  # the opponent takes the two and opens
        finally:
            self.uneat(taken)

    def long_chains_after(self, n: int) -> int:
        return int(self._after(n, self.long_chains))

    def chain_rule_line(self, safe: list[int], rng: random.Random) -> int:
        """A safe line, preferring ones after which the long-chain count has our parity."""
        want_even = self.wants_even_chains()
        good = [n for n in safe if (self._after(n, self.long_chains) % 2 == 0) == want_even]
        return rng.choice(good or safe)

    def loony_best(self) -> list[int]:
        value, lines = self.best_lines()
        del value
        return lines

    def hard(self, rng: random.Random, limit: float) -> int:
        exact = None
        remaining = self.board.full.bit_count() - self.drawn.bit_count()
        if remaining <= EXACT_LINES or (
            remaining <= EXACT_MAX_LINES and len(self.safe_lines()) <= EXACT_SAFE_LINES
        ):
            exact = self.exact_lines(limit)
        if exact is not None:
            return rng.choice(exact)
        return self.medium(rng)

    def exact_lines(self, limit: float) -> list[int] | None:
        """Every best line by exact search, or None when the budget runs out."""
        table = table_for(self.board.mask)
        if table is not None and self.drawn.bit_count() < table.max_lines:
            return self.table_lines()
        self.cost_limit = hard_budget(limit)
        self.deadline = time.monotonic() + limit
        try:
            _, lines = self.best_lines(some=True)
        except OutOfBudget:
            return None
        finally:
            self.cost_limit = self.deadline = None
        return lines

    def table_lines(self) -> list[int]:
        values: dict[int, int] = {}
        for n in self.undrawn():
            k = self.draw(n)
            try:
                v = 0 if self.drawn == self.board.full else table_lookup(self.board, self.drawn)
                assert v is not None, "opening table misses a position"
            finally:
                self.undraw(n)
            values[n] = k + v if k else -v
        best = max(values.values())
        return [n for n, v in values.items() if v == best]

    # -- three or four players ------------------------------------------------------------------

    def paranoid(self, rng: random.Random, limit: float, game: Game) -> int:
        """Paranoid alpha-beta: maximise our boxes assuming all others play against us."""
        n = self.free_capture()
        if n is not None:
            return n
        me, players = game.turn, game.players
        moves = self.undrawn()
        rng.shuffle(moves)
        moves.sort(key=lambda m: self._order(m))
        self.node_limit = int(limit * PARANOID_NODES_PER_SECOND)
        self.deadline = time.monotonic() + limit
        best_move = moves[0]
        depth = 1
        try:
            while depth <= len(moves):
                scores = {}
                for m in moves:
                    k = self.draw(m)
                    try:
                        nxt = me if k else (me + 1) % players
                        scores[m] = k + self._paranoid(nxt, me, players, depth - 1, -999, 999)
                    finally:
                        self.undraw(m)
                top = max(scores.values())
                best_move = next(m for m in moves if scores[m] == top)
                moves.sort(key=lambda m: -scores[m])
                depth += 1
        except OutOfBudget:
            pass
        finally:
            self.node_limit = self.deadline = None
        return best_move

    def _order(self, n: int) -> int:
        sides = self.sides
        bs = self.line_boxes[n]
        if any(sides[b] == 3 for b in bs):
            return 0
        if all(sides[b] < 2 for b in bs):
            return 1
        return 2 + self.giveaway(n)

    def _paranoid(self, turn: int, me: int, players: int, depth: int, alpha: int, beta: int) -> int:
        """Boxes we gain minus boxes the others gain from here (others minimise)."""
        self.nodes += 1
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise OutOfBudget
        if self.deadline is not None and not self.nodes & 1023 and time.monotonic() > self.deadline:
            raise OutOfBudget
        if self.drawn == self.board.full:
            return 0
        sign = 1 if turn == me else -1
        n = self.free_capture()
        if n is not None:  # a free box: taking it is never worse for the mover's side
            k = self.draw(n)
            try:
                return sign * k + self._paranoid(turn, me, players, depth, alpha, beta)
            finally:
                self.undraw(n)
        if depth <= 0:
            return self._estimate(turn, me)
        moves = sorted(self.undrawn(), key=self._order)
        best = -999 if sign > 0 else 999
        for m in moves:
            k = self.draw(m)
            try:
                nxt = turn if k else (turn + 1) % players
                v = sign * k + self._paranoid(nxt, me, players, depth - 1, alpha, beta)
            finally:
                self.undraw(m)
            if sign > 0:
                best = max(best, v)
                alpha = max(alpha, v)
            else:
                best = min(best, v)
                beta = min(beta, v)
            if alpha >= beta:
                break
        return best

    def _estimate(self, turn: int, me: int) -> int:
        """Leaf guess: the boxes the mover can take in a row now count for the mover's side."""
        if not self.three:
            return 0
        m = self.open_side(min(self.three))
        chain = self.giveaway_after(m) + 1
        return chain if turn == me else -chain
