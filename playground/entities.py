"""Formatted text the way Telegram reads it: parse_mode HTML / MarkdownV2 / Markdown into
plain text plus entities (offsets in UTF-16 code units), and auto-detected commands, mentions
and links. Limits apply to the plain text, so parsing must come first."""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from typing import Any

from playground.limits import bad_request, utf16_len

Entity = dict[str, Any]


def _fail(what: str) -> Exception:
    return bad_request(f"can't parse entities: {what}")


_HTML_TAGS = {
    "b": "bold",
    "strong": "bold",
    "i": "italic",
    "em": "italic",
    "u": "underline",
    "ins": "underline",
    "s": "strikethrough",
    "strike": "strikethrough",
    "del": "strikethrough",
    "tg-spoiler": "spoiler",
    "span": "spoiler",
    "a": "text_link",
    "code": "code",
    "pre": "pre",
    "blockquote": "blockquote",
    "tg-emoji": "custom_emoji",
}
_TAG = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^<>]*?)?)\s*>")
_ATTR = re.compile(r"""([a-zA-Z-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))""")
_AMP = re.compile(r"&(#x[0-9a-fA-F]+|#[0-9]+|lt|gt|amp|quot);")


def parse_html(source: str) -> tuple[str, list[Entity]]:
    out: list[str] = []
    length = 0  # UTF-16 length of the output so far
    stack: list[tuple[str, int, Entity]] = []
    entities: list[Entity] = []
    pos = 0
    while pos < len(source):
        lt = source.find("<", pos)
        chunk = source[pos : len(source) if lt < 0 else lt]
        if chunk:
            text = _AMP.sub(lambda m: html.unescape(m.group(0)), chunk)
            out.append(text)
            length += utf16_len(text)
        if lt < 0:
            break
        m = _TAG.match(source, lt)
        offset = len(source[:lt].encode())
        if m is None:
            raise _fail(f"Unsupported start tag at byte offset {offset}")
        closing, name, attrs = m.group(1) == "/", m.group(2).lower(), m.group(3)
        if name not in _HTML_TAGS:
            kind = "end" if closing else "start"
            raise _fail(f'Unsupported {kind} tag "{name}" at byte offset {offset}')
        if closing:
            if not stack or stack[-1][0] != name:
                expected = f'"</{stack[-1][0]}>"' if stack else "no end tag"
                raise _fail(
                    f"Unmatched end tag at byte offset {offset}, expected {expected}, "
                    f'found "</{name}>"'
                )
            _, start, entity = stack.pop()
            if length > start and entity:
                entity["length"] = length - start
                entities.append(entity)
        else:
            stack.append((name, length, _start_entity(name, attrs, length, offset, stack)))
        pos = m.end()
    if stack:
        raise _fail(f'Can\'t find end tag corresponding to start tag "{stack[-1][0]}"')
    entities.sort(key=lambda e: (e["offset"], -e["length"]))
    return "".join(out), entities


def _start_entity(
    name: str, attrs: str, length: int, offset: int, stack: list[tuple[str, int, Entity]]
) -> Entity:
    """The entity a start tag opens; {} for a <code> inside <pre>, which only names the
    <pre>'s language."""
    found = {a: b or c or d for a, b, c, d in _ATTR.findall(attrs)}
    entity: Entity = {"type": _HTML_TAGS[name], "offset": length}
    if name == "a":
        entity["url"] = found.get("href", "")
    elif name == "span" and found.get("class") != "tg-spoiler":
        raise _fail(f'Tag "span" must have class "tg-spoiler" at byte offset {offset}')
    elif name == "blockquote" and "expandable" in attrs:
        entity["type"] = "expandable_blockquote"
    elif name == "code" and stack and stack[-1][0] == "pre":
        lang = found.get("class", "")
        if lang.startswith("language-"):
            stack[-1][2]["language"] = lang[len("language-") :]
        entity = {}
    elif name == "tg-emoji":
        entity["custom_emoji_id"] = found.get("emoji-id", "")
    return entity


_MD2_RESERVED = set("_*[]()~`>#+-=|{}.!")
_MD2_MARKS = [("```", "pre"), ("||", "spoiler"), ("__", "underline"), ("*", "bold")]
_MD2_MARKS += [("_", "italic"), ("~", "strikethrough"), ("`", "code")]
_ENTITY_NAMES = {
    "bold": "Bold",
    "italic": "Italic",
    "underline": "Underline",
    "strikethrough": "Strikethrough",
    "spoiler": "Spoiler",
    "code": "Code",
    "pre": "Pre",
    "text_link": "TextUrl",
}


