"""Monte Carlo tree search for Dots on the compiled board (:mod:`engine.dots.fastboard`).

UCT with an all-moves-as-first (RAVE) estimate per child, seeded by a prior from the
position (captures, blocks of the opponent's captures, contact, the forcing-line solver's
move), so a child has a useful value before its own playouts. Playouts go to the end of the
game, and are not uniform: capture when a capture is on near the last dots, else block the
opponent's, else often play next to the opponent's last dot, else a random point in a
shuffled order; a point inside one's own standing empty base, or an enemy base (a suicide),
is never played, and the playout ends when only such points remain. A playout's value mixes
the result (win 1, draw ½) with the margin won since the root (a playout cut after
``depth`` moves: that margin alone), so the search keeps capturing when the game is decided
and tells moves apart when one side is far ahead.

The tree is flat arrays; :func:`run` does a batch of iterations in compiled code and the
caller loops over batches until its clock says stop, so a search that is not cut by time is
a pure function of the position, the seed and the iteration count (and, with ``reuse``, of
the subtree kept from the same mover's search two moves back: :func:`_reused`). The random
numbers are an xorshift kept in the ``rng`` array.

The forcing-line solver (:func:`ladder`) reads chases: the attacker plays a dot that leaves a
capture threat, the defender must fill the threatened point (or capture something of their
own, which ends the line as a failure), and so on; the line works when a threat is left
that cannot be filled (two threats at once, or a chase that runs into a wall).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.dots import fastboard
from engine.dots.fastboard import (
    M_CAUGHT,
    M_COUNT,
    M_FREE,
    M_H,
    M_LASTP,
    M_N,
    M_S,
    M_SOLO,
    M_TERR,
    M_TERRITORY,
    M_TURN,
    M_W,
    M_ZONE,
    META,
    R_DOT,
    R_LIVE,
    _dir,
    closing,
    gain,
    gain_closing,
    in_base,
    is_free,
    is_legal,
    place,
    undo_to,
)
from engine.dots.kernel_cache import depends_on

# the cached kernels inline fastboard's: stale when it changes (engine.dots.kernel_cache)
depends_on(__file__, fastboard.__file__)

# parameter slots (the caller's numbers reach the compiled code through ``prm``)
P_C, P_RAVE_B, P_PRIOR_N, P_EXPAND, P_NEAR, P_TACTICS, P_MARGIN = 0, 1, 2, 3, 4, 5, 6
P_WIDEN = 7  # progressive widening: 4 + widen * sqrt(visits) children, best prior first
P_DEPTH = 8  # a playout's most moves (0: to the end); a cut playout is valued by its margin
P_LOOK = 9  # a playout's captures: rings up to this long (trace steps, inside points)
# 1: a playout also blocks the opponent's captures next to the mover's own last dot. Off: it
# costs a fifth of the playouts (20x20, 100 dots: 12,600 -> 10,300 a second) and lost 3 of
# 10 against the search without it at 0.3 s a move (mean margin -1.3 dots).
P_GUARD = 10
PARAMS = 11
# tree stats slots
S_N, S_W, S_RN, S_RW, S_M = 0, 1, 2, 3, 4


def params(
    c: float = 0.15,
    rave_b: float = 0.02,
    prior_n: float = 20.0,
    expand: int = 16,
    near: float = 0.6,
    tactics: float = 1.0,
    margin: float = 0.15,
    widen: float = 1.0,
    depth: int = 0,
    look: int = 96,
    guard: int = 0,
) -> np.ndarray:
    """The search's numbers. A child's own value takes over from its all-moves value after
    about ``1 / rave_b`` visits: 50 here. Dots punishes a move played a move too late far
    more than Go, so the all-moves value is a hint for the first visits only (at 500, the
    value until 0.002, the search left one-move captures on the board and won 1 of 4 at
    0.3 s against hard on 20×20; at 50 it won 9 of 10). A leaf gets its children at its
    ``expand``-th visit: at 2 a second's search filled the tree (half a million nodes) and
    won 1 of 4 at 1 s; at 16 it won 5 of 8 at 1 s and 4 of 6 at 0.3 s (one more drawn in
    each)."""
    prm = np.zeros(PARAMS, dtype=np.float64)
    prm[P_C], prm[P_RAVE_B], prm[P_PRIOR_N], prm[P_EXPAND] = c, rave_b, prior_n, expand
    prm[P_NEAR], prm[P_TACTICS], prm[P_MARGIN] = near, tactics, margin
    prm[P_WIDEN], prm[P_DEPTH], prm[P_LOOK] = widen, depth, look
    prm[P_GUARD] = guard
    return prm


class Tree:
    """The search tree's arrays: node ``k`` made move ``move[k]`` (by ``mover[k]``); its
    children are ``first[k] .. first[k] + count[k] - 1`` (``first`` -1: not expanded)."""

    def __init__(self, capacity: int) -> None:
        self.move = np.zeros(capacity, dtype=np.int32)
        self.mover = np.zeros(capacity, dtype=np.int8)
        self.first = np.full(capacity, -1, dtype=np.int32)
        self.count = np.zeros(capacity, dtype=np.int32)
        self.stats = np.zeros((capacity, 5), dtype=np.float32)
        self.size = np.ones(1, dtype=np.int64)  # node 0 is the root

    def clear(self) -> Tree:
        """Back to the root alone: the search writes every field of a node it adds, so the
        arrays past ``size`` need no clearing."""
        self.move[0], self.mover[0], self.first[0], self.count[0] = 0, 0, -1, 0
        self.stats[0] = 0.0
        self.size[0] = 1
        return self


# A batch of playouts between two looks at the clock costs at most this much CPU time: on a
# loaded machine its wall time is that over the share of a core the process gets, and a batch
# sized from the last one's wall time alone (a quarter of the time left) overran a 0.3 s move
# to 1.18 s at load 19 on 2 cores when the share fell between two batches.
BATCH_CPU = 0.002
# And the search stops early by the longest wait for a core one of its batches had: a process
# that got 5 % of a core (load 11) waited 0.38 s inside one 2 ms batch.

# The last search's tree when no search kept it (``reuse``): a new one's 16 MB cost 2–25 ms of
# page faults, half of a tight clock's 50 ms move on a large board.
_SPARE: list[Tree] = []


def _fresh(capacity: int) -> Tree:
    """A tree with only its root, in the spare's arrays when they are that size."""
    spare = _SPARE.pop() if _SPARE else None
    return spare.clear() if spare is not None and len(spare.move) == capacity else Tree(capacity)


