"""``python -m bench.dots_arena --keep DIR`` leaves every game as an SGF that reads back to the
same finished game, named by its players and scores."""

from __future__ import annotations

from pathlib import Path

from bench import dots_arena
from engine.dots import Game
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
