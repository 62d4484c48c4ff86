from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.match.callback import BadCallback, Callback, parse


def test_round_trip() -> None:
    cb = Callback("p", "k3F9aXz1", 41, "12.7")
    assert cb.encode() == "p:k3F9aXz1:41:12.7"
    assert parse(cb.encode()) == cb
    assert parse("j:abc:0") == Callback("j", "abc", 0, "")


@pytest.mark.parametrize(
    "data",
    [
        None,
        "",
        "p",
        "p:x",
        "p:x:y",
        "p:x:1:a:b",
        "toolong:x:1",
        "p:x:-1",
        "p:a b:1",
        "p:x:1:<>",
        "é:x:1",
        "p:x:1" + "9" * 70,
    ],
)
def test_malformed(data: str | None) -> None:
    with pytest.raises(BadCallback):
        parse(data)


@given(st.text(max_size=80))
def test_anything_either_parses_or_is_refused(data: str) -> None:
    try:
        cb = parse(data)
    except BadCallback:
        return
    assert cb.encode() == data
