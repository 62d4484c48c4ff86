"""Dots AI: ``choose_move(game, level, seed, time_limit)``, a pure function of its arguments.

All levels read captures the same way, by asking the board what a dot would capture
(:meth:`Board.gain`) for either player at the points where a ring could close.

- easy: takes the biggest capture on offer, blocks the biggest threat most of the time,
  otherwise plays next to the action with some randomness.
- medium: scores a shortlist of moves one ply deep: material won, the opponent's best capture
  left after the move (so one-move threats against big groups are answered), threats created,
  and local shape (links to own dots, contact with enemy dots).
- hard: Monte Carlo tree search on the compiled board (:mod:`engine.dots.search`: UCT with
  all-moves values, a prior from the position, the one-ply shortlist and the forcing-line
  solver, playouts that capture, block and answer near the last dots) for the whole time
  limit; expert: the same search with the move time the match allows (the bot gives it up to
  5 s; on its own, twice hard's default, at most 5 s).
- classic-hard (the benches' baseline only, never offered in the bot): the hard level before
  the tree search, the medium shortlist, a forcing-line read and a bandit over short
  capture-aware playouts. The tree search replaced it after ``bench.dots_arena`` on 20×20:
  8 won, 1 drawn, 1 lost of 10 at 0.3 s a move, 5-1-2 of 8 at 1 s (2026-12-02); 26 won,
  14 lost of 40 at 0.3 s (games 0-23: 18-6, +13.5 dots; 24-39 at load 10: 8-8, +3.1),
  mean margin +9.3 dots (2026-12-03): ahead, short of the issue's 90 %. mcts-fresh (bench
  only): hard without the tree kept between moves, the baseline for that reuse.

Opening moves go near the centre (of the zone when one applies) at every level.

Run it in a worker process: the game pickles through ``to_json``. Results are deterministic
for a seed unless the time limit cuts the search short (``iterations`` fixes the search's
length instead, for tests and benches).
"""

from __future__ import annotations

import math
import random
import time

from engine.core import GameOver, UnknownLevel
from engine.dots.game import Game, Move
from engine.dots.rings import EMPTY, Board
from engine.facts import DEFAULT_LEVEL

LEVELS = Game.facts.levels  # the bot's; BENCH_LEVELS are for the benches and tests only
# classic-hard is the hard level before the tree search (the arena's baseline); mcts-fresh is
# hard without the tree kept between moves (the baseline for that reuse: with it, the search
# won 12 of 20 at 0.3 s a move on 20x20 and 3 of 8 at 1000 playouts, so it stays off unless
# asked for).
BENCH_LEVELS = ("classic-hard", "mcts-fresh")
SEARCH_LEVELS = ("hard", "expert", "mcts-fresh")  # the tree search's
BASE_SECONDS = 1.5  # hard's default limit on a 38×31 board, scaled by area below
BASE_AREA = 38 * 31
EXPERT_FACTOR = 2.0  # expert's default time, in hard's
EXPERT_MAX = 5.0  # seconds: expert's most by default, whatever the board
# The search stops this share of its limit early: the position is copied to the compiled
# board and the last batch of playouts finishes after the check.
SLACK = 0.08
# The one-ply shortlist's most of the limit when the search follows (it seeds the search's
# priors; a 38×31 board halfway through takes about 0.25 s over it, hard's limit 1.8 s).
SHORTLIST_SHARE = 0.25
# The tree search's parameters (engine.dots.search.params): playouts cut after 80 moves and
# valued by their margin ran as well as playouts to the end in the arena (3–3 and 2–4 against
# the classic hard in 6 games each, 20×20 at 0.3 s) with more of them per move.
SEARCH = {"depth": 80}


def warm() -> None:
    """Load (or compile) the tree search's kernels: a worker calls it at start-up, so that no
    hard or expert move waits for numba."""
    from engine.dots import search

    search.warm()


def default_time(game: Game) -> float:
    return max(0.2, BASE_SECONDS * game.width * game.height / BASE_AREA)


