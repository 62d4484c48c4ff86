"""Match records: JSON dicts owned by the bot, written with optimistic concurrency.

Storage reads only ``id``, ``status`` ("lobby" | "active" | "finished"), ``chats`` (ids of the
chats where the match is shown) and ``v`` (the schema version). The bot's own ``version``
counter is never read or bumped here.

Each record lives in one hash ``t:m:{id}`` with fields ``d`` (the JSON), ``r`` (an internal
revision) and ``w`` (a random tag of the write that made it). An update reads ``d`` and ``r``,
runs the caller's function, and writes through a Lua compare-and-set on ``r``; the same script
maintains the per-chat index of lobby and active matches, the index of lobbies and the key's
expiry, so a reader never sees a record and its indexes disagree. Within one process, updates
of the same match wait their turn on a local lock, so only other processes can make one retry.
When the connection drops after the script ran but before the answer arrived, redis-py sends
it again; the write tag recognises the repeat, so an update is applied exactly once. When the
primary has replicas, a write returns only once one of them has it too (or the wait timed
out; see storage/replicas.py), so a failover does not lose a move the player was shown.
"""

from __future__ import annotations

import asyncio
import hashlib
import inspect
import secrets
import string
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, cast

from redis import exceptions as rx
from redis.asyncio import Redis
from redis.asyncio.client import Pipeline

from storage._base import backoff, guarded, is_wrong_type, load_object, text
from storage._base import dumps as _dumps
from storage.config import Config
from storage.deadlines import member
from storage.errors import (
    Contention,
    CorruptRecord,
    InvalidRecord,
    MatchExists,
    MatchNotFound,
)
from storage.keys import Keys, check_int_id, check_match_id
from storage.locks import Lease
from storage.replicas import ReplicaWait
from storage.schema import Migrations, Record

STATUSES = ("lobby", "active", "finished")
ID_ALPHABET = string.ascii_letters + string.digits
ID_LENGTH = 8  # 62**8 ≈ 2.2e14 ids; `create` refuses a taken one with MatchExists

Updater = Callable[[Record], Record | Awaitable[Record]]
# What a write makes due: deadline kind -> when (Unix seconds on the caller's clock), or None
# to cancel it. Called on the record about to be written, each time the update is tried.
Dues = Callable[[Record], Mapping[str, float | None]]

# KEYS: 1 the match hash, 2 the lobby index, 3 the deadline schedule, 4.. chat indexes (the
# first ARGV[8] get the match added with score ARGV[7], the rest get it removed).
# ARGV: 1 expected revision ("" = must not exist), 2 write tag, 3 JSON, 4 TTL in ms ("0" = no
# expiry), 5 match id, 6 lobby index score ("" = not a lobby), 7 chat score, 8 chats to add,
# 9 how many deadline entries follow, then pairs of (member, score; "" = cancel it): what the
# bot must do next is scheduled in the very write that makes it necessary; the last ARGV is
# the match's live channel, told the new revision (see storage/live.py).
# Returns {1, revision} when written (or written already by this very tag), {0, revision}
# when someone else wrote first.
_WRITE = """
local cur = redis.call('HMGET', KEYS[1], 'r', 'w')
if cur[2] == ARGV[2] then return {1, cur[1]} end
if ARGV[1] == '' then
  if redis.call('EXISTS', KEYS[1]) == 1 then return {0, cur[1] or ''} end
elseif cur[1] ~= ARGV[1] then
  return {0, cur[1] or ''}
end
local rev = tostring((tonumber(cur[1]) or 0) + 1)
redis.call('HSET', KEYS[1], 'r', rev, 'w', ARGV[2], 'd', ARGV[3])
if ARGV[4] == '0' then
  redis.call('PERSIST', KEYS[1])
else
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
end
if ARGV[6] == '' then
  redis.call('ZREM', KEYS[2], ARGV[5])
else
  redis.call('ZADD', KEYS[2], ARGV[6], ARGV[5])
end
local adds = tonumber(ARGV[8])
for i = 4, #KEYS do
  if i - 3 <= adds then
    redis.call('ZADD', KEYS[i], ARGV[7], ARGV[5])
  else
    redis.call('ZREM', KEYS[i], ARGV[5])
  end
end
for i = 10, 9 + 2 * tonumber(ARGV[9]), 2 do
  if ARGV[i + 1] == '' then
    redis.call('ZREM', KEYS[3], ARGV[i])
  else
    redis.call('ZADD', KEYS[3], ARGV[i + 1], ARGV[i])
  end
end
redis.call('PUBLISH', ARGV[#ARGV], rev)
return {1, rev}
"""

