"""The example pictures of /rules: real engine positions, drawn by render/.

Each example is a short move list played on the engine, so a picture can only show what the
rules really do; its caption (``rules.<name>`` in bot/i18n) names the points of that
position, and tests/bot/test_rules.py checks the names against the engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

import engine
import render
from bot.i18n import t
from render.view import View

SIZE = 800  # at most, in pixels: sharp across a phone screen, a few dozen KB a picture


@dataclass(frozen=True)
class Example:
    kind: str
    options: dict[str, Any]
    moves: tuple[str, ...]  # in the game's own notation (``game.parse_move``)


_CHAIN = (
    "a4-b4", "b4-c4", "c4-d4", "a3-b3", "b3-c3", "c3-d3", "a1-b1", "c1-d1", "b2-c2", "a2-a3",
    "d1-d2", "d3-d4", "c3-c4", "b3-b4",
)  # fmt: skip
# Dots points are (x, y) from the top-left; on 7×7, (3, 3) is d4.
EXAMPLES: dict[str, Example] = {
    # Blue's diagonal ring d5-e4-d3-c4 closes round Orange's d4 (the reference's scenario 3).
    "dots_capture": Example(
        "dots", {"width": 7, "height": 7}, ("d4", "d5", "b6", "c4", "a4", "e4", "g1", "d3")
    ),
    # Orange's empty diamond round c3, then Blue's intruder at c3 (the reference's scenario 1).
    "dots_intruder": Example(
        "dots", {"width": 5, "height": 5}, ("c4", "a5", "b3", "e1", "d3", "a1", "c2", "c3")
    ),
    # Blue opens the top row; Orange takes two boxes in a row and is still to move, with the
    # top-left box on three sides.
    "boxes_chain": Example("boxes", {"rows": 3, "cols": 3}, _CHAIN),
    # Палочки: the outline is drawn, so two lines close the corner box.
    "boxes_border": Example("boxes", {"rows": 3, "cols": 3, "border": True}, ("a2-b2", "b1-b2")),
    # Рассада: a curve from spot 1 to spot 2 with the new spot 3 on it.
    "sprouts_join": Example("sprouts", {"spots": 2}, ("1-2",)),
    # A loop at spot 1 (new spot 3), then 2-3 gives spot 3 its third line.
    "sprouts_loop": Example("sprouts", {"spots": 2}, ("1-1", "2-3")),
}


def game(name: str) -> engine.Game[Any]:
    """The example's position, played move by move on a fresh engine game."""
    ex = EXAMPLES[name]
    g: engine.Game[Any] = engine.new(ex.kind, **ex.options)
    for text in ex.moves:
        g.play(g.parse_move(text))
    return g


@cache
def picture(name: str, lang: str) -> bytes:
    """The example as PNG, with the game's title and numbered players in ``lang``."""
    g = game(name)
    names = [t(lang, "rules.player", n=i + 1) for i in range(g.players)]
    view: View = {"lang": lang, "title": t(lang, f"game.{g.kind}"), "players": names, "size": SIZE}
    return render.board_png(g, view)