def choose_move(
    game: Game,
    level: str = DEFAULT_LEVEL,
    seed: int | None = None,
    time_limit: float | None = None,
    *,
    iterations: int | None = None,
    reuse: bool = False,
) -> Move:
    """The move the AI of ``level`` plays in ``game`` (which it does not change).

    ``iterations`` (hard and expert): search exactly this many iterations whatever the
    time, so the move depends on the seed alone. ``reuse`` (the search levels, off by
    default: it has not won in the arena yet) starts the tree search from the subtree this
    process's last search of the same mover kept, two moves back in the same game; the move
    then depends on that search too (mcts-fresh never reuses)."""
    started = time.perf_counter()
    if level not in LEVELS + BENCH_LEVELS:
        raise UnknownLevel(f"unknown level {level!r}; choose from {', '.join(LEVELS)}")
    legal = game.legal_indices()
    if not legal:
        raise GameOver()
    rng = random.Random(seed)
    b = game.board
    me = game.turn
    if len(legal) == 1:
        return _move(b, legal[0])
    opening = _opening(game, legal, rng)
    if opening is not None:
        return _move(b, opening)
    if level == "easy":
        i = _easy(game, legal, rng)
    elif level in SEARCH_LEVELS:
        limit = default_time(game) if time_limit is None else time_limit
        if level == "expert" and time_limit is None:
            limit = min(limit * EXPERT_FACTOR, EXPERT_MAX)
        from engine.dots import search

        deadline = None if iterations is not None else started + limit * (1.0 - SLACK)
        # The one-ply shortlist (threats left and made) seeds the root's priors.
        until = None if deadline is None else started + SHORTLIST_SHARE * limit
        scored = _shortlist(game, legal, rng, 10, until)
        top = scored[0][0]
        hints = {i: max(0.5, min(0.9, 0.75 + (s - top) / 40.0)) for s, i in scored}
        keep = bool(reuse) and level != "mcts-fresh"
        i, _ = search.choose(game, seed=rng.randrange(1 << 30), deadline=deadline,
                             iterations=iterations, hints=hints, reuse=keep,
                             prm=search.params(**SEARCH))  # fmt: skip
    else:
        limit = default_time(game) if time_limit is None else time_limit
        share = 1.0 - SLACK if level == "medium" else SHORTLIST_SHARE
        until = None if time_limit is None else started + share * limit
        scored = _shortlist(game, legal, rng, 8 if level == "medium" else 14, until)  # classic: 14
        if level == "medium" or len(scored) == 1:
            i = scored[0][1]
        else:
            deadline = started + limit
            forced = _forcing(game, deadline - 0.5 * (deadline - time.perf_counter()))
            if forced is not None:
                scored = _with_forcing(game, scored, forced)
            i = _search(game, scored, rng, deadline)
    assert b.is_free(i) and me == game.turn
    return _move(b, i)


def _move(b: Board, i: int) -> Move:
    return Move(b.xs[i], b.ys[i])


# -- reading the board ---------------------------------------------------------------------


def _neighbours(b: Board, i: int, r: int) -> list[int]:
    s = b.stride
    out = []
    for dy in range(-r, r + 1):
        for dx in range(-r, r + 1):
            j = i + dy * s + dx
            if 0 <= j < len(b.dot) and b.dot[j] == EMPTY and b.area[j] == EMPTY:
                out.append(j)
    return out


def _ring_points(b: Board, player: int, cells: list[int] | None = None) -> list[int]:
    """Free points where a ring of ``player`` could close: at least two of their live dots
    around (the only places where :meth:`Board.gain` can be positive)."""
    w, d = b.walls[player], b.dirs
    dot, area = b.dot, b.area
    if cells is None:
        cells = [i for i in range(len(dot)) if dot[i] == EMPTY and area[i] == EMPTY]
    out = []
    for i in cells:
        n = 0
        for k in d:
            n += w[i + k]
        if n >= 2:
            out.append(i)
    return out