@njit(cache=True)
def _rand(rng: np.ndarray) -> int:
    x = rng[0]
    x ^= (x << np.uint64(13)) & np.uint64(0xFFFFFFFFFFFFFFFF)
    x ^= x >> np.uint64(7)
    x ^= (x << np.uint64(17)) & np.uint64(0xFFFFFFFFFFFFFFFF)
    rng[0] = x
    return int(x >> np.uint64(33))


@njit(cache=True)
def _uniform(rng: np.ndarray) -> float:
    return _rand(rng) / 2147483648.0


@njit(cache=True)
def _draw(rng: np.ndarray, order: np.ndarray, ptr: int, m: int) -> int:
    """A random one of ``order[ptr:m]``, moved to ``ptr`` (a shuffle made only as far as a
    playout reads it)."""
    j = ptr + _rand(rng) % (m - ptr)
    c = order[j]
    order[j] = order[ptr]
    order[ptr] = c
    return int(c)


@njit(cache=True)
def _tactic(
    st: np.ndarray, sc: np.ndarray, player: int, look: int, guard: bool, memo: np.ndarray
) -> int:
    """A capture for ``player`` next to the last dots, else a block of the opponent's
    capture next to the opponent's last dot (with ``guard``, next to the player's own last
    dot too: a dot put into an open ring of the opponent's), the bigger first; -1 when there
    is none. Rings longer than ``look`` are not seen (:func:`gain_within`).

    The opponent's last dot's neighbours are read once for both players (:func:`_scan`):
    where the opponent's dot would close something is kept for the block, asked only when
    there is no capture. ``memo`` keeps, for one ply, the neighbours of the opponent's last
    dot where the opponent's dot closes nothing: the next mover is that opponent, round the
    same last dot of its own, and skips them when the one move between captured nothing
    (such a dot changes nothing of the other player's rings). The playout is the same as
    without it, with about a third fewer ring tests."""
    enemy = 1 - player
    best, at, theirs = 0, -1, 0
    src = st[M_LASTP + enemy]
    if src >= 0:
        best, at, theirs = _scan(st, sc, src, player, look)
    own = st[M_LASTP + player]
    if own >= 0:
        fresh = memo[0] == own and memo[2] == _caught(st) and memo[3] == st[M_FREE] + 1
        skip = memo[1] if fresh else 0
        best, at, _ = _best_next_to(st, sc, own, player, best, at, look, skip)
    memo[0] = -1
    if at >= 0:
        return at
    if src >= 0:
        s = st[M_S]
        for k in range(8):
            if (theirs >> k) & 1:
                c = src + _dir(s, k)
                g = gain_closing(st, sc, c, enemy, look)
                if g > best:
                    best, at = g, c
        memo[0], memo[1], memo[2], memo[3] = src, ~theirs & 0xFF, _caught(st), st[M_FREE]
    if guard and own >= 0:
        best, at, _ = _best_next_to(st, sc, own, enemy, best, at, look, 0)
    return at


