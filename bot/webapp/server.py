"""The Mini App's routes on the bot's aiohttp server (webhook mode's, or the one polling mode
starts when MINIAPP_URL is set): the page, its JSON API and the live channel.

Every API call carries the launch data Telegram signed (``Authorization: tma <initData>``;
the live channel, which EventSource opens without headers, takes it as ``?tma=``), checked
by :mod:`bot.webapp.auth`. Moves and the match actions go through :func:`act.act`, the path
of a button tap: the same rules, the same compare-and-set write, the same effects (the chat
board is edited as after a tap). Errors are ``{"error": code, "message": text}``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import web
from telegram.ext import Application

import engine
import storage
from bot import i18n
from bot.i18n import t
from bot.match.actions import Action, Actor, Play, Refused, illegal
from bot.match.effects import Popup
from bot.match.model import Match
from bot.settings import Settings
from bot.telegram import act
from bot.telegram.services import Services
from bot.telegram.stored import load
from bot.webapp import access, picture, state
from bot.webapp.auth import AuthError, Launch, validate
from engine import sprouts

log = logging.getLogger(__name__)
STATIC = Path(__file__).parent / "static"
# Open live channels, counted across replicas in Redis (storage.streams): per person, per
# match, and how long a stream's place outlives a replica that died holding it.
LIVE_PER_USER = 4
LIVE_PER_MATCH = 200
LIVE_TTL = 15.0
HEARTBEAT = 5.0  # seconds between SSE comments: proxies keep the stream, a gone page is noticed
# The match layer's refusals as HTTP statuses: stale → 409, not yours → 403, gone → 404;
# the rules (an illegal move, nothing to accept…) → 422.
STATUS_OF = {
    "err.stale": 409,
    "err.finished": 409,
    "err.not_started": 409,
    "err.not_your_turn": 403,
    "err.not_a_player": 403,
    "err.not_joined": 403,
    "err.no_match": 404,
    "err.broken_match": 500,
}


class ApiError(Exception):
    """Answered as ``{"error": code, "message": message}`` with ``status``."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(code)
        self.status, self.code, self.message = status, code, message
        self.at: tuple[float, float] | None = None  # where a drawn path goes wrong


@dataclass
class Viewer:
    launch: Launch
    lang: str

    @property
    def actor(self) -> Actor:
        return Actor(self.launch.user, self.launch.name, self.lang)


@dataclass
class MiniApp:
    """What the routes share: the bot and the signal that ends the live channels at shutdown
    (an open stream would otherwise hold the server's cleanup)."""

    application: Application  # type: ignore[type-arg]
    closing: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def svc(self) -> Services:
        svc: Services | None = self.application.bot_data.get("svc")
        if svc is None or not svc.ready:
            raise ApiError(503, "starting", "starting")
        return svc

    async def viewer(self, request: web.Request, init_data: str | None) -> Viewer:
        svc = self.svc
        default = svc.settings.default_language
        assert svc.settings.token is not None
        try:
            launch = validate(init_data, svc.settings.token, now=svc.clock())
        except AuthError as e:
            raise ApiError(401, e.code, t(default, f"app.{e.code}")) from None
        prefs = await svc.store.users.get(launch.user)
        lang = prefs.get("language")
        if lang not in i18n.LANGUAGES:
            lang = i18n.normalize(launch.language, default)
        return Viewer(launch, str(lang))

    async def from_header(self, request: web.Request) -> Viewer:
        scheme, _, data = request.headers.get("Authorization", "").partition(" ")
        return await self.viewer(request, data if scheme.lower() == "tma" else None)


MINIAPP_KEY = web.AppKey("miniapp", MiniApp)
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@web.middleware
async def _errors(request: web.Request, handler: Handler) -> web.StreamResponse:
    try:
        return await handler(request)
    except ApiError as e:
        body: dict[str, Any] = {"error": e.code, "message": e.message}
        if e.at is not None:
            body["at"] = list(e.at)
        return web.json_response(body, status=e.status, dumps=_dumps)


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def add_routes(app: web.Application, application: Application) -> None:  # type: ignore[type-arg]
    """Serve the Mini App from ``app`` (the bot's aiohttp application)."""
    mini = MiniApp(application)
    app[MINIAPP_KEY] = mini
    app.middlewares.append(_errors)

    async def closing(_: web.Application) -> None:
        mini.closing.set()

    app.on_shutdown.append(closing)
    app.router.add_get("/app/", _page)
    app.router.add_get("/app", _slash)
    app.router.add_static("/app/static/", STATIC, append_version=False)
    app.router.add_get("/app/api/match/{ref}", _get)
    app.router.add_post("/app/api/match/{ref}/preview", _preview)
    app.router.add_post("/app/api/match/{ref}/move", _move)
    app.router.add_post("/app/api/match/{ref}/action", _action)
    app.router.add_get("/app/api/match/{ref}/live", _live)


async def _slash(request: web.Request) -> web.StreamResponse:
    """The page's relative URLs (static/…, api/…) need the slash."""
    query = f"?{request.query_string}" if request.query_string else ""
    raise web.HTTPFound(f"/app/{query}")