def _threats(b: Board, player: int, cells: list[int] | None = None) -> dict[int, int]:
    """Point -> dots ``player`` would capture there, for every positive capture."""
    out = {}
    for i in _ring_points(b, player, cells):
        g = b.gain(i, player)
        if g > 0:
            out[i] = g
    return out


def _opening(game: Game, legal: list[int], rng: random.Random) -> int | None:
    """First moves: near the centre (of the zone when one applies), touching the opponent
    diagonally when they have played there; None once the game is under way."""
    b = game.board
    mine = sum(b.walls[game.turn])
    if mine >= 2 or game.ply >= 4:
        return None
    zone = game.zone
    if zone is not None:
        cx, cy = zone.x + zone.width // 2, zone.y + zone.height // 2
    else:
        cx, cy = game.width // 2, game.height // 2
    legal_set = set(legal)
    opp = [i for i in game.move_indices if b.dot[i] == 1 - game.turn]
    if opp:
        i = opp[-1]
        options = [j for j in (i - b.stride - 1, i - b.stride + 1, i + b.stride - 1,
                               i + b.stride + 1) if j in legal_set]  # fmt: skip
        if options:
            return min(options, key=lambda j: (abs(b.xs[j] - cx) + abs(b.ys[j] - cy), j))
    near = [i for i in legal if abs(b.xs[i] - cx) <= 1 and abs(b.ys[i] - cy) <= 1] or legal
    return near[rng.randrange(len(near))]


def _local(game: Game, legal: list[int]) -> list[int]:
    """Free points within two steps of any live dot (the whole list when there are none)."""
    b = game.board
    seen: set[int] = set()
    for p in (0, 1):
        w = b.walls[p]
        for i in range(len(w)):
            if w[i]:
                seen.update(_neighbours(b, i, 2))
    return sorted(seen) if seen else legal


def _shape(b: Board, i: int, me: int) -> float:
    """Local shape: links to own dots (diagonal ones reach further), contact with the enemy,
    and a little pull towards the centre."""
    mine, theirs = b.walls[me], b.walls[1 - me]
    d = b.dirs
    own = sum(mine[i + k] for k in d)
    foe = sum(theirs[i + k] for k in d)
    diag = sum(mine[i + d[k]] for k in (1, 3, 5, 7))
    cx, cy = b.width / 2, b.height / 2
    centre = -0.05 * (abs(b.xs[i] - cx) + abs(b.ys[i] - cy))
    crowd = -1.5 if own >= 4 else 0.0
    return 0.6 * min(own, 3) + 0.4 * diag + 0.9 * min(foe, 4) + centre + crowd


# -- easy ---------------------------------------------------------------------------------------


def _easy(game: Game, legal: list[int], rng: random.Random) -> int:
    b = game.board
    me = game.turn
    cells = _local(game, legal)
    mine = _threats(b, me, cells)
    if mine:
        return max(mine, key=lambda i: (mine[i], -i))
    theirs = _threats(b, 1 - me, cells)
    if theirs and rng.random() < 0.7:
        return max(theirs, key=lambda i: (theirs[i], -i))
    ranked = sorted(cells, key=lambda i: -(_shape(b, i, me) + rng.random() * 2.0))
    for i in ranked:
        if b.gain(i, me) >= 0:
            return i
    return ranked[0]


# -- medium: one ply with threats ---------------------------------------------------------------


def _material(b: Board, me: int) -> int:
    return b.caught[me] - b.caught[1 - me]


def _evaluate(game: Game, i: int, opp_threats: dict[int, int], base: int) -> float:
    """Play ``i`` on a copy and score what follows: material now, the opponent's best capture
    left, the captures it prepares for us next, and shape."""
    b = game.board
    me = game.turn
    after = b.copy()
    after.place(i, me, game.ply)
    won = _material(after, me) - base
    around = _neighbours(after, i, 2)
    watch = [j for j in opp_threats if after.is_free(j)]
    watch += [j for j in around if j not in opp_threats]
    theirs = _threats(after, 1 - me, watch)
    danger = max(theirs.values(), default=0)
    second = sorted(theirs.values())[-2] if len(theirs) > 1 else 0
    mine = _threats(after, me, around)
    prepared = max(mine.values(), default=0)
    return (
        10.0 * won
        - 9.0 * danger
        - 1.5 * second
        + 2.5 * min(prepared, 6)
        + 0.8 * len(mine)
        + _shape(b, i, me)
    )


