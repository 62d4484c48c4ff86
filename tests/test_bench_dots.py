"""The Dots benches' options: ``bench.dots_arena --keep DIR`` leaves every game as an SGF that
reads back to the same finished game, named by its players and scores; ``bench.dots_search
--profile`` replays the playouts it timed on the position they started from."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from bench import dots_arena, dots_search
from engine.dots import Game
from engine.dots.fastboard import META, R_DOT
from engine.dots.sgf import parse_nodes


def test_kept_games_read_back_as_the_games_played(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    dots_arena.main(["--size", "7x7", "--games", "2", "--workers", "1",
                     "--pairs", "greedy:random", "--keep", str(folder)])  # fmt: skip
    files = sorted(folder.glob("*.sgf"))
    assert [f.name.split("-seed")[0] for f in files] == ["000-greedy-random", "001-random-greedy"]
    for f in files:
        text = f.read_text(encoding="utf-8")
        game = Game.from_sgf(text)
        assert game.over and game.width == game.height == 7
        first, second = f.stem.split("-")[1:3]
        black, white = (int(v) for v in f.stem.split("-")[-2:])
        assert game.scores == (black, white)
        root = parse_nodes(text)[0]
        assert (root["PB"], root["PW"]) == ([first], [second])
        assert "seed" in root["GC"][0]


def test_the_playout_profile_replays_the_playouts_it_timed() -> None:
    g = dots_search.position(9, 9, 20, 1)
    r = dots_search.profile(g, 0.05)
    assert 0 < r["moves"] <= 61  # 81 points, 20 taken: the playouts fill the board
    assert r["board"] > 0 and r["tactics"] > 0 and r["total"] > r["board"]
    # Replaying recorded moves plays them and then takes them back (the tactics' reads leave
    # only their scratch marks behind).
    fb = dots_search.FastBoard.from_game(g)
    before = fb.st.copy()
    played = np.array(g.legal_indices()[:10], dtype=np.int32)
    done = dots_search._replay(fb.st, fb.tr, fb.sc, played, np.array([10]), 96, False, False)
    assert done == 10 and np.array_equal(fb.st, before)
    dots_search._replay(fb.st, fb.tr, fb.sc, played, np.array([10]), 96, False, True)
    dots = slice(META + R_DOT * fb.n, META + (R_DOT + 1) * fb.n)
    assert np.array_equal(fb.st[dots], before[dots]) and fb.free == len(g.legal_indices())
