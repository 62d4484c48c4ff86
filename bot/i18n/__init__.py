"""Translations: one gettext catalog per language (``en.po``, ``ru.po``, read with Babel and
compiled to ``.mo`` in memory at first use, so there is no build step). The msgid is a dotted
key, the msgstr a ``str.format`` template. A plural message (``msgid_plural``) has the
language's forms (English two, Russian three: 1 точка, 2 точки, 5 точек) and is chosen by
``ngettext`` with the param ``n``. A test keeps the catalogs' keys and placeholders identical.

User-facing text travels through the match layer as :class:`Text` (a key and its params) and is
translated only at the edge, per place, in the language of whoever reads it.
"""

from __future__ import annotations

import io
import string
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

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


@cache
def _po(lang: str) -> Catalog:
    with open(_DIR / f"{lang}.po", "rb") as f:
        return read_po(f, locale=lang)


@cache
def _translations(lang: str) -> Translations:
    """The language's compiled catalog, falling back to English for a key it lacks."""
    mo = io.BytesIO()
    write_mo(mo, _po(lang))
    mo.seek(0)
    tr = Translations(mo)
    if lang != DEFAULT:
        tr.add_fallback(_translations(DEFAULT))
    return tr


@cache
def catalog(lang: str) -> dict[str, str]:
    """The singular messages of ``lang``: key → template."""
    return {
        str(m.id): m.string for m in _po(lang) if m.id and isinstance(m.string, str) and m.string
    }


@cache
def plurals(lang: str) -> dict[str, tuple[str, ...]]:
    """The plural messages of ``lang``: key → its forms, in the catalog's plural order."""
    return {
        str(m.id[0]): tuple(m.string)
        for m in _po(lang)
        if m.pluralizable and isinstance(m.string, (tuple, list))
    }


@cache
def _plural_keys() -> frozenset[str]:
    return frozenset(k for lang in LANGUAGES for k in plurals(lang))


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
    tr = _translations(lang if lang in LANGUAGES else DEFAULT)
    if key in _plural_keys():
        n = params.get("n")
        template = tr.ngettext(key, key, n if isinstance(n, int) else 0)
    else:
        template = tr.gettext(key)
    if template == key:
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
