"""The scenario-test client: act as simulated people and look at what they see.

It speaks to the emulator's people's API over HTTP (the same one the web page uses), so it
works against an emulator in this process or in another one (``tetrad local``)::

    pg = PlaygroundClient(url)
    alice = await pg.user("alice", lang="ru")
    await alice.send("/new")              # waits until the bot has finished reacting
    await alice.press("Join")             # a button by its text, in the latest keyboard
    png = await alice.private.last_photo()
    friends = await pg.group("friends", members=[alice, bob])

Every action waits for the bot to settle (no pending update, no request in flight, no work
under way that a bot in the emulator's process reports, see ``World.bot_work``, and no request
for ``quiet`` seconds) unless called with ``settle=False``; ``wait_for`` waits for a message
or an edit that matches a predicate instead. Against a bot that reports its work, ``quiet``
is only a margin; against one that does not (another process), it is all there is, and a
bot that draws for longer than it between two requests looks settled too early.
"""

from __future__ import annotations

import io
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import aiohttp
from PIL import Image

DEFAULT_TIMEOUT = 10.0
DEFAULT_QUIET = 0.3


class PlaygroundClientError(Exception):
    """The emulator refused an action (its message says why)."""


class PlaygroundTimeout(PlaygroundClientError):
    """The bot did not settle, or the awaited message did not come, in time."""


@dataclass(frozen=True)
class Button:
    text: str
    row: int
    col: int
    callback_data: str | None = None
    url: str | None = None
    switch_inline_query: str | None = None
    web_app: str | None = None  # the URL a web_app button opens


@dataclass(frozen=True)
class MiniAppLaunch:
    """A Mini App opened by a person: ``url`` is the app URL with the launch parameters in
    its hash (open it in a browser), ``init_data`` the signed tgWebAppData."""

    session: str
    kind: str
    url: str
    app_url: str
    init_data: str
    start_param: str | None
    title: str
    theme: str

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> MiniAppLaunch:
        return cls(
            d["session"],
            d["kind"],
            d["url"],
            d["app_url"],
            d["init_data"],
            d.get("start_param"),
            d["title"],
            d["theme"],
        )


@dataclass(frozen=True)
class Media:
    kind: str
    file_id: str
    url: str
    width: int
    height: int
    file_name: str | None = None


@dataclass(frozen=True)
class MessageView:
    """One message as a person sees it."""

    chat: int
    message_id: int
    sender_id: int
    sender_name: str
    from_bot: bool
    text: str | None
    caption: str | None
    buttons: tuple[tuple[Button, ...], ...]
    media: Media | None
    via_bot: str | None
    edited: bool
    inline_message_id: str | None
    service: str | None
    reply_to: int | None
    raw: dict[str, Any] = field(repr=False, compare=False)
    media_group: str | None = None  # the album (sendMediaGroup) it came in

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> MessageView:
        buttons = tuple(
            tuple(
                Button(
                    b.get("text", ""),
                    r,
                    c,
                    b.get("callback_data"),
                    b.get("url"),
                    b.get("switch_inline_query", b.get("switch_inline_query_current_chat")),
                    (b.get("web_app") or {}).get("url"),
                )
                for c, b in enumerate(row)
            )
            for r, row in enumerate(d.get("buttons") or [])
        )
        m = d.get("media")
        media = (
            Media(m["kind"], m["file_id"], m["url"], m["width"], m["height"], m.get("file_name"))
            if m
            else None
        )
        return cls(
            chat=d["chat"],
            message_id=d["message_id"],
            sender_id=d["from"]["id"],
            sender_name=d["from"]["name"],
            from_bot=d["from"]["is_bot"],
            text=d.get("text"),
            caption=d.get("caption"),
            buttons=buttons,
            media=media,
            via_bot=d.get("via_bot"),
            edited=bool(d.get("edited")),
            inline_message_id=d.get("inline_message_id"),
            service=d.get("service"),
            reply_to=d.get("reply_to"),
            raw=d,
            media_group=d.get("media_group"),
        )

    @property
    def body(self) -> str:
        """The text, or the caption of a photo."""
        return self.text or self.caption or ""

    @property
    def button_texts(self) -> list[list[str]]:
        return [[b.text for b in row] for row in self.buttons]

    def find_button(self, text: str) -> Button:
        flat = [b for row in self.buttons for b in row]
        exact = [b for b in flat if b.text == text]
        if exact:
            return exact[0]
        near = [b for b in flat if text.casefold() in b.text.casefold()]
        if len(near) == 1:
            return near[0]
        raise PlaygroundClientError(
            f"no single button {text!r} in message {self.message_id}; it has {self.button_texts}"
        )


