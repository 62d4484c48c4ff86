from __future__ import annotations

import importlib

import pytest

import engine
from bot.i18n import LANGUAGES, Text, catalog, normalize, placeholders, t


def test_catalogs_have_the_same_keys_and_placeholders() -> None:
    en, ru = catalog("en"), catalog("ru")
    assert set(en) == set(ru)
    for key in en:
        assert placeholders(en[key]) == placeholders(ru[key]), key


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
