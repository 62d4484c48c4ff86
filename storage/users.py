"""Per-user data: settings, and per game the tally of results, the rating and the best win.

Everything of one user is one hash ``t:u:{user}``:

====================  ==========================================================
``s``                 settings (see :mod:`storage.settings`)
``r:<game>``          rating ``{"r", "rd", "s", "n", "t"}`` (Glicko-2, games, last)
``n:<game>``          tally against people ``{"p", "w", "l", "d", "b"}`` (b: best win)
``a:<game>:<level>``  tally against the bot at that level ``{"p", "w", "l", "d"}``
``c:<game>``          chats whose leaderboard lists the user (most recent last)
====================  ==========================================================

Only :mod:`storage.ratings` writes the game fields, once per finished match.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, cast

from redis import exceptions as rx
from redis.asyncio import Redis

from storage._base import guarded, is_wrong_type, load_object
from storage.config import Config
from storage.errors import CorruptRecord
from storage.glicko import START_RATING, START_RD, START_VOLATILITY
from storage.keys import Keys, check_name
from storage.settings import FIELD as SETTINGS_FIELD
from storage.settings import SettingsStore, decode

RESULTS = ("won", "lost", "drawn")
PROVISIONAL_RD = 110.0  # above this deviation /stats calls a rating provisional


def rating_field(game: str) -> str:
    return f"r:{game}"


def tally_field(game: str) -> str:
    return f"n:{game}"


def ai_field(game: str, level: str) -> str:
    return f"a:{game}:{level}"


def chats_field(game: str) -> str:
    return f"c:{game}"


@dataclass(frozen=True, slots=True)
class Tally:
    played: int = 0
    won: int = 0
    lost: int = 0
    drawn: int = 0

    def add(self, result: str) -> Tally:
        return Tally(
            self.played + 1,
            self.won + (result == "won"),
            self.lost + (result == "lost"),
            self.drawn + (result == "drawn"),
        )

    def to_json(self) -> dict[str, Any]:
        return {"p": self.played, "w": self.won, "l": self.lost, "d": self.drawn}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Tally:
        return cls(int(d["p"]), int(d["w"]), int(d["l"]), int(d["d"]))


@dataclass(frozen=True, slots=True)
class BestWin:
    """The highest-rated opponent beaten in a rated game (their rating before that game)."""

    rating: float
    opponent: int
    match_id: str

    def to_json(self) -> dict[str, Any]:
        return {"r": round(self.rating, 2), "u": self.opponent, "m": self.match_id}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> BestWin:
        return cls(float(d["r"]), int(d["u"]), str(d["m"]))


@dataclass(frozen=True, slots=True)
class UserRating:
    rating: float = START_RATING
    rd: float = START_RD
    volatility: float = START_VOLATILITY
    games: int = 0
    last: float | None = None  # time of the last rated game

    @property
    def provisional(self) -> bool:
        return self.rd > PROVISIONAL_RD

    def rounded(self) -> UserRating:
        """As stored: enough digits for the maths, no more."""
        return UserRating(
            round(self.rating, 3),
            round(self.rd, 3),
            round(self.volatility, 8),
            self.games,
            self.last,
        )

    def to_json(self) -> dict[str, Any]:
        r = self.rounded()
        return {"r": r.rating, "rd": r.rd, "s": r.volatility, "n": r.games, "t": r.last}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> UserRating:
        last = d.get("t")
        return cls(
            float(d["r"]),
            float(d["rd"]),
            float(d["s"]),
            int(d["n"]),
            None if last is None else float(last),
        )


@dataclass(frozen=True, slots=True)
class GameStats:
    tally: Tally = Tally()  # games against people
    rating: UserRating | None = None  # None until the first rated game
    best_win: BestWin | None = None
    vs_ai: dict[str, Tally] = field(default_factory=dict)  # level -> tally


@dataclass(frozen=True, slots=True)
class Profile:
    settings: dict[str, Any]
    games: dict[str, GameStats]  # game kind -> stats, only games the user has played

    def stats(self, game: str) -> GameStats:
        return self.games.get(game, GameStats())


def parse_rating(key: str, raw: bytes | None) -> UserRating | None:
    if raw is None:
        return None
    try:
        return UserRating.from_json(load_object(key, raw))
    except (KeyError, TypeError, ValueError) as e:
        raise CorruptRecord(key, f"bad rating ({e!r})") from e


def parse_tally(key: str, raw: bytes | None) -> tuple[Tally, BestWin | None]:
    if raw is None:
        return Tally(), None
    try:
        d = load_object(key, raw)
        best = d.get("b")
        return Tally.from_json(d), None if best is None else BestWin.from_json(best)
    except (KeyError, TypeError, ValueError) as e:
        raise CorruptRecord(key, f"bad tally ({e!r})") from e


class Users(SettingsStore):
    """``store.users``: settings (``get``/``update``/``patch``/``clear``), stats, profile."""

    def __init__(self, client: Redis, keys: Keys, config: Config) -> None:
        super().__init__(client, keys.user, config)
        self._keys = keys

    @guarded
    async def profile(self, user_id: int) -> Profile:
        key = self._keys.user(user_id)
        try:
            fields = await self._r.hgetall(key)
        except rx.ResponseError as e:
            if is_wrong_type(e):
                raise CorruptRecord(key, "holds a different Redis type, not a user") from e
            raise
        settings: dict[str, Any] = {}
        parts: dict[str, dict[str, Any]] = {}
        for raw_name, raw in cast(dict[bytes, bytes], fields).items():
            name = raw_name.decode()
            if name == SETTINGS_FIELD:
                settings = decode(key, raw)
                continue
            tag, _, rest = name.partition(":")
            game, _, level = rest.partition(":")
            if tag == "r":
                parts.setdefault(game, {})["rating"] = parse_rating(key, raw)
            elif tag == "n":
                tally, best = parse_tally(key, raw)
                parts.setdefault(game, {}).update(tally=tally, best_win=best)
            elif tag == "a":
                vs_ai = parts.setdefault(game, {}).setdefault("vs_ai", {})
                vs_ai[level] = parse_tally(key, raw)[0]
        games = {game: GameStats(**entry) for game, entry in parts.items()}
        return Profile(settings, games)

    async def stats(self, user_id: int, game: str) -> GameStats:
        check_name("game", game)
        return (await self.profile(user_id)).stats(game)