@dataclass(frozen=True)
class Popup:
    """What answerCallbackQuery showed (a toast, or an alert when ``show_alert``)."""

    text: str
    show_alert: bool
    url: str | None
    answered: bool = True


@dataclass(frozen=True)
class InlineResult:
    id: str
    type: str
    title: str
    description: str
    thumbnail: str | None


@dataclass
class InlineAnswer:
    query_id: str
    answered: bool
    results: list[InlineResult]
    next_offset: str

    def result(self, title_or_id: str) -> InlineResult:
        for r in self.results:
            if title_or_id in (r.id, r.title):
                return r
        raise PlaygroundClientError(f"no inline result {title_or_id!r} in {self.results}")


class PlaygroundClient:
    """A handle on one emulator; ``user`` and ``group`` make the people and places."""

    def __init__(
        self,
        url: str,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        quiet: float = DEFAULT_QUIET,
    ) -> None:
        self.url = url.rstrip("/")
        self.timeout = timeout
        self.quiet = quiet
        self._session: aiohttp.ClientSession | None = None
        self.bot_username = ""
        self.bot_id = 0

    async def __aenter__(self) -> PlaygroundClient:
        await self.connect()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def connect(self) -> None:
        if self._session is None:
            self._session = aiohttp.ClientSession()
        state = await self._get("/pg/state")
        self.bot_username, self.bot_id = state["bot"]["username"], state["bot"]["id"]

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None

    # ------------------------------------------------------------------ HTTP
    async def _request(self, method: str, path: str, **kw: Any) -> Any:
        if self._session is None:
            self._session = aiohttp.ClientSession()
        async with self._session.request(method, self.url + path, **kw) as r:
            if r.content_type != "application/json":
                if r.status != 200:
                    raise PlaygroundClientError(f"{path}: HTTP {r.status}")
                return await r.read()
            data = await r.json()
            if r.status != 200:
                raise PlaygroundClientError(data.get("error", f"HTTP {r.status}"))
            return data

    async def _get(self, path: str, **params: Any) -> Any:
        return await self._request("GET", path, params={k: str(v) for k, v in params.items()})

    async def _post(self, path: str, body: dict[str, Any]) -> Any:
        return await self._request("POST", path, json=body)

    # ------------------------------------------------------------------ the world
    async def user(self, name: str, lang: str = "en", first_name: str | None = None) -> UserHandle:
        data = await self._post(
            "/pg/users", {"username": name, "lang": lang, "first_name": first_name}
        )
        return UserHandle(self, data)

    async def group(
        self,
        title: str,
        members: list[UserHandle],
        *,
        creator: UserHandle | None = None,
        bot: bool = True,
        privacy: bool = True,
        settle: bool = True,
    ) -> ChatHandle:
        """A basic group of ``members`` (the first one creates it unless ``creator``)."""
        if not members and creator is None:
            raise PlaygroundClientError("a group needs at least one member")
        owner = creator or members[0]
        data = await self._post(
            "/pg/groups",
            {
                "title": title,
                "creator": owner.id,
                "members": [m.id for m in members],
                "bot": bot,
                "privacy": privacy,
            },
        )
        if settle:
            await self.settle()
        return ChatHandle(self, data)

    async def chat(self, ref: int) -> ChatHandle:
        state = await self._get("/pg/state")
        for c in state["chats"]:
            if c["ref"] == ref:
                return ChatHandle(self, c)
        raise PlaygroundClientError(f"no chat {ref}")

    # ------------------------------------------------------------------ waiting
    async def seq(self) -> int:
        return int((await self._get("/pg/events", after=2**62))["seq"])

    async def settle(self, quiet: float | None = None, timeout: float | None = None) -> None:
        """Wait until the bot has fetched every update, finished the work it reports and been
        quiet for ``quiet`` seconds."""
        timeout = self.timeout if timeout is None else timeout
        data = await self._get(
            "/pg/settle", quiet=self.quiet if quiet is None else quiet, timeout=timeout
        )
        if not data["settled"]:
            raise PlaygroundTimeout(f"the bot was still busy after {timeout} s")

    async def wait_for(
        self,
        predicate: Callable[[MessageView], bool],
        *,
        after: int = 0,
        chat: ChatHandle | None = None,
        timeout: float | None = None,
    ) -> MessageView:
        """The first new message or edit after event ``after`` that satisfies ``predicate``."""
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        seq = after
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise PlaygroundTimeout("no matching message arrived in time")
            data = await self._get("/pg/events", after=seq, timeout=min(left, 30))
            for e in data["events"]:
                seq = e["seq"]
                if e["type"] not in ("message", "edit"):
                    continue
                view = MessageView.from_json(e["message"])
                if (chat is None or view.chat == chat.ref) and predicate(view):
                    return view

    async def events(self, after: int = 0) -> list[dict[str, Any]]:
        return list((await self._get("/pg/events", after=after))["events"])

    async def bot_requests(self, after: int = 0) -> list[dict[str, Any]]:
        """The bot's Bot API calls (getUpdates without updates left out), oldest first."""
        return list(await self._get("/pg/requests", after=after))

    async def set_limits(self, **limits: Any) -> dict[str, Any]:
        """Change the flood limits at run time, e.g. ``set_limits(enabled=False)``."""
        return dict(await self._post("/pg/limits", limits))

    async def add_fault(
        self,
        kind: str,
        *,
        methods: list[str] | None = None,
        rate: float = 1.0,
        seconds: float = 10.0,
        retry_after: int = 1,
        delay: float = 10.0,
        apply: bool = False,
        chats: list[int] | None = None,
    ) -> dict[str, Any]:
        """Make a share of the bot's calls fail for ``seconds``: ``kind`` is "429", "5xx" or
        "timeout" (hang ``delay`` s, then 504; ``apply`` carries the call out anyway).
        ``chats``: only calls naming these chats; ``retry_after=0``: a 429 says the seconds
        left in the window, as Telegram's flood wait does."""
        body = {
            "kind": kind,
            "methods": methods,
            "rate": rate,
            "seconds": seconds,
            "retry_after": retry_after,
            "delay": delay,
            "apply": apply,
            "chats": chats,
        }
        return dict(await self._post("/pg/faults", body))

    async def clear_faults(self) -> dict[str, Any]:
        return dict(await self._post("/pg/faults", {"clear": True}))

    async def faults(self) -> dict[str, Any]:
        """The active faults and how many calls each kind has failed so far."""
        return dict(await self._get("/pg/faults"))

    async def set_mini_app(self, url: str, short_name: str, title: str = "") -> dict[str, Any]:
        """Register the bot's Mini App as BotFather's /newapp would (direct links open it)."""
        body = {"url": url, "short_name": short_name, "title": title}
        return dict((await self._post("/pg/miniapp", body))["app"])

    async def mini_app_events(
        self, session: str | None = None, after: int = 0
    ) -> list[dict[str, Any]]:
        """What passed between Mini Apps and their panels (of one ``session`` if given):
        ``{"event": "web_app_trigger_haptic_feedback", "data": {...}, ...}``."""
        return [
            e
            for e in await self.events(after)
            if e["type"] == "miniapp" and (session is None or e["session"] == session)
        ]

    async def file_bytes(self, file_id: str) -> bytes:
        return bytes(await self._get(f"/pg/files/{file_id}"))

    async def png(self, media: Media) -> bytes:
        """A picture's bytes as PNG (converted when the bot sent another format)."""
        data = await self.file_bytes(media.file_id)
        if data.startswith(b"\x89PNG\r\n\x1a\n"):
            return data
        with Image.open(io.BytesIO(data)) as im:
            out = io.BytesIO()
            im.save(out, "PNG")
            return out.getvalue()


