"""Redis fails over under play: the scaled deployment (deploy/docker-compose.scale.yml) as
real processes on this machine.

A primary, its replica and three sentinels (tests/fixtures/sentinel.py); two bot replicas
in webhook mode behind the proxy, with ``WORKERS=queue`` and the ``redis+sentinel://`` URL;
two ``tetrad worker`` processes on the same URL thinking the bots' moves, drawing the
replays and routing the Рассада curves. Matches of every way to play (groups with a
spectator, link challenges, games against the bot) race taps; mid-round the primary is
SIGKILLed and the sentinels promote the replica. Afterwards every acknowledged tap is its
move exactly once in the stored record, every record replays in the engine to its stored
state, every match plays on to its end, and no tap is answered as a dead button.

Printed: the promotion's time, the time to recovery (SIGKILL → the first acknowledged tap
made after it), the taps refused or never answered in between, the longest wait for an
acknowledgement, and the acknowledged-move loss (asserted 0 by the checks). Short form:
Boxes and Рассада (they end in a few dozen moves), 6 matches; full form (``TETRAD_FULL=1``):
40 matches of all three games.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter
from pathlib import Path

import storage
from bot.i18n import t as tr
from bot.settings import LANGUAGES
from playground.server import Emulator
from tests.fixtures.sentinel import Deployment
from tests.reliability.checks import verify
from tests.reliability.cluster import Cluster
from tests.reliability.conftest import FULL, scale
from tests.reliability.fleet import Fleet
from tests.reliability.games import make_matches
from tests.reliability.people import Board, ObservedWorld, Tap
from tests.reliability.test_faults import rounds

KINDS = None if FULL else ("boxes", "sprouts")
TO_THE_END = 400  # moves: more than any game of the suite has (a 15×15 Dots game: 225)


def taps_after(boards: list[Board], since: float) -> list[Tap]:
    return sorted((t for b in boards for t in b.taps if t.at >= since), key=lambda t: t.at)


async def test_two_bots_and_two_workers_ride_out_a_failover(
    emu: Emulator, world: ObservedWorld, sentinels: Deployment, tmp_path: Path
) -> None:
    n = scale(6, 40)
    rng = random.Random(31)
    t0 = time.monotonic()
    fleet = Fleet(sentinels.url)
    await fleet.queue.connect()
    try:
        fleet.start()
        fleet.start()
        await fleet.ready(2)
        async with Cluster(emu, sentinels.url, tmp_path, 2, WORKERS="queue") as cluster:
            boards = await make_matches(world, n, "fo", kinds=KINDS)
            await rounds(boards, 1, rng)
            # The primary dies in the middle of a round; the round plays on through it.
            playing = asyncio.ensure_future(rounds(boards, 3, rng))
            await asyncio.sleep(0.5)
            jobs_before = await cluster.metric("tetrad_queue_jobs_total")
            waited = await cluster.metric("tetrad_replica_wait_seconds_count")
            unacked = await cluster.metric("tetrad_replica_wait_timeouts_total")
            killed = time.perf_counter()
            sentinels.primary.stop(hard=True)  # SIGKILL
            promotion = await asyncio.to_thread(sentinels.wait_promoted, sentinels.replica)
            await playing
            # Every match plays on to its end, in racing rounds: taps delayed through the
            # promotion are still landing, so a tap can find its board moved on ("look
            # again", and it is made again), as people's do.
            await rounds(boards, TO_THE_END, rng)
            for b in boards:
                await b.collect_popups(timeout=10)
            async with await storage.connect(sentinels.url) as store:
                records = [await store.matches.get(b.id) for b in boards]
            queued = await cluster.metric("tetrad_queue_jobs_total")
            fell_back = {
                (job, reason): await cluster.metric(
                    "tetrad_queue_fallbacks_total", job=job, reason=reason
                )
                for job in ("think", "replay", "route")
                for reason in ("no_worker", "timeout", "failed", "error")
            }
    finally:
        fleet.stop()
        await fleet.queue.disconnect()

    # Nothing acknowledged is lost or doubled, nothing is invented, every record replays.
    verdicts = [verify(r, b, exact=False) for r, b in zip(records, boards, strict=True)]
    assert all(v.status == "finished" for v in verdicts), [
        (v.match, v.kind, v.status) for v in verdicts if v.status != "finished"
    ]

    after = taps_after(boards, killed)
    answered = world.watch.answered_at
    recovered = next(
        (answered[t.query] - killed for t in after if t.accepted and t.query in answered), None
    )
    assert recovered is not None, "no tap was acknowledged after the failover"
    window = [t for t in after if t.at <= killed + recovered]
    # taps made before the recovery and acknowledged after the SIGKILL: how long they waited
    waits = [
        answered[t.query] - t.at
        for b in boards
        for t in b.taps
        if t.accepted and t.at < killed + recovered and answered.get(t.query, 0) > killed
    ]
    refused = Counter((t.popup or {}).get("text") for t in window if t.popup and not t.accepted)
    # the bot's error answer (the store gave up) against the ordinary refusals of a race
    failed = sum(refused.pop(tr(lang, "err.internal"), 0) for lang in LANGUAGES)
    stale = {tr(lang, "err.stale") for lang in LANGUAGES}
    later = taps_after(boards, killed + recovered)
    look_again = sum(1 for t in later if (t.popup or {}).get("text") in stale)
    print(
        f"\nfailover: {n} matches ({sum(v.accepted for v in verdicts)} acknowledged taps, "
        f"{sum(v.plies for v in verdicts)} moves in all), 2 bots, 2 workers; "
        f"promotion {promotion:.1f} s after the SIGKILL, recovery {recovered:.1f} s "
        f"(first acknowledged tap made after it); in between {len(window)} taps: "
        f"{failed} answered with the bot's error, {sum(refused.values())} refused as "
        f"usual in a race ({dict(refused)}), "
        f"{sum(1 for t in window if t.popup is None)} never answered; {len(waits)} taps "
        f"acknowledged late, after up to {max(waits):.1f} s; acknowledged-move loss 0; "
        f"after the recovery {look_again} of {len(later)} taps found their board moved on; "
        f"before the SIGKILL {waited:.0f} writes waited for the replica, {unacked:.0f} in "
        f"vain; "
        f"queue jobs {queued:.0f} answered by the workers, done by the bots "
        f"{ {k: v for k, v in fell_back.items() if v} }; "
        f"{time.monotonic() - t0:.0f} s"
    )
    # Every board was shown before the SIGKILL and every tap is on a button it showed: none
    # may be refused as a dead button ("This button does not work any more"), the answer to
    # a button the match cannot have (a board whose record lost its place or its state).
    dead = {tr(lang, "err.bad_button") for lang in LANGUAGES}
    dead_taps = [
        (b.id, t.data, f"{t.at - killed:+.1f} s")
        for b in boards
        for t in b.taps
        if (t.popup or {}).get("text") in dead
    ]
    assert not dead_taps, f"taps answered as dead buttons (tap, time from the SIGKILL): {dead_taps}"
    assert jobs_before > 0, "the workers did none of the bots' jobs"
    assert queued > jobs_before, "the workers did no job after the failover"
