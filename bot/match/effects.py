"""What must happen outside the match after an action: pictures to refresh, popups, messages.

The Telegram adapter turns these into Bot API calls; the match layer never calls Telegram.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.i18n import Text


@dataclass(frozen=True)
class Popup:
    """The answer to the tap that caused this action."""

    text: Text
    alert: bool = False


@dataclass(frozen=True)
class Refresh:
    """Re-show places (all when ``places`` is None). What changed (the picture, the caption,
    the keyboard) is found by comparing with what the place shows (``boards._show``)."""

    places: tuple[int, ...] | None = None


@dataclass(frozen=True)
class Say:
    """A new plain message in a chat (notifications, announcements)."""

    chat: int
    text: Text


@dataclass(frozen=True)
class Notify:
    """Tell one player something privately when the bot can reach them, else in the chat."""

    user: int
    text: Text


@dataclass(frozen=True)
class AITurn:
    """The seat to move is the bot's: compute its move off the event loop. ``check_after``:
    only look again after that many seconds and move if the bot is still to move (a follow-up
    that must not race the process already thinking)."""

    check_after: float = 0.0


@dataclass(frozen=True)
class Finished:
    """The match has just ended (send the replay and record, update ratings once)."""


Effect = Popup | Refresh | Say | Notify | AITurn | Finished
