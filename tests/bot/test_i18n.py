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
        missing = sorted(k for k in used if k not in catalog(lang))
        assert not missing, f"{lang}: {missing}"
