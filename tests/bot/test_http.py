"""The Bot API transport's one liberty: the keyboard of a tapped message is dropped unread."""

from __future__ import annotations

import json

from bot.telegram.http import UpdatesRequest

KEYBOARD = {"inline_keyboard": [[{"text": "a1", "callback_data": "p:m:1:0.0"}]]}


def _payload(*updates: dict) -> bytes:  # type: ignore[type-arg]
    return json.dumps({"ok": True, "result": list(updates)}).encode()


def test_polled_updates_lose_the_tapped_keyboard_only() -> None:
    tap = {
        "update_id": 1,
        "callback_query": {
            "id": "q",
            "data": "p:m:1:0.0",
            "message": {"message_id": 5, "text": "board", "reply_markup": KEYBOARD},
        },
    }
    sent = {"update_id": 2, "message": {"message_id": 6, "text": "hi", "reply_markup": KEYBOARD}}
    data = UpdatesRequest.parse_json_payload(_payload(tap, sent))
    query, message = data["result"][0]["callback_query"], data["result"][1]["message"]
    assert "reply_markup" not in query["message"] and query["data"] == "p:m:1:0.0"
    assert message["reply_markup"] == KEYBOARD  # only a tapped message's keyboard goes


def test_other_answers_pass_untouched() -> None:
    assert UpdatesRequest.parse_json_payload(b'{"ok":true,"result":true}') == {
        "ok": True,
        "result": True,
    }
    odd = {"update_id": 3, "callback_query": None}
    assert UpdatesRequest.parse_json_payload(_payload(odd))["result"] == [odd]