class ChatHandle:
    """A chat as the people in it see it."""

    def __init__(self, client: PlaygroundClient, data: dict[str, Any]) -> None:
        self.client = client
        self.ref: int = data["ref"]
        self.id: int = data["id"]
        self.type: str = data["type"]
        self.title: str = data.get("title", "")

    def __repr__(self) -> str:
        return f"<chat {self.ref} {self.type} {self.title!r}>"

    async def messages(self) -> list[MessageView]:
        data = await self.client._get(f"/pg/chats/{self.ref}/messages")
        return [MessageView.from_json(m) for m in data]

    async def bot_messages(self) -> list[MessageView]:
        return [m for m in await self.messages() if m.from_bot or m.via_bot]

    async def last_message(self, *, from_bot: bool = True) -> MessageView:
        msgs = [m for m in await self.messages() if not m.service]
        if from_bot:
            msgs = [m for m in msgs if m.from_bot or m.via_bot]
        if not msgs:
            raise PlaygroundClientError(f"no {'bot ' if from_bot else ''}message in {self}")
        return msgs[-1]

    async def last_with_buttons(self) -> MessageView:
        for m in reversed(await self.messages()):
            if m.buttons:
                return m
        raise PlaygroundClientError(f"no message with buttons in {self}")

    async def last_photo(self) -> bytes:
        """The newest picture in the chat, as PNG bytes."""
        for m in reversed(await self.messages()):
            if m.media is not None and m.media.kind in ("photo", "animation"):
                return await self.client.png(m.media)
        raise PlaygroundClientError(f"no picture in {self}")

    async def photo(self, message: MessageView) -> bytes:
        if message.media is None:
            raise PlaygroundClientError(f"message {message.message_id} has no picture")
        return await self.client.png(message.media)

    async def commands(self, user: UserHandle) -> list[dict[str, str]]:
        """The command menu ``user`` sees here."""
        return list(await self.client._get(f"/pg/chats/{self.ref}/commands", user=user.id))

    async def add(self, user: UserHandle, by: UserHandle | None = None) -> None:
        body = {"user": user.id, "by": by.id if by else None}
        await self.client._post(f"/pg/groups/{self.ref}/members", body)
        await self.client.settle()

    async def remove(self, user: UserHandle, by: UserHandle | None = None) -> None:
        body = {"user": user.id, "by": by.id if by else None, "remove": True}
        await self.client._post(f"/pg/groups/{self.ref}/members", body)
        await self.client.settle()

    async def add_bot(self, by: UserHandle | None = None) -> None:
        await self.client._post(f"/pg/groups/{self.ref}/bot", {"by": by.id if by else None})
        await self.client.settle()

    async def remove_bot(self, by: UserHandle | None = None) -> None:
        body = {"by": by.id if by else None, "remove": True}
        await self.client._post(f"/pg/groups/{self.ref}/bot", body)
        await self.client.settle()

    async def set_admin(self, user: UserHandle, on: bool = True, anonymous: bool = False) -> None:
        """Promote ``user`` to administrator of this group (``on=False``: demote;
        ``anonymous``: their messages are signed by the group)."""
        body = {"user": user.id, "on": on, "anonymous": anonymous}
        await self.client._post(f"/pg/groups/{self.ref}/admins", body)

    async def set_privacy(self, on: bool) -> None:
        await self.client._post(f"/pg/groups/{self.ref}/privacy", {"on": on})

    async def migrate(self, by: UserHandle | None = None) -> int:
        """Upgrade to a supergroup; returns the new chat id the bot must use."""
        data = await self.client._post(
            f"/pg/groups/{self.ref}/migrate", {"by": by.id if by else None}
        )
        self.id, self.type = data["id"], data["type"]
        await self.client.settle()
        return self.id


