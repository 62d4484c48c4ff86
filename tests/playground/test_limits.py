"""Flood control with a fake clock, and formatted-text parsing (Telegram's counting rules)."""

from __future__ import annotations

import pytest

from playground.entities import parse, parse_html, parse_markdown_v2
from playground.limits import ApiError, FloodControl, Limits, utf16_len


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def retry_after(flood: FloodControl, chat: int, private: bool) -> int:
    with pytest.raises(ApiError) as e:
        flood.hit(chat, private)
    assert e.value.code == 429
    assert (
        e.value.description == f"Too Many Requests: retry after {e.value.parameters['retry_after']}"
    )
    return int(e.value.parameters["retry_after"])


def test_private_chat_burst_then_one_per_second() -> None:
    clock = Clock()
    flood = FloodControl(Limits(private_burst=3, private_per_second=1), clock)
    for _ in range(3):
        flood.hit(1, True)
    assert retry_after(flood, 1, True) == 1
    flood.hit(2, True)  # another chat has its own budget
    clock.now += 1.0
    flood.hit(1, True)
    assert retry_after(flood, 1, True) == 1


def test_group_twenty_per_minute() -> None:
    clock = Clock()
    flood = FloodControl(Limits(group_per_minute=20), clock)
    for _ in range(20):
        flood.hit(-5, False)
    assert retry_after(flood, -5, False) == 3  # one more message every 3 s
    clock.now += 3.0
    flood.hit(-5, False)


def test_global_thirty_per_second_across_chats() -> None:
    clock = Clock()
    flood = FloodControl(Limits(global_per_second=30), clock)
    for chat in range(30):
        flood.hit(chat, True)
    assert retry_after(flood, 99, True) == 1
    clock.now += 0.5
    for chat in range(100, 115):
        flood.hit(chat, True)


def test_limits_can_be_switched_off() -> None:
    flood = FloodControl(Limits.off(), Clock())
    for _ in range(100):
        flood.hit(1, True)


def test_html_entities_nest_and_use_utf16_offsets() -> None:
    text, entities = parse_html(
        '😀 <b>bold <i>both</i></b> <a href="https://t.me/x">link</a> &amp;'
    )
    assert text == "😀 bold both link &"
    assert entities == [
        {"type": "bold", "offset": 3, "length": 9},
        {"type": "italic", "offset": 8, "length": 4},
        {"type": "text_link", "offset": 13, "url": "https://t.me/x", "length": 4},
    ]
    assert utf16_len("😀") == 2


@pytest.mark.parametrize(
    ("source", "needle"),
    [
        ("<b>open", 'Can\'t find end tag corresponding to start tag "b"'),
        ("<blink>x</blink>", 'Unsupported start tag "blink" at byte offset 0'),
        ("<b>x</i>", "Unmatched end tag"),
    ],
)
def test_html_errors(source: str, needle: str) -> None:
    with pytest.raises(ApiError) as e:
        parse_html(source)
    assert e.value.description.startswith("Bad Request: can't parse entities: ")
    assert needle in e.value.description


def test_markdown_v2() -> None:
    text, entities = parse_markdown_v2("*Ход* _2_ \\- ||тайна|| ```python\nx = 1\n```")
    assert text == "Ход 2 - тайна x = 1\n"
    kinds = [(e["type"], e["offset"], e["length"]) for e in entities]
    assert kinds == [("bold", 0, 3), ("italic", 4, 1), ("spoiler", 8, 5), ("pre", 14, 6)]
    assert entities[-1]["language"] == "python"
    with pytest.raises(ApiError, match="Character '!' is reserved"):
        parse_markdown_v2("Hi!")
    with pytest.raises(ApiError, match="Can't find end of Bold entity at byte offset 0"):
        parse_markdown_v2("*open")


def test_commands_and_links_are_marked_automatically() -> None:
    text, entities = parse("Play /new@tetrad_bot or t.me/tetrad_bot?start=x", None)
    assert [(e["type"], text[e["offset"] : e["offset"] + e["length"]]) for e in entities] == [
        ("bot_command", "/new@tetrad_bot"),
        ("url", "t.me/tetrad_bot?start=x"),
    ]
    _, entities = parse("<code>/not_a_command</code>", "HTML")
    assert [e["type"] for e in entities] == ["code"]


@pytest.mark.parametrize(
    ("w", "h", "size", "error"),
    [
        (1280, 1280, 10 * 1024 * 1024, None),
        (100, 100, 10 * 1024 * 1024 + 1, "Bad Request: file is too big"),
        (5000, 5000, 1000, None),
        (5000, 5001, 1000, "Bad Request: PHOTO_INVALID_DIMENSIONS"),
        (2000, 100, 1000, None),
        (2001, 100, 1000, "Bad Request: PHOTO_INVALID_DIMENSIONS"),
    ],
)
def test_photo_size_and_dimension_rules(w: int, h: int, size: int, error: str | None) -> None:
    from playground.limits import check_photo_dimensions

    if error is None:
        check_photo_dimensions(w, h, size)
    else:
        with pytest.raises(ApiError) as e:
            check_photo_dimensions(w, h, size)
        assert e.value.description == error