@njit(cache=True)
def _scan(st: np.ndarray, sc: np.ndarray, src: int, player: int, look: int) -> tuple[int, int, int]:
    """Round ``src``: the biggest capture of ``player`` (its size and point, or 0 and -1),
    and the bits of the free neighbours where the opponent's dot would close something."""
    s = st[M_S]
    enemy = 1 - player
    best, at, theirs = 0, -1, 0
    for k in range(8):
        c = src + _dir(s, k)
        if is_free(st, c):
            if closing(st, c, player):
                g = gain_closing(st, sc, c, player, look)
                if g > best:
                    best, at = g, c
            if closing(st, c, enemy):
                theirs |= 1 << k
    return best, at, theirs


@njit(cache=True)
def _caught(st: np.ndarray) -> int:
    """Both players' captured counts in one number: it changes with every capture."""
    return int(st[M_CAUGHT] * 65536 + st[M_CAUGHT + 1])


@njit(cache=True)
def _best_next_to(
    st: np.ndarray,
    sc: np.ndarray,
    src: int,
    player: int,
    best: int,
    at: int,
    look: int,
    skip: int,
) -> tuple[int, int, int]:
    """The biggest capture of ``player`` next to ``src`` if it beats ``best`` (at ``at``),
    and the bits of the neighbours where ``player``'s dot closes nothing (or that are taken);
    those in the bits of ``skip`` are known to close nothing and not tried."""
    s = st[M_S]
    shut = skip
    for k in range(8):
        if (skip >> k) & 1:
            continue
        c = src + _dir(s, k)
        if is_free(st, c) and closing(st, c, player):
            g = gain_closing(st, sc, c, player, look)
            if g > best:
                best, at = g, c
        else:
            shut |= 1 << k
    return best, at, shut


@njit(cache=True)
def _avoid(st: np.ndarray, p: int, player: int) -> bool:
    """A point inside the player's own standing empty base, or inside the enemy's (where the
    dot would be caught unless it captured: the tactics look for those)."""
    return in_base(st, p, player) | in_base(st, p, 1 - player)  # no branch (is_free)


@njit(cache=True)
def _margin(st: np.ndarray, me: int) -> int:
    k = M_TERR if st[M_TERRITORY] else M_CAUGHT
    return int(st[k + me] - st[k + 1 - me])


@njit(cache=True)
def playout(  # noqa: C901  numba kernel: one playout loop kept flat
    st: np.ndarray,
    tr: np.ndarray,
    sc: np.ndarray,
    rng: np.ndarray,
    prm: np.ndarray,
    order: np.ndarray,
    played: np.ndarray,
    npl: int,
) -> int:
    """Play the position out (moves appended to ``played`` from ``npl``); the count of moves
    in ``played`` after it. The caller undoes."""
    n, s, w, h = st[M_N], st[M_S], st[M_W], st[M_H]
    m = 0
    for y in range(h):
        for x in range(w):
            i = (y + 1) * s + x + 1
            if is_free(st, i):
                order[m] = i
                m += 1
    ptr = 0  # order[:ptr] is drawn; the rest is drawn from at random as the playout goes
    cut = int(prm[P_DEPTH]) if prm[P_DEPTH] > 0 else 1 << 30
    moves = 0
    near = prm[P_NEAR]
    tactics = prm[P_TACTICS]
    look = int(prm[P_LOOK])
    guard = prm[P_GUARD] > 0
    zone = st[M_ZONE]
    memo = np.full(4, -1, dtype=np.int64)  # _tactic's, from one ply to the next
    while st[M_FREE] > 0 and moves < cut:
        moves += 1
        p = st[M_TURN]
        mv = -1
        if zone and st[M_COUNT + p] == 0:
            while ptr < m:
                c = _draw(rng, order, ptr, m)
                ptr += 1
                if is_legal(st, c):
                    mv = c
                    break
            if mv < 0:
                break
        if mv < 0 and tactics > 0 and _uniform(rng) < tactics:
            mv = _tactic(st, sc, p, look, guard, memo)
        else:
            memo[0] = -1  # the memo is of the ply just before
        if mv < 0 and _uniform(rng) < near:
            last = st[M_LASTP + 1 - p]
            if last >= 0:
                k0 = _rand(rng) & 7
                for t in range(8):
                    c = last + _dir(s, (k0 + t) & 7)
                    if is_free(st, c) and not _avoid(st, c, p):
                        mv = c
                        break
        while mv < 0 and ptr < m:
            c = _draw(rng, order, ptr, m)
            ptr += 1
            if is_free(st, c) and not _avoid(st, c, p):
                mv = c
        if mv < 0:
            break
        place(st, tr, sc, mv)
        if npl < played.shape[0]:
            played[npl] = mv
            npl += 1
    _ = n
    return npl


@njit(cache=True)
def _value(st: np.ndarray, me: int, margin_w: float, cut: bool, d0: int) -> tuple[float, float]:
    """A playout's worth to ``me`` in [0, 1], and its margin. The margin counts from the
    root's (``d0``): a side already well ahead or behind would see every move squashed to
    the same value and choose at random."""
    d = _margin(st, me)
    if cut:  # the game goes on: the material won since the root, squashed
        return 0.5 + 0.5 * np.tanh((d - d0) / 4.0), float(d)
    win = 1.0 if d > 0 else 0.0 if d < 0 else 0.5
    return (1.0 - margin_w) * win + margin_w * (0.5 + 0.5 * np.tanh((d - d0) / 8.0)), float(d)


