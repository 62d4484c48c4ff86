from __future__ import annotations

import importlib
import re

import pytest

import engine
import storage
from bot.i18n import LANGUAGES, Text, catalog, normalize, placeholders, plurals, t
from bot.telegram.commands import stats_line


def test_catalogs_have_the_same_keys_and_placeholders() -> None:
    en, ru = catalog("en"), catalog("ru")
    assert set(en) == set(ru)
    for key in en:
        assert placeholders(en[key]) == placeholders(ru[key]), key
    en_n, ru_n = plurals("en"), plurals("ru")
    assert set(en_n) == set(ru_n)
    assert not set(en_n) & set(en), "a key is plural in one place and singular in another"
    for key in en_n:
        assert len(en_n[key]) == 2 and len(ru_n[key]) == 3, key  # one/other; one/few/many
        forms = {frozenset(placeholders(f)) for f in en_n[key] + ru_n[key]}
        assert len(forms) == 1, (key, forms)  # every form of both languages: the same params
        assert "n" in next(iter(forms)), key  # the count: 21 takes the "one" form in Russian


COUNTS = (0, 1, 2, 5, 11, 21, 22, 25)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_plural_message_renders_for_every_count(lang: str) -> None:
    for key, forms in plurals(lang).items():
        params = {p: f"<{p}>" for f in forms for p in placeholders(f) if p != "n"}
        for n in COUNTS:
            s = t(lang, key, n=n, **params)
            assert str(n) in s and "{" not in s and s != key, (key, n, s)
            assert all(v in s for v in params.values()), (key, n, s)


@pytest.mark.parametrize(
    ("n", "spots", "games", "wins", "hours"),
    [
        (0, "0 точек", "0 партий", "0 побед", "0 часов"),
        (1, "1 точка", "1 партия", "1 победа", "1 час"),
        (2, "2 точки", "2 партии", "2 победы", "2 часа"),
        (5, "5 точек", "5 партий", "5 побед", "5 часов"),
        (11, "11 точек", "11 партий", "11 побед", "11 часов"),
        (21, "21 точка", "21 партия", "21 победа", "21 час"),
        (22, "22 точки", "22 партии", "22 победы", "22 часа"),
        (25, "25 точек", "25 партий", "25 побед", "25 часов"),
    ],
)
def test_russian_plural_forms_of_known_words(
    n: int, spots: str, games: str, wins: str, hours: str
) -> None:
    assert t("ru", "sprouts.spots", n=n) == spots
    assert t("ru", "count.games", n=n) == games
    assert t("ru", "count.wins", n=n) == wins
    assert t("ru", "count.hours", n=n) == hours


def test_english_plurals_and_nested_counts() -> None:
    assert t("en", "count.games", n=1) == "1 game"
    assert t("en", "count.games", n=0) == "0 games"
    assert t("en", "count.games", n=21) == "21 games"
    row = Text("top.row", n=1, name="Alice", rating=1500, games=Text("count.games", n=1))
    assert t("en", row) == "1. Alice — 1500, 1 game"
    assert t("ru", row) == "1. Alice — 1500, 1 партия"
    assert t("ru", "stats.vs_bot", n=22, played=30, level="лёгкий").endswith("22 победы из 30")
    # a plural message without a count (an old caller) still renders, never crashes
    assert t("ru", "count.games") == "{n} партий"


def test_no_dodged_plurals_left() -> None:
    """«точек: 3», «партий: 3», «(1 games)», «дн.»: the count goes through a plural form."""
    dodge = re.compile(
        r"(точек|партий|побед|ничьих|игроков|сыграно):? \{|\{n\} дн\.|\{\w+\} (games|hours)\b"
    )
    for lang in LANGUAGES:
        for key, text in catalog(lang).items():
            assert not dodge.search(text), (lang, key, text)


# A past-tense verb agrees with its subject's gender in Russian: «Алиса объявил» is wrong.
_NAMED_PAST = re.compile(
    r"\{(who|name|mover|opponent)\}\s+(?:[а-яё]+\s+)?[а-яё]+(?:л|ла|лся|лась)\b"
    r"|[а-яё]+(?:л|ла|лся|лась)\s+\{(who|name|mover|opponent)\}"
)