def _shortlist(
    game: Game, legal: list[int], rng: random.Random, size: int, until: float | None = None
) -> list[tuple[float, int]]:
    """The best moves by the one-ply evaluation, best first. At ``until`` (on
    ``time.perf_counter``'s clock) it stops evaluating, with one move evaluated at least: the
    captures first, biggest first, then the blocks, then the moves by shape (a tight clock's
    move on a large board then keeps the moves that matter most)."""
    b = game.board
    me = game.turn
    cells = _local(game, legal)
    mine = _threats(b, me, cells)
    theirs = _threats(b, 1 - me, cells)
    pool: set[int] = set(mine) | set(theirs)
    for j in theirs:
        pool.update(_neighbours(b, j, 1))
    focus: list[int] = []
    for j in game.recent_indices(6):
        focus.extend(_neighbours(b, j, 2))
    ranked = sorted(set(focus) | set(cells), key=lambda i: -(_shape(b, i, me) + rng.random()))
    pool.update(ranked[: max(12, size * 2)])
    base = _material(b, me)
    noise = {i: rng.random() * 0.3 for i in pool}  # drawn in the pool's order, cut or not
    first = sorted(mine, key=lambda i: (-mine[i], i))
    first += sorted(theirs, key=lambda i: (-theirs[i], i))
    scored: list[tuple[float, int]] = []
    for i in dict.fromkeys([*first, *ranked, *sorted(pool)]):
        if i not in noise:
            continue
        if scored and until is not None and time.perf_counter() > until:
            break
        scored.append((_evaluate(game, i, theirs, base) + noise[i], i))
    scored.sort(reverse=True)
    return scored[:size]


# -- classic-hard: bandit search over capture-aware playouts ----------------------------------


def _search(
    game: Game, scored: list[tuple[float, int]], rng: random.Random, deadline: float
) -> int:
    me = game.turn
    best_prior = scored[0][0]
    arms = [i for _, i in scored]
    # The one-ply score is a prior worth a few playouts; a move it rates far below the best
    # has to earn its place in the playouts.
    prior = {i: (s - best_prior) / 10.0 for s, i in scored}
    n = dict.fromkeys(arms, 0)
    total = dict.fromkeys(arms, 0.0)
    budget = 24 * len(arms)
    depth = 10 if game.width * game.height <= 400 else 14
    runs = 0
    slowest = 0.0
    while runs < budget:
        now = time.perf_counter()
        if now + slowest > deadline:
            break
        runs += 1
        t = runs
        explore = math.log(t + 1)
        arm = max(
            arms,
            key=lambda a: (
                (total[a] + prior[a] * 3) / (n[a] + 3) + 1.2 * math.sqrt(explore / (n[a] + 1))
            ),
        )
        n[arm] += 1
        total[arm] += _playout(game, arm, me, rng, depth)
        slowest = max(slowest, time.perf_counter() - now)
    return max(arms, key=lambda a: ((total[a] + prior[a] * 3) / (n[a] + 3), -arms.index(a)))


# -- classic-hard: forcing sequences (ladders) -----------------------------------------------

FORCING_DEPTH = 6  # our threatening moves in one line
FORCING_WIDTH = 5  # threatening moves tried at each step


def _forcing(game: Game, deadline: float) -> tuple[int, int] | None:
    """A line of capture threats the opponent can only answer by blocking, ending in a
    capture they cannot stop (a ladder, or a double threat): (first move, dots it wins).

    Our moves are those that leave a capture threat; the opponent's answers are every point
    where we threaten, and any capture of their own. None when no such line is found in time.
    """
    me = game.turn
    base = _material(game.board, me)
    best: tuple[int, int] | None = None
    for m in _threat_moves(game, me):
        if time.perf_counter() > deadline:
            break
        won = _forced(game, m, me, FORCING_DEPTH, deadline)
        if won is not None and won - base > 0 and (best is None or won - base > best[1]):
            best = (m, won - base)
    return best