@njit(cache=True)
def _prior(
    st: np.ndarray, sc: np.ndarray, c: int, player: int, hint: np.ndarray, root: bool
) -> float:
    """What the position says about a move before any playout, as a win rate; at the root
    the caller's hints (the forcing-line solver, a one-ply shortlist) come first."""
    n, s = st[M_N], st[M_S]
    if root and hint[c] > 0:
        return float(hint[c])
    g = gain(st, sc, c, player) if closing(st, c, player) else 0
    if g > 0:
        return min(0.99, 0.8 + 0.03 * g)
    b = gain(st, sc, c, 1 - player) if closing(st, c, 1 - player) else 0
    if b > 0:
        return min(0.97, 0.75 + 0.03 * b)
    mine = META + (R_LIVE + player) * n
    theirs = META + (R_LIVE + 1 - player) * n
    own = 0
    foe = 0
    for k in range(8):
        q = c + _dir(s, k)
        own += st[mine + q]
        foe += st[theirs + q]
    x, y = c % s - 1, c // s - 1
    w, h = st[M_W], st[M_H]
    edge = min(min(x, w - 1 - x), min(y, h - 1 - y))
    v = 0.45
    if foe and own:
        v = 0.6
    elif foe:
        v = 0.56
    elif own:
        v = 0.52
    if own >= 4:
        v -= 0.1
    if edge == 0:
        v -= 0.1
    elif edge == 1:
        v -= 0.04
    return v


@njit(cache=True)
def _near(st: np.ndarray, c: int, dot: int, n: int, s: int) -> bool:
    """A dot (either player's, live or not) within two steps of ``c``."""
    for dy in range(-2, 3):
        for dx in range(-2, 3):
            q = c + dy * s + dx
            if 0 <= q < n and 0 <= st[dot + q] <= 1:
                return True
    return False


@njit(cache=True)
def _expand(
    st: np.ndarray,
    sc: np.ndarray,
    node: int,
    tm: np.ndarray,
    tmover: np.ndarray,
    tfirst: np.ndarray,
    tcount: np.ndarray,
    ts: np.ndarray,
    tsize: np.ndarray,
    prm: np.ndarray,
    hint: np.ndarray,
) -> int:
    """Give ``node`` its children (the moves worth a look); their count."""
    n, s, w, h = st[M_N], st[M_S], st[M_W], st[M_H]
    p = st[M_TURN]
    dot = META + R_DOT * n
    cap = tm.shape[0]
    start = tsize[0]
    k = start
    for pass_ in range(2):
        for y in range(h):
            for x in range(w):
                c = (y + 1) * s + x + 1
                if not is_legal(st, c):
                    continue
                if pass_ == 0:
                    if not _near(st, c, dot, n, s):
                        continue
                    if _avoid(st, c, p) and gain(st, sc, c, p) <= 0:
                        continue
                if k >= cap:
                    break
                tm[k] = c
                tmover[k] = p
                tfirst[k] = -1
                tcount[k] = 0
                pr = _prior(st, sc, c, p, hint, node == 0)
                pn = prm[P_PRIOR_N]
                ts[k, S_N] = 0.0
                ts[k, S_W] = 0.0
                ts[k, S_RN] = pn
                ts[k, S_RW] = pn * pr
                ts[k, S_M] = 0.0
                k += 1
        if k > start:
            break
    # best prior first, for the progressive widening
    m = k - start
    if m > 1:
        key = np.empty(m, dtype=np.float64)
        for t in range(m):
            key[t] = -ts[start + t, S_RW] / ts[start + t, S_RN]
        idx = np.argsort(key, kind="mergesort")
        mv = tm[start:k].copy()
        st5 = ts[start:k].copy()
        for t in range(m):
            tm[start + t] = mv[idx[t]]
            ts[start + t] = st5[idx[t]]
    tfirst[node] = start
    tcount[node] = k - start
    tsize[0] = k
    return int(k - start)


