"""Start-up settling: freed picture buffers are reused, not mapped afresh for each picture."""

from __future__ import annotations

import subprocess
import sys

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
