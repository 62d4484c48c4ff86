"""A Рассада curve said in words on the caption, in both languages."""

from __future__ import annotations

import random

import pytest

from bot.i18n import t
from bot.match.ui.sprouts import spoken
from engine.sprouts import Game
from engine.sprouts.moves import Move


@pytest.mark.parametrize(
    ("move", "en", "ru"),
    [
        (Move(1, 2), "1–2", "1–2"),
        (Move(3, 3, (1, 5)), "3–3, round 1, 5", "3–3, вокруг 1, 5"),
        (Move(3, 3), "3–3, an empty loop", "3–3, пустая петля"),
        (Move(1, 5, region="in"), "1–5, inside", "1–5, внутри"),
        (Move(1, 5, region="in2"), "1–5, inside 2", "1–5, внутри 2"),
        (
            Move(2, 6, region="out", turn="cw"),
            "2–6, on the outside, clockwise",
            "2–6, снаружи, по часовой",
        ),
        (Move(2, 6, region="3"), "2–6, in the region of spot 3", "2–6, в области у точки 3"),
        (
            Move(9, 10, corner_a=3),
            "9–10, leaving 9 beside its line to 3",
            "9–10, от 9 рядом с её линией к 3",
        ),
    ],
)
def test_a_curve_in_words(move: Move, en: str, ru: str) -> None:
    assert t("en", spoken(move)) == en
    assert t("ru", spoken(move)) == ru


def test_every_curve_from_the_start_says_what_sets_it_apart() -> None:
    """The curves between two spots all read differently (here: 4 spots at the start)."""
    g = Game(4)
    pairs = {(m.a, m.b) for m in g.legal_moves()}
    for a, b in pairs:
        words = [t("en", spoken(m)) for m in g.moves_between(a, b)]
        assert len(set(words)) == len(words), words


def test_curves_stay_told_apart_along_a_game() -> None:
    rng = random.Random(4)
    g = Game(5)
    while not g.over:
        for a, b in {(m.a, m.b) for m in g.legal_moves()}:
            words = [t("ru", spoken(m)) for m in g.moves_between(a, b)]
            assert len(set(words)) == len(words), words
        g.play(rng.choice(g.legal_moves()))