@njit(cache=True)
def run(  # noqa: C901  numba kernel: the whole tree descent in one call
    st: np.ndarray,
    tr: np.ndarray,
    sc: np.ndarray,
    tm: np.ndarray,
    tmover: np.ndarray,
    tfirst: np.ndarray,
    tcount: np.ndarray,
    ts: np.ndarray,
    tsize: np.ndarray,
    rng: np.ndarray,
    prm: np.ndarray,
    hint: np.ndarray,
    iters: int,
    me: int,
) -> int:
    """``iters`` iterations from the root position ``st`` (left as it was); playouts made."""
    n = st[M_N]
    order = np.empty(n, dtype=np.int32)
    played = np.empty(4 * n, dtype=np.int32)
    path = np.empty(4 * n, dtype=np.int32)
    firstply = np.full(n, -1, dtype=np.int32)
    expand_at = prm[P_EXPAND]
    alone = st[M_SOLO] >= 0  # one side moves alone: every later move is the same mover's
    cc, bb, mw, widen = prm[P_C], prm[P_RAVE_B], prm[P_MARGIN], prm[P_WIDEN]
    d0 = _margin(st, me)
    if tfirst[0] < 0:
        _expand(st, sc, 0, tm, tmover, tfirst, tcount, ts, tsize, prm, hint)
    done = 0
    for _ in range(iters):
        mark = tr[0]
        node = 0
        depth = 0
        npl = 0
        path[0] = 0
        while tfirst[node] >= 0 and tcount[node] > 0 and st[M_FREE] > 0:
            f, cnt = tfirst[node], tcount[node]
            pn = ts[node, S_N] + 1.0
            logn = np.log(pn)
            best, bv = -1, -1e30
            cnt = min(cnt, 4 + int(widen * np.sqrt(pn)))
            for c in range(f, f + cnt):
                if not is_legal(st, tm[c]):
                    continue
                nn, rn = ts[c, S_N], ts[c, S_RN]
                q = ts[c, S_W] / nn if nn > 0 else 0.5
                rq = ts[c, S_RW] / rn if rn > 0 else 0.5
                beta = rn / (rn + nn + rn * nn * bb) if rn > 0 else 0.0
                v = (1.0 - beta) * q + beta * rq + cc * np.sqrt(logn / (nn + 1.0))
                if v > bv:
                    bv, best = v, c
            if best < 0:
                break
            place(st, tr, sc, tm[best])
            played[npl] = tm[best]
            npl += 1
            node = best
            depth += 1
            path[depth] = node
            if ts[node, S_N] + 1.0 >= expand_at and tfirst[node] < 0 and st[M_FREE] > 0:
                if tsize[0] + n < tm.shape[0]:
                    _expand(st, sc, node, tm, tmover, tfirst, tcount, ts, tsize, prm, hint)
                break
        npl = playout(st, tr, sc, rng, prm, order, played, npl)
        val, d = _value(st, me, mw, prm[P_DEPTH] > 0 and st[M_FREE] > 0, d0)
        undo_to(st, tr, mark)
        # first play of each point in this simulation (for the all-moves values)
        for t in range(npl):
            c = played[t]
            if firstply[c] < 0:
                firstply[c] = t
        for k in range(depth + 1):
            nd = path[k]
            if k > 0:
                ts[nd, S_N] += 1.0
                mine = tmover[nd] == me
                ts[nd, S_W] += val if mine else 1.0 - val
                ts[nd, S_M] += d if mine else -d
            else:
                ts[nd, S_N] += 1.0
            f, cnt = tfirst[nd], tcount[nd]
            if f < 0:
                continue
            for c in range(f, f + cnt):
                fp = firstply[tm[c]]
                if fp >= k and (alone or (fp - k) % 2 == 0):
                    ts[c, S_RN] += 1.0
                    ts[c, S_RW] += val if tmover[c] == me else 1.0 - val
        for t in range(npl):
            firstply[played[t]] = -1
        done += 1
    return done


@njit(cache=True)
def best_gain(st: np.ndarray, sc: np.ndarray, player: int) -> int:
    """The most dots ``player`` could capture with one dot now."""
    n = st[M_N]
    best = 0
    for c in range(n):
        if is_free(st, c) and closing(st, c, player):
            g = gain(st, sc, c, player)
            if g > best:
                best = g
    return best


# -- forcing lines (ladders) ---------------------------------------------------------------------


@njit(cache=True)
def _threats(st: np.ndarray, sc: np.ndarray, around: int, player: int, out: np.ndarray) -> int:
    """Points within two steps of ``around`` where ``player`` would capture now, in ``out``;
    their count. The biggest capture is first."""
    s = st[M_S]
    k = 0
    best = 0
    for dy in range(-2, 3):
        for dx in range(-2, 3):
            c = around + dy * s + dx
            if 0 <= c < st[M_N] and is_free(st, c) and closing(st, c, player):
                g = gain(st, sc, c, player)
                if g > 0 and k < out.shape[0]:
                    out[k] = c
                    if g > best:
                        best = g
                        out[0], out[k] = out[k], out[0]
                    k += 1
    return k


@njit(cache=True)
def _candidates(st: np.ndarray, a: int, root: bool, cand: np.ndarray) -> int:
    """The attacker's moves worth trying: next to the last dots of both sides, and at the
    root also next to every defender dot in contact with an attacker dot."""
    n, s, w, h = st[M_N], st[M_S], st[M_W], st[M_H]
    d = 1 - a
    nc = 0
    mine = META + (R_LIVE + a) * n
    theirs = META + (R_LIVE + d) * n
    for src0 in range(2):
        src = st[M_LASTP + (d if src0 == 0 else a)]
        if src >= 0:
            nc = _add_around(st, src, cand, nc)
    if root:
        for y in range(h):
            for x in range(w):
                i = (y + 1) * s + x + 1
                if not st[theirs + i]:
                    continue
                touch = False
                for k in range(8):
                    if st[mine + i + _dir(s, k)]:
                        touch = True
                if touch:
                    nc = _add_around(st, i, cand, nc)
    return nc


