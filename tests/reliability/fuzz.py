"""Fuzzed updates: random and adversarial input for the bot's real parsing path.

:class:`Fuzzer` makes update bodies (JSON objects, occasionally not even that) of these kinds:

* callback queries with random data, and near-valid data for real matches: their ids with old
  or far-future versions, every op, wrong and huge arguments, other matches' ids, from people
  without a seat or with one but an old version, on real board messages and on invented ones;
* messages: random texts, huge strings, commands with odd arguments, replies to real boards,
  typed moves, from unknown people and chats (groups the bot is not in);
* edited messages, inline queries, chosen inline results, member changes, unknown types;
* wrong JSON types anywhere in those (strings for ids, lists for objects, nulls, huge
  numbers), missing fields, and bodies that are not updates at all.

None of it is valid input that may change a match: whatever the fuzzer sends on a real match
either carries a version that is not the match's or comes from someone without a seat, so
any change to a stored match is a bug.
"""

from __future__ import annotations

import json
import random
import string
from dataclasses import dataclass
from typing import Any

from bot.telegram import app

OPS = ("p", "c", "a", "j", "l", "s", "x", "b", "n", "N", "L", "R", "t", "g", "zz", "P", "")
END_ARGS = ("r", "R", "d", "y", "n", "s", "f", "g", "t", "x", "c", "q", "")
CURSOR_ARGS = ("l", "r", "u", "d", "t", "m", "k", "g0.0", "g999.999", "menu", "back", "b9.9", "")
COMMANDS = ("start", *app.COMMANDS)  # every command the bot registers, and /start
ODD = (
    "",
    " ",
    "0",
    "-1",
    "99999999999999999999",
    "☃" * 30,
    "%s%n",
    "' OR 1=1 --",
    "../../etc/passwd",
    "<b>x</b>",
    "\u202e\u0000\ufeff",
    "g_" + "x_" * 30,
    "g_d_q_-_zz",
    "g_b_99_2",
    "g_s_1_-",
    "a" * 22,
    "A" * 500,
    "😀" * 200,
    "dots boxes sprouts",
    "ru ru",
    "en" * 100,
    "@nobody",
    "h12 h13",
    "a1-a2",
    "z99",
    "-",
)


@dataclass
class Target:
    """A real match the fuzzer aims at: its id, the version it has now, where its board is,
    and who sits in it (who must not tap with the current version)."""

    match: str
    version: int
    chat: dict[str, Any]  # the Bot API chat object of a board
    message_id: int
    seated: set[int]


