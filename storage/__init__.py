"""The only door to Redis: matches, chats, users, ratings, challenge links, deadlines, leases.

Everything the bot keeps goes through a :class:`Store`::

    store = await storage.connect(url)      # redis://…, rediss://…, unix://…, memory://[name],
                                            # redis+sentinel://h1:26379,h2/mymaster/0
    async with store: ...                   # or: await store.close()
    await store.ping()                      # True / False

Matches (JSON dicts the bot owns; storage reads only ``id``, ``status`` in
"lobby"/"active"/"finished", ``chats`` and the schema version ``v``; the bot's own ``version``
counter is never touched)::

    match_id = storage.new_match_id()       # 8 characters of A-Z a-z 0-9
    await store.matches.create(record)      # MatchExists when the id is taken
    await store.matches.get(match_id)       # the record, or None
    await store.matches.update(match_id, fn)  # fn(record) -> record, may run several times;
                                            # an exception from fn aborts and propagates
    async with store.matches.turn(match_id) as tries:   # the same, with the caller's code
        rev, record = await tries.read()    # in its own hands: read, compute, then
        await tries.write(new, due=dues)    # the revision, or None: lost a race, read again
    await store.matches.delete(match_id)
    await store.matches.active_in_chat(chat_id)   # lobby + active ids shown in that chat
    await store.matches.idle_lobbies(idle)  # lobbies nobody touched for `idle` seconds
    await store.matches.ttl(match_id)       # seconds left, None for "never expires"

A record whose JSON is broken, whose key holds something else, or whose ``v`` is newer (or
older without a migration) raises :class:`CorruptRecord` / :class:`UnknownVersion` for that
match only. The bot registers migrations and its current version::

    schema = storage.Migrations(current=2)
    @schema.step(1)                         # v1 -> v2
    def _(record): ...; return record
    store = await storage.connect(url, migrations=schema)

Expiry (:class:`Config`): lobbies vanish ``lobby_ttl`` (24 h) after their last write, finished
matches ``finished_ttl`` (7 days) after finishing, active matches never.

Chats and users: ``store.chats.get(chat_id)``, ``.update(chat_id, fn)``, ``.patch(chat_id,
{"language": "ru"})`` (None removes a setting); the same on ``store.users``, plus
``store.users.profile(user_id)`` / ``.stats(user_id, game)`` (tally, rating, best win, tallies
against the bot per level).

Results and ratings (Glicko-2; why: see :mod:`storage.glicko`)::

    outcome = await store.ratings.record(match_id, "dots", [uid1, uid2], [0, 1], chat_id=chat)
    # seats: user ids or storage.AiSeat("hard"); places: 0 = first, equal = tie.
    # Exactly once per match id: a retry returns the first Outcome with repeated=True.
    await store.ratings.top("dots", chat_id=None, n=10)   # [Standing(user_id, rating, rd, games)]
    await store.ratings.get(user_id, "dots"); await store.ratings.rank(user_id, "dots")

Challenge links (128-bit URL-safe tokens, 22 characters, single use)::

    token = await store.challenges.create({"match": match_id}, ttl=24 * 3600)
    payload = await store.challenges.redeem(token)   # UnknownChallenge / ChallengeUsed /
                                                     # ChallengeExpired
    await store.challenges.peek(token); await store.challenges.revoke(token)

Deadlines (clocks, the Dots STOP timer; survive restarts, one replica gets each)::

    await store.deadlines.schedule(match_id, when, kind="clock")
    await store.deadlines.cancel(match_id, kind="clock")
    for due in await store.deadlines.due(now, limit=100, lease=30):
        ...; await store.deadlines.done(due)

Leases (one AI move computed once across replicas; they always expire)::

    async with store.lease("ai:" + match_id, ttl=30) as lease:   # LeaseBusy when held
        ...; await lease.renew()

Routed Рассада curves (one route per curve across replicas; kept ``ttl`` seconds)::

    await store.routes.put(digest, drawing_json, ttl=600)
    drawing_json = await store.routes.get(digest)   # None when nobody routed it yet

Open Mini App live streams, limited per person and per match across replicas (a replica
that dies lets its streams lapse after ``ttl``)::

    async with store.streams.slot(user, match_id, per_user=4, per_match=200, ttl=15):
        ...                                 # storage.TooMany("user" / "match") when full

Errors are the classes in :mod:`storage.errors`; a Redis that stays unreachable after the
client's retries raises :class:`Unavailable`. The key layout is in storage/README.md.
"""

from storage.config import Config
from storage.connect import BadURL, connect
from storage.deadlines import Due
from storage.errors import (
    ChallengeError,
    ChallengeExpired,
    ChallengeUsed,
    Contention,
    CorruptRecord,
    InvalidRecord,
    LeaseBusy,
    LeaseLost,
    MatchExists,
    MatchNotFound,
    NotFound,
    StorageError,
    TooMany,
    Unavailable,
    UnknownChallenge,
    UnknownVersion,
)
from storage.locks import GUARD_MARGIN, Guard, Lease
from storage.matches import STATUSES, new_match_id, rematch_id
from storage.ratings import AiSeat, Change, Outcome, Standing
from storage.schema import Migrations
from storage.store import Store
from storage.users import BestWin, GameStats, Profile, Tally, UserRating

__all__ = [
    "GUARD_MARGIN",
    "STATUSES",
    "AiSeat",
    "BadURL",
    "BestWin",
    "ChallengeError",
    "ChallengeExpired",
    "ChallengeUsed",
    "Change",
    "Config",
    "Contention",
    "CorruptRecord",
    "Due",
    "GameStats",
    "Guard",
    "InvalidRecord",
    "Lease",
    "LeaseBusy",
    "LeaseLost",
    "MatchExists",
    "MatchNotFound",
    "Migrations",
    "NotFound",
    "Outcome",
    "Profile",
    "Standing",
    "StorageError",
    "Store",
    "Tally",
    "TooMany",
    "Unavailable",
    "UnknownChallenge",
    "UnknownVersion",
    "UserRating",
    "connect",
    "new_match_id",
    "rematch_id",
]
