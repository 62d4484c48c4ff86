"""Small example positions for /rules: each game's picture shows its main idea."""

from __future__ import annotations

from functools import cache
from typing import Any

import engine
import render
from bot.i18n import t
from render.view import View

# Dots: Blue surrounds an orange dot (REFERENCE scenario 3, first part), on a 7×7 board.
_DOTS = [(3, 3), (3, 2), (1, 1), (2, 3), (0, 3), (4, 3), (6, 6), (3, 4)]
# Boxes: a few lines, and orange has just closed a box and moves again.
_BOXES = ["a1-b1", "a1-a2", "b1-b2", "c3-d3", "a2-b2", "b3-b4"]


def example(kind: str) -> engine.Game[Any] | None:
    if kind not in engine.GAMES:
        return None
    if kind == "dots":
        from engine.dots import Move

        game = engine.new("dots", width=7, height=7)
        for x, y in _DOTS:
            game.play(Move(x, y))
        return game
    if kind == "boxes":
        boxes = engine.new("boxes", rows=3, cols=3)
        for text in _BOXES:
            boxes.play(boxes.parse_move(text))
        return boxes
    sprouts = engine.new("sprouts", spots=3)
    for _ in range(2):
        sprouts.play(sprouts.legal_moves()[0])
    return sprouts


@cache
def picture(kind: str, lang: str) -> bytes | None:
    game = example(kind)
    if game is None:
        return None
    names = [t(lang, "rules.player", n=i + 1) for i in range(game.players)]
    view: View = {"lang": lang, "title": t(lang, f"game.{kind}"), "players": names, "size": 800}
    return render.board_png(game, view)
