"""Рассада keyboard: tap the first spot, then the second (only spots a curve can reach), then —
only when several different curves join them — flip through previews drawn on the picture
and confirm. Back and Cancel at every step; every distinct move on paper stays reachable.

The cursor of a place holds the selection: ``{"a": 3}``, then ``{"a": 3, "b": 5, "i": 0}``.
A move button carries ``a.b.k``: the k-th of the engine's moves between spots a and b, in the
engine's fixed order (the match version on the button pins the position).
"""

from __future__ import annotations

from typing import Any

from bot.i18n import Text
from bot.match.actions import Refused
from bot.match.buttons import INFO, PLAY, STEP, On
from bot.match.model import Match, Place
from bot.match.ui import Button, Keyboard, PictureView, register

PER_ROW = 6
LIFE = "•"


def _spot_button(game: Any, n: int, on: On) -> Button:
    lives = next(s.lives for s in game.drawing.spots if s.number == n)
    return Button(f"{n}{LIFE * lives}", on(STEP, f"s{n}"))


def _rows(buttons: list[Button]) -> Keyboard:
    return [buttons[i : i + PER_ROW] for i in range(0, len(buttons), PER_ROW)]


def _selection(match: Match, place: Place) -> tuple[int | None, int | None, int]:
    """The valid part of this place's selection (a stale one is dropped, never trusted)."""
    game: Any = match.game
    a, b, i = place.cursor.get("a"), place.cursor.get("b"), place.cursor.get("i", 0)
    if not isinstance(a, int) or not game.joinable(a):
        return None, None, 0
    if not isinstance(b, int) or b not in game.joinable(a):
        return a, None, 0
    n = len(game.moves_between(a, b))
    return a, b, i % n if isinstance(i, int) and n else 0


def spoken(move: Any) -> Text:
    """A move as the caption says it: the two spots, then in words only what tells it apart
    from the other curves between them (the notation's ``@3 cw``-style marks are for typing)."""
    how: list[Text] = []
    if move.inside:
        how.append(Text("sprouts.q_inside", spots=", ".join(map(str, move.inside))))
    elif move.a == move.b:  # beside "3–3, round 4" a bare "3–3" would leave it to guess
        how.append(Text("sprouts.q_empty"))
    region = move.region or ""
    if region == "out":
        how.append(Text("sprouts.q_outside"))
    elif region.startswith("in"):
        how.append(Text("sprouts.q_in_region", k=f" {region[2:]}" if region[2:] else ""))
    elif region.isdigit():
        how.append(Text("sprouts.q_by_spot", spot=int(region)))
    for end, toward in ((move.a, move.corner_a), (move.b, move.corner_b)):
        if toward:
            how.append(Text("sprouts.q_corner", spot=end, toward=toward))
    if move.turn:
        how.append(Text(f"sprouts.q_{move.turn}"))
    if move.variant:
        how.append(Text("sprouts.q_variant", k=move.variant))
    text = Text("sprouts.curve", a=move.a, b=move.b)
    for part in how:
        text = Text("sprouts.curve_and", curve=text, part=part)
    return text


class SproutsUI:
    cursor_needs_turn = True
    slow_moves = True

    def title(self, match: Match) -> list[Text | str]:
        o = match.options
        parts: list[Text | str] = [
            Text("game.sprouts"),
            Text("sprouts.spots", n=o.get("spots", "?")),
        ]
        if o.get("misere"):
            parts.append(Text("sprouts.misere"))
        return parts

    def move_rows(self, match: Match, place: Place, on: On) -> Keyboard:
        game: Any = match.game
        a, b, i = _selection(match, place)
        back = Button(Text("btn.back"), on(STEP, "k"))
        if a is None:
            spots = [s.number for s in game.drawing.spots if s.lives and game.joinable(s.number)]
            return _rows([_spot_button(game, n, on) for n in spots])
        if b is None:
            rows = _rows([_spot_button(game, n, on) for n in game.joinable(a)])
            return [*rows, [back]]
        moves = game.moves_between(a, b)
        play = Button(Text("btn.play_curve"), on(PLAY, f"{a}.{b}.{i}"))
        return [
            [
                Button("◀", on(STEP, "v")),
                Button(f"{i + 1}/{len(moves)}", on(INFO, "none")),
                Button("▶", on(STEP, "n")),
            ],
            [play],
            [back, Button(Text("btn.cancel_move"), on(STEP, "x"))],
        ]

    def decode(self, match: Match, code: str) -> Any:
        parts = code.split(".")
        if len(parts) != 3 or not all(p.isdigit() and len(p) <= 3 for p in parts):
            raise Refused("err.bad_button")
        a, b, k = (int(p) for p in parts)
        moves = match.game.moves_between(a, b)  # type: ignore[attr-defined]
        if not 0 <= k < len(moves):
            raise Refused("err.bad_button")
        return moves[k]

    def cursor(self, match: Match, place: Place, op: str) -> None:
        game: Any = match.game
        a, b, i = _selection(match, place)
        if op.startswith("s") and op[1:].isdigit():
            n = int(op[1:])
            if a is None:
                if not game.joinable(n):
                    raise Refused("sprouts.no_moves_from", spot=n)
                place.cursor = {"a": n}
                return
            if b is None:
                if n not in game.joinable(a):
                    raise Refused("sprouts.cannot_join", a=a, b=n)
                place.cursor.update({"a": a, "b": n, "i": 0})
                return
            # Both ends are chosen, so this spot is from a keyboard older than the selection:
            # the player's other tap, racing this one, chose them meanwhile. The board has
            # changed at the same version (a keyboard step bumps none); "look again".
            raise Refused("err.stale")
        if op in ("n", "v") and b is not None:
            place.cursor["i"] = i + (1 if op == "n" else -1)
            return
        if op == "k":  # one step back
            place.cursor = {"a": a} if a is not None and b is not None else {}
            return
        if op == "x":
            place.cursor = {}
            return
        raise Refused("err.bad_button")

    def say_move(self, match: Match, move: Any) -> Text:
        return spoken(move)

    def auto_move(self, match: Match, place: Place) -> Any | None:
        """When the two chosen spots can be joined in one way only, that is the move."""
        a, b, _ = _selection(match, place)
        if a is None or b is None:
            return None
        moves = match.game.moves_between(a, b)  # type: ignore[attr-defined]
        return moves[0] if len(moves) == 1 else None

    def after_move(self, match: Match, move: Any) -> None:
        for place in match.places:
            place.cursor.pop("a", None)
            place.cursor.pop("b", None)
            place.cursor.pop("i", None)

    def picture_view(self, match: Match, place: Place) -> PictureView:
        a, b, i = _selection(match, place)
        if a is None or b is None:
            return {}
        moves = match.game.moves_between(a, b)  # type: ignore[attr-defined]
        if len(moves) < 2:
            return {}
        return {"preview": match.game.format_move(moves[i])}

    def hint(self, match: Match, place: Place) -> Text | None:
        a, b, i = _selection(match, place)
        if a is None:
            return None
        if b is None:
            return Text("sprouts.pick_second", a=a)
        moves = match.game.moves_between(a, b)  # type: ignore[attr-defined]
        return Text(
            "sprouts.choose_curve",
            move=spoken(moves[i]),
            n=i + 1,
            total=len(moves),
        )


register("sprouts", SproutsUI())
