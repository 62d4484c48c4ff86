"""The Dots board for search: every rule of :mod:`engine.dots.rings` on one flat int32 array,
compiled with numba, with an undo trail, so a search plays and takes back moves in
microseconds instead of copying a board per playout.

The rules are the referee's, step for step (:class:`engine.dots.rings.Board` is the spec and
a differential test replays games through both): the new dot's open sides, the boundary
traces of those sides advanced together 32 steps at a time, a ring per clockwise trace, the
flood of its inside, capture when it holds a live enemy dot, else an empty base, and the
intrusion rule. Three details differ only in cost: the components of live dots are kept as
a label per dot (a union relabels the smaller side, walking its circular member list, all
undone with the trail), so the question "one component?" that every ring test asks is one
read, not a walk up a tree; they are never rebuilt, so they may over-merge after dots die,
which only lets a trace run on to the end (the referee does the same until its rebuild),
never changes which rings are found. And the test whether a trace
is needed at all (:func:`closing`: two sides of the new dot on one component, or the dot
inside a ring) is asked before the dot joins its neighbours: a new ring leaves the dot by
two sides joined without it, while after the join every side is one component and the
referee traces whenever two sides are open.

Layout of the state array ``st`` (``N = (width + 2) * (height + 2)`` cells, a frame of
sentinels round the board, index ``(y + 1) * (width + 2) + x + 1``): ``META`` scalars, then
``ROWS`` rows of ``N`` (dots, captured areas, each player's live dots, "once enclosed" marks,
component labels and sizes, flood marks, standing bases per point, component member
lists), then the bases table
and the buffers of their rings and insides. Every write a move makes goes through
:func:`_set`, which logs the old value in the trail ``tr`` (``tr[0]`` is its length), so
:func:`undo_to` restores any earlier point. Numbers come in through ``st``, never as
globals from other modules (numba bakes globals into the cached code).
"""

from __future__ import annotations

import numpy as np
from numba import njit

EMPTY = -1
FRAME = 2
FRAME_MARK = -1

# meta slots
M_W, M_H, M_S, M_N = 0, 1, 2, 3
M_FREE = 4
M_CAUGHT = 5  # two slots: enemy dots captured now, per player
M_TERR = 7  # two slots: points inside each player's areas
M_STAMP = 9
M_NB = 10  # bases ever added (rows of the table in use)
M_RLEN, M_ILEN = 11, 12  # used lengths of the ring and inside buffers
M_OVER = 13  # a buffer ran out (a search playout only: the tests check it stays 0)
M_TURN = 14
M_SOLO = 15  # the player who moves alone after the other called STOP, else -1
M_COUNT = 16  # two slots: moves made per player (the first-move zone)
M_ZX, M_ZY, M_ZW, M_ZH = 18, 19, 20, 21
M_ZONE = 22  # 1 when the first move of each player must be in the zone
M_TERRITORY = 23  # 1: territory scoring
M_PLY = 24
M_MAXB, M_RCAP, M_ICAP = 25, 26, 27
M_BASES, M_RBUF, M_IBUF = 28, 29, 30  # offsets of the table and the buffers
M_LASTP = 31  # two slots: each player's last move (-1 none)
META = 40

R_DOT, R_AREA, R_LIVE, R_ENCL, R_PAR, R_SIZE, R_MARK, R_POS = 0, 1, 2, 4, 6, 8, 10, 11
R_COVER = 12  # two rows: how many standing bases of each player hold the point
R_NEXT = 14  # two rows: the next dot of the same component (a circular list)
ROWS = 16
B_OWNER, B_R0, B_RN, B_I0, B_IN, B_ALIVE = 0, 1, 2, 3, 4, 5
BW = 6  # ints per base
TRAIL = 1 << 20  # trail entries

# scratch layout (not undone): walk paths, then found rings' cycles and insides, a stack
MAXG = 4


