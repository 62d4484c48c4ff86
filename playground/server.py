"""The emulator's HTTP side: the Bot API under ``/bot<token>/<method>`` and
``/file/bot<token>/<path>``, the people's API under ``/pg/`` (used by the web page and the
test client), a websocket of world events, webhook delivery and the web page itself."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web

from playground.api import BotApi, Params, Upload
from playground.faults import BadFault
from playground.limits import NOT_FOUND, UNAUTHORIZED, ApiError, Limits
from playground.miniapp import THEMES, VERSION
from playground.world import Chat, PlaygroundError, User, World

log = logging.getLogger(__name__)
WEB = Path(__file__).parent / "web"
_TOKEN = re.compile(r"^\d{1,20}:[A-Za-z0-9_-]{20,}$")
REQUEST_LOG_SIZE = 2000
WEBHOOK_RETRY_SECONDS = 1.0
RETRY_MARGIN_SECONDS = 0.5

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def _json(data: Any, status: int = 200) -> web.Response:
    return web.json_response(data, status=status, dumps=lambda d: json.dumps(d, ensure_ascii=False))


def _actor(world: World, body: dict[str, Any], chat: Chat) -> User:
    """Who acts on a group: the body's ``by``, else the group's creator."""
    ref = body.get("by") or chat.creator
    if ref is None:
        raise PlaygroundError('this chat has no creator: say who acts in "by"')
    return world.user(ref)


def _chat_of(value: Any) -> int | None:
    """The chat id a Bot API call names (None for none, or an ``@username``)."""
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


async def _params(request: web.Request) -> Params:
    values: dict[str, Any] = dict(request.query)
    uploads: dict[str, Upload] = {}
    if request.method == "POST" and request.can_read_body:
        ctype = request.content_type
        if ctype == "application/json":
            try:
                body = await request.json()
            except ValueError:
                raise ApiError(400, "Bad Request: can't parse JSON encoded request") from None
            if isinstance(body, dict):
                values.update(body)
        elif ctype in ("multipart/form-data", "application/x-www-form-urlencoded"):
            form = await request.post()
            for key, value in form.items():
                if isinstance(value, web.FileField):
                    uploads[key] = Upload(value.file.read(), value.filename, value.content_type)
                else:
                    values[key] = value
    return Params(values, uploads)


async def _reply_call(resp: aiohttp.ClientResponse) -> tuple[str, Params] | None:
    """The Bot API call a webhook answer carries (a JSON object with ``method``), if any."""
    if resp.content_type != "application/json":
        return None
    try:
        body = await resp.json()
    except ValueError:
        return None
    if not isinstance(body, dict) or not isinstance(body.get("method"), str):
        return None
    values = {k: v for k, v in body.items() if k != "method"}
    return body["method"], Params(values)


class Emulator:
    """The Telegram emulator: a ``World``, its Bot API and an aiohttp server on one port."""

    def __init__(self, world: World | None = None, *, limits: Limits | None = None) -> None:
        self.world = world or World(limits=limits)
        self.api = BotApi(self.world)
        self.requests: deque[dict[str, Any]] = deque(maxlen=REQUEST_LOG_SIZE)
        self._request_seq = 0
        self.app = self._build_app()
        self._runner: web.AppRunner | None = None
        self._webhook_task: asyncio.Task[None] | None = None
        self.url = ""

    # ------------------------------------------------------------------ lifecycle
    async def start(self, host: str = "127.0.0.1", port: int = 0) -> str:
        self._runner = web.AppRunner(self.app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        real_port = self._runner.addresses[0][1]
        shown = "127.0.0.1" if host in ("0.0.0.0", "") else host
        self.url = f"http://{shown}:{real_port}"
        self._webhook_task = asyncio.create_task(self._deliver_webhooks())
        return self.url

    async def stop(self) -> None:
        if self._webhook_task is not None:
            self._webhook_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._webhook_task
        await self.api.close()
        if self._runner is not None:
            await self._runner.cleanup()

    @contextlib.asynccontextmanager
    async def running(self, host: str = "127.0.0.1", port: int = 0) -> AsyncIterator[Emulator]:
        await self.start(host, port)
        try:
            yield self
        finally:
            await self.stop()

    @property
    def api_url(self) -> str:
        """The value for TELEGRAM_API_URL."""
        return self.url

    # ------------------------------------------------------------------ routes
    def _build_app(self) -> web.Application:
        app = web.Application(client_max_size=60 * 1024 * 1024)
        r = app.router
        r.add_route("*", "/bot{token}/{method}", self._bot_method)
        r.add_get("/file/bot{token}/{path:.+}", self._bot_file)
        people: dict[str, tuple[str, Handler]] = {
            "/pg/state": ("GET", self._state),
            "/pg/users": ("POST", self._add_user),
            "/pg/chats": ("GET", self._chats),
            "/pg/chats/{ref}/messages": ("GET", self._messages),
            "/pg/chats/{ref}/commands": ("GET", self._commands),
            "/pg/send": ("POST", self._send),
            "/pg/press": ("POST", self._press),
            "/pg/link": ("POST", self._link),
            "/pg/groups": ("POST", self._new_group),
            "/pg/groups/{ref}/members": ("POST", self._group_members),
            "/pg/groups/{ref}/bot": ("POST", self._group_bot),
            "/pg/groups/{ref}/privacy": ("POST", self._group_privacy),
            "/pg/groups/{ref}/admins": ("POST", self._group_admins),
            "/pg/groups/{ref}/migrate": ("POST", self._group_migrate),
            "/pg/dialogs": ("POST", self._dialog),
            "/pg/block": ("POST", self._block),
            "/pg/inline": ("POST", self._inline),
            "/pg/inline/choose": ("POST", self._inline_choose),
            "/pg/files/{file_id}": ("GET", self._file),
            "/pg/events": ("GET", self._events),
            "/pg/settle": ("GET", self._settle),
            "/pg/requests": ("GET", self._requests),
            "/pg/limits": ("POST", self._set_limits),
            "/pg/faults": ("*", self._faults),
            "/pg/miniapp": ("*", self._mini_app),
            "/pg/miniapp/launch": ("POST", self._mini_app_launch),
            "/pg/miniapp/init_data": ("POST", self._mini_app_init_data),
            "/pg/miniapp/events": ("POST", self._mini_app_event),
        }
        for path, (method, handler) in people.items():
            r.add_route(method, path, self._people(handler))
        r.add_get("/pg/ws", self._ws)
        r.add_get("/", self._index)
        r.add_static("/static/", WEB)
        return app

    # ------------------------------------------------------------------ Bot API
    def _check_token(self, token: str) -> None:
        if not _TOKEN.match(token):
            raise NOT_FOUND
        if token != self.world.token:
            raise UNAUTHORIZED

    async def _bot_method(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        world = self.world
        polling = method.lower() == "getupdates"
        if not polling:
            world.bot_inflight += 1
        entry: dict[str, Any] = {"method": method, "time": time.time()}
        try:
            self._check_token(request.match_info["token"])
            params = await _params(request)
            entry["params"] = {
                k: v
                for k, v in params.values.items()
                if k in ("chat_id", "text", "caption", "data")
            }
            fault = world.faults.pick(method, _chat_of(params.values.get("chat_id")))
            if fault is not None and fault.kind == "slow":
                entry["fault"] = fault.kind
                result = await self.api.call(method, params)
                await fault.hold()
            elif fault is not None:
                entry["fault"] = fault.kind
                if fault.kind == "timeout":
                    await fault.hold()
                    if fault.apply:
                        await self.api.call(method, params)
                raise fault.error(world.faults.rng, world.faults.clock())
            else:
                result = await self.api.call(method, params)
            entry["ok"] = True
            body: dict[str, Any] = {"ok": True, "result": result}
            status = 200
            if polling and result:
                world.bot_last_activity = time.monotonic()
        except ApiError as e:
            entry.update(ok=False, error_code=e.code, description=e.description)
            if "retry_after" in e.parameters:
                until = time.monotonic() + e.parameters["retry_after"] + RETRY_MARGIN_SECONDS
                world.bot_backoff_until = max(world.bot_backoff_until, until)
            body, status = e.to_json(), e.code
        finally:
            if not polling:
                world.bot_inflight -= 1
                world.bot_last_activity = time.monotonic()
            world._wake()
        if not (polling and entry.get("ok") and not body.get("result")):
            self._request_seq += 1
            entry["seq"] = self._request_seq
            self.requests.append(entry)
        return _json(body, status)

    async def _bot_file(self, request: web.Request) -> web.Response:
        try:
            self._check_token(request.match_info["token"])
        except ApiError as e:
            return _json(e.to_json(), e.code)
        stored = self.world.files.by_path.get(request.match_info["path"])
        if stored is None:
            return _json(NOT_FOUND.to_json(), 404)
        return web.Response(body=stored.data, content_type=stored.mime_type)

    async def _deliver_webhooks(self) -> None:
        """Post pending updates to the webhook like Telegram: up to ``max_connections`` at
        once (so a bot behind several replicas sees concurrent requests), each retried until
        the bot accepts it."""
        world = self.world
        sending: dict[int, asyncio.Task[None]] = {}
        async with aiohttp.ClientSession() as session:
            try:
                while True:
                    hook = world.webhook
                    limit = max(1, int(hook.get("max_connections") or 40)) if hook else 0
                    waiting = (
                        [u for u in world.updates if u["update_id"] not in sending]
                        if hook is not None and len(sending) < limit
                        else []
                    )
                    if not waiting:
                        await world.changed(5.0)
                        continue
                    update = waiting[0]
                    assert hook is not None
                    sending[update["update_id"]] = asyncio.create_task(
                        self._post_update(session, hook, update, sending)
                    )
            finally:
                for task in sending.values():
                    task.cancel()
                await asyncio.gather(*sending.values(), return_exceptions=True)

    async def _post_update(
        self,
        session: aiohttp.ClientSession,
        hook: dict[str, Any],
        update: dict[str, Any],
        sending: dict[int, asyncio.Task[None]],
    ) -> None:
        world = self.world
        headers = {}
        if hook.get("secret_token"):
            headers["X-Telegram-Bot-Api-Secret-Token"] = hook["secret_token"]
        reply: tuple[str, Params] | None = None
        try:
            async with session.post(
                hook["url"], json=update, headers=headers, timeout=aiohttp.ClientTimeout(total=60)
            ) as resp:
                ok = 200 <= resp.status < 300
                error = f"Wrong response from the webhook: {resp.status} {resp.reason}"
                reply = await _reply_call(resp) if ok else None
        except (aiohttp.ClientError, TimeoutError) as e:
            ok, error = False, f"Connection error: {e.__class__.__name__}"
        try:
            if ok:
                world.confirm_update(update["update_id"])
                world.bot_last_activity = time.monotonic()
                if reply is not None:
                    await self._run_reply(*reply)
            else:
                world.webhook_error = (int(time.time()), error)
                await asyncio.sleep(WEBHOOK_RETRY_SECONDS)
        finally:
            sending.pop(update["update_id"], None)
            world._wake()

    async def _run_reply(self, method: str, params: Params) -> None:
        """A method the bot named in its answer to a webhook post: run like a call of its own,
        except that nobody hears how it went (Telegram reports nothing back either)."""
        entry: dict[str, Any] = {"method": method, "time": time.time(), "via": "webhook"}
        entry["params"] = {k: v for k, v in params.values.items() if k in ("chat_id", "text")}
        try:
            await self.api.call(method, params)
            entry["ok"] = True
        except ApiError as e:
            entry.update(ok=False, error_code=e.code, description=e.description)
        self._request_seq += 1
        entry["seq"] = self._request_seq
        self.requests.append(entry)
        self.world._wake()

    # ------------------------------------------------------------------ people's API
    def _people(self, handler: Handler) -> Handler:
        async def wrapped(request: web.Request) -> web.StreamResponse:
            try:
                return await handler(request)
            except (PlaygroundError, ApiError, KeyError, ValueError, TypeError) as e:
                text = e.description if isinstance(e, ApiError) else str(e)
                return _json({"error": text}, 400)

        return wrapped

    async def _body(self, request: web.Request) -> dict[str, Any]:
        if not request.can_read_body:
            return {}
        body = await request.json()
        if not isinstance(body, dict):
            raise PlaygroundError("send a JSON object")
        return body

    def _bot_info(self) -> dict[str, Any]:
        w = self.world
        return {"id": w.bot_id, "username": w.bot_username, "name": w.bot_name}

    async def _state(self, request: web.Request) -> web.Response:
        w = self.world
        return _json(
            {
                "bot": self._bot_info(),
                "users": [w.user_view(u) for u in w.users.values()],
                "chats": [w.chat_view(c) for c in w.chats.values()],
                "mini_app": w.mini_app.to_json() if w.mini_app else None,
                "seq": w.seq,
            }
        )

    async def _add_user(self, request: web.Request) -> web.Response:
        b = await self._body(request)
        username = str(b["username"]).strip().lstrip("@")
        if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]{1,31}", username):
            raise PlaygroundError(
                "a username is 2–32 letters, digits or _ and starts with a letter"
            )
        lang = str(b.get("lang") or "en")
        user = self.world.add_user(username, lang, b.get("first_name"))
        return _json(self.world.user_view(user))

    async def _chats(self, request: web.Request) -> web.Response:
        w = self.world
        user = w.user(request.query["user"])
        out = []
        for chat in w.chats.values():
            if user.id in chat.members:
                view = w.chat_view(chat)
                view["title"] = w.chat_title_for(chat, user)
                last = next(reversed(chat.messages.values()), None)
                view["last"] = w.message_view(last) if last else None
                out.append(view)
        out.sort(key=lambda c: -(c["last"]["date"] if c["last"] else 0))
        return _json(out)

    async def _messages(self, request: web.Request) -> web.Response:
        w = self.world
        chat = w.chat(request.match_info["ref"])
        return _json([w.message_view(m) for m in chat.messages.values()])

    async def _commands(self, request: web.Request) -> web.Response:
        w = self.world
        chat = w.chat(request.match_info["ref"])
        return _json(w.commands_for(w.user(request.query["user"]), chat))

    async def _send(self, request: web.Request) -> web.Response:
        b = await self._body(request)
        w = self.world
        reply_to = b.get("reply_to")
        msg = w.user_send(
            w.user(b["user"]),
            w.chat(b["chat"]),
            str(b["text"]),
            int(reply_to) if reply_to else None,
        )
        return _json(w.message_view(msg))

    async def _press(self, request: web.Request) -> web.Response:
        b = await self._body(request)
        w = self.world
        seq = w.seq
        query, button = w.press(
            w.user(b["user"]),
            w.chat(b["chat"]),
            int(b["message_id"]),
            int(b["row"]),
            int(b["col"]),
            b.get("data"),
        )
        out: dict[str, Any] = {"button": button, "query": query.id if query else None}
        if query is not None:
            popup = await self._wait_event(
                seq, lambda e: e["type"] == "popup" and e["query"] == query.id, b.get("wait", 0)
            )
            out["answered"] = popup is not None
            out["popup"] = popup
        return _json(out)

    async def _wait_event(
        self, after: int, match: Callable[[dict[str, Any]], bool], timeout: Any
    ) -> dict[str, Any] | None:
        deadline = time.monotonic() + float(timeout or 0)
        while True:
            for e in self.world.events_after(after):
                if match(e):
                    return e
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            await self.world.changed(left)

    async def _link(self, request: web.Request) -> web.Response:
        b = await self._body(request)
        w = self.world
        group = w.chat(b["group"]) if b.get("group") else None
        msg = w.open_link(w.user(b["user"]), str(b["url"]), group)
        return _json(w.message_view(msg))

    async def _new_group(self, request: web.Request) -> web.Response:
        b = await self._body(request)
        w = self.world
        creator = w.user(b["creator"])
        members = [w.user(m) for m in b.get("members", [])]
        chat = w.create_group(
            str(b["title"]),
            creator,
            members,
            with_bot=bool(b.get("bot", True)),
            privacy=bool(b.get("privacy", True)),
        )
        return _json(w.chat_view(chat))

    async def _group_members(self, request: web.Request) -> web.Response:
        b = await self._body(request)
        w = self.world
        chat = w.chat(request.match_info["ref"])
        user, by = w.user(b["user"]), w.user(b.get("by") or chat.creator or b["user"])
        if b.get("remove"):
            w.remove_member(chat, user, by)
        else:
            w.add_member(chat, user, by)
        return _json(w.chat_view(chat))

    async def _group_bot(self, request: web.Request) -> web.Response:
        b = await self._body(request)
        w = self.world
        chat = w.chat(request.match_info["ref"])
        by = _actor(w, b, chat)
        if b.get("remove"):
            w.remove_bot_from_group(chat, by)
        else:
            w.add_bot_to_group(chat, by)
        return _json(w.chat_view(chat))

    async def _group_privacy(self, request: web.Request) -> web.Response:
        b = await self._body(request)
        chat = self.world.chat(request.match_info["ref"])
        self.world.set_privacy(chat, bool(b["on"]))
        return _json(self.world.chat_view(chat))

    async def _group_admins(self, request: web.Request) -> web.Response:
        b = await self._body(request)
        w = self.world
        chat = w.chat(request.match_info["ref"])
        on, anonymous = bool(b.get("on", True)), bool(b.get("anonymous", False))
        w.set_admin(chat, w.user(b["user"]), on, anonymous)
        return _json(w.chat_view(chat))

    async def _group_migrate(self, request: web.Request) -> web.Response:
        b = await self._body(request)
        w = self.world
        chat = w.chat(request.match_info["ref"])
        w.migrate(chat, _actor(w, b, chat))
        return _json(w.chat_view(chat))

    async def _dialog(self, request: web.Request) -> web.Response:
        b = await self._body(request)
        w = self.world
        user = w.user(b["user"])
        chat = w.dialog(user, w.user(b["other"]))
        view = w.chat_view(chat)
        view["title"] = w.chat_title_for(chat, user)
        return _json(view)

    async def _block(self, request: web.Request) -> web.Response:
        b = await self._body(request)
        w = self.world
        user = w.user(b["user"])
        w.set_blocked(user, bool(b.get("blocked", True)))
        return _json(w.user_view(user))

    async def _inline(self, request: web.Request) -> web.Response:
        b = await self._body(request)
        w = self.world
        seq = w.seq
        iq = w.inline_query(
            w.user(b["user"]), w.chat(b["chat"]), str(b.get("query", "")), str(b.get("offset", ""))
        )
        answer = await self._wait_event(
            seq, lambda e: e["type"] == "inline_results" and e["query"] == iq.id, b.get("wait", 0)
        )
        return _json(
            {
                "query": iq.id,
                "answered": answer is not None,
                "results": answer["results"] if answer else [],
                "next_offset": answer["next_offset"] if answer else "",
            }
        )

    async def _inline_choose(self, request: web.Request) -> web.Response:
        b = await self._body(request)
        w = self.world
        msg = w.choose_inline(w.user(b["user"]), str(b["query"]), str(b["result"]))
        return _json(w.message_view(msg))

    async def _file(self, request: web.Request) -> web.Response:
        stored = self.world.files.get(request.match_info["file_id"])
        return web.Response(
            body=stored.data,
            content_type=stored.mime_type,
            headers={"Cache-Control": "max-age=86400"},
        )

    async def _events(self, request: web.Request) -> web.Response:
        after = int(request.query.get("after", "0"))
        timeout = min(float(request.query.get("timeout", "0")), 60.0)
        deadline = time.monotonic() + timeout
        while True:
            events = self.world.events_after(after)
            left = deadline - time.monotonic()
            if events or left <= 0:
                return _json({"events": events, "seq": self.world.seq})
            await self.world.changed(left)

    async def _settle(self, request: web.Request) -> web.Response:
        """Answer once the bot has fetched every update, has no work under way that it tells
        of (``World.bot_work``) and made no request for ``quiet`` s."""
        quiet = float(request.query.get("quiet", "0.3"))
        deadline = time.monotonic() + min(float(request.query.get("timeout", "10")), 120.0)
        w = self.world
        while True:
            now = time.monotonic()
            idle_for = now - w.bot_last_activity
            if not w.bot_busy() and idle_for >= quiet:
                return _json({"settled": True})
            if now >= deadline:
                return _json({"settled": False, "busy": w.bot_busy()})
            wait = quiet - idle_for if not w.bot_busy() else 0.1
            await w.changed(max(0.01, min(wait, deadline - now)))

    async def _requests(self, request: web.Request) -> web.Response:
        after = int(request.query.get("after", "0"))
        return _json([r for r in self.requests if r["seq"] > after])

    async def _set_limits(self, request: web.Request) -> web.Response:
        b = await self._body(request)
        limits = self.world.limits
        for key, value in b.items():
            if not hasattr(limits, key):
                raise PlaygroundError(f"no limit {key!r}")
            setattr(limits, key, type(getattr(limits, key))(value))
        self.world.flood.reset()
        return _json(limits.__dict__)

    async def _faults(self, request: web.Request) -> web.Response:
        """GET: the active faults and counts; POST ``{"clear": true}`` or a fault to add:
        ``{"kind": "429"|"5xx"|"timeout"|"slow", "methods": [...], "rate", "seconds",
        "retry_after", "delay", "apply", "chats": [...]}``."""
        faults = self.world.faults
        if request.method == "POST":
            b = await self._body(request)
            if b.get("clear"):
                faults.clear()
            else:
                try:
                    faults.add(
                        str(b["kind"]),
                        methods=b.get("methods"),
                        rate=float(b.get("rate", 1.0)),
                        seconds=float(b.get("seconds", 10.0)),
                        retry_after=int(b.get("retry_after", 1)),
                        delay=float(b.get("delay", 10.0)),
                        apply=bool(b.get("apply", False)),
                        chats=b.get("chats"),
                    )
                except BadFault as e:
                    raise PlaygroundError(str(e)) from None
        elif request.method != "GET":
            raise PlaygroundError("GET or POST")
        return _json(faults.to_json())

    # ------------------------------------------------------------------ Mini Apps
    async def _mini_app(self, request: web.Request) -> web.Response:
        """GET: the bot's Mini App (null if none), Telegram's themes and the protocol
        version; POST ``{"url", "short_name", "title"?}`` sets it as BotFather's /newapp
        would (``{"clear": true}`` removes it)."""
        w = self.world
        if request.method == "POST":
            b = await self._body(request)
            if b.get("clear"):
                w.mini_app = None
            else:
                w.set_mini_app(str(b["url"]), str(b["short_name"]), str(b.get("title") or ""))
        elif request.method != "GET":
            raise PlaygroundError("GET or POST")
        app = w.mini_app.to_json() if w.mini_app else None
        return _json({"app": app, "themes": THEMES, "version": VERSION})

    async def _mini_app_launch(self, request: web.Request) -> web.Response:
        """Open a Mini App as ``user``: a ``web_app`` button (``chat``, ``message_id``,
        ``row``, ``col``), a direct link (``url`` followed in ``chat``) or the menu button
        (``menu: true``); answers the URL with its launch parameters and the session id the
        panel reports events under."""
        b = await self._body(request)
        w = self.world
        user = w.user(b["user"])
        theme = str(b.get("theme") or "light")
        if b.get("menu"):
            launch = w.launch_menu(user, theme)
        elif b.get("url"):
            chat = w.chat(b["chat"]) if b.get("chat") is not None else w.chats[user.id]
            launch = w.launch_link(user, str(b["url"]), chat, theme)
        else:
            launch = w.launch_button(
                user, w.chat(b["chat"]), int(b["message_id"]), int(b["row"]), int(b["col"]), theme
            )
        return _json(launch.to_json())

    async def _mini_app_init_data(self, request: web.Request) -> web.Response:
        """``world.web_app_init_data`` over HTTP: ``{"user", "start_param"?, "chat"?,
        "auth_date"?}``."""
        b = await self._body(request)
        w = self.world
        auth_date = b.get("auth_date")
        init = w.web_app_init_data(
            w.user(b["user"]),
            start_param=b.get("start_param"),
            chat=w.chat(b["chat"]) if b.get("chat") is not None else None,
            auth_date=int(auth_date) if auth_date is not None else None,
        )
        return _json({"init_data": init})

    async def _mini_app_event(self, request: web.Request) -> web.Response:
        b = await self._body(request)
        launch = self.world.mini_app_event(str(b["session"]), b["event"], b.get("data"))
        return _json({"session": launch.session, "closed": launch.closed})

    # ------------------------------------------------------------------ page and live events
    async def _index(self, request: web.Request) -> web.FileResponse:
        return web.FileResponse(WEB / "index.html", headers={"Cache-Control": "no-cache"})

    async def _ws(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(heartbeat=20)
        await ws.prepare(request)
        seq = int(request.query.get("after", str(self.world.seq)))
        await ws.send_json({"type": "hello", "seq": self.world.seq})

        async def send() -> None:
            nonlocal seq
            while not ws.closed:
                for event in self.world.events_after(seq):
                    await ws.send_str(json.dumps(event, ensure_ascii=False))
                    seq = event["seq"]
                await self.world.changed(10.0)

        sender = asyncio.create_task(send())
        try:
            async for _ in ws:  # the page sends nothing; this ends when it goes away
                pass
        finally:
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, ConnectionResetError):
                await sender
        return ws
