"""The few words pictures carry, in Russian and English.

The bot translates its own messages; a picture is drawn here, so its labels live here too.
Russian phrases avoid past-tense verbs, which would need the player's grammatical gender.
A phrase with a count is a dict of its CLDR plural forms (Babel picks the form for ``n``:
1 точка, 2 точки, 5 точек).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from babel import Locale

from render.view import View

LANGS = ("ru", "en")

WORDS: dict[str, dict[str, str | dict[str, str]]] = {
    "ru": {
        "game.dots": "Точки",
        "game.boxes": "Точки и квадраты",
        "game.sprouts": "Рассада",
        "game.palochki": "Палочки",
        "spots": {
            "one": "{n} точка",
            "few": "{n} точки",
            "many": "{n} точек",
            "other": "{n} точек",
        },
        "misere": "мизер",
        "player": "Игрок {n}",
        "move": "Ход {n}",
        "to_move": "Ходит {name}",
        "wins": "Победа: {name}",
        "win_joint": "Победа: {names}",
        "and": "{a} и {b}",
        "draw": "Ничья",
        "how.end": "игра окончена",
        "how.resign": "сдача: {loser}",
        "how.time": "время вышло: {loser}",
        "how.agreement": "по соглашению",
        "how.stop": "после СТОП",
        "how.ground": "заземление",
        "stop": "СТОП: {name} ходит один",
        "zone": "первый ход — в рамке",
        "lives": "жизней: {n}",
        "preview": "так?",
    },
    "en": {
        "game.dots": "Dots",
        "game.boxes": "Dots and Boxes",
        "game.sprouts": "Sprouts",
        "game.palochki": "Палочки (border drawn)",
        "spots": {"one": "{n} spot", "other": "{n} spots"},
        "misere": "misère",
        "player": "Player {n}",
        "move": "Move {n}",
        "to_move": "{name} to move",
        "wins": "{name} wins",
        "win_joint": "{names} win",
        "and": "{a} and {b}",
        "draw": "Draw",
        "how.end": "game over",
        "how.resign": "{loser} resigned",
        "how.time": "{loser} ran out of time",
        "how.agreement": "by agreement",
        "how.stop": "after STOP",
        "how.ground": "by grounding",
        "stop": "STOP: {name} plays alone",
        "zone": "first move inside the frame",
        "lives": "lives: {n}",
        "preview": "this one?",
    },
}


def lang_of(view: View) -> str:
    """The view's language, English for anything unknown."""
    lang = view.get("lang")
    return lang if lang in WORDS else "en"


def say(lang: str, key: str, **params: Any) -> str:
    """One phrase in ``lang`` (English when the language is unknown) with its blanks filled."""
    lang = lang if lang in WORDS else "en"
    phrase = WORDS[lang][key]
    if isinstance(phrase, dict):
        n = params.get("n")
        phrase = phrase[_plural(lang, n)] if isinstance(n, int) else phrase["other"]
    return phrase.format(**params)


@cache
def _locale(lang: str) -> Locale:
    return Locale.parse(lang)


def _plural(lang: str, n: int) -> str:
    return str(_locale(lang).plural_form(n))
