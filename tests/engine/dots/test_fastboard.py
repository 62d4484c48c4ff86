"""The search's compiled board against the referee: games replayed through both, every
position compared (dots, captured areas, scores, free points, standing bases, legal moves,
what a dot would capture, grounding), and undo taking a position back exactly.

A new rule option is one more entry in ``OPTIONS``. The games are random, some uniform and
some played near the last dots (which closes far more rings: bases, intruders, liberations,
nested captures), plus a few AI games; the run checks it saw each of those. ``make test``
plays a few hundred; ``TETRAD_SLOW=1`` plays thousands.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import numpy as np
import pytest

from engine.dots import Game
from engine.dots.ai import choose_move
from engine.dots.fastboard import FastBoard
from engine.dots.rings import EMPTY
from tests.fixtures.slow import SLOW

GAMES = 3000 if SLOW else 160

OPTIONS: list[dict[str, Any]] = [
    {"width": 5, "height": 5},
    {"width": 8, "height": 6},
    {"width": 12, "height": 10},
    {"width": 20, "height": 20},
    {"width": 7, "height": 7, "start": "cross"},
    {"width": 9, "height": 8, "start": "zone", "zone_width": 3, "zone_height": 3},
    {"width": 10, "height": 9, "grounding": True, "scoring": "territory"},
    {"width": 16, "height": 13, "start": "zone", "grounding": True},
]


def _bases(g: Game) -> list[tuple[int, frozenset[int]]]:
    b = g._board
    return [(r.owner, frozenset(r.inside)) for r in b.bases]


def compare(g: Game, fb: FastBoard, rng: random.Random, seen: Counter[str]) -> None:
    b = g._board
    assert fb.dots.tolist() == b.dot
    assert fb.areas.tolist() == b.area
    assert fb.caught == tuple(b.caught) and fb.territory == tuple(b.territory)
    assert fb.scores == g.scores
    assert fb.free == b.free and fb.turn == g.turn
    assert fb.bases() == _bases(g)
    assert fb.legal_indices() == g.legal_indices()
    assert not fb.overflow
    free = [i for i in range(len(b.dot)) if b.is_free(i)]
    for i in rng.sample(free, min(6, len(free))):
        for p in (0, 1):
            assert fb.gain(i, p) == b.gain(i, p), (i, p)
    if g.grounding:
        for p in (0, 1):
            assert fb.ungrounded(p) == len(g.ungrounded(p))
    for p in (0, 1):
        _components_agree(g, fb, p)
    seen["positions"] += 1
    seen["bases"] += bool(b.bases)


def _components_agree(g: Game, fb: FastBoard, player: int) -> None:
    """The board's component labels (what every ring test compares) are whole: each label's
    member list is a cycle through exactly the cells of that label, as long as its size;
    touching live dots share a label; and the referee's components lie each inside one
    (the referee may have split its own since dots died, never the other way round)."""
    from engine.dots import fastboard as F

    label = fb.row(F.R_PAR + player)
    nxt = fb.row(F.R_NEXT + player)
    size = fb.row(F.R_SIZE + player)
    assert np.array_equal(label[nxt], label)
    roots = np.unique(label)
    assert np.array_equal(label[roots], roots)  # a label is a member of its component
    assert np.array_equal(np.bincount(label, minlength=fb.n)[roots], size[roots])
    for r in roots[size[roots] > 1]:
        q, steps = int(nxt[r]), 1
        while q != r:
            q, steps = int(nxt[q]), steps + 1
        assert steps == size[r]
    live = np.flatnonzero(fb.row(F.R_LIVE + player))
    walls = fb.row(F.R_LIVE + player)
    for d in g._board.dirs:
        both = live[walls[live + d] != 0]
        assert np.array_equal(label[both], label[both + d])
    b = g._board
    theirs: dict[int, int] = {}
    for i in live.tolist():
        assert theirs.setdefault(b._find(b.parent[player], i), int(label[i])) == label[i]


def _local(g: Game, rng: random.Random) -> int:
    """A free point next to one of the last few dots (uniform when there is none)."""
    b = g._board
    legal = g.legal_indices()
    if rng.random() < 0.8 and g._hist:
        near = set()
        for j in g._hist[-3:]:
            for d in b.dirs:
                near.add(j + d)
        pool = sorted(near.intersection(legal))
        if pool:
            return rng.choice(pool)
    return rng.choice(legal)


def _features(g: Game, before: tuple[int, int], seen: Counter[str]) -> None:
    caps = g._board.captures
    new = [r for r in caps if r.ply == g.ply - 1]
    seen["captures"] += len(new)
    seen["intrusions"] += sum(r.credited != r.ply for r in new)
    seen["nested"] += sum(
        any(r.contains(q) for q in old.ring) for r in new for old in caps if old is not r
    )
    seen["liberations"] += any(c < b for c, b in zip(g.captured_dots, before, strict=True))
    seen["multi"] += len(new) > 1


def replay(options: dict[str, Any], seed: int, seen: Counter[str]) -> None:
    rng = random.Random(seed)
    g = Game(**options)
    fb = FastBoard.from_game(g)
    local = seed % 3 != 0
    compare(g, fb, rng, seen)
    while not g.over:
        before = g.captured_dots
        i = _local(g, rng) if local else rng.choice(g.legal_indices())
        assert fb.is_legal(i)
        if rng.random() < 0.05:  # a few moves tried and taken back first
            snap = fb.st.copy()
            mark = fb.mark()
            fb.place(i)
            for j in [k for k in g.legal_indices() if k != i][: rng.randrange(1, 6)]:
                if fb.is_legal(j):
                    fb.place(j)
            fb.undo(mark)
            keep = fb.st.copy()
            _scratch_equal(snap, keep, fb)
        g.play_index(i)
        fb.place(i)
        _features(g, before, seen)
        compare(g, fb, rng, seen)


def _scratch_equal(a: np.ndarray, b: np.ndarray, fb: FastBoard) -> None:
    """Undo restores every row but the flood marks (a scratch, compared by stamp)."""
    from engine.dots import fastboard as F

    n = fb.n
    mark = slice(F.META + F.R_MARK * n, F.META + (F.R_MARK + 1) * n)
    a, b = a.copy(), b.copy()
    a[mark] = b[mark] = 0
    a[F.M_STAMP] = b[F.M_STAMP] = 0
    assert np.array_equal(a[: F.META + F.ROWS * n], b[: F.META + F.ROWS * n])


@pytest.mark.parametrize("k", range(len(OPTIONS)))
def test_random_games_agree_with_the_referee(k: int) -> None:
    seen: Counter[str] = Counter()
    for seed in range(GAMES // len(OPTIONS)):
        replay(OPTIONS[k], 1000 * k + seed, seen)
    assert seen["positions"] > 0


def test_the_games_reach_every_rule() -> None:
    """The random games above do meet what the board must get right."""
    seen: Counter[str] = Counter()
    for seed in range(60):
        replay(OPTIONS[seed % 3 + 1], seed + 1, seen)
    for what in ("bases", "captures", "intrusions", "nested", "liberations", "multi"):
        assert seen[what] > 0, (what, seen)


def test_ai_games_agree() -> None:
    for seed in range(2 if not SLOW else 10):
        rng = random.Random(seed)
        g = Game(12, 12)
        fb = FastBoard.from_game(g)
        while not g.over:
            m = choose_move(g, "easy" if g.turn else "medium", seed=seed * 1000 + g.ply)
            i = g._board.index(m.x, m.y)
            g.play_index(i)
            fb.place(i)
            compare(g, fb, rng, Counter())


def test_from_game_copies_a_position_with_stop() -> None:
    rng = random.Random(5)
    g = Game(10, 10)
    for _ in range(30):
        g.play_index(_local(g, rng))
    g.stop(g.turn)
    for _ in range(10):
        g.play_index(_local(g, rng))
    fb = FastBoard.from_game(g)
    compare(g, fb, rng, Counter())
    assert fb.turn == g.turn == 1 - g.stopped_by  # type: ignore[operator]
    assert EMPTY in fb.dots.tolist()


def test_the_capturable_edge_is_refused() -> None:
    """Its ring test knows only edge dots that are never surrounded: a game of the other
    edge rule is refused, not searched with the wrong rules."""
    from engine.core import BadOptions

    with pytest.raises(BadOptions):
        FastBoard.from_game(Game(10, 10, edge="capturable"))


def test_closing_says_no_only_where_the_referee_finds_no_ring() -> None:
    """The board traces only where :func:`closing` (asked before the dot joins its sides)
    says a ring may form: wherever it says no, the referee's own trace, with the dot placed
    and joined, finds no ring. Its yes comes true often enough to matter, for bases and for
    captures, inside old rings too."""
    from engine.dots.fastboard import closing

    seen: Counter[str] = Counter()
    for seed in range(24 if SLOW else 8):  # each size twice; 20×20's sweeps cost the most
        rng = random.Random(seed)
        g = Game(**OPTIONS[seed % 4])
        fb = FastBoard.from_game(g)
        while not g.over:
            b = g._board
            for p in (0, 1):
                for i in [k for k in range(len(b.dot)) if b.is_free(k)]:
                    after = b.copy()
                    after.dot[i] = p
                    after.walls[p][i] = 1
                    after._join(p, i)
                    rings = after.rings_through(i, p)
                    says = bool(closing(fb.st, i, p))
                    assert says or not rings, (seed, g.ply, i, p)
                    if says:
                        seen["yes"] += 1
                        seen["ring"] += bool(rings)
                        seen["capture"] += any(
                            any(after.walls[1 - p][q] for q in inside) for _, inside in rings
                        )
                        seen["inside a ring"] += bool(b.encl[p][i])
            i = _local(g, rng)
            g.play_index(i)
            fb.place(i)
    assert seen["ring"] > 0.3 * seen["yes"] and seen["capture"] and seen["inside a ring"], seen


def test_a_full_trail_marks_the_overflow_and_writes_inside_it() -> None:
    """The trail write is branch-free: once full it overwrites its last entry (never past
    its end) and the board says its undo is no longer exact."""
    whole = np.zeros(2 * 6 + 2 + 4, dtype=np.int32)
    whole[-4:] = 7
    fb = FastBoard(5, 5)
    fb.tr = whole[: 2 * 6 + 2]  # room for six writes; one past its end would show in whole
    fb.place(fb.index(1, 1))  # more than six: the dot, its liveness, the free count, the turn
    assert fb.overflow and fb.mark() == 6 and (whole[-4:] == 7).all()
    roomy = FastBoard(5, 5)
    roomy.place(roomy.index(1, 1))
    assert not roomy.overflow and roomy.mark() > 6
