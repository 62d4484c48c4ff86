"""What a person (or the bot's AI) can ask of a match, and the refusal that changes nothing."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import engine
from bot.i18n import Text
from bot.match.model import Match


@dataclass(frozen=True)
class Actor:
    """Who taps or types: a Telegram user with a display name and language."""

    user: int
    name: str
    lang: str = "en"


class Refused(Exception):
    """The action is not allowed now; the match stays as it was. ``text`` is shown as a popup
    (callback) or a reply (typed move)."""

    def __init__(self, key: str, /, *, alert: bool = False, **params: Any) -> None:
        super().__init__(key)
        self.text = Text(key, **params)
        self.alert = alert


def illegal(match: Match, error: engine.IllegalMove) -> Refused:
    """An engine refusal as a translated popup (``illegal.<kind>.<code>``)."""
    params = {
        k: v
        for k, v in error.params.items()
        if isinstance(v, str | int | float) and k not in ("alert", "detail")
    }
    key = f"illegal.{match.kind}.{error.code}"
    return Refused(key, detail=error.reason, **params)  # type: ignore[arg-type]  # no "alert"


class AlreadyApplied(Exception):
    """This very request (a callback query or a message, by its Telegram id) was applied
    before: Telegram delivered the update again, or to two replicas. Nothing changes; the
    adapter acknowledges it and brings the boards (and the bot's turn) up to date, which the
    first delivery may not have lived to do. ``match`` is the stored match."""

    def __init__(self, match: Any) -> None:
        super().__init__(getattr(match, "id", ""))
        self.match = match


@dataclass(frozen=True)
class Join:
    pass


@dataclass(frozen=True)
class Leave:
    pass


@dataclass(frozen=True)
class Start:
    pass


@dataclass(frozen=True)
class AddBot:
    level: str


@dataclass(frozen=True)
class Cancel:
    """The creator closes a lobby."""


@dataclass(frozen=True)
class Play:
    """A move: ``code`` from a keyboard button (game-specific compact form) or ``text`` typed in
    the game's notation."""

    code: str | None = None
    text: str | None = None


@dataclass(frozen=True)
class Cursor:
    """A keyboard-only step (move the Dots window, pick a Sprouts spot…); no version bump."""

    op: str


@dataclass(frozen=True)
class AIMove:
    """The bot's chosen move for the seat ``seat``: a move in the game's notation, or in Dots
    :data:`AI_STOP` (the bot calls STOP) or :data:`AI_DONE` (its solo phase is over)."""

    seat: int
    move: str


AI_STOP, AI_DONE = "!stop", "!done"  # no move's notation starts with "!"


@dataclass(frozen=True)
class Resign:
    """Give up; ``confirmed`` is the second tap (the first only asks "really?")."""

    confirmed: bool = False


@dataclass(frozen=True)
class OfferDraw:
    """Offer to end the game by agreement: a draw, or in Dots with ``scores`` the scores as
    they stand decide ("🤝 End here")."""

    scores: bool = False


@dataclass(frozen=True)
class AnswerDraw:
    accept: bool


@dataclass(frozen=True)
class Stop:
    """Dots STOP: the caller places no more dots; the other player moves alone."""


@dataclass(frozen=True)
class Done:
    """Dots: the player moving alone after STOP is finished."""


@dataclass(frozen=True)
class Ground:
    """Dots grounding variant: end the game by grounding."""


@dataclass(frozen=True)
class ClaimTime:
    """The player to move ran out of time; an opponent claims the win."""


@dataclass(frozen=True)
class Tick:
    """Time passed (a deadline fell due): apply what the clock says, if anything."""


Action = (
    Join
    | Leave
    | Start
    | AddBot
    | Cancel
    | Play
    | Cursor
    | AIMove
    | Resign
    | OfferDraw
    | AnswerDraw
    | Stop
    | Done
    | Ground
    | ClaimTime
    | Tick
)