@njit(cache=True)
def _add_around(st: np.ndarray, i: int, cand: np.ndarray, nc: int) -> int:
    """Append the free neighbours of ``i`` not yet in ``cand[:nc]``; the new count."""
    s = st[M_S]
    for k in range(8):
        c = i + _dir(s, k)
        if is_free(st, c) and nc < cand.shape[0]:
            dup = False
            for t in range(nc):
                if cand[t] == c:
                    dup = True
            if not dup:
                cand[nc] = c
                nc += 1
    return nc


@njit(cache=True)
def _forced(  # noqa: C901  numba kernel: the ladder reader kept flat
    st: np.ndarray, tr: np.ndarray, sc: np.ndarray, a: int, depth: int, budget: int
) -> tuple[int, int]:
    """The attacker ``a`` (to move) wins dots by force within ``depth`` threats: (first
    move, dots won for sure), or (-1, 0). The defender may give up the threatened dots at any
    step, so a line is worth the least of its threats and its end.

    A depth-first search with its frames in arrays (numba cannot cache a recursive
    function): each frame tries the attacker's candidates in turn, and for each the
    defender's fills of the threatened points."""
    d = 1 - a
    cand = np.empty((depth, 64), dtype=np.int32)
    ncand = np.zeros(depth, dtype=np.int32)
    nxt = np.zeros(depth, dtype=np.int32)
    best = np.zeros(depth, dtype=np.int32)
    best_mv = np.full(depth, -1, dtype=np.int32)
    th = np.empty((depth, 25), dtype=np.int32)
    nth = np.zeros(depth, dtype=np.int32)
    resp = np.zeros(depth, dtype=np.int32)
    worst = np.zeros(depth, dtype=np.int32)
    cur = np.zeros(depth, dtype=np.int32)
    mark = np.zeros(depth, dtype=np.int64)
    mark2 = np.zeros(depth, dtype=np.int64)
    picking = np.ones(depth, dtype=np.bool_)
    f = 0
    ncand[0] = _candidates(st, a, True, cand[0])
    v = 0
    have_v = False  # a child frame just ended with value v for frame f's pending fill
    while True:
        if have_v:
            have_v = False
            undo_to(st, tr, mark2[f])
            if v < worst[f]:
                worst[f] = v
            resp[f] += 1
        if picking[f]:
            c = -1
            while nxt[f] < ncand[f] and budget > 0:
                k = cand[f, nxt[f]]
                nxt[f] += 1
                if is_free(st, k) and gain(st, sc, k, a) == 0:
                    c = k
                    break
            if c < 0:
                if f == 0:
                    return best_mv[0], best[0]
                v = best[f]
                f -= 1
                have_v = True
                continue
            budget -= 1
            mark[f] = tr[0]
            place(st, tr, sc, c)
            cur[f] = c
            nt = _threats(st, sc, c, a, th[f])
            nth[f] = nt
            resp[f] = 0
            if nt == 0 or st[M_FREE] == 0:
                worst[f] = 0
            else:
                worst[f] = gain(st, sc, th[f, 0], a)  # the defender lets the biggest go
            picking[f] = False
            continue
        if resp[f] >= nth[f] or worst[f] <= 0:
            undo_to(st, tr, mark[f])
            if worst[f] > best[f]:
                best[f], best_mv[f] = worst[f], cur[f]
            picking[f] = True
            continue
        rr = th[f, resp[f]]
        mark2[f] = tr[0]
        before = st[M_CAUGHT + d]
        place(st, tr, sc, rr)  # the defender fills a threatened point
        if st[M_CAUGHT + d] != before:
            v = 0  # the defender captured on the way: not a clean line
        else:
            left = 0
            for u in range(nth[f]):
                if u != resp[f] and is_free(st, th[f, u]):
                    g = gain(st, sc, th[f, u], a)
                    if g > left:
                        left = g
            if left > 0:
                v = left
            elif f + 1 < depth:
                f += 1
                ncand[f] = _candidates(st, a, False, cand[f])
                nxt[f], best[f], best_mv[f] = 0, 0, -1
                picking[f] = True
                continue
            else:
                v = 0
        have_v = True


@njit(cache=True)
def ladder(st: np.ndarray, tr: np.ndarray, sc: np.ndarray, depth: int, budget: int) -> np.ndarray:
    """The mover's forcing line, if one wins dots: [first move or -1, dots won]."""
    mv, won = _forced(st, tr, sc, st[M_TURN], depth, budget)
    out = np.empty(2, dtype=np.int64)
    out[0], out[1] = mv, won
    return out