# KEYS as in _WRITE (all chat indexes lose the match). ARGV: 1 expected revision ("*" = any,
# for records too broken to read), 2 match id. Returns 1 when deleted.
_DELETE = """
if ARGV[1] ~= '*' and redis.call('HGET', KEYS[1], 'r') ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
for i = 2, #KEYS do redis.call('ZREM', KEYS[i], ARGV[2]) end
return 1
"""


# KEYS: 1 a lease, 2 the match hash, 3 the deadline schedule. ARGV: 1 the lease's token,
# 2 a deadline member to cancel ("" = none), 3 the revision the work was done for, 4 the score
# the entry must still have ("" = any). Gives the lease up if it is still this holder's and
# returns the match's revision (nil when there is none): a show of the boards ends with "did
# the match change while I edited?" and letting the next show in, and doing both in one round
# trip is a tenth of a keyboard-only tap's Redis traffic. The deadline that guarded the work
# goes only if the match is still at the revision the work was for: a change meanwhile
# brought its own need (and its own deadline, which must stay). The lease goes first: a match
# key of the wrong type fails the read, never keeps the lease.
_RELEASE_READING = """
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
local rev = redis.call('HGET', KEYS[2], 'r')
if ARGV[2] ~= '' and rev == ARGV[3] then
  local score = redis.call('ZSCORE', KEYS[3], ARGV[2])
  if score and (ARGV[4] == '' or tonumber(score) == tonumber(ARGV[4])) then
    redis.call('ZREM', KEYS[3], ARGV[2])
  end
end
return rev
"""


def new_match_id() -> str:
    """A fresh short URL-safe match id (8 characters of A-Z a-z 0-9, about 47 random bits)."""
    return "".join(secrets.choice(ID_ALPHABET) for _ in range(ID_LENGTH))


def rematch_id(match_id: str) -> str:
    """The id of ``match_id``'s rematch, the same every time it is asked for: a match has at
    most one rematch, so a rematch tap retried after a crash between its two writes finds the
    match the first try stored (:class:`MatchExists`) instead of storing a second one."""
    n = int.from_bytes(hashlib.blake2b(f"rematch:{match_id}".encode(), digest_size=16).digest())
    chars = []
    for _ in range(ID_LENGTH):
        n, i = divmod(n, len(ID_ALPHABET))
        chars.append(ID_ALPHABET[i])
    return "".join(chars)


def _chats_of(record: Record) -> list[int]:
    chats = record.get("chats", [])
    if not isinstance(chats, list):
        raise InvalidRecord(f"chats must be a list of chat ids, not {chats!r}")
    return list(dict.fromkeys(check_int_id("chat id", c) for c in chats))


@dataclass(slots=True)
class _Queue:
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    users: int = 0


