"""What each place shows: the caption (HTML), the keyboard, and the picture's view options."""

from __future__ import annotations

import html
from dataclasses import dataclass

import engine
from bot import rules
from bot.i18n import Text, t
from bot.match import clocks, ui
from bot.match.buttons import (
    ACCEPT_DRAW,
    ADD_BOT,
    CANCEL,
    CLAIM_TIME,
    DECLINE_DRAW,
    DONE,
    GROUND,
    JOIN,
    LEAVE,
    OFFER_DRAW,
    OFFER_END,
    RECORD,
    REMATCH,
    RESIGN,
    RESIGN_SURE,
    START,
    STEP,
    STOP,
    On,
)
from bot.match.model import Match, Place, Seat
from bot.match.ui import Button, Keyboard, PictureView

# One marker per seat, the same hues as the pictures (Okabe–Ito: safe for colour-blind eyes).
MARKS = ("🟠", "🔵", "🟢", "🟣")
CAPTION_LIMIT = 1024


@dataclass(frozen=True)
class PlaceView:
    caption: str
    keyboard: Keyboard
    picture: PictureView


def seat_name(seat: Seat, lang: str) -> str:
    if seat.is_ai:
        return t(lang, Text("bot.name", level=Text(f"level.{seat.level}")))
    return seat.name


def _mention(seat: Seat, lang: str, link: bool) -> str:
    name = html.escape(seat_name(seat, lang))
    if link and seat.user is not None and not seat.is_ai:
        return f'<a href="tg://user?id={seat.user}">{name}</a>'
    return f"<b>{name}</b>"


def title(match: Match, lang: str) -> str:
    parts = ui.get(match.kind).title(match)
    return " · ".join(t(lang, p) if isinstance(p, Text) else p for p in parts)


def caption(match: Match, place: Place, now: float | None = None) -> str:
    """``now`` (the bot's clock) lets a STOP phase and the mover's whole-game clock show
    the time left."""
    lang = place.lang
    lines = [f"<b>{html.escape(title(match, lang))}</b>"]
    if match.status == "lobby":
        if place.seat is not None:  # a link challenge: the creator waits for the friend
            lines.append(t(lang, "link.waiting"))
        else:
            lines.append(t(lang, "lobby.waiting", n=len(match.seats), total=match.players))
        control = clocks.control(match)
        if control:  # who joins knows the clock they join
            lines.append(t(lang, "caption.clock", clock=t(lang, clocks.name(control))))
        lines += [f"{MARKS[i]} {_mention(s, lang, False)}" for i, s in enumerate(match.seats)]
        return _fit(lines)
    game = match.game
    scored = match.facts.scored
    scores = [f" — {n}" if scored else "" for n in game.scores]
    left = clocks.time_left(match, now)
    for i, s in enumerate(match.seats):
        turn = match.status == "active" and game.turn == i
        pointer = "▶ " if turn else ""
        clock = f" {'⏳' if turn else '⏱'} {_time(left[i], lang)}" if left else ""
        lines.append(f"{pointer}{MARKS[i]} {_mention(s, lang, False)}{scores[i]}{clock}")
    if game.moves:
        said = ui.get(match.kind).say_move(match, game.moves[-1])
        last = html.escape(t(lang, said) if isinstance(said, Text) else said)
        lines.append(t(lang, "caption.last", n=game.ply, move=last))
    lines += _status_lines(match, lang, now)
    if match.status == "active":
        hint = ui.get(match.kind).hint(match, place)
        if hint is not None:
            lines.append(html.escape(t(lang, hint)))
        if place.cursor.get("menu") and engine.grounding(game) is not None:
            lines.append(t(lang, "caption.ground_help"))
        seat = match.seats[game.turn]
        if place.seat is None:
            lines.append(t(lang, "caption.to_move", who=_mention(seat, lang, place.group)))
        elif place.seat == game.turn:  # a player's own board speaks to them
            lines.append(t(lang, "link.your_move"))
        else:
            lines.append(t(lang, "link.waiting_for", who=_mention(seat, lang, False)))
    elif match.extra.get("cancelled"):
        lines.append(t(lang, "caption.cancelled"))
    else:
        lines.append(result_line(match, lang))
    return _fit(lines)