class Fuzzer:
    def __init__(self, rng: random.Random, targets: list[Target], bot_username: str) -> None:
        self.rng = rng
        self.targets = targets
        self.bot = bot_username
        self.next_id = 10**9
        self.users = [self._random_user() for _ in range(150)]
        self.kinds: dict[str, int] = {}

    # -- small pieces ---------------------------------------------------------------------------

    def _random_user(self) -> dict[str, Any]:
        r = self.rng
        user: dict[str, Any] = {
            "id": r.randrange(1, 2**40),
            "is_bot": False,
            "first_name": self._text(r.choice((1, 5, 64, 300))),
        }
        if r.random() < 0.5:
            user["language_code"] = r.choice(("ru", "en", "xx", "", "zh-hans", "EN"))
        if r.random() < 0.5:
            user["username"] = "".join(r.choices(string.ascii_letters, k=r.randrange(1, 33)))
        return user

    def _text(self, n: int) -> str:
        r = self.rng
        pools = (
            string.printable,
            "абвгдеёжзийклмнопрстуфхцчшщъыьэюя",
            "😀🎲☃️\u200b\u202e\ufe0f",
            "".join(chr(c) for c in range(0x20, 0x250)),
        )
        pool = r.choice(pools)
        return "".join(r.choice(pool) for _ in range(n)) or "x"

    def _user(self) -> dict[str, Any]:
        return self.rng.choice(self.users)

    def _chat(self, user: dict[str, Any]) -> dict[str, Any]:
        r = self.rng
        k = r.random()
        if k < 0.5:
            return {"id": user["id"], "type": "private", "first_name": user["first_name"]}
        if k < 0.8:
            return {"id": -r.randrange(1, 2**40), "type": "group", "title": self._text(10)}
        return {"id": -(10**12) - r.randrange(1, 2**30), "type": "supergroup", "title": "x"}

    def _update_id(self) -> int:
        self.next_id += 1
        return self.next_id

    def _message(self, text: str, *, target: Target | None = None) -> dict[str, Any]:
        user = self._user()
        chat = target.chat if target is not None else self._chat(user)
        msg: dict[str, Any] = {
            "message_id": self.rng.randrange(1, 10**6),
            "date": 1_700_000_000,
            "chat": chat,
            "from": user,
            "text": text,
        }
        if text.startswith("/"):
            word = text.split(" ", 1)[0]
            msg["entities"] = [{"type": "bot_command", "offset": 0, "length": len(word)}]
        if target is not None and self.rng.random() < 0.7:
            msg["reply_to_message"] = {
                "message_id": target.message_id,
                "date": 1_700_000_000,
                "chat": target.chat,
                "from": {"id": 6_000_000_001, "is_bot": True, "first_name": "Tetrad"},
            }
        return msg

    # -- kinds of updates ---------------------------------------------------------------------

    def callback_data(self) -> str:
        r = self.rng
        k = r.random()
        if k < 0.15:  # random bytes as text, sometimes too long
            return self._text(r.choice((1, 10, 64, 65, 200)))
        if k < 0.25:  # the right shape, random fields
            return ":".join(self._text(r.randrange(1, 12)) for _ in range(r.randrange(1, 6)))
        op = r.choice(OPS)
        if self.targets and r.random() < 0.8:
            t = r.choice(self.targets)
            ident = t.match
            version = r.choice(
                (t.version - 1, t.version + 1, t.version + 1000, 0, 999_999_999, t.version)
            )
        else:
            ident = "".join(r.choices(string.ascii_letters + string.digits, k=r.choice((8, 24))))
            version = r.randrange(0, 10**9)
        if op == "a":
            arg = r.choice(END_ARGS)
        elif op == "c":
            arg = r.choice(CURSOR_ARGS)
        elif op == "p":
            arg = r.choice(
                ("1.1", "0.0", "999.999", "-1.2", "h0.0", "v9.9", "h999.1", "1", "a.b", "")
            )
        elif op == "t":  # a typed-move chooser: moves no game here has (forged, not played)
            arg = r.choice(("z99", "a0", "9", "1-1", "x" * 40, ""))
        elif op in ("N", "L"):
            arg = r.choice(("d.q.-.ae", "b.3.2.g", "s.4.-.am", "ru", "en", "xx", "d.zz", ""))
        else:
            arg = r.choice(("", "x" * 40, "easy", "hard", "1", self._text(5)))
        parts = [op, ident, str(version)] + ([arg] if arg or r.random() < 0.3 else [])
        return ":".join(parts)

    def callback_query(self) -> dict[str, Any]:
        r = self.rng
        user = self._user()
        data: Any = self.callback_data()
        query: dict[str, Any] = {
            "id": str(r.randrange(10**18)),
            "from": user,
            "chat_instance": str(r.randrange(10**12)),
            "data": data,
        }
        if self.targets and r.random() < 0.6:
            t = r.choice(self.targets)
            # Sitting players tap only with versions that are not the match's.
            if r.random() < 0.3 and t.seated:
                query["from"] = {
                    "id": r.choice(sorted(t.seated)),
                    "is_bot": False,
                    "first_name": "S",
                }
                parts = data.split(":")
                if len(parts) >= 3 and parts[1] == t.match:
                    parts[2] = str(t.version + r.choice((-1, 1, 50)))
                    query["data"] = ":".join(parts)
                elif len(parts) >= 3:
                    parts[1], parts[2] = t.match, str(t.version + 1)
                    query["data"] = ":".join(parts)
            query["message"] = {
                "message_id": t.message_id,
                "date": 1_700_000_000,
                "chat": t.chat,
                "from": {"id": 6_000_000_001, "is_bot": True, "first_name": "Tetrad"},
            }
        elif r.random() < 0.5:
            query["message"] = self._message("x")
            query["message"]["from"] = {"id": 6_000_000_001, "is_bot": True, "first_name": "T"}
        elif r.random() < 0.5:
            query["inline_message_id"] = self._text(r.choice((5, 30)))
        return query

    def command(self) -> str:
        r = self.rng
        name = r.choice(COMMANDS)
        if r.random() < 0.3:
            name += "@" + r.choice((self.bot, "other_bot", "", self._text(5)))
        args = " ".join(r.choice(ODD) for _ in range(r.randrange(0, 4)))
        text = f"/{name} {args}".rstrip()
        if (
            name.startswith("challenge")
            and text.split()[1:2]
            and text.split()[1]
            in (
                "dots",
                "boxes",
                "sprouts",
            )
        ):
            text = f"/{name} x"  # a real game name would open a real lobby
        return text

    def message(self) -> dict[str, Any]:
        r = self.rng
        k = r.random()
        target = r.choice(self.targets) if self.targets and r.random() < 0.3 else None
        if k < 0.4:
            text = self.command()
        elif k < 0.5:
            text = self._text(r.choice((4096, 10_000)))
        elif k < 0.7:
            text = r.choice(("h12", "a1", "b3-c3", "c", "1 2", "z9", "m 1", "/m", "?"))
        else:
            text = self._text(r.randrange(1, 80))
        msg = self._message(text, target=target)
        if target is not None and msg["from"]["id"] in target.seated:
            msg["from"] = self._user()
        return msg

    def other(self) -> dict[str, Any]:
        r = self.rng
        user = self._user()
        kind = r.choice(("inline_query", "chosen_inline_result", "my_chat_member", "poll", "x"))
        if kind == "inline_query":
            return {
                "inline_query": {
                    "id": str(r.randrange(10**15)),
                    "from": user,
                    "query": r.choice(("", "dots", self._text(300), "☃")),
                    "offset": r.choice(("", "5", "-1", "zz")),
                }
            }
        if kind == "chosen_inline_result":
            return {
                "chosen_inline_result": {
                    "result_id": r.choice(("dots", "boxes", "x", self._text(64))),
                    "from": user,
                    "query": "",
                    "inline_message_id": self._text(20),
                }
            }
        if kind == "my_chat_member":
            status = r.choice(("member", "kicked", "left", "administrator", "restricted"))
            bot = {"id": 6_000_000_001, "is_bot": True, "first_name": "Tetrad"}
            member: dict[str, Any] = {"status": status, "user": bot}
            if status == "kicked":
                member["until_date"] = 0
            if status == "restricted":
                member.update(is_member=True, until_date=0)
            return {
                "my_chat_member": {
                    "chat": self._chat(user),
                    "from": user,
                    "date": 1_700_000_000,
                    "old_chat_member": {"status": "member", "user": bot},
                    "new_chat_member": member,
                }
            }
        return {kind: {"id": r.randrange(10**6), "question": "?"}}

    def _wrong_types(self, value: Any, depth: int = 0) -> Any:
        """The same shape with some leaves and objects replaced by values of other types."""
        r = self.rng
        if r.random() < 0.12 or depth > 6:
            return r.choice(
                (None, "", "x", 0, -1, 2**80, 1.5e308, True, [], {}, [1, "a"], {"a": {}})
            )
        if isinstance(value, dict):
            out = {k: self._wrong_types(v, depth + 1) for k, v in value.items()}
            if out and r.random() < 0.15:
                out.pop(r.choice(list(out)))
            return out
        if isinstance(value, list):
            return [self._wrong_types(v, depth + 1) for v in value]
        return value

    def update(self) -> dict[str, Any] | bytes:
        r = self.rng
        k = r.random()
        if k < 0.02:
            self._count("not an update")
            return r.choice(
                (b"", b"{", b"[]", b"null", b'"x"', b"\xff\xfe", json.dumps([1] * 10).encode())
            )
        if k < 0.45:
            kind, body = "callback_query", self.callback_query()
        elif k < 0.75:
            kind, body = "message", self.message()
        elif k < 0.85:
            kind, body = "edited_message", self.message()
        else:
            other = self.other()
            kind, body = next(iter(other)), next(iter(other.values()))
        update: dict[str, Any] = {"update_id": self._update_id(), kind: body}
        if r.random() < 0.25:
            update = self._wrong_types(update)
            if not isinstance(update, dict):
                update = {"update_id": self._update_id(), kind: update}
            kind = "wrong types"
        self._count(kind)
        return update

    def _count(self, kind: str) -> None:
        self.kinds[kind] = self.kinds.get(kind, 0) + 1
