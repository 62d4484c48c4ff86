"""Replays: a whole game as an animated GIF, shown when a game ends.

Frames are the same index images the board pictures are made of, so every frame shares the
one palette and Pillow's GIF writer only stores the part of each frame that changed. Long
games are sampled (always keeping the first and the last position) so the file stays well
under Telegram's limits; the last frame is held longer.
"""

from __future__ import annotations

import io
from importlib import import_module

from PIL import Image

from render.common import PALETTE
from render.view import Shown, View

REPLAY_SIZE = 800  # long side of the frames unless the view asks otherwise
MAX_FRAMES = 160  # more moves than this: frames every k-th move
MAX_BYTES = 5_000_000
FIRST_MS, LAST_MS = 900, 4000
TOTAL_MS = 24_000  # about how long the moves of a replay take, whatever the game's length
MIN_STEP_MS, MAX_STEP_MS = 120, 700


class ReplayTooLarge(RuntimeError):
    """Even the smallest replay we are willing to make is over the size limit."""


def frame_plies(plies: int, cap: int) -> list[int]:
    """Which positions (0..plies) become frames: all of them, or ``cap`` evenly spread ones
    including the first and the last."""
    if plies + 1 <= cap:
        return list(range(plies + 1))
    picked = {round(i * plies / (cap - 1)) for i in range(cap)}
    return sorted(picked)


def durations(n: int) -> list[int]:
    """Milliseconds per frame: a pause on the empty board, an even pace, the end held."""
    if n == 1:
        return [LAST_MS]
    step = max(MIN_STEP_MS, min(MAX_STEP_MS, TOTAL_MS // max(1, n - 2)))
    return [FIRST_MS] + [step] * (n - 2) + [LAST_MS]


def replay_gif(game: Shown, *, view: View | None = None) -> bytes:
    """The game from its first position to now as an animated GIF (at most 5 MB).

    Uses ``game.snapshots()``, which yields the game at each ply (one object advanced step
    by step, so each position is drawn as soon as it is yielded)."""
    full: View = {"size": REPLAY_SIZE, **(view or {})}
    cap = MAX_FRAMES
    while True:
        data = _encode(game, full, cap)
        if len(data) <= MAX_BYTES:
            return data
        if cap <= 8:
            raise ReplayTooLarge(f"a {len(data)}-byte replay even with {cap} frames")
        cap //= 2


def _encode(game: Shown, view: View, cap: int) -> bytes:
    module = import_module(f"render.{game.kind}")
    draw = module.board_image
    if hasattr(module, "replay_view"):
        view = module.replay_view(game, view)
    wanted = set(frame_plies(game.ply, cap))
    frames: list[Image.Image] = []
    for ply, state in enumerate(game.snapshots()):
        if ply >= game.ply:
            break
        if ply in wanted:
            frames.append(draw(state, view))
    # The last frame is the game itself: a replay rebuilds positions from the moves, but an
    # ending by resignation, time or agreement lives only on the real object.
    frames.append(draw(game, view))
    frames = _same_size(frames)
    for frame in frames:
        frame.putpalette(PALETTE.data)
    buf = io.BytesIO()
    frames[0].save(
        buf,
        "GIF",
        save_all=True,
        append_images=frames[1:],
        duration=durations(len(frames)),
        loop=0,
        optimize=True,
    )
    return buf.getvalue()


def _same_size(frames: list[Image.Image]) -> list[Image.Image]:
    """Frames on one canvas (a GIF has one size: a larger frame would be cut off), each
    at the top left on its own paper colour."""
    w = max(f.width for f in frames)
    h = max(f.height for f in frames)
    out = []
    for f in frames:
        if f.size != (w, h):
            canvas = Image.new(f.mode, (w, h), f.getpixel((0, 0)))
            canvas.paste(f, (0, 0))
            f = canvas
        out.append(f)
    return out