def parse_markdown_v2(source: str) -> tuple[str, list[Entity]]:
    out: list[str] = []
    length = 0
    stack: list[Entity] = []  # open entities; "_at" is the byte offset of the opening mark
    entities: list[Entity] = []
    i = 0

    def emit(text: str) -> None:
        nonlocal length
        out.append(text)
        length += utf16_len(text)

    def close() -> None:
        entity = stack.pop()
        entity.pop("_at")
        entity["length"] = length - entity["offset"]
        if entity["length"] > 0:
            entities.append(entity)

    while i < len(source):
        c = source[i]
        byte_at = len(source[:i].encode())
        in_code = bool(stack) and stack[-1]["type"] in ("code", "pre")
        if c == "\\" and i + 1 < len(source):
            emit(source[i + 1])
            i += 2
            continue
        if in_code:
            mark = "```" if stack[-1]["type"] == "pre" else "`"
            if source.startswith(mark, i):
                close()
                i += len(mark)
            else:
                emit(c)
                i += 1
            continue
        if c == "[":
            stack.append({"type": "text_link", "offset": length, "_at": byte_at})
            i += 1
            continue
        if c == "]" and stack and stack[-1]["type"] == "text_link":
            end = source.find(")", i)
            if not source.startswith("(", i + 1) or end < 0:
                raise _fail(f"Can't find end of a url at byte offset {byte_at}")
            stack[-1]["url"] = source[i + 2 : end].replace("\\)", ")").replace("\\\\", "\\")
            close()
            i = end + 1
            continue
        after = _md2_mark(source, i, stack, length, byte_at, close)
        if after >= 0:
            i = after
            continue
        if c in _MD2_RESERVED:
            raise _fail(f"Character '{c}' is reserved and must be escaped with the preceding '\\'")
        emit(c)
        i += 1
    if stack:
        name = _ENTITY_NAMES[stack[-1]["type"]]
        raise _fail(f"Can't find end of {name} entity at byte offset {stack[-1]['_at']}")
    entities.sort(key=lambda e: (e["offset"], -e["length"]))
    return "".join(out), entities


def _md2_mark(
    source: str, i: int, stack: list[Entity], length: int, byte_at: int, close: Callable[[], None]
) -> int:
    """At a formatting mark: close its open entity or open one (a ``pre`` with its language);
    the index after the mark, or -1 when no mark starts at ``i``."""
    for mark, kind in _MD2_MARKS:
        if not source.startswith(mark, i):
            continue
        i += len(mark)
        if stack and stack[-1]["type"] == kind:
            close()
            return i
        stack.append({"type": kind, "offset": length, "_at": byte_at})
        if kind == "pre":
            newline = source.find("\n", i)
            lang = source[i:newline] if newline >= 0 else ""
            if lang and not any(ch.isspace() or ch == "`" for ch in lang):
                stack[-1]["language"] = lang
                i = newline + 1
        return i
    return -1


_MD1 = re.compile(
    r"\*([^*]+)\*|_([^_]+)_|```(?:\w*\n)?([\s\S]+?)```|`([^`]+)`|\[([^\]]+)\]\(([^)]+)\)"
)


def parse_markdown(source: str) -> tuple[str, list[Entity]]:
    out: list[str] = []
    length = 0
    entities: list[Entity] = []
    pos = 0
    for m in _MD1.finditer(source):
        plain = source[pos : m.start()]
        for mark in "*_`[":
            if mark in plain:
                byte_at = len(source[: pos + plain.index(mark)].encode())
                raise _fail(f"Can't find end of the entity starting at byte offset {byte_at}")
        out.append(plain)
        length += utf16_len(plain)
        groups = m.groups()
        kinds = ["bold", "italic", "pre", "code", "text_link"]
        index = next(k for k, g in enumerate(groups[:5]) if g is not None)
        text = groups[index]
        entity: Entity = {"type": kinds[index], "offset": length, "length": utf16_len(text)}
        if index == 4:
            entity["url"] = groups[5]
        entities.append(entity)
        out.append(text)
        length += utf16_len(text)
        pos = m.end()
    rest = source[pos:]
    for mark in "*_`[":
        if mark in rest:
            byte_at = len(source[: pos + rest.index(mark)].encode())
            raise _fail(f"Can't find end of the entity starting at byte offset {byte_at}")
    out.append(rest)
    return "".join(out), entities


_AUTO = re.compile(
    r"(?P<bot_command>(?<![\w/])/[a-zA-Z0-9_]{1,32}(?:@[a-zA-Z0-9_]{3,32})?)"
    r"|(?P<url>\bhttps?://[^\s<>\"]+|\bt\.me/[^\s<>\"]+)"
    r"|(?P<mention>(?<![\w@])@[a-zA-Z0-9_]{4,32})"
)


def _utf16_offset(text: str, index: int) -> int:
    return utf16_len(text[:index])


def auto_entities(text: str, taken: list[Entity]) -> list[Entity]:
    """Commands, @mentions and links Telegram marks by itself outside code and links."""
    covered = [
        (e["offset"], e["offset"] + e["length"])
        for e in taken
        if e["type"] in ("code", "pre", "text_link")
    ]
    found: list[Entity] = []
    for m in _AUTO.finditer(text):
        kind = m.lastgroup or "url"
        start = _utf16_offset(text, m.start())
        end = start + utf16_len(m.group(0))
        if any(a < end and start < b for a, b in covered):
            continue
        found.append({"type": kind, "offset": start, "length": end - start})
    return found


def parse(text: str, parse_mode: str | None, entities: Any = None) -> tuple[str, list[Entity]]:
    """Plain text and all entities for a bot's text or caption."""
    if entities:
        if not isinstance(entities, list):
            raise bad_request("can't parse entities JSON object")
        plain, parsed = text, [dict(e) for e in entities]
    elif parse_mode is None or parse_mode == "":
        plain, parsed = text, []
    else:
        mode = parse_mode.lower()
        if mode == "html":
            plain, parsed = parse_html(text)
        elif mode == "markdownv2":
            plain, parsed = parse_markdown_v2(text)
        elif mode == "markdown":
            plain, parsed = parse_markdown(text)
        else:
            raise bad_request(f"unsupported parse_mode {parse_mode!r}")
    merged = parsed + auto_entities(plain, parsed)
    merged.sort(key=lambda e: (e["offset"], -e["length"]))
    return plain, merged