# -- tree reuse ---------------------------------------------------------------------------------


@njit(cache=True)
def _reroot(
    tm: np.ndarray,
    tmover: np.ndarray,
    tfirst: np.ndarray,
    tcount: np.ndarray,
    ts: np.ndarray,
    r: int,
    nm: np.ndarray,
    nmover: np.ndarray,
    nfirst: np.ndarray,
    ncount: np.ndarray,
    ns: np.ndarray,
) -> int:
    """Copy the subtree under node ``r`` into the new arrays with ``r`` as node 0 (children
    kept together, breadth first); its size."""
    src = np.empty(tm.shape[0], dtype=np.int32)
    src[0] = r
    size = 1
    head = 0
    while head < size:
        old = src[head]
        nm[head], nmover[head] = tm[old], tmover[old]
        ns[head, :] = ts[old, :]
        f = tfirst[old]
        if f < 0 or size + tcount[old] > nm.shape[0]:
            nfirst[head], ncount[head] = -1, 0
        else:
            nfirst[head], ncount[head] = size, tcount[old]
            for c in range(f, f + tcount[old]):
                src[size] = c
                size += 1
        head += 1
    return size


def _child(tree: Tree, node: int, move: int) -> int:
    """The child of ``node`` that plays ``move``, or -1."""
    f = int(tree.first[node])
    if f < 0:
        return -1
    for c in range(f, f + int(tree.count[node])):
        if tree.move[c] == move:
            return c
    return -1


# A search's tree, kept per mover for the next search in this process: (the position's key,
# its moves, the tree). The next search of that mover, two moves on in the same game, starts
# from the subtree of the two moves played (a pool worker that gets the next move of another
# game, or of the same game after another worker's, just starts afresh).
_KEPT: dict[int, tuple[tuple[object, ...], tuple[int, ...], Tree]] = {}


def _key(game: object) -> tuple[object, ...]:
    from engine.dots.game import Game

    assert isinstance(game, Game)
    return (tuple(sorted(game.options.items())), game.stopped_by, game.stop_ply if
            game.stopped_by is not None else -1)  # fmt: skip


def _reused(game: object, me: int, capacity: int) -> Tree | None:
    """The subtree kept from this mover's last search, if this position is two moves on."""
    from engine.dots.game import Game

    assert isinstance(game, Game)
    kept = _KEPT.pop(me, None)
    if kept is None:
        return None
    key, hist, tree = kept
    now = game.move_indices
    extra = now[len(hist) :]
    if key != _key(game) or now[: len(hist)] != hist or not 1 <= len(extra) <= 2:
        return None
    node = 0
    for m in extra:
        node = _child(tree, node, m)
        if node < 0 or tree.first[node] < 0:
            return None
    new = Tree(len(tree.move))
    new.size[0] = _reroot(tree.move, tree.mover, tree.first, tree.count, tree.stats, node,
                          new.move, new.mover, new.first, new.count, new.stats)  # fmt: skip
    if new.size[0] > capacity // 2:  # nearly full: a fresh tree grows further
        return None
    return new


def _start_tree(
    game: object, me: int, capacity: int, hint: np.ndarray, prm: np.ndarray
) -> Tree | None:
    """The kept subtree (:func:`_reused`) with this position's root hints added to its
    children's all-moves values, as a new tree's root would have them; None without one."""
    tree = _reused(game, me, capacity)
    if tree is None:
        return None
    f, cnt = int(tree.first[0]), int(tree.count[0])
    for c in range(f, f + cnt):
        h = hint[int(tree.move[c])]
        if h > 0:
            tree.stats[c, S_RN] += prm[P_PRIOR_N]
            tree.stats[c, S_RW] += prm[P_PRIOR_N] * h
    return tree


# -- the driver -----------------------------------------------------------------------------------