class Matches:
    def __init__(
        self,
        client: Redis,
        keys: Keys,
        config: Config,
        migrations: Migrations,
        clock: Callable[[], float],
        replicas: ReplicaWait | None = None,
    ) -> None:
        self._r = client
        self._replicas = replicas or ReplicaWait(client, 0)
        self._keys = keys
        self._config = config
        self.migrations = migrations
        self._clock = clock
        self._write_script = client.register_script(_WRITE)
        self._local: dict[str, _Queue] = {}  # this process's updates, per match
        self._delete_script = client.register_script(_DELETE)
        self._release_reading_script = client.register_script(_RELEASE_READING)

    # -- reading -----------------------------------------------------------------------------

    @guarded
    async def get(self, match_id: str) -> Record | None:
        """The record brought to the current schema version, or None when there is none."""
        loaded = await self._load(match_id)
        return None if loaded is None else loaded[1]

    @guarded
    async def get_revised(self, match_id: str) -> tuple[str, Record] | None:
        """The record and its revision (changed by every write), or None when there is none."""
        return await self._load(match_id)

    @guarded
    async def revision(self, match_id: str) -> str | None:
        """The record's current revision alone: a cheap "did it change since?" check."""
        rev = await self._r.hget(self._keys.match(match_id), "r")
        return None if rev is None else text(rev)

    @guarded
    async def revision_releasing(
        self,
        match_id: str,
        lease: Lease,
        *,
        done: tuple[str, str, float | None] | None = None,
    ) -> str | None:
        """:meth:`revision`, read in the same round trip that gives ``lease`` up (if it is
        still held: an expired lease that passed to someone else is left to them).
        ``done`` = (deadline kind, revision, score or None): the work that deadline guarded
        is done for that revision, so it is cancelled if the match is still at it (and, with
        a score, if the entry is still the one written then)."""
        key = self._keys.match(match_id)
        args: list[str] = [lease.token, "", "", ""]
        if done is not None:
            kind, rev, score = done
            args[1:] = [member(match_id, kind), rev, "" if score is None else repr(score)]
        try:
            rev = await self._release_reading_script(
                keys=[lease.key, key, self._keys.due], args=args
            )
        except rx.ResponseError as e:
            if is_wrong_type(e):
                raise CorruptRecord(key, "holds a different Redis type, not a match") from e
            raise
        return None if rev is None else text(rev)

    @guarded
    async def ttl(self, match_id: str) -> float | None:
        """Seconds until the record expires, or None when it never does (active matches)."""
        ms = await self._r.pttl(self._keys.match(match_id))
        if ms == -2:
            raise MatchNotFound(match_id)
        return None if ms == -1 else ms / 1000

    async def _load(self, match_id: str) -> tuple[str, Record] | None:
        key = self._keys.match(match_id)
        try:
            rev, data = await self._r.hmget(key, ["r", "d"])
        except rx.ResponseError as e:
            if is_wrong_type(e):
                raise CorruptRecord(key, "holds a different Redis type, not a match") from e
            raise
        if data is None or rev is None:
            if rev is None and data is None and not await self._r.exists(key):
                return None
            raise CorruptRecord(key, "a hash without the match fields")
        return self._decode(match_id, rev, data)

    def _decode(self, match_id: str, rev: bytes | str, data: bytes | str) -> tuple[str, Record]:
        key = self._keys.match(match_id)
        record = load_object(key, data)
        record = self.migrations.upgrade(key, record)
        if record.get("id") != match_id:
            raise CorruptRecord(key, f"holds the record of match {record.get('id')!r}")
        return text(rev), record

    def queue_read(self, pipe: Pipeline, match_id: str) -> None:
        """Add the record's read to someone else's pipeline (see :meth:`read_from`)."""
        pipe.hmget(self._keys.match(match_id), ["r", "d"])

    def read_from(self, match_id: str, raw: Any) -> tuple[str, Record] | None:
        """The revision and record from a :meth:`queue_read` answer, for the ``first`` of
        :meth:`turn` or :meth:`update_revised`; None when it is anything but a readable record
        (the update reads again and tells what is wrong)."""
        if not isinstance(raw, list) or len(raw) != 2 or None in raw:
            return None
        try:
            return self._decode(match_id, raw[0], raw[1])
        except CorruptRecord:
            return None

    # -- writing -----------------------------------------------------------------------------

    @guarded
    async def create(self, record: Record, *, due: Dues | None = None) -> Record:
        """Store a new match; :class:`MatchExists` when its id is taken. ``due``: the
        deadlines this record needs, written with it (see :meth:`update`)."""
        if not isinstance(record, dict):
            raise InvalidRecord("a match record is a dict")
        match_id = check_match_id(record.get("id"))
        self._validate(match_id, record)
        if (
            await self._write(match_id, "", record, [], None if due is None else due(record))
            is None
        ):
            raise MatchExists(match_id)
        return record

    @guarded
    async def update(self, match_id: str, fn: Updater, *, due: Dues | None = None) -> Record:
        """Apply ``fn`` to the stored record and store what it returns, atomically.

        ``fn`` may run more than once (whenever someone else wrote in between) and must not
        have side effects outside the record, nor call the store; an exception from ``fn``
        aborts the update with nothing written and propagates. Returns the stored record.

        Updates of one match from this process queue up (FIFO) instead of racing, so taps on
        one board take turns; the compare-and-set settles races with other processes.

        ``due(new record)`` names the deadlines the new state needs (kind -> time, or None to
        cancel): they are written by the same script as the record, so a crash can never
        leave a state stored without the deadline that carries it on.
        """
        async with self._queue(match_id):
            return (await self._update(match_id, fn, None, due))[1]

    @guarded
    async def update_revised(
        self,
        match_id: str,
        fn: Updater,
        *,
        first: tuple[str, Record] | None = None,
        due: Dues | None = None,
    ) -> tuple[str, Record]:
        """:meth:`update`, also returning the revision it wrote: a caller that shows the
        record right away can use it as read back by :meth:`get_revised`, without reading.
        ``first``: the revision and record read just before (pipelined with other reads), the
        first attempt's input unless another update of this match from this process came
        first (then it is surely stale); a stale one only costs a retry, the compare-and-set
        on the revision decides."""
        async with self._queue(match_id) as waited:
            return await self._update(match_id, fn, None if waited else first, due)

    @asynccontextmanager
    async def turn(
        self, match_id: str, *, first: tuple[str, Record] | None = None
    ) -> AsyncIterator[Tries]:
        """This process's turn at a match, for a caller that computes the new record itself::

            async with matches.turn(match_id, first=first) as tries:
                while True:
                    rev, record = await tries.read()
                    new = ...  # the caller's own work, in its own code
                    if await tries.write(new, due=...) is not None:
                        break

        Updates of one match from this process queue up here (FIFO); the compare-and-set
        settles races with other processes: a write that lost returns None, and the next
        read (after a short backoff) gives the record as it is now. ``first``: the revision
        and record read just before (pipelined with other reads), the first read's answer
        unless another update of this match from this process came first (then it is surely
        stale). :class:`MatchNotFound` when there is no match, :class:`Contention` after
        ``Config.max_attempts`` lost races."""
        async with self._queue(match_id) as waited:
            yield Tries(self, match_id, None if waited else first)

    @asynccontextmanager
    async def _queue(self, match_id: str) -> AsyncIterator[bool]:
        """Take this match's turn; yields whether another update was there first."""
        queue = self._local.get(match_id)
        if queue is None:
            queue = self._local[match_id] = _Queue()
        queue.users += 1
        waited = queue.users > 1
        try:
            async with queue.lock:
                yield waited
        finally:
            queue.users -= 1
            if queue.users == 0:
                del self._local[match_id]

    async def _update(
        self,
        match_id: str,
        fn: Updater,
        first: tuple[str, Record] | None = None,
        due: Dues | None = None,
    ) -> tuple[str, Record]:
        tries = Tries(self, match_id, first)
        while True:
            _, record = await tries.read()
            new = fn(record)
            if inspect.isawaitable(new):
                new = await new
            written = await tries.write(new, due=None if due is None else due(new))
            if written is not None:
                return written, new

    @guarded
    async def delete(self, match_id: str) -> bool:
        """Remove a match and its index entries; False when there was none. A record too
        broken to read is removed too (its chat entries are dropped lazily)."""
        key = self._keys.match(match_id)
        for attempt in range(self._config.max_attempts):
            try:
                loaded = await self._load(match_id)
            except CorruptRecord:
                await self._delete_script(keys=[key, self._keys.lobbies], args=["*", match_id])
                return True
            if loaded is None:
                return False
            rev, record = loaded
            chat_keys = [self._keys.chat_matches(c) for c in _chats_of(record)]
            keys = [key, self._keys.lobbies, *chat_keys]
            if await self._delete_script(keys=keys, args=[rev, match_id]):
                return True
            await backoff(attempt)
        raise Contention(f"match {match_id}: gave up deleting after {self._config.max_attempts}")

    def _validate(self, match_id: str, record: Record) -> None:
        if record.get("id") != match_id:
            raise InvalidRecord(f"record id {record.get('id')!r} is not {match_id!r}")
        if record.get("status") not in STATUSES:
            raise InvalidRecord(f"status must be one of {STATUSES}, not {record.get('status')!r}")
        self.migrations.check_current(record)
        _chats_of(record)

    async def _write(
        self,
        match_id: str,
        rev: str,
        record: Record,
        old_chats: list[int],
        dues: Mapping[str, float | None] | None = None,
    ) -> str | None:
        """The revision written, or None when someone else wrote first."""
        now = self._clock()
        status = record["status"]
        chats = _chats_of(record)
        shown = chats if status != "finished" else []
        gone = [c for c in dict.fromkeys([*old_chats, *chats]) if c not in shown]
        if status == "lobby":
            ttl, lobby_score = self._config.lobby_ttl, repr(now)
            chat_score = repr(now + self._config.lobby_ttl)
        elif status == "active":
            ttl, lobby_score, chat_score = 0.0, "", "+inf"
        else:  # finished: out of every index, kept for a while for replays
            ttl, lobby_score, chat_score = self._config.finished_ttl, "", "0"
        keys = [
            self._keys.match(match_id),
            self._keys.lobbies,
            self._keys.due,
            *(self._keys.chat_matches(c) for c in shown),
            *(self._keys.chat_matches(c) for c in gone),
        ]
        args: list[str | bytes] = [
            rev,
            secrets.token_hex(8),
            _dumps(record),
            str(max(1, round(ttl * 1000))) if ttl else "0",
            match_id,
            lobby_score,
            chat_score,
            str(len(shown)),
        ]
        dues = dues or {}
        args.append(str(len(dues)))
        for kind, when in dues.items():
            args += [member(match_id, kind), "" if when is None else repr(float(when))]
        args.append(self._keys.live(match_id))
        try:
            written, new_rev = await self._replicas.run(self._write_script, keys, args)
        except rx.ResponseError as e:
            if is_wrong_type(e):
                raise CorruptRecord(keys[0], "holds a different Redis type, not a match") from e
            raise
        return text(new_rev) if written else None

    # -- indexes -----------------------------------------------------------------------------

    @guarded
    async def active_in_chat(self, chat_id: int) -> list[str]:
        """Ids of the lobby and active matches shown in a chat (lobbies first)."""
        key = self._keys.chat_matches(chat_id)
        now = self._clock()
        async with self._r.pipeline(transaction=False) as pipe:
            pipe.zremrangebyscore(key, "-inf", now)  # lobbies whose record expired
            pipe.zrangebyscore(key, f"({now!r}", "+inf")
            _, raw = await pipe.execute()
        return await self._present(key, [text(m) for m in raw])

    @guarded
    async def live_in_chat(self, chat_id: int) -> list[Record]:
        """The records of :meth:`active_in_chat`, read in one more round trip (not one per
        match): what a chat's typed move, ``/games`` and ``/new`` choose among. A record
        gone or unreadable since the index was read is left out."""
        ids = await self.active_in_chat(chat_id)
        if not ids:
            return []
        async with self._r.pipeline(transaction=False) as pipe:
            for match_id in ids:
                self.queue_read(pipe, match_id)
            raw = await pipe.execute()
        loaded = (self.read_from(m, r) for m, r in zip(ids, raw, strict=True))
        return [x[1] for x in loaded if x is not None]

    @guarded
    async def idle_lobbies(self, idle: float, limit: int = 100) -> list[str]:
        """Lobbies nobody has written for ``idle`` seconds, oldest first, for a sweeper that
        closes them (their records expire on their own after ``Config.lobby_ttl``)."""
        cutoff = self._clock() - idle
        raw = await self._r.zrangebyscore(self._keys.lobbies, "-inf", cutoff, start=0, num=limit)
        return await self._present(self._keys.lobbies, [text(m) for m in cast(list[bytes], raw)])

    async def _present(self, index: str, ids: Iterable[str]) -> list[str]:
        """Keep the ids whose records exist; drop the others from ``index``."""
        ids = list(ids)
        if not ids:
            return []
        async with self._r.pipeline(transaction=False) as pipe:
            for match_id in ids:
                pipe.exists(self._keys.match(match_id))
            found = await pipe.execute()
        missing = [m for m, ok in zip(ids, found, strict=True) if not ok]
        if missing:
            await self._r.zrem(index, *missing)
        return [m for m, ok in zip(ids, found, strict=True) if ok]


