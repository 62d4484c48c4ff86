"""Replays: one frame per position (sampled for long games), the end held, under 5 MB."""

from __future__ import annotations

import io
import random

import pytest
from PIL import GifImagePlugin, Image

import engine
import render
from render import animation
from render.view import View
from tests.render.fakes import random_sprouts


def _open(data: bytes) -> GifImagePlugin.GifImageFile:
    assert data[:6] == b"GIF89a"
    assert len(data) <= animation.MAX_BYTES
    gif = Image.open(io.BytesIO(data))
    assert isinstance(gif, GifImagePlugin.GifImageFile)
    return gif


def test_a_boxes_game_gets_a_frame_per_move_and_ends_on_the_result() -> None:
    g = engine.random_playout(engine.new("boxes", rows=2, cols=3), random.Random(3))
    gif = _open(render.replay(g, view={"lang": "ru", "size": 480}))
    assert gif.n_frames == g.ply + 1
    assert max(gif.size) <= 480
    gif.seek(gif.n_frames - 1)
    assert gif.info["duration"] == animation.LAST_MS
    last = gif.convert("RGB")
    final = Image.open(io.BytesIO(render.board_png(g, {"lang": "ru", "size": 480}))).convert("RGB")
    assert last.tobytes() == final.tobytes()


def test_a_resignation_shows_on_the_last_frame_only() -> None:
    g = engine.random_playout(engine.new("dots", width=6, height=6), random.Random(1), max_moves=9)
    g.resign(0)
    gif = _open(render.replay(g, view={"size": 400}))
    assert gif.n_frames == 10
    gif.seek(9)
    final = Image.open(io.BytesIO(render.board_png(g, {"size": 400}))).convert("RGB")
    assert gif.convert("RGB").tobytes() == final.tobytes()


def test_long_games_are_sampled(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(animation, "MAX_FRAMES", 12)
    g = engine.random_playout(engine.new("dots", preset="quick"), random.Random(2), max_moves=90)
    gif = _open(render.replay(g, view={"size": 360}))
    assert gif.n_frames == 12


def test_frame_sampling_keeps_the_ends() -> None:
    assert animation.frame_plies(5, 10) == [0, 1, 2, 3, 4, 5]
    picked = animation.frame_plies(1000, 160)
    assert len(picked) == 160 and picked[0] == 0 and picked[-1] == 1000
    assert picked == sorted(set(picked))
    d = animation.durations(160)
    assert d[0] == animation.FIRST_MS and d[-1] == animation.LAST_MS
    assert animation.MIN_STEP_MS <= d[1] <= animation.MAX_STEP_MS
    assert animation.durations(1) == [animation.LAST_MS]


def test_too_big_replays_shrink_then_give_up(monkeypatch: pytest.MonkeyPatch) -> None:
    g = engine.random_playout(engine.new("boxes", rows=3, cols=3), random.Random(5))
    full = render.replay(g, view={"size": 360})
    monkeypatch.setattr(animation, "MAX_BYTES", len(full) - 1)
    smaller = render.replay(g, view={"size": 360})
    assert len(smaller) < len(full)
    assert _open(smaller).n_frames < g.ply + 1
    monkeypatch.setattr(animation, "MAX_BYTES", 1000)
    with pytest.raises(animation.ReplayTooLarge):
        render.replay(g, view={"size": 360})


def test_sprouts_replays_through_the_same_path() -> None:
    g = random_sprouts(3, 5, seed=2)
    gif = _open(render.replay(g, view={"size": 400}))
    assert gif.n_frames == g.ply + 1


def test_a_game_over_before_any_move_is_one_frame() -> None:
    g = engine.new("boxes", rows=2, cols=2)
    g.resign(0)
    assert _open(render.replay(g)).n_frames == 1


def test_a_sprouts_replay_is_the_final_picture_s_size_and_scale() -> None:
    """Frames are drawn to the final drawing's extent: none is cut off, nothing zooms."""
    from render import sprouts

    g = engine.random_playout(engine.new("sprouts", spots=5), random.Random(0))
    view: View = {"size": 400}
    final = sprouts.board_image(g, sprouts.replay_view(g, view))
    first = sprouts.board_image(next(g.snapshots()), view)
    assert first.size != final.size, "the test needs a game whose extent changes"
    gif = _open(render.replay(g, view=view))
    assert gif.size == final.size
    _, fit = sprouts.layout(next(g.snapshots()), sprouts.replay_view(g, view))
    _, final_fit = sprouts.layout(g, sprouts.replay_view(g, view))
    spot = g.drawing.spots[0]
    assert fit((spot.x, spot.y)) == pytest.approx(final_fit((spot.x, spot.y)))


def test_frames_of_different_sizes_share_one_canvas() -> None:
    small = Image.new("P", (30, 20), 3)
    big = Image.new("P", (40, 50), 5)
    out = animation._same_size([small, big])
    assert [f.size for f in out] == [(40, 50), (40, 50)]
    assert out[0].getpixel((35, 45)) == 3 and out[0].getpixel((0, 0)) == 3
    assert out[1] is big


@pytest.mark.parametrize("seed", [4, 7])
def test_a_sprouts_replay_ends_on_the_live_board_s_picture(seed: int) -> None:
    """The replay's last frame is the board the players saw last, pixel for pixel: the
    replay frames the drawing as the live board does (the final extent is its own), also
    drawn from the stored game, as the bot's workers draw it."""
    g = engine.random_playout(engine.new("sprouts", spots=3), random.Random(seed), max_moves=5)
    view: View = {"size": 400, "players": ["Ann", "Bob"]}
    gif = _open(render.replay(engine.load(g.to_json()), view=view))  # as the AI pool does
    gif.seek(gif.n_frames - 1)
    last = gif.convert("RGB")
    board = Image.open(io.BytesIO(render.board_png(g, view))).convert("RGB")
    assert last.size == board.size
    assert last.tobytes() == board.tobytes()
