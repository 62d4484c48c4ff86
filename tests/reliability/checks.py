"""What must hold after a run, whatever happened during it.

For every match: the stored move record replays in a fresh engine game to exactly the stored
state; each tap the bot acknowledged as applied is the move the record holds at that tap's
version (nothing acknowledged was lost); each move a person made in the record comes from one
tap of that person at that version with that button (nothing was applied twice or invented);
taps of people without a seat were all refused.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import engine
from bot.match import ui
from bot.match.model import Match
from tests.reliability.people import Board, Tap


@dataclass
class Verdict:
    match: str
    kind: str
    plies: int
    status: str
    accepted: int
    refused: int
    unanswered: int


def replay(record: dict[str, Any]) -> tuple[engine.Game[Any], list[int]]:
    """The stored game rebuilt move by move from a fresh one, and who played each move."""
    stored = engine.load(record["game"])
    fresh = engine.new(record["kind"], **record["opt"])
    movers = []
    for move in stored.moves:
        movers.append(fresh.turn)
        fresh.play(move)
    if fresh.to_json() != stored.to_json():
        raise AssertionError(f"match {record['id']}: the record does not replay to its state")
    return fresh, movers


def decode(record: dict[str, Any], before: engine.Game[Any], code: str) -> Any:
    """The engine move a button code stood for in the position ``before``."""
    match = Match(record["id"], record["kind"], dict(record["opt"]), int(record["np"]))
    match.attach(before.copy())
    return ui.get(record["kind"]).decode(match, code)


def verify(record: dict[str, Any] | None, board: Board, *, exact: bool = True) -> Verdict:
    """Check one match against the taps made on it; ``exact``: every tap was answered (no
    injected faults), so each move by a person has exactly one acknowledged tap."""
    assert record is not None, f"match {board.id} is gone from Redis"
    game, movers = replay(record)
    seats = record["seats"]
    ply = game.ply
    v0 = int(record["version"]) - ply  # moves are the only version bumps after the start
    positions = [engine.new(record["kind"], **record["opt"])]
    for move in game.moves:
        nxt = positions[-1].copy()
        nxt.play(move)
        positions.append(nxt)

    # Moves made of selection steps (Рассада: spot, spot, maybe a preview) are acknowledged
    # tap by tap; there only the replay, the seats and "some tap of the mover" are checked.
    steps = record["kind"] == "sprouts"
    moves = [t for t in board.taps if t.op == "p" or (steps and t.op == "c")]
    seated = {s.get("u") for s in seats if not s.get("ai")}
    by_version: dict[int, list[Tap]] = {}
    for tap in moves:
        by_version.setdefault(tap.version, []).append(tap)
        if tap.user not in seated:
            assert tap.popup is None or not tap.accepted, (
                f"match {board.id}: a tap by {tap.user}, who has no seat, was accepted"
            )
    accepted = [t for t in moves if t.accepted]
    for tap in [] if steps else accepted:
        k = tap.version - v0
        assert 0 <= k < ply, f"match {board.id}: accepted tap {tap.data} is not in the record"
        expected = game.moves[k]
        got = decode(record, positions[k], tap.code)
        assert got == expected, (
            f"match {board.id}: accepted tap {tap.data} at ply {k} but the record has "
            f"{positions[k].format_move(expected)}"
        )
        assert seats[movers[k]].get("u") == tap.user, f"match {board.id}: wrong mover at {k}"
    versions = [t.version for t in accepted]
    assert steps or len(versions) == len(set(versions)), (
        f"match {board.id}: two taps acknowledged at one version: {sorted(versions)}"
    )
    for k, seat_index in enumerate(movers):
        seat = seats[seat_index]
        if seat.get("ai"):
            continue
        made = [
            t
            for t in by_version.get(v0 + k, [])
            if t.user == seat.get("u")
            and (steps or decode(record, positions[k], t.code) == game.moves[k])
        ]
        assert made, (
            f"match {board.id}: move {k} ({positions[k].format_move(game.moves[k])}) by a "
            "person matches no tap of theirs"
        )
    if exact and not steps:
        human = sum(1 for i in movers if not seats[i].get("ai"))
        assert len(accepted) == human, (
            f"match {board.id}: {len(accepted)} taps acknowledged, {human} moves by people; "
            + "; ".join(f"{t.data} by {t.user}: {(t.popup or {}).get('text')!r}" for t in moves)
        )
    return Verdict(
        board.id,
        record["kind"],
        ply,
        record["status"],
        len(accepted),
        sum(1 for t in moves if t.popup is not None and not t.accepted),
        sum(1 for t in moves if t.popup is None),
    )
