"""Translations: one TOML catalog per language (``en.toml``, ``ru.toml``), keys with
``str.format`` placeholders. A test keeps the catalogs' keys and placeholders identical.

User-facing text travels through the match layer as :class:`Text` (a key and its params) and is
translated only at the edge, per place, in the language of whoever reads it.
"""

from __future__ import annotations

import string
import tomllib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

LANGUAGES = ("en", "ru")
DEFAULT = "en"
_DIR = Path(__file__).parent


@dataclass(frozen=True)
class Text:
    """A message to translate later: catalog key plus parameters (which may be Texts too)."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)

    def __init__(self, key: str, /, **params: Any) -> None:
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "params", params)

    def __hash__(self) -> int:
        return hash((self.key, tuple(sorted((k, repr(v)) for k, v in self.params.items()))))


def _flatten(prefix: str, table: dict[str, Any], out: dict[str, str]) -> None:
    for k, v in table.items():
        key = f"{prefix}{k}"
        if isinstance(v, dict):
            _flatten(key + ".", v, out)
        else:
            out[key] = str(v)


@cache
def catalog(lang: str) -> dict[str, str]:
    with open(_DIR / f"{lang}.toml", "rb") as f:
        data = tomllib.load(f)
    out: dict[str, str] = {}
    _flatten("", data, out)
    return out


def normalize(lang: str | None, default: str = DEFAULT) -> str:
    """Map a Telegram ``language_code`` (``ru``, ``en-US``, ``uk``…) to a catalog language."""
    if not lang:
        return default
    base = lang.lower().split("-")[0]
    if base in LANGUAGES:
        return base
    # Speakers of these languages usually read Russian more easily than English.
    if base in ("uk", "be", "kk", "ky", "uz", "tg", "hy", "az", "ka"):
        return "ru"
    return default


def t(lang: str, text: Text | str, /, **params: Any) -> str:
    """Translate a Text (or a key with params) into ``lang``; unknown keys fall back to
    English, then to the key itself, so a missing string never crashes a handler."""
    if isinstance(text, Text):
        key, params = text.key, {**text.params, **params}
    else:
        key = text
    template = catalog(lang).get(key) or catalog(DEFAULT).get(key)
    if template is None:
        return key
    resolved = {k: t(lang, v) if isinstance(v, Text) else v for k, v in params.items()}
    try:
        return template.format_map(_Missing(resolved))
    except (ValueError, IndexError, AttributeError):
        return template


class _Missing(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def placeholders(template: str) -> set[str]:
    return {name.split(".")[0] for _, name, _, _ in string.Formatter().parse(template) if name}