async def _page(request: web.Request) -> web.StreamResponse:
    return web.FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})


def _json(request: web.Request, body: dict[str, Any], status: int = 200) -> web.Response:
    response = web.json_response(body, status=status, dumps=_dumps)
    if "gzip" in request.headers.get("Accept-Encoding", ""):
        response.enable_compression()
    return response


async def _read_match(svc: Services, ref: str, lang: str) -> Match:
    try:
        record = await svc.store.matches.get(ref)
    except storage.InvalidRecord:  # not the shape of a match id
        record = None
    except (storage.CorruptRecord, storage.UnknownVersion) as e:
        log.error("match %s cannot be read: %s", ref, e)
        raise ApiError(500, "broken_match", t(lang, "err.broken_match")) from None
    if record is None:
        raise ApiError(404, "not_found", t(lang, "app.not_found"))
    return load(record, svc)


async def _watched(mini: MiniApp, ref: str, who: Viewer) -> Match:
    """The match, if this viewer may see it (:mod:`bot.webapp.access`); 403 otherwise."""
    svc = mini.svc
    match = await _read_match(svc, ref, who.lang)
    token = svc.settings.token or ""
    if not await access.may_watch(mini.application.bot, token, match, who.launch):
        raise ApiError(403, "not_entitled", t(who.lang, "app.not_entitled"))
    return match


async def _body(request: web.Request, lang: str) -> dict[str, Any]:
    try:
        body = await request.json()
    except ValueError:
        body = None
    if not isinstance(body, dict):
        raise ApiError(400, "bad_request", t(lang, "app.bad_request"))
    return body


def _version(body: dict[str, Any], lang: str) -> int:
    version = body.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise ApiError(400, "bad_request", t(lang, "app.bad_request"))
    return version


async def _get(request: web.Request) -> web.StreamResponse:
    mini = request.app[MINIAPP_KEY]
    who = await mini.from_header(request)
    svc = mini.svc
    match = await _watched(mini, request.match_info["ref"], who)
    return _json(request, state.match_state(match, who.launch.user, who.lang, svc.clock()))


async def _preview(request: web.Request) -> web.StreamResponse:
    """The ghost of a move and what it would do; 422 (with the reason) for an illegal one.
    Only reads: nothing is written."""
    mini = request.app[MINIAPP_KEY]
    who = await mini.from_header(request)
    body = await _body(request, who.lang)
    match = await _watched(mini, request.match_info["ref"], who)
    text = body.get("move")
    if not isinstance(text, str) or match.status != "active":
        raise ApiError(400, "bad_request", t(who.lang, "app.bad_request"))
    game = match.game
    try:
        move = game.parse_move(text)
        game.check(move)
    except engine.IllegalMove as e:
        refused = illegal(match, e)
        raise ApiError(422, refused.text.key, t(who.lang, refused.text)) from None
    return _json(request, {"svg": picture.preview_svg(game, move)})


async def _move(request: web.Request) -> web.StreamResponse:
    """``{version, move}`` in the game's notation, or for Рассада ``{version, start,
    path}``: a finger path from spot ``start`` in the drawing's units, which the engine reads
    as the legal move of its topology (refused with the reason and the place, ``at``)."""
    mini = request.app[MINIAPP_KEY]
    who = await mini.from_header(request)
    body = await _body(request, who.lang)
    version = _version(body, who.lang)
    move: Any
    if "path" in body:
        move = await _drawn(mini, request.match_info["ref"], who, body, version)
    else:
        move = body.get("move")
    if not isinstance(move, str) or not move.strip() or len(move) > 64:
        raise ApiError(400, "bad_request", t(who.lang, "app.bad_request"))
    return await _apply(request, mini, who, Play(text=move), version)


async def _drawn(mini: MiniApp, ref: str, who: Viewer, body: dict[str, Any], version: int) -> str:
    """The notation of the Рассада move a drawn path makes, read on the match as stored at
    ``version`` (a newer one is refused as stale, as a tap would be)."""
    svc = mini.svc
    match = await _read_match(svc, ref, who.lang)
    start, path = body.get("start"), body.get("path")
    if match.kind != "sprouts" or not isinstance(start, int) or not isinstance(path, list):
        raise ApiError(400, "bad_request", t(who.lang, "app.bad_request"))
    if match.seat_of(who.launch.user) is None:  # only a player's path is worth reading
        raise ApiError(403, "err.not_a_player", t(who.lang, "err.not_a_player"))
    if match.version != version:
        raise ApiError(409, "err.stale", t(who.lang, "err.stale"))
    if match.status != "active":
        raise ApiError(409, "err.finished", t(who.lang, "err.finished"))
    game = match.game
    assert isinstance(game, sprouts.Game)
    try:
        move = await asyncio.to_thread(sprouts.move_from_path, game, start, path)
    except engine.IllegalMove as e:
        refused = illegal(match, e)
        error = ApiError(422, refused.text.key, t(who.lang, refused.text))
        error.at = getattr(e, "at", None)
        raise error from None
    return str(game.format_move(move))


