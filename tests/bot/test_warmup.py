"""Start-up settling: freed picture buffers are reused, not mapped afresh for each picture;
and start-up tells whether it compiles the kernels or loads them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from bot.warmup import _cached, _kernels, kernels_cached

# Renders a Boxes picture (1.5 MB of pixels) and its PNG 30 times, then prints the page
# faults those took; with ``keep`` it settles first as the bot does.
SCRIPT = """
import resource, sys
import engine
from render import board_png
from bot.warmup import keep_buffers
game = engine.new("boxes", rows=5, cols=5)
for move in game.legal_moves()[:20]:
    game.play(move)
if sys.argv[1] == "keep":
    keep_buffers()
for _ in range(5):
    board_png(game, {})
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(30):
    board_png(game, {})
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


def faults(mode: str) -> int:
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT, mode], capture_output=True, text=True, check=True
    )
    return int(out.stdout.split()[-1])


def test_kept_buffers_spare_the_page_faults_of_each_picture() -> None:
    plain, kept = faults("plain"), faults("keep")
    assert plain > 30 * 100  # the buffers were mapped afresh for each picture
    assert kept < plain / 5


def test_start_up_says_compiling_only_when_the_kernels_are_not_in_the_cache(
    tmp_path: Path,
) -> None:
    """The session's start compiled the kernels (or found them) in numba's cache beside the
    sources; a cache directory of its own (NUMBA_CACHE_DIR, empty) holds none of them, and
    one kernel's source stamp changed makes its entry stale."""
    assert kernels_cached()
    code = "from bot.warmup import kernels_cached; print(kernels_cached())"
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.split() == ["False"], out.stderr


def test_a_stale_cache_entry_is_not_taken_for_a_cached_kernel() -> None:
    """numba keys its index by the source file's time and size: a stamp that is not the
    file's any more is what an edited source looks like."""
    kernel = next(d for d in _kernels() if d.__name__ == "stroke")
    cache_file = kernel._cache._cache_file
    real = cache_file._source_stamp
    assert _cached(kernel)
    try:
        cache_file._source_stamp = (real[0] + 1, real[1])
        assert not _cached(kernel)
    finally:
        cache_file._source_stamp = real