class UserHandle:
    """One simulated person. ``private`` is their chat with the bot."""

    def __init__(self, client: PlaygroundClient, data: dict[str, Any]) -> None:
        self.client = client
        self.id: int = data["id"]
        self.username: str = data["username"]
        self.first_name: str = data["first_name"]
        self.lang: str = data["lang"]
        self.private = ChatHandle(
            client, {"ref": self.id, "id": self.id, "type": "private", "title": client.bot_username}
        )
        self.popups: list[Popup] = []

    def __repr__(self) -> str:
        return f"<user {self.username}>"

    async def _after(self, settle: bool) -> None:
        if settle:
            await self.client.settle()

    async def send(
        self,
        text: str,
        chat: ChatHandle | None = None,
        *,
        reply_to: MessageView | int | None = None,
        settle: bool = True,
    ) -> MessageView:
        """Type ``text`` into ``chat`` (the chat with the bot by default)."""
        target = chat or self.private
        reply = reply_to.message_id if isinstance(reply_to, MessageView) else reply_to
        body = {"user": self.id, "chat": target.ref, "text": text, "reply_to": reply}
        data = await self.client._post("/pg/send", body)
        await self._after(settle)
        return MessageView.from_json(data)

    async def press(
        self,
        text: str,
        message: MessageView | None = None,
        chat: ChatHandle | None = None,
        *,
        settle: bool = True,
    ) -> Popup | None:
        """Press the button labelled ``text`` in ``message`` (default: the newest keyboard)."""
        if message is None:
            message = await (chat or self.private).last_with_buttons()
        button = message.find_button(text)
        return await self._press(message, button.row, button.col, settle)

    async def press_button(
        self,
        row: int,
        col: int,
        message: MessageView | None = None,
        chat: ChatHandle | None = None,
        *,
        settle: bool = True,
        answered: bool = False,
    ) -> Popup | None:
        """``answered``: with ``settle=False``, still wait for the tap's answer (not for the
        bot to be quiet), e.g. to time how long a tap waits for it."""
        if message is None:
            message = await (chat or self.private).last_with_buttons()
        return await self._press(message, row, col, settle, answered=answered)

    async def forge(
        self, message: MessageView, data: str, row: int = 0, col: int = 0
    ) -> Popup | None:
        """Press a button of ``message`` but send ``data`` instead of its callback data, as a
        modified client could."""
        return await self._press(message, row, col, True, data)

    async def _press(
        self,
        message: MessageView,
        row: int,
        col: int,
        settle: bool,
        data: str | None = None,
        *,
        answered: bool = False,
    ) -> Popup | None:
        body = {
            "user": self.id,
            "chat": message.chat,
            "message_id": message.message_id,
            "row": row,
            "col": col,
            "wait": self.client.timeout if settle or answered else 0,
            "data": data,
        }
        reply = await self.client._post("/pg/press", body)
        await self._after(settle)
        if reply["query"] is None:
            return None
        p = reply.get("popup")
        popup = (
            Popup(p["text"], p["show_alert"], p.get("url"))
            if p
            else Popup("", False, None, answered=False)
        )
        if p:
            self.popups.append(popup)
        return popup

    async def open_link(
        self, url: str, group: ChatHandle | None = None, *, settle: bool = True
    ) -> MessageView:
        """Follow ``t.me/<bot>?start=…`` (or ``?startgroup=…`` into ``group``)."""
        body = {"user": self.id, "url": url, "group": group.ref if group else None}
        data = await self.client._post("/pg/link", body)
        await self._after(settle)
        return MessageView.from_json(data)

    async def open_mini_app(
        self,
        text: str,
        message: MessageView | None = None,
        chat: ChatHandle | None = None,
        *,
        theme: str = "light",
    ) -> MiniAppLaunch:
        """Press the ``web_app`` button labelled ``text`` (default: in the newest keyboard)."""
        if message is None:
            message = await (chat or self.private).last_with_buttons()
        b = message.find_button(text)
        body = {
            "user": self.id,
            "chat": message.chat,
            "message_id": message.message_id,
            "row": b.row,
            "col": b.col,
            "theme": theme,
        }
        return MiniAppLaunch.from_json(await self.client._post("/pg/miniapp/launch", body))

    async def open_mini_app_link(
        self, url: str, chat: ChatHandle | None = None, *, theme: str = "light"
    ) -> MiniAppLaunch:
        """Follow a direct link ``t.me/<bot>/<app>?startapp=…`` in ``chat``."""
        body = {"user": self.id, "url": url, "chat": (chat or self.private).ref, "theme": theme}
        return MiniAppLaunch.from_json(await self.client._post("/pg/miniapp/launch", body))

    async def web_app_init_data(
        self,
        *,
        start_param: str | None = None,
        chat: ChatHandle | None = None,
        auth_date: int | None = None,
    ) -> str:
        """Signed initData for this person (see ``World.web_app_init_data``)."""
        body = {
            "user": self.id,
            "start_param": start_param,
            "chat": chat.ref if chat else None,
            "auth_date": auth_date,
        }
        return str((await self.client._post("/pg/miniapp/init_data", body))["init_data"])

    async def inline(
        self, query: str, chat: ChatHandle | None = None, *, offset: str = ""
    ) -> InlineAnswer:
        """Type ``@bot query`` in ``chat`` and wait for the bot's results."""
        target = chat or self.private
        body = {
            "user": self.id,
            "chat": target.ref,
            "query": query,
            "offset": offset,
            "wait": self.client.timeout,
        }
        data = await self.client._post("/pg/inline", body)
        results = [
            InlineResult(r["id"], r["type"], r["title"], r["description"], r["thumbnail"])
            for r in data["results"]
        ]
        return InlineAnswer(data["query"], data["answered"], results, data["next_offset"])

    async def choose(
        self, answer: InlineAnswer, result: InlineResult | str, *, settle: bool = True
    ) -> MessageView:
        """Pick an inline result: it is posted 'via @bot' in the chat of the query."""
        rid = result.id if isinstance(result, InlineResult) else answer.result(result).id
        body = {"user": self.id, "query": answer.query_id, "result": rid}
        data = await self.client._post("/pg/inline/choose", body)
        await self._after(settle)
        return MessageView.from_json(data)

    async def dialog(self, other: UserHandle) -> ChatHandle:
        """The private chat between this person and ``other`` (inline mode works there)."""
        return ChatHandle(
            self.client,
            await self.client._post("/pg/dialogs", {"user": self.id, "other": other.id}),
        )

    async def block(self, blocked: bool = True) -> None:
        await self.client._post("/pg/block", {"user": self.id, "blocked": blocked})
        await self.client.settle()

    async def unblock(self) -> None:
        await self.block(False)