def choose(
    game: object,
    *,
    seed: int | None,
    deadline: float | None = None,
    iterations: int | None = None,
    prm: np.ndarray | None = None,
    capacity: int = 1 << 19,
    hints: dict[int, float] | None = None,
    reuse: bool = False,
) -> tuple[int, dict[str, float]]:
    """The search's move for ``game`` (an :class:`engine.dots.Game`, not changed) as a board
    index, with figures (iterations, seconds). It stops at ``iterations`` or, when it has a
    ``deadline`` (on ``time.perf_counter``'s clock), in time for it, whichever comes first,
    but always after one playout at least.
    ``hints`` are prior win rates for root moves (board index -> rate). With ``reuse`` the
    tree starts from the subtree kept by this mover's last search when the game is two moves
    on (the move then depends on that search too, not only on the seed)."""
    import time

    from engine.dots.fastboard import FastBoard

    now, cpu = time.perf_counter, time.thread_time
    started = now()
    fb = FastBoard.from_game(game)
    st, tr, sc = fb.st, fb.tr, fb.sc
    me = int(st[M_TURN])
    n = fb.n
    prm = params() if prm is None else prm
    hint = np.zeros(n, dtype=np.float64)
    for c, v in (hints or {}).items():
        hint[c] = v
    if st[M_SOLO] < 0:
        st[M_TURN] = 1 - me  # what the opponent would win by force if it were their move
        mv, won = ladder(st, tr, sc, 8, 400)
        st[M_TURN] = me
        if mv >= 0 and won > 0 and is_legal(st, mv):
            hint[mv] = max(hint[mv], 0.9)
        mv, won = ladder(st, tr, sc, 8, 400)
        if mv >= 0 and won > 0:
            if best_gain(st, sc, 1 - me) == 0:
                # nothing of ours to save: the line wins dots whatever the answers
                return int(mv), {"iterations": 0.0, "seconds": now() - started,
                                 "nodes": 1.0, "value": 1.0, "forced": float(won),
                                 "reused": 0.0}  # fmt: skip
            hint[mv] = 0.97
    tree = _start_tree(game, me, max(capacity, 4 * n), hint, prm) if reuse else None
    reused = 0.0 if tree is None else float(tree.stats[0, S_N])
    tree = _fresh(max(capacity, 4 * n)) if tree is None else tree
    rng = np.array([(0x9E3779B97F4A7C15 ^ (seed or 0) * 0x2545F4914F6CDD1D) % (1 << 64) or 1],
                   dtype=np.uint64)  # fmt: skip
    if iterations is not None:
        iterations = max(1, iterations)  # the first playout expands the root: no move without it
    done = 0
    batch = 8
    waited = 0.0
    while True:
        if iterations is not None:
            batch = min(batch, iterations - done)
            if batch <= 0:
                break
        t0, c0 = now(), cpu()
        done += run(st, tr, sc, tree.move, tree.mover, tree.first, tree.count, tree.stats,
                    tree.size, rng, prm, hint, batch, me)  # fmt: skip
        spent, worked = now() - t0, cpu() - c0
        if deadline is not None:
            left = deadline - now()
            per = spent / batch
            waited = max(waited, spent - worked)  # the longest wait for a core in one batch
            if left <= 2 * per + waited + 0.005:
                break
            grow = 4 * batch
            by_wall = int(0.25 * left / per) if per > 0 else grow
            by_cpu = int(BATCH_CPU * batch / worked) if worked > 0 else grow
            batch = max(1, min(grow, by_wall, by_cpu))
        else:
            batch = min(4 * batch, 256)
    f, cnt = int(tree.first[0]), int(tree.count[0])
    kids = range(f, f + cnt)
    stats = tree.stats
    most = max(kids, key=lambda c: (stats[c, S_N], stats[c, S_RW] / max(stats[c, S_RN], 1), -c))
    nbest = float(stats[most, S_N])
    q = float(stats[most, S_W]) / max(nbest, 1.0)
    if nbest > 0 and (q > 0.92 or q < 0.08):
        # the game looks decided: among the well-tried moves, the best margin
        well = [c for c in kids if stats[c, S_N] >= 0.3 * nbest]
        most = max(well, key=lambda c: (float(stats[c, S_M]) / float(stats[c, S_N]), -c))
    figures = {
        "iterations": float(done),
        "seconds": now() - started,
        "nodes": float(tree.size[0]),
        "value": q,
        "reused": reused,
    }
    if reuse:
        from engine.dots.game import Game

        assert isinstance(game, Game)
        _KEPT[me] = (_key(game), game.move_indices, tree)
    else:
        _SPARE[:] = [tree]
    return int(tree.move[most]), figures


def warm() -> None:
    """Compile (or load from numba's cache) every kernel of the board and the search, so no
    move waits for the compiler: a short search on a small board with a capture in it."""
    from engine.dots.game import Game, Move

    g = Game(7, 7, grounding=True)
    for x, y in ((3, 2), (3, 3), (2, 3), (5, 5), (4, 3), (5, 4), (3, 4), (1, 1), (2, 2)):
        g.play(Move(x, y))
    kept = dict(_KEPT)
    choose(g, seed=1, iterations=30, reuse=True)
    tree = _KEPT[g.turn][2]
    new = Tree(len(tree.move))  # what a move two plies on does with the kept tree
    _reroot(tree.move, tree.mover, tree.first, tree.count, tree.stats, 0,
            new.move, new.mover, new.first, new.count, new.stats)  # fmt: skip
    _KEPT.clear()
    _KEPT.update(kept)  # warming leaves no tree of its own behind, but a spare for the first move
    _SPARE[:] = [tree]
    from engine.dots.fastboard import FastBoard

    fb = FastBoard.from_game(g)
    best_gain(fb.st, fb.sc, 0)  # otherwise only after a ladder that wins
    fb.gain(fb.index(0, 0), 0)
    fb.ungrounded(0)
    ladder(fb.st, fb.tr, fb.sc, 2, 10)