def new_state(width: int, height: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A fresh empty board: (state, trail, scratch)."""
    s = width + 2
    n = s * (height + 2)
    maxb = 64 + 4 * n
    rcap = 64 * n
    icap = 96 * n
    bases = META + ROWS * n
    rbuf = bases + maxb * BW
    ibuf = rbuf + rcap
    st = np.zeros(ibuf + icap, dtype=np.int32)
    st[M_W], st[M_H], st[M_S], st[M_N] = width, height, s, n
    st[M_FREE] = width * height
    st[M_SOLO] = -1
    st[M_MAXB], st[M_RCAP], st[M_ICAP] = maxb, rcap, icap
    st[M_BASES], st[M_RBUF], st[M_IBUF] = bases, rbuf, ibuf
    st[M_LASTP] = st[M_LASTP + 1] = -1
    dot = st[META + R_DOT * n : META + (R_DOT + 1) * n]
    dot[:] = FRAME
    area = st[META + R_AREA * n : META + (R_AREA + 1) * n]
    area[:] = EMPTY
    mark = st[META + R_MARK * n : META + (R_MARK + 1) * n]
    mark[:] = FRAME_MARK
    for y in range(height):
        row = (y + 1) * s
        dot[row + 1 : row + 1 + width] = EMPTY
        mark[row + 1 : row + 1 + width] = 0
    st[META + R_POS * n : META + (R_POS + 1) * n] = -1
    for p in (0, 1):
        par = st[META + (R_PAR + p) * n : META + (R_PAR + p + 1) * n]
        par[:] = np.arange(n, dtype=np.int32)
        st[META + (R_SIZE + p) * n : META + (R_SIZE + p + 1) * n] = 1
        st[META + (R_NEXT + p) * n : META + (R_NEXT + p + 1) * n] = np.arange(n, dtype=np.int32)
    tr = np.zeros(2 * TRAIL + 2, dtype=np.int32)
    pc = 4 * n + 8
    sc = np.zeros(MAXG * pc + 2 * MAXG * n + n + 160, dtype=np.int32)
    return st, tr, sc


# -- the trail --------------------------------------------------------------------------------


@njit(cache=True)
def _set(st: np.ndarray, tr: np.ndarray, k: int, v: int) -> None:
    # Branch-free (see :func:`is_free`): a full trail keeps overwriting its last entry,
    # and the overflow mark says the undo is no longer exact.
    top = tr[0]
    room = 2 * top + 4 <= tr.shape[0]
    at = top if room else top - 1
    tr[1 + 2 * at] = k
    tr[2 + 2 * at] = st[k]
    tr[0] = at + 1
    st[M_OVER] |= not room
    st[k] = v


@njit(cache=True)
def undo_to(st: np.ndarray, tr: np.ndarray, mark: int) -> None:
    """Take back every write made since the trail had length ``mark``."""
    top = tr[0]
    while top > mark:
        top -= 1
        st[tr[1 + 2 * top]] = tr[2 + 2 * top]
    tr[0] = top


# -- components (undoable: a label per dot, the smaller side relabelled) -----------------------


@njit(cache=True)
def _find(st: np.ndarray, par0: int, i: int) -> int:
    """The component label of ``i`` (a dot of the component; ``i`` itself for a lone dot)."""
    return int(st[par0 + i])


@njit(cache=True)
def _join(st: np.ndarray, tr: np.ndarray, player: int, i: int) -> None:
    """Join the live dot ``i`` to its live neighbours' components: the smaller side of each
    union takes the bigger one's label, and the two member lists are spliced."""
    n = st[M_N]
    s = st[M_S]
    live = META + (R_LIVE + player) * n
    par0 = META + (R_PAR + player) * n
    size0 = META + (R_SIZE + player) * n
    nxt0 = META + (R_NEXT + player) * n
    for k in range(8):
        j = i + _dir(s, k)
        if st[live + j]:
            ri = st[par0 + i]
            rj = st[par0 + j]
            if ri != rj:
                if st[size0 + ri] < st[size0 + rj]:
                    ri, rj = rj, ri
                q = rj
                while True:
                    _set(st, tr, par0 + q, ri)
                    q = st[nxt0 + q]
                    if q == rj:
                        break
                a = st[nxt0 + ri]
                _set(st, tr, nxt0 + ri, st[nxt0 + rj])
                _set(st, tr, nxt0 + rj, a)
                _set(st, tr, size0 + ri, st[size0 + ri] + st[size0 + rj])


@njit(cache=True)
def _dir(s: int, k: int) -> int:
    """Clockwise from north: N, NE, E, SE, S, SW, W, NW. Branch-free (a trace asks it with
    ``k`` known only at run time): each step's dx + 1 and dy + 1 packed two bits a direction."""
    sh = 2 * (k & 7)
    return (((0x1A90 >> sh) & 3) - 1) * s + ((0x1A9 >> sh) & 3) - 1


@njit(cache=True)
def _dxy(k: int) -> tuple[int, int]:
    """The step of direction ``k`` as (dx, dy)."""
    sh = 2 * (k & 7)
    return ((0x1A9 >> sh) & 3) - 1, ((0x1A90 >> sh) & 3) - 1


# -- ring detection ---------------------------------------------------------------------------


@njit(cache=True)
def _rings(st: np.ndarray, sc: np.ndarray, p: int, player: int, limit: int) -> int:  # noqa: C901  numba kernel: the ring trace kept flat
    """The new rings through ``p`` (the referee's ``rings_through``): their count; ring ``r``'s
    cycle and inside are left in the scratch (see :func:`_cycle_at`, :func:`_inside_at`),
    smallest inside first. A trace past ``limit`` steps, or an inside past ``limit`` points,
    gives up (0 rings): ``4 * n`` for the rules (cannot happen on a consistent board), less
    for a playout's quick look (:func:`gain_within`)."""
    n = st[M_N]
    s = st[M_S]
    live = META + (R_LIVE + player) * n
    t0 = sc.shape[0] - 64  # small per-call arrays live at the scratch's tail (no allocation)
    on = sc[t0 : t0 + 8]
    cnt = 0
    for k in range(8):
        v = 1 if st[live + p + _dir(s, k)] else 0
        on[k] = v
        cnt += v
    if cnt == 0:
        return 0
    for k in (1, 3, 5, 7):
        if not on[k] and on[k - 1] and on[(k + 1) & 7]:
            on[k] = 2
    full = True
    for k in range(8):
        if not on[k]:
            full = False
    if full:
        return 0
    start = 0
    while not on[start]:
        start += 1
    g_back = sc[t0 + 8 : t0 + 12]
    g_in = sc[t0 + 12 : t0 + 16]
    g_grp = sc[t0 + 16 : t0 + 20]
    ng = 0
    k = start
    for _ in range(8):
        nk = (k + 1) & 7
        if on[k] and not on[nk]:
            j = nk
            ortho = -1
            while not on[j]:
                if ortho < 0 and not j & 1:
                    ortho = j
                j = (j + 1) & 7
            g_back[ng] = k
            g_in[ng] = p + _dir(s, ortho)
            g_grp[ng] = p + _dir(s, k) if on[k] == 1 else p + _dir(s, (k - 1) & 7)
            ng += 1
        k = nk
    enclosed = st[META + (R_ENCL + player) * n + p] != 0
    if ng == 0 or (ng < 2 and not enclosed):
        return 0
    par0 = META + (R_PAR + player) * n
    comps = 0
    for a in range(ng):
        ra = _find(st, par0, g_grp[a])
        dup = False
        for b in range(a):
            if _find(st, par0, g_grp[b]) == ra:
                dup = True
                break
        if not dup:
            comps += 1
    want = ng - comps
    if want <= 0 and not enclosed:
        return 0
    pc = 4 * n + 8
    # per walk: cell, back, length, area2, open
    cell = sc[t0 + 20 : t0 + 24]
    back = sc[t0 + 24 : t0 + 28]
    plen = sc[t0 + 28 : t0 + 32]
    area2 = sc[t0 + 32 : t0 + 36]
    opn = sc[t0 + 36 : t0 + 40]
    wx = sc[t0 + 44 : t0 + 48]  # the walk's place from p: the area needs no division
    wy = sc[t0 + 48 : t0 + 52]
    for a in range(ng):
        cell[a] = p
        wx[a] = wy[a] = 0
        back[a] = g_back[a]
        sc[a * pc] = p
        plen[a] = 1
        area2[a] = 0
        opn[a] = 1
    found = sc[t0 + 40 : t0 + 44]
    nf = 0
    active = ng
    steps = 0
    while active and (enclosed or nf < want):
        for a in range(ng):
            if not opn[a]:
                continue
            c = cell[a]
            bk = back[a]
            ar = area2[a]
            ln = plen[a]
            xc, yc = wx[a], wy[a]
            for _ in range(32):
                kk = bk + 1
                while True:
                    kk &= 7
                    q = c + _dir(s, kk)
                    if st[live + q]:
                        break
                    kk += 1
                dx, dy = _dxy(kk)
                ar += xc * dy - dx * yc  # the shoelace term of the step (c, q): exact
                xc += dx
                yc += dy
                if q == p:
                    opn[a] = 0
                    active -= 1
                    if ar < 0:
                        found[nf] = a
                        nf += 1
                    break
                if ln < pc:
                    sc[a * pc + ln] = q
                ln += 1
                bk = (kk + 4) & 7
                c = q
            cell[a], back[a], area2[a], plen[a] = c, bk, ar, ln
            wx[a], wy[a] = xc, yc
            steps += 32
            if steps > limit:
                return 0  # the rules' limit cannot be passed (the referee raises)
    # cycles and insides
    cyc0 = MAXG * pc
    ins0 = cyc0 + MAXG * n
    lens0 = ins0 + MAXG * n  # per ring: cycle length, inside length; then the order, a stack
    pos = META + R_POS * n
    nr = 0
    for f in range(nf):
        a = found[f]
        base = a * pc
        ln = plen[a]
        co = cyc0 + nr * n
        m = 0
        for t in range(ln):
            c = sc[base + t]
            kpos = st[pos + c]
            if kpos < 0:
                st[pos + c] = m
                sc[co + m] = c
                m += 1
            else:
                for u in range(kpos + 1, m):
                    st[pos + sc[co + u]] = -1
                m = kpos + 1
        for u in range(m):
            st[pos + sc[co + u]] = -1
        k_in = _fill(st, sc, g_in[a], co, m, ins0 + nr * n, lens0 + 32, limit)
        if k_in >= 0:
            sc[lens0 + 2 * nr] = m
            sc[lens0 + 2 * nr + 1] = k_in
            nr += 1
    # stable sort by inside size (insertion sort over an order array)
    order = sc[lens0 + 16 : lens0 + 16 + MAXG]
    for r in range(nr):
        order[r] = r
    for r in range(1, nr):
        v = order[r]
        t = r - 1
        while t >= 0 and sc[lens0 + 2 * order[t] + 1] > sc[lens0 + 2 * v + 1]:
            order[t + 1] = order[t]
            t -= 1
        order[t + 1] = v
    return nr


@njit(cache=True)
def _fill(
    st: np.ndarray,
    sc: np.ndarray,
    start: int,
    co: int,
    m: int,
    out0: int,
    stack0: int,
    limit: int,
) -> int:
    """Flood the inside of the cycle ``sc[co:co+m]`` from ``start`` into ``sc[out0:]``: its
    length, or -1 when the flood reaches the frame (the cycle does not hold ``start``) or
    passes ``limit`` points."""
    n = st[M_N]
    s = st[M_S]
    mk = META + R_MARK * n
    st[M_STAMP] += 2
    if st[M_STAMP] > 2_000_000_000:
        st[M_STAMP] = 2
        for i in range(n):
            if st[mk + i] != FRAME_MARK:
                st[mk + i] = 0
    edge = st[M_STAMP]
    seen = edge + 1
    for t in range(m):
        st[mk + sc[co + t]] = edge
    st[mk + start] = seen
    sc[out0] = start
    k = 1
    sp = 0
    sc[stack0] = start
    sp = 1
    while sp:
        sp -= 1
        c = sc[stack0 + sp]
        for d in range(4):
            q = c - s if d == 0 else c + 1 if d == 1 else c + s if d == 2 else c - 1
            mq = st[mk + q]
            if mq != edge and mq != seen:
                if mq == FRAME_MARK or k > limit:
                    return -1
                st[mk + q] = seen
                if k < n:
                    sc[out0 + k] = q
                k += 1
                sc[stack0 + sp] = q
                sp += 1
    return k


# -- applying a move --------------------------------------------------------------------------


@njit(cache=True)
def _geometry(st: np.ndarray) -> tuple[int, int, int, int]:
    n = st[M_N]
    pc = 4 * n + 8
    cyc0 = MAXG * pc
    ins0 = cyc0 + MAXG * n
    lens0 = ins0 + MAXG * n
    return n, cyc0, ins0, lens0


@njit(cache=True)
def place(st: np.ndarray, tr: np.ndarray, sc: np.ndarray, p: int) -> None:
    """The player to move puts a dot on the free point ``p``: captures, bases, intrusion,
    then the turn passes (to the same player in a STOP phase)."""
    player = st[M_TURN]
    enemy = 1 - player
    put(st, tr, sc, p, player)
    _set(st, tr, M_COUNT + player, st[M_COUNT + player] + 1)
    _set(st, tr, M_LASTP + player, p)
    _set(st, tr, M_PLY, st[M_PLY] + 1)
    solo = st[M_SOLO]
    _set(st, tr, M_TURN, solo if solo >= 0 else enemy)


@njit(cache=True)
def put(st: np.ndarray, tr: np.ndarray, sc: np.ndarray, p: int, player: int) -> None:
    """A dot of ``player`` on ``p`` and every rule it sets off (the referee's ``place``)."""
    enemy = 1 - player
    n, cyc0, ins0, lens0 = _geometry(st)
    # A new ring through p leaves it by two sides joined without it: asked before the dot
    # joins them (after, every side is one component and the referee's test always traces).
    ring = closing(st, p, player)
    _set(st, tr, META + R_DOT * n + p, player)
    _set(st, tr, META + (R_LIVE + player) * n + p, 1)
    _set(st, tr, M_FREE, st[M_FREE] - 1)
    _join(st, tr, player, p)
    nr = _rings(st, sc, p, player, 4 * n) if ring else 0
    captured = False
    elive = META + (R_LIVE + enemy) * n
    order0 = lens0 + 16
    for r in range(nr):
        slot = sc[order0 + r]
        cm = sc[lens0 + 2 * slot]
        im = sc[lens0 + 2 * slot + 1]
        co = cyc0 + slot * n
        io = ins0 + slot * n
        hit = False
        for t in range(im):
            if st[elive + sc[io + t]]:
                hit = True
                break
        if hit:
            _capture_scratch(st, tr, player, sc, io, im)
            captured = True
        else:
            _add_base(st, tr, player, sc, co, cm, io, im)
    if st[META + (R_COVER + enemy) * n + p]:
        tb = st[M_BASES]
        best = -1
        best_len = 1 << 30
        any_holder = False
        for b in range(st[M_NB]):
            row = tb + b * BW
            if st[row + B_ALIVE] and st[row + B_OWNER] == enemy and _base_has(st, row, p):
                any_holder = True
                if captured:
                    _kill(st, tr, row)
                elif st[row + B_IN] < best_len:
                    best, best_len = b, st[row + B_IN]
        # The ring catches the intruder at its owner's next move: none comes when this dot
        # took the last free point or the owner called STOP (the intruder moves alone).
        catch = st[M_FREE] > 0 and st[M_SOLO] < 0
        if any_holder and not captured and catch:
            row = tb + best * BW
            _capture_base(st, tr, enemy, row)


@njit(cache=True)
def _base_has(st: np.ndarray, row: int, p: int) -> bool:
    i0 = st[M_IBUF] + st[row + B_I0]
    for t in range(st[row + B_IN]):  # noqa: SIM110 (numba: no generators)
        if st[i0 + t] == p:
            return True
    return False


@njit(cache=True)
def _add_base(
    st: np.ndarray,
    tr: np.ndarray,
    owner: int,
    sc: np.ndarray,
    co: int,
    cm: int,
    io: int,
    im: int,
) -> None:
    n = st[M_N]
    area = META + R_AREA * n
    k = -1
    for t in range(im):
        if st[area + sc[io + t]] == EMPTY:
            k = t
            break
    if k < 0:
        return
    nb = st[M_NB]
    rl, il = st[M_RLEN], st[M_ILEN]
    if nb >= st[M_MAXB] or rl + cm > st[M_RCAP] or il + im > st[M_ICAP]:
        st[M_OVER] = 1
        return
    v = sc[io]
    sc[io] = sc[io + k]
    sc[io + k] = v
    rb, ib = st[M_RBUF], st[M_IBUF]
    for t in range(cm):
        st[rb + rl + t] = sc[co + t]
    for t in range(im):
        st[ib + il + t] = sc[io + t]
    row = st[M_BASES] + nb * BW
    st[row + B_OWNER] = owner
    st[row + B_R0], st[row + B_RN] = rl, cm
    st[row + B_I0], st[row + B_IN] = il, im
    st[row + B_ALIVE] = 1
    _set(st, tr, M_NB, nb + 1)
    _set(st, tr, M_RLEN, rl + cm)
    _set(st, tr, M_ILEN, il + im)
    enc = META + (R_ENCL + owner) * n
    cov = META + (R_COVER + owner) * n
    for t in range(im):
        q = sc[io + t]
        if not st[enc + q]:
            _set(st, tr, enc + q, 1)
        _set(st, tr, cov + q, st[cov + q] + 1)


@njit(cache=True)
def _kill(st: np.ndarray, tr: np.ndarray, row: int) -> None:
    """A base stops standing."""
    n = st[M_N]
    _set(st, tr, row + B_ALIVE, 0)
    cov = META + (R_COVER + st[row + B_OWNER]) * n
    i0 = st[M_IBUF] + st[row + B_I0]
    for t in range(st[row + B_IN]):
        q = st[i0 + t]
        _set(st, tr, cov + q, st[cov + q] - 1)


@njit(cache=True)
def _capture_scratch(
    st: np.ndarray, tr: np.ndarray, owner: int, sc: np.ndarray, io: int, im: int
) -> None:
    _capture(st, tr, owner, sc, io, im)


@njit(cache=True)
def _capture_base(st: np.ndarray, tr: np.ndarray, owner: int, row: int) -> None:
    _capture(st, tr, owner, st, st[M_IBUF] + st[row + B_I0], st[row + B_IN])


@njit(cache=True)
def _capture(st: np.ndarray, tr: np.ndarray, owner: int, src: np.ndarray, io: int, im: int) -> None:
    """Capture the points ``src[io:io+im]`` for ``owner`` (the referee's ``_capture``)."""
    n = st[M_N]
    enemy = 1 - owner
    dot, area = META + R_DOT * n, META + R_AREA * n
    mine = META + (R_LIVE + owner) * n
    theirs = META + (R_LIVE + enemy) * n
    nfreed = 0  # freed dots are joined after the loop (a rescan: they are few)
    for t in range(im):
        q = src[io + t]
        old = st[area + q]
        if old == owner:
            continue
        _set(st, tr, area + q, owner)
        _set(st, tr, M_TERR + owner, st[M_TERR + owner] + 1)
        if old != EMPTY:
            _set(st, tr, M_TERR + old, st[M_TERR + old] - 1)
        o = st[dot + q]
        if o == EMPTY:
            if old == EMPTY:
                _set(st, tr, M_FREE, st[M_FREE] - 1)
        elif o == enemy:
            _set(st, tr, theirs + q, 0)
            _set(st, tr, M_CAUGHT + owner, st[M_CAUGHT + owner] + 1)
        elif old == enemy:
            _set(st, tr, M_CAUGHT + enemy, st[M_CAUGHT + enemy] - 1)
            _set(st, tr, mine + q, 1)
            nfreed += 1
    if nfreed:
        for t in range(im):
            q = src[io + t]
            if st[dot + q] == owner and st[area + q] == owner and st[mine + q]:
                _join(st, tr, owner, q)
    # the bases that still hold
    tb = st[M_BASES]
    for b in range(st[M_NB]):
        row = tb + b * BW
        if st[row + B_ALIVE] and not _base_holds(st, row):
            _kill(st, tr, row)


@njit(cache=True)
def _base_holds(st: np.ndarray, row: int) -> bool:
    n = st[M_N]
    owner = st[row + B_OWNER]
    if st[META + R_AREA * n + st[st[M_IBUF] + st[row + B_I0]]] != EMPTY:
        return False
    w = META + (R_LIVE + owner) * n
    r0 = st[M_RBUF] + st[row + B_R0]
    for t in range(st[row + B_RN]):  # noqa: SIM110 (numba: no generators)
        if not st[w + st[r0 + t]]:
            return False
    return True


# -- questions a search asks ------------------------------------------------------------------


@njit(cache=True)
def is_free(st: np.ndarray, p: int) -> bool:
    n = st[M_N]
    # ``&``, not ``and``: one basic block, so numba's pass that drops a function's
    # reference-count pair on ``st`` can drop it (with a branch an atomic increment and
    # decrement stayed in, a third of a playout's time, this read being its commonest).
    return bool((st[META + R_DOT * n + p] == EMPTY) & (st[META + R_AREA * n + p] == EMPTY))


@njit(cache=True)
def is_legal(st: np.ndarray, p: int) -> bool:
    """Free, and inside the first-move zone while the mover's first move is due there."""
    if p < 0 or p >= st[M_N] or not is_free(st, p):
        return False
    if st[M_ZONE] and st[M_COUNT + st[M_TURN]] == 0:
        s = st[M_S]
        x, y = p % s - 1, p // s - 1
        return bool(st[M_ZX] <= x < st[M_ZX] + st[M_ZW] and st[M_ZY] <= y < st[M_ZY] + st[M_ZH])
    return True


@njit(cache=True)
def in_base(st: np.ndarray, p: int, owner: int) -> bool:
    """Whether ``p`` lies in an empty base of ``owner`` that stands now."""
    return bool(st[META + (R_COVER + owner) * st[M_N] + p] > 0)


@njit(cache=True)
def closing(st: np.ndarray, p: int, player: int) -> bool:
    """Whether a dot of ``player`` on ``p`` would make :func:`_rings` trace: the referee's
    early exits of ``rings_through`` (no side open, one side outside every ring, no two sides
    on one component) on the board as it stands, with the sides as bits. Most points near
    the action fail it, and it costs a few reads where a trace costs a walk round a group,
    so the questions a search asks (:func:`gain`) try it first."""
    n, s = st[M_N], st[M_S]
    w = META + (R_LIVE + player) * n + p
    m = (
        (st[w - s] != 0)
        | (st[w - s + 1] != 0) << 1
        | (st[w + 1] != 0) << 2
        | (st[w + s + 1] != 0) << 3
        | (st[w + s] != 0) << 4
        | (st[w + s - 1] != 0) << 5
        | (st[w - 1] != 0) << 6
        | (st[w - s - 1] != 0) << 7
    )
    if m == 0:
        return False
    ortho = m & 0x55  # a diagonal notch between two orthogonal walls is no side
    on = m | ((ortho << 1) & ((ortho >> 1) | (ortho << 7)) & 0xAA)
    ends = on & ~((on >> 1) | (on << 7)) & 0xFF  # walls with a side opening after them
    if ends == 0:
        return False
    if st[META + (R_ENCL + player) * n + p] != 0:
        return True
    if ends & (ends - 1) == 0:
        return False  # one side, outside every ring
    par0 = META + (R_PAR + player) * n
    r0 = r1 = r2 = -1
    ng = 0
    for k in range(8):
        if (ends >> k) & 1:
            g = p + _dir(s, k) if (m >> k) & 1 else p + _dir(s, (k - 1) & 7)
            r = _find(st, par0, g)
            if r == r0 or r == r1 or r == r2:  # noqa: SIM109 (numba: no tuple built)
                return True  # two sides on one component: a new ring
            if ng == 0:
                r0 = r
            elif ng == 1:
                r1 = r
            else:
                r2 = r
            ng += 1
    return False


@njit(cache=True)
def gain(st: np.ndarray, sc: np.ndarray, p: int, player: int) -> int:
    """Live enemy dots ``player`` would capture on the free point ``p`` now, or -1 when the
    dot would be caught at once inside an enemy base (the referee's ``gain``)."""
    return gain_within(st, sc, p, player, 4 * st[M_N])


@njit(cache=True)
def gain_within(st: np.ndarray, sc: np.ndarray, p: int, player: int, limit: int) -> int:
    """:func:`gain`, looking only at rings whose trace and inside stay within ``limit``
    (a playout's quick look near the last dots: the big rings there are rare and dear)."""
    if not closing(st, p, player):
        return -1 if in_base(st, p, 1 - player) else 0
    return gain_closing(st, sc, p, player, limit)


@njit(cache=True)
def gain_closing(st: np.ndarray, sc: np.ndarray, p: int, player: int, limit: int) -> int:
    """:func:`gain_within` at a point where :func:`closing` said yes (a playout's scan has
    just asked it: not asked twice)."""
    n = st[M_N]
    enemy = 1 - player
    dot = META + R_DOT * n
    live = META + (R_LIVE + player) * n
    st[dot + p] = player
    st[live + p] = 1
    nr = _rings(st, sc, p, player, limit)
    st[dot + p] = EMPTY
    st[live + p] = 0
    if nr == 0:
        if in_base(st, p, enemy):
            return -1
        return 0
    _, _, ins0, lens0 = _geometry(st)
    elive = META + (R_LIVE + enemy) * n
    pos = META + R_POS * n
    total = 0
    for r in range(nr):
        io = ins0 + r * n
        for t in range(sc[lens0 + 2 * r + 1]):
            q = sc[io + t]
            if st[elive + q] and st[pos + q] == -1:
                st[pos + q] = -2
                total += 1
    for r in range(nr):
        io = ins0 + r * n
        for t in range(sc[lens0 + 2 * r + 1]):
            st[pos + sc[io + t]] = -1
    if total == 0 and in_base(st, p, enemy):
        return -1
    return total


@njit(cache=True)
def ungrounded(st: np.ndarray, sc: np.ndarray, player: int) -> int:
    """The player's live dots not joined to the edge through their own live dots and area
    (what the ground action hands to the opponent)."""
    n, s, w, h = st[M_N], st[M_S], st[M_W], st[M_H]
    live = META + (R_LIVE + player) * n
    area = META + R_AREA * n
    mk = META + R_MARK * n
    st[M_STAMP] += 2
    seen = st[M_STAMP]
    stack0 = _geometry(st)[3] + 32
    sp = 0
    total = 0
    for y in range(h):
        for x in range(w):
            i = (y + 1) * s + x + 1
            if st[live + i]:
                total += 1
                if (x == 0 or y == 0 or x == w - 1 or y == h - 1) and st[mk + i] != seen:
                    st[mk + i] = seen
                    sc[stack0 + sp] = i
                    sp += 1
    reached = 0
    while sp:
        sp -= 1
        c = sc[stack0 + sp]
        if st[live + c]:
            reached += 1
        for d in range(4):
            q = c - s if d == 0 else c + 1 if d == 1 else c + s if d == 2 else c - 1
            if (
                st[mk + q] != seen
                and st[mk + q] != FRAME_MARK
                and (st[live + q] or st[area + q] == player)
            ):
                st[mk + q] = seen
                sc[stack0 + sp] = q
                sp += 1
    return total - reached


@njit(cache=True)
def play_all(st: np.ndarray, tr: np.ndarray, sc: np.ndarray, moves: np.ndarray) -> None:
    for k in range(moves.shape[0]):
        place(st, tr, sc, moves[k])


# -- the Python face ----------------------------------------------------------------------------


class FastBoard:
    """A :class:`engine.dots.Game` position on the flat board: the search's copy of it.

    Board indices are the referee's (``(y + 1) * (width + 2) + x + 1``)."""

    def __init__(
        self,
        width: int,
        height: int,
        *,
        zone: tuple[int, int, int, int] | None = None,
        territory: bool = False,
    ) -> None:
        self.width, self.height = width, height
        self.stride = width + 2
        self.st, self.tr, self.sc = new_state(width, height)
        if zone is not None:
            st = self.st
            st[M_ZONE] = 1
            st[M_ZX], st[M_ZY], st[M_ZW], st[M_ZH] = zone
        self.st[M_TERRITORY] = 1 if territory else 0

    @classmethod
    def from_game(cls, game: object) -> FastBoard:
        """The position of ``game`` (an :class:`engine.dots.Game`): its starting cross, its
        moves replayed, and the STOP phase (the other player then moves alone)."""
        from engine.core import BadOptions
        from engine.dots.game import Game

        assert isinstance(game, Game)
        if game.edge != "safe":  # its ring test knows only edge dots that are never surrounded
            raise BadOptions(f"the compiled board plays edge='safe' only, not {game.edge!r}")
        z = game._zone  # the zone itself, also after the first moves (``zone`` is None then)
        fb = cls(
            game.width,
            game.height,
            zone=(z.x, z.y, z.width, z.height) if game.start == "zone" else None,
            territory=game.scoring == "territory",
        )
        for x, y, p in game.cross_points():
            put(fb.st, fb.tr, fb.sc, fb.index(x, y), p)
        hist = game.move_indices
        stop = game.stopped_by
        if stop is None:
            play_all(fb.st, fb.tr, fb.sc, np.array(hist, dtype=np.int64))
        else:
            # From the STOP on the other player moves alone. Their move just before it is
            # played as of the STOP phase too: an intruder it put into the stopper's empty ring
            # is not caught (the referee's rule: the owner's next move never comes).
            held = game.stop_ply - 1
            if held < 0 or held % 2 == stop:
                held = game.stop_ply
            play_all(fb.st, fb.tr, fb.sc, np.array(hist[:held], dtype=np.int64))
            fb.st[M_SOLO] = 1 - stop
            fb.st[M_TURN] = 1 - stop
            play_all(fb.st, fb.tr, fb.sc, np.array(hist[held:], dtype=np.int64))
        fb.commit()
        return fb

    def index(self, x: int, y: int) -> int:
        return (y + 1) * self.stride + x + 1

    def xy(self, i: int) -> tuple[int, int]:
        return (i % self.stride - 1, i // self.stride - 1)

    # moves and undo
    def place(self, i: int) -> None:
        place(self.st, self.tr, self.sc, i)

    def mark(self) -> int:
        return int(self.tr[0])

    def undo(self, mark: int) -> None:
        undo_to(self.st, self.tr, mark)

    def commit(self) -> None:
        """Forget the undo trail (the position now is the one to keep)."""
        self.tr[0] = 0

    # views
    @property
    def n(self) -> int:
        return int(self.st[M_N])

    def row(self, r: int) -> np.ndarray:
        n = self.n
        return self.st[META + r * n : META + (r + 1) * n]

    @property
    def dots(self) -> np.ndarray:
        return self.row(R_DOT)

    @property
    def areas(self) -> np.ndarray:
        return self.row(R_AREA)

    @property
    def turn(self) -> int:
        return int(self.st[M_TURN])

    @property
    def free(self) -> int:
        return int(self.st[M_FREE])

    @property
    def caught(self) -> tuple[int, int]:
        return (int(self.st[M_CAUGHT]), int(self.st[M_CAUGHT + 1]))

    @property
    def territory(self) -> tuple[int, int]:
        return (int(self.st[M_TERR]), int(self.st[M_TERR + 1]))

    @property
    def scores(self) -> tuple[int, int]:
        return self.territory if self.st[M_TERRITORY] else self.caught

    @property
    def overflow(self) -> bool:
        return bool(self.st[M_OVER])

    def bases(self) -> list[tuple[int, frozenset[int]]]:
        """The empty bases that stand now: (owner, inside indices), in the order made."""
        st = self.st
        out = []
        tb, ib = int(st[M_BASES]), int(st[M_IBUF])
        for b in range(int(st[M_NB])):
            row = tb + b * BW
            if st[row + B_ALIVE]:
                i0 = ib + int(st[row + B_I0])
                inside = frozenset(int(q) for q in st[i0 : i0 + int(st[row + B_IN])])
                out.append((int(st[row + B_OWNER]), inside))
        return out

    def is_legal(self, i: int) -> bool:
        return bool(is_legal(self.st, i))

    def legal_indices(self) -> list[int]:
        st = self.st
        ok = (self.dots == EMPTY) & (self.areas == EMPTY)
        if st[M_ZONE] and st[M_COUNT + st[M_TURN]] == 0:
            i = np.arange(self.n)
            x, y = i % self.stride - 1, i // self.stride - 1
            zx, zy, zw, zh = (int(v) for v in st[M_ZX : M_ZH + 1])
            ok &= (zx <= x) & (x < zx + zw) & (zy <= y) & (y < zy + zh)
        return [int(i) for i in np.flatnonzero(ok)]

    def gain(self, i: int, player: int) -> int:
        return int(gain(self.st, self.sc, i, player))

    def ungrounded(self, player: int) -> int:
        return int(ungrounded(self.st, self.sc, player))