def test_russian_names_no_player_with_a_gendered_verb() -> None:
    """Telegram does not tell a user's gender: no past-tense verb next to a player's name
    ({who}, {name}, {mover}, {opponent}; «Алиса: СТОП», «Вызов принят: Алиса») and no «(а)»."""
    for key, text in catalog("ru").items():
        assert "(а)" not in text, key
        assert not _NAMED_PAST.search(text.lower()), (key, text)
    for wrong in ("{who} объявил стоп", "{name} принял вызов", "сдался {who}"):
        assert _NAMED_PAST.search(wrong), wrong  # the pattern catches what it must


def test_russian_board_names_agree_with_field() -> None:
    """The Dots board buttons all name a «поле» (neuter): «Быстрое», «Малое», «Среднее»…"""
    for k in ("q", "s", "l", "t", "m"):
        adjective = t("ru", f"menu.dots_{k}").split()[0]
        assert adjective.endswith(("ое", "ее")), adjective


@pytest.mark.parametrize("kind", sorted(k for k in engine.GAMES if k != "tally"))
def test_every_engine_refusal_is_translated(kind: str) -> None:
    codes = importlib.import_module(f"engine.{kind}").ILLEGAL_CODES
    for lang in LANGUAGES:
        missing = [c for c in codes if f"illegal.{kind}.{c}" not in catalog(lang)]
        assert not missing, f"{lang}: {missing}"


def test_nested_text_and_missing_params() -> None:
    s = t("ru", Text("bot.name", level=Text("level.hard")))
    assert s == "Бот Тетрадь (сильный)"
    assert t("en", "lobby.waiting", n=1) == "Waiting for players (1/{total}). Tap Join!"
    assert t("en", "no.such.key") == "no.such.key"


@pytest.mark.parametrize(
    ("code", "lang"), [(None, "en"), ("ru", "ru"), ("en-US", "en"), ("uk", "ru"), ("de", "en")]
)
def test_normalize(code: str | None, lang: str) -> None:
    assert normalize(code) == lang


def test_every_key_the_bot_uses_is_in_the_catalogs() -> None:
    """Literal keys in bot/ (Text("…"), Refused("…"), t(lang, "…")) all exist."""
    import re
    from pathlib import Path

    pattern = re.compile(r"""(?:Text|Refused|\bt)\((?:[a-z_.]+, )?"([a-z_]+\.[a-z_.]+)\"""")
    used: set[str] = set()
    for path in Path("bot").rglob("*.py"):
        used |= set(pattern.findall(path.read_text(encoding="utf-8")))
    assert used, "the pattern found nothing: it is broken"
    for lang in LANGUAGES:
        missing = sorted(k for k in used if k not in catalog(lang) and k not in plurals(lang))
        assert not missing, f"{lang}: {missing}"


def test_stats_lines_count_in_both_languages() -> None:
    """A /stats block: real plural forms, and "(provisional)" for an unsettled rating."""
    s = storage.GameStats(
        storage.Tally(played=21, won=2, lost=14, drawn=5),
        storage.UserRating(1662.4, rd=200.0),
        None,
        {"easy": storage.Tally(played=5, won=1, lost=4, drawn=0)},
    )
    assert stats_line("ru", "dots", s).splitlines()[1:] == [
        "с людьми: 21 партия, 2 победы, 5 ничьих",
        "рейтинг: 1662 (предварительный)",
        "с ботом (лёгкий): 1 победа из 5",
    ]
    assert stats_line("en", "dots", s).splitlines()[1:] == [
        "against people: 21 games, 2 wins, 5 draws",
        "rating: 1662 (provisional)",
        "against the bot (easy): won 1 of 5",
    ]
    settled = storage.GameStats(storage.Tally(1, 1, 0, 0), storage.UserRating(1500.0, rd=50.0))
    assert "rating: 1500\n" in stats_line("en", "dots", settled) + "\n"
