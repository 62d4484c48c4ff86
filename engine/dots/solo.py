"""Точки STOP for the bot: its moves when it moves alone, and when calling STOP itself wins.

After STOP the player who did not call it places dots alone (up to 3 minutes) to finish their
surrounds. The bot then places only dots that gain: one that captures now (the biggest gain),
else one after which its next dot captures (read two dots deep: the opponent places nothing
in between), and stops there (:func:`solo_move` returns None: the bot taps Done). Each gaining
pair captures, so the phase is a handful of dots and never fills the board.

Calling STOP wins when the caller is ahead by more than the opponent's solo phase could
change: :func:`exposed` bounds that from below the board's topology. An opponent ring must be
an 8-connected chain of points they can still use (free points and their live dots); it can
hold a dot of ours only if that dot's 4-connected block of points they cannot use (our live
dots and every dead point) stays off the board edge. So a dot joined to the edge that way is
safe for good (grounded, in the grounding variant's words), and so is a captured dot of theirs
inside our area: only those counted by :func:`exposed` can still change hands.

Pure functions of the game; they never change it.
"""

from __future__ import annotations

from engine.dots.game import Game, Move
from engine.dots.rings import EMPTY, FRAME, Board

STOPPING_LEVELS = ("medium", "hard", "expert")  # easy never calls STOP


def solo_move(game: Game) -> Move | None:
    """The dot for the player to move in a STOP phase (the one moving alone), or None when
    no dot gains anything now or one dot later: the phase is over for them."""
    if game.over or game.stopped_by is None:
        return None
    b = game.board
    me = game.turn
    legal = game.legal_indices()
    best = _best_capture(game, legal)
    if best is not None:
        return _move(b, best)
    # Two dots deep: the first one is on the ring the second closes, so it touches our dots,
    # and the second has two of our dots round it, one of them joined to the first. Each
    # first dot is put on a scratch board and taken back (its union-find left marked stale,
    # which only makes later traces check more).
    work = game.copy()
    wb = work.board
    walls, dirs, dot = wb.walls[me], wb.dirs, wb.dot
    closers = set(_closers(wb, me, legal))
    best_gain, best_i = 0, -1
    for c in legal:
        if not any(walls[c + d] for d in dirs):
            continue
        dot[c] = me
        walls[c] = 1
        wb._join(me, c)
        parent = wb.parent[me]
        root = wb._find(parent, c)
        cands = closers | {c + d for d in dirs if wb.is_free(c + d)}
        cands.discard(c)
        gain = 0
        for q in sorted(cands):
            around = [q + d for d in dirs if walls[q + d]]
            if len(around) < 2 or all(wb._find(parent, r) != root for r in around):
                continue
            gain = max(gain, wb.gain(q, me))
            if wb.parent[me] is not parent:  # a trace rebuilt it: new labels
                parent = wb.parent[me]
                root = wb._find(parent, c)
        dot[c] = EMPTY
        walls[c] = 0
        wb.dirty[me] = True
        if gain > best_gain:
            best_gain, best_i = gain, c
    return None if best_i < 0 else _move(b, best_i)


def _best_capture(game: Game, legal: list[int]) -> int | None:
    """The point that gains the most now (captured dots, freed ones counted), or None."""
    b = game.board
    me = game.turn
    best, best_i = 0, -1
    # Board.gain reads ordinary rings only: with the edge as a wall, every point next to our
    # dots or the edge is tried on a copy.
    edged = b.edge_walls
    for i in _closers(b, me, legal) if not edged else _touching(b, me, legal):
        if not edged and b.gain(i, me) <= 0:
            continue
        after = game.copy()
        after.play_index(i)
        gained = _margin(after, me) - _margin(game, me)
        if gained > best:
            best, best_i = gained, i
    return None if best_i < 0 else best_i


def _closers(b: Board, me: int, legal: list[int]) -> list[int]:
    """The free points that can close a ring of ``me`` now: two own live neighbours, or one
    inside an area ``me`` once enclosed (where one side may already be the ring)."""
    walls, encl, dirs = b.walls[me], b.encl[me], b.dirs
    out = []
    for i in legal:
        n = 0
        for d in dirs:
            n += walls[i + d]
        if n >= 2 or (n and encl[i]):
            out.append(i)
    return out


def _touching(b: Board, me: int, legal: list[int]) -> list[int]:
    walls, dot, dirs = b.walls[me], b.dot, b.dirs
    return [i for i in legal if any(walls[i + d] or dot[i + d] == FRAME for d in dirs)]


def _margin(game: Game, me: int) -> int:
    s = game.scores
    return s[me] - s[1 - me]


def _move(b: Board, i: int) -> Move:
    return Move(b.xs[i], b.ys[i])


def exposed(game: Game, player: int) -> int:
    """How many points the opponent's solo phase could still take from ``player``: live dots
    of ``player`` and dots of the opponent captured by ``player`` that the opponent could yet
    enclose (an upper bound: dots it counts may prove safe, none it leaves out can fall)."""
    b = game.board
    opp = 1 - player
    dot, area, s = b.dot, b.area, b.stride
    mine = b.walls[player]

    def blocks(i: int) -> bool:  # a point the opponent's ring cannot run through
        return bool(mine[i]) or (area[i] != EMPTY and not b.walls[opp][i])

    w, h = game.width, game.height
    edge = [b.index(x, y) for x in range(w) for y in (0, h - 1)]
    edge += [b.index(x, y) for y in range(1, h - 1) for x in (0, w - 1)]
    stack = [i for i in edge if blocks(i)]
    seen = set(stack)
    while stack:
        c = stack.pop()
        for q in (c - s, c + 1, c + s, c - 1):
            if q not in seen and dot[q] != FRAME and blocks(q):
                seen.add(q)
                stack.append(q)
    count = 0
    for y in range(h):
        for x in range(w):
            i = b.index(x, y)
            if i in seen:
                continue
            if mine[i] or (dot[i] == opp and area[i] == player):
                count += 1
    return count


def stop_wins(game: Game, player: int) -> bool:
    """Whether ``player`` calling STOP now wins whatever the opponent does alone: ahead by
    more than :func:`exposed`. Captures scoring and a safe edge only (territory could grow in
    empty land; with the edge as a wall, a dot joined to the edge is no longer safe)."""
    if game.over or game.stopped_by is not None or game.scoring != "captures":
        return False
    if game.edge != "safe":
        return False
    return _margin(game, player) > exposed(game, player)


def calls_stop(game: Game, player: int, level: str) -> bool:
    """The bot of ``level`` calls STOP: medium and hard when it wins; easy never."""
    return level in STOPPING_LEVELS and stop_wins(game, player)