def _status_lines(match: Match, lang: str, now: float | None) -> list[str]:
    """Draw offers, STOP and clocks: what the players must know besides the score."""
    if match.status != "active":
        return []
    lines = []
    offer = match.extra.get("draw")
    if offer:
        names = ", ".join(html.escape(seat_name(match.seats[i], lang)) for i in offer)
        key = "caption.end_offered" if match.extra.get("end_scores") else "caption.draw_offered"
        lines.append(t(lang, key, who=names))
    stop = engine.stopping(match.game)
    if stop is not None and stop.stopped_by is not None:
        lines += _stop_lines(match, stop, lang, now)
    control = clocks.control(match)
    if control:
        label = t(lang, clocks.name(control))
        if control.per_move and match.extra.get("expired") == match.turn_since:
            lines.append(t(lang, "caption.clock_out", clock=label))
        else:
            lines.append(t(lang, "caption.clock", clock=label))
    return lines


def _time(seconds: float, lang: str) -> str:
    """A whole-game clock's reading: whole seconds left (a clock shows what is surely left),
    as m:ss, h:mm:ss, or days and hours."""
    s = int(seconds)
    if s >= 86400:
        return t(lang, "clock.left_days", d=s // 86400, h=s % 86400 // 3600)
    if s >= 3600:
        return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"
    return f"{s // 60}:{s % 60:02d}"


def _stop_lines(match: Match, game: engine.Stopping, lang: str, now: float | None) -> list[str]:
    """Who called STOP, who moves alone, for how long and how long is left, who taps Done."""
    assert game.stopped_by is not None
    stopper, mover = match.seats[game.stopped_by], match.seats[match.game.turn]
    who = html.escape(seat_name(stopper, lang))
    alone = html.escape(seat_name(mover, lang))
    limit = float(match.extra.get("stop_limit", clocks.DEFAULT_TIMEOUTS.stop))
    minutes = max(1, round(limit / 60))
    if mover.is_ai:
        return [t(lang, "caption.stop_bot_alone", who=who, mover=alone, minutes=minutes)]
    left = ""
    if now is not None and game.deadline is not None:
        s = max(0, int(game.deadline - now))
        left = t(lang, "caption.stop_left", left=f"{s // 60}:{s % 60:02d}")
    lines = [t(lang, "caption.stop_alone", who=who, mover=alone, minutes=minutes, left=left)]
    lead = match.extra.get("stop_lead")
    if stopper.is_ai and isinstance(lead, int):
        lines.append(t(lang, "caption.stop_bot_why", lead=Text("count.points", n=lead)))
    return lines


def result_line(match: Match, lang: str) -> str:
    res = match.game.result
    if res is None:
        return t(lang, "caption.cancelled")
    how = t(lang, f"end.{res.reason}")
    if len(res.winners) > 1:  # joint winners (three or four players sharing the top score)
        names = [html.escape(seat_name(match.seats[i], lang)) for i in res.winners]
        both = t(lang, "result.and", a=", ".join(names[:-1]), b=names[-1])
        return t(lang, "result.win_joint", who=both, how=how)
    if res.winner is None:
        return t(lang, "result.draw", how=how)
    who = html.escape(seat_name(match.seats[res.winner], lang))
    return t(lang, "result.win", who=who, how=how)


def _fit(lines: list[str]) -> str:
    text = "\n".join(lines)
    if len(text) > CAPTION_LIMIT:  # names are capped, so this only guards odd cases
        text = text[: CAPTION_LIMIT - 1] + "…"
    return text


def keyboard(match: Match, place_index: int) -> Keyboard:
    place = match.places[place_index]
    on = On(match.id, match.version)
    lang = place.lang
    rows: Keyboard
    if match.status == "lobby" and place.seat is not None:
        rows = [
            [Button(Text("btn.vs_bot"), on(ADD_BOT, "medium"))],
            [Button(Text("btn.cancel"), on(CANCEL))],
        ]
        return _translate(rows, lang)
    if match.status == "lobby":
        rows = [
            [Button(Text("btn.join"), on(JOIN)), Button(Text("btn.leave"), on(LEAVE))],
            [Button(Text("btn.vs_bot"), on(ADD_BOT, "medium"))],
        ]
        if match.players > match.facts.min_players:  # may start with fewer (Boxes)
            rows.append([Button(Text("btn.start_now"), on(START))])
        rows.append([Button(Text("btn.cancel"), on(CANCEL))])
        return _translate(rows, lang)
    if match.status == "active":
        return _translate(_active_rows(match, place, on), lang)
    if match.extra.get("cancelled"):
        return []
    return _translate(
        [[Button(Text("btn.rematch"), on(REMATCH)), Button(Text("btn.record"), on(RECORD))]],
        lang,
    )


def active_rows(match: Match, place: Place) -> Keyboard:
    """The buttons an active match shows on ``place`` (untranslated): the Mini App offers
    the same actions, so who may do what is said here once."""
    return _active_rows(match, place, On(match.id, match.version))


def _active_rows(match: Match, place: Place, on: On) -> Keyboard:
    facts = match.facts
    stop = engine.stopping(match.game)
    confirm = place.cursor.get("confirm")
    if confirm and confirm[0] == "resign":
        return [
            [Button(Text("btn.resign_yes"), on(RESIGN_SURE))],
            [Button(Text("btn.back"), on(STEP, "back"))],
        ]
    if place.cursor.get("menu"):
        rows: Keyboard = [[Button(Text("btn.resign"), on(RESIGN))]]
        if match.extra.get("draw") is None and facts.has(engine.Extra.END_HERE):
            rows.append(
                [
                    Button(Text("btn.end_here"), on(OFFER_END)),
                    Button(Text("btn.half_draw"), on(OFFER_DRAW)),
                ]
            )
        elif match.extra.get("draw") is None and facts.has(engine.Extra.DRAW):
            rows.append([Button(Text("btn.offer_draw"), on(OFFER_DRAW))])
        if stop is not None and stop.stopped_by is None:
            rows.append([Button(Text("btn.stop"), on(STOP))])
        if engine.grounding(match.game) is not None:
            rows.append([Button(Text("btn.ground"), on(GROUND))])
        rows.append([rules.button(match.kind), Button(Text("btn.back"), on(STEP, "back"))])
        return rows
    rows = []
    if match.extra.get("draw") is not None:
        accept = "btn.accept_end" if match.extra.get("end_scores") else "btn.accept_draw"
        rows.append(
            [
                Button(Text(accept), on(ACCEPT_DRAW)),
                Button(Text("btn.decline_draw"), on(DECLINE_DRAW)),
            ]
        )
    if match.extra.get("expired") == match.turn_since and clocks.deadline(match) is not None:
        rows.append([Button(Text("btn.claim_time"), on(CLAIM_TIME))])
    if stop is not None and stop.stopped_by is not None and _may_finish(match, place):
        rows.append([Button(Text("btn.done"), on(DONE))])
    rows += ui.get(match.kind).move_rows(match, place, on)
    rows.append([Button(Text("btn.more"), on(STEP, "menu"))])
    return rows


def _may_finish(match: Match, place: Place) -> bool:
    """Done is for the person moving alone after STOP: not on a board of the player who
    stopped, and never when the bot moves alone (it ends its phase itself)."""
    mover = match.game.turn
    return not match.seats[mover].is_ai and place.seat in (None, mover)


def _translate(rows: Keyboard, lang: str) -> Keyboard:
    return [
        [
            Button(t(lang, b.text) if isinstance(b.text, Text) else b.text, b.data, b.kind)
            for b in row
        ]
        for row in rows
    ]


def place_view(match: Match, place_index: int, now: float | None = None) -> PlaceView:
    place = match.places[place_index]
    picture: PictureView = {"lang": place.lang}
    if match.status == "active":
        picture.update(ui.get(match.kind).picture_view(match, place))
    return PlaceView(caption(match, place, now), keyboard(match, place_index), picture)