async def _action(request: web.Request) -> web.StreamResponse:
    """The match actions of the board's ⋯ More and offer buttons (resign, STOP, …)."""
    mini = request.app[MINIAPP_KEY]
    who = await mini.from_header(request)
    body = await _body(request, who.lang)
    kind = state.ACTIONS.get(str(body.get("action")))
    if kind is None or kind.action is None:
        raise ApiError(400, "bad_request", t(who.lang, "app.bad_request"))
    return await _apply(request, mini, who, kind.action(""), _version(body, who.lang))


async def _apply(
    request: web.Request, mini: MiniApp, who: Viewer, action: Action, version: int
) -> web.StreamResponse:
    """One action through the tap's path (:func:`act.act`), its effects performed as after a
    tap (the chat boards edited, the bot's move started) while the page gets its answer."""
    svc = mini.svc
    ref = request.match_info["ref"]
    try:
        outcome = await act.act(svc, ref, who.actor, action, version=version)
    except storage.InvalidRecord:
        outcome = act.Outcome(refused=Refused("err.no_match"))
    if outcome.refused is not None:
        key = outcome.refused.text.key
        status = STATUS_OF.get(key, 422)
        raise ApiError(status, key, state.plain(t(who.lang, outcome.refused.text)))
    svc.spawn(act.perform(svc, mini.application.bot, outcome))
    match = outcome.match
    assert match is not None
    body = state.match_state(match, who.launch.user, who.lang, svc.clock())
    popups = [e.text for e in outcome.effects if isinstance(e, Popup)]
    if popups:
        body["message"] = state.plain(t(who.lang, popups[-1]))
    return _json(request, body)


async def _live(request: web.Request) -> web.StreamResponse:
    """Server-Sent Events: the match as this viewer sees it, once now and after each change
    (whichever replica or path wrote it: storage's live channel); the stream ends when the
    match does, or at shutdown."""
    mini = request.app[MINIAPP_KEY]
    who = await mini.viewer(request, request.query.get("tma"))
    svc = mini.svc
    ref = request.match_info["ref"]
    match = await _watched(mini, ref, who)  # 404 or 403 before the stream starts
    try:
        async with (
            svc.store.streams.slot(
                who.launch.user, ref, per_user=LIVE_PER_USER, per_match=LIVE_PER_MATCH, ttl=LIVE_TTL
            ),
            svc.store.live.watch(ref) as news,
        ):
            response = web.StreamResponse(
                headers={
                    "Content-Type": "text/event-stream",
                    "Cache-Control": "no-cache",
                    "X-Accel-Buffering": "no",
                }
            )
            await response.prepare(request)
            with contextlib.suppress(ConnectionResetError):
                await _stream(mini, response, news, match, who)
            return response
    except storage.TooMany:
        raise ApiError(429, "too_many", t(who.lang, "app.too_many")) from None


async def _stream(
    mini: MiniApp,
    response: web.StreamResponse,
    news: asyncio.Queue[str],
    match: Match,
    who: Viewer,
) -> None:
    svc = mini.svc
    match = await _read_match(svc, match.id, who.lang)  # the state once watching
    shown = (match.version, match.status)
    await _event(
        response, "state", state.match_state(match, who.launch.user, who.lang, svc.clock())
    )
    closing = asyncio.ensure_future(mini.closing.wait())
    try:
        while match.status != "finished":
            waiting = asyncio.ensure_future(news.get())
            done, _ = await asyncio.wait(
                {waiting, closing}, timeout=HEARTBEAT, return_when=asyncio.FIRST_COMPLETED
            )
            if closing in done:
                waiting.cancel()
                return
            if waiting not in done:
                waiting.cancel()
                await response.write(b": ping\n\n")
                continue
            while not news.empty():
                news.get_nowait()
            try:
                match = await _read_match(svc, match.id, who.lang)
            except ApiError:  # deleted meanwhile
                break
            if (match.version, match.status) == shown:
                continue  # a keyboard-only step of a chat board: nothing the page shows
            shown = (match.version, match.status)
            body = state.match_state(match, who.launch.user, who.lang, svc.clock())
            await _event(response, "state", body)
        await _event(response, "end", {"id": match.id})
    finally:
        closing.cancel()


async def _event(response: web.StreamResponse, name: str, body: dict[str, Any]) -> None:
    await response.write(f"event: {name}\ndata: {_dumps(body)}\n\n".encode())


@asynccontextmanager
async def serving(
    application: Application,  # type: ignore[type-arg]
    settings: Settings,
    host: str = "0.0.0.0",
) -> AsyncIterator[None]:
    """Polling mode with MINIAPP_URL: the Mini App's own aiohttp server on ``PORT`` (webhook
    mode adds the routes to its server instead). Nothing starts without MINIAPP_URL."""
    if settings.miniapp_url is None:
        yield
        return
    app = web.Application(client_max_size=64 * 1024)
    add_routes(app, application)
    runner = web.AppRunner(app, access_log=None, shutdown_timeout=5.0)
    await runner.setup()
    try:
        await web.TCPSite(runner, host, settings.port).start()
        log.info("Mini App served on port %d for %s", settings.port, settings.miniapp_url)
        yield
    finally:
        await runner.cleanup()