def _threat_moves(game: Game, me: int) -> list[int]:
    """Our moves near the action that leave a capture threat, biggest threat first."""
    b = game.board
    cells: set[int] = set()
    for j in game.recent_indices(4):
        cells.update(_neighbours(b, j, 2))
    scored = []
    for m in sorted(cells):
        if b.gain(m, me) != 0:
            continue  # immediate captures and suicides are the shortlist's business
        after = b.copy()
        after.place(m, me, game.ply)
        threats = _threats(after, me, _neighbours(after, m, 2))
        if threats:
            scored.append((-max(threats.values()), -len(threats), m))
    scored.sort()
    return [m for _, _, m in scored[:FORCING_WIDTH]]


def _forced(game: Game, m: int, me: int, depth: int, deadline: float) -> int | None:
    """Our material at the end of the line that starts with ``m`` when every answer the
    opponent has fails, else None."""
    g = game.copy()
    g.play_index(m)
    if g.over:
        return None
    b = g.board
    mine = _threats(b, me, _neighbours(b, m, 2))
    if not mine:
        return None
    answers = set(mine) | set(_threats(b, 1 - me, _neighbours(b, m, 3)))
    worst: int | None = None
    for r in sorted(answers):
        if time.perf_counter() > deadline:
            return None
        h = g.copy()
        h.play_index(r)
        if h.over:
            return None
        hb = h.board
        take = _threats(hb, me, [q for q in mine if hb.is_free(q)])
        if take:  # the answer did not cover every threat: capture now
            q = max(take, key=lambda k: (take[k], -k))
            h.play_index(q)
            result = _material(hb, me)
        elif depth > 1:
            follow = [_forced(h, m2, me, depth - 1, deadline) for m2 in _threat_moves(h, me)]
            wins = [w for w in follow if w is not None]
            if not wins:
                return None
            result = max(wins)
        else:
            return None
        worst = result if worst is None else min(worst, result)
    return worst


def _with_forcing(
    game: Game, scored: list[tuple[float, int]], forced: tuple[int, int]
) -> list[tuple[float, int]]:
    """Put a forcing move on the shortlist, scored for the dots it wins; the one-ply score
    still prefers another move when it sees a bigger loss elsewhere."""
    m, won = forced
    b = game.board
    me = game.turn
    opp = _threats(b, 1 - me, _local(game, game.legal_indices()))
    value = _evaluate(game, m, opp, _material(b, me)) + 10.0 * won
    rest = [(s, i) for s, i in scored if i != m]
    return sorted([(value, m), *rest], reverse=True)


def _playout(game: Game, first: int, me: int, rng: random.Random, depth: int) -> float:
    """Play ``first`` then ``depth`` plies of the fast policy; material change for ``me``,
    squashed to about ±1."""
    g = game.copy()
    b = g.board
    start = _material(b, me)
    g.play_index(first)
    for _ in range(depth):
        if g.over:
            break
        g.play_index(_fast(g, rng))
    return math.tanh((_material(b, me) - start) / 3.0)


def _fast(g: Game, rng: random.Random) -> int:
    """Capture if possible, else block the opponent's capture, else play near the last dots."""
    b = g.board
    p = g.turn
    cells: set[int] = set()
    for j in g.recent_indices(3):
        cells.update(_neighbours(b, j, 1))
    if not cells:
        legal = g.legal_indices()
        return legal[rng.randrange(len(legal))]
    pts = sorted(cells)
    best, at = 0, -1
    for i in _ring_points(b, p, pts):
        v = b.gain(i, p)
        if v > best:
            best, at = v, i
    if at >= 0:
        return at
    for i in _ring_points(b, 1 - p, pts):
        v = b.gain(i, 1 - p)
        if v > best:
            best, at = v, i
    if at >= 0:
        return at
    safe = [i for i in pts if b.gain(i, p) >= 0] or pts
    return safe[rng.randrange(len(safe))]