class Tries:
    """One caller's turn at a match (see :meth:`Matches.turn`): read, then write if nobody
    wrote since; after a lost race the next read waits a short backoff first."""

    def __init__(self, matches: Matches, match_id: str, first: tuple[str, Record] | None) -> None:
        self._matches = matches
        self._id = match_id
        self._first = first
        self._read: tuple[str, Record] | None = None
        self._attempts = 0

    @guarded
    async def read(self) -> tuple[str, Record]:
        """The revision and record as stored now (or as ``first`` gave them)."""
        m = self._matches
        if self._attempts >= m._config.max_attempts:
            raise Contention(f"match {self._id}: gave up after {self._attempts} races")
        if self._attempts:
            await backoff(self._attempts - 1)
        self._attempts += 1
        loaded, self._first = self._first or await m._load(self._id), None
        if loaded is None:
            raise MatchNotFound(self._id)
        self._read = loaded
        return loaded

    @guarded
    async def write(
        self, record: Record, *, due: Mapping[str, float | None] | None = None
    ) -> str | None:
        """Store ``record`` if the match is still at the revision last read, with the
        deadlines it needs (kind -> time, None to cancel) in the same script: the revision
        written, or None when someone else wrote first (read again)."""
        if self._read is None:
            raise RuntimeError("write before read")
        rev, old = self._read
        self._read = None
        if not isinstance(record, dict):
            raise InvalidRecord(f"a match record is a dict, not {type(record).__name__}")
        self._matches._validate(self._id, record)
        return await self._matches._write(self._id, rev, record, _chats_of(old), due)
