"""Who may do what, when: every action in every state of a match, for the three games.

Each row is one rule: in STATE, WHO asks for ACTION, and the match layer answers either with
a refusal (``!key``, the popup's catalog key; the match is left as it was) or with effects,
then the status and how much the version moved (buttons carry it: +0 leaves them valid).
Effects are spelt as in :func:`tests.bot.match.builders.said`. States (builders.STATES):
``active`` and ``vs bot`` have Alice to move; ``offer`` is Bob's draw offer on Alice's turn;
``stop`` is Bob's STOP on Alice's turn (she moves alone); ``finished`` is Bob's resignation.
"""

from __future__ import annotations

from typing import Any

import pytest

import engine
from bot.match import actions
from bot.match.actions import Action
from bot.match.model import Match
from tests.bot.match.builders import KINDS, OPTIONS, STATES, WHO, apply, refusal, said

ALL = "dots boxes sprouts"
NOT_DOTS = "boxes sprouts"

FIXED: dict[str, Action] = {
    "Join": actions.Join(),
    "Leave": actions.Leave(),
    "Start": actions.Start(),
    "AddBot": actions.AddBot("easy"),
    "AddBot?": actions.AddBot("grandmaster"),
    "Cancel": actions.Cancel(),
    "Menu": actions.Cursor("menu"),
    "Resign?": actions.Resign(confirmed=False),
    "Resign!": actions.Resign(confirmed=True),
    "OfferDraw": actions.OfferDraw(),
    "EndHere": actions.OfferDraw(scores=True),
    "Accept": actions.AnswerDraw(accept=True),
    "Decline": actions.AnswerDraw(accept=False),
    "Stop": actions.Stop(),
    "Done": actions.Done(),
    "Ground": actions.Ground(),
    "ClaimTime": actions.ClaimTime(),
    "Tick": actions.Tick(),
}

# kinds, state, who, action, expected
RULES: list[tuple[str, str, str, str, str]] = [
    # -- a lobby: Alice alone in a two-seat lobby ---------------------------------------
    (ALL, "lobby", "bob", "Join", "Refresh | active +2"),  # the last seat starts the game
    (ALL, "lobby", "alice", "Join", "!err.already_joined"),
    (ALL, "lobby", "alice", "Leave", "Refresh | finished +1"),  # the last human leaves
    (ALL, "lobby", "bob", "Leave", "!err.not_joined"),
    (ALL, "lobby", "alice", "Start", "!err.need_players"),
    (ALL, "lobby", "bob", "Start", "!err.creator_only"),
    (ALL, "lobby", "alice", "AddBot", "Refresh | active +2"),  # Alice moves first
    (ALL, "lobby", "alice", "AddBot?", "!err.bad_button"),
    (ALL, "lobby", "bob", "AddBot", "!err.join_first"),
    (ALL, "lobby", "alice", "Cancel", "Refresh | finished +1"),
    (ALL, "lobby", "bob", "Cancel", "!err.creator_only"),
    (ALL, "lobby", "alice", "Play", "!err.not_started"),
    (ALL, "lobby", "alice", "Menu", "!err.not_started"),
    (ALL, "lobby", "alice", "Resign!", "!err.not_started"),
    (ALL, "lobby", "alice", "Resign?", "!err.not_started"),
    (ALL, "lobby", "alice", "OfferDraw", "!err.not_started"),
    (ALL, "lobby", "alice", "EndHere", "!err.not_started"),
    (ALL, "lobby", "alice", "Accept", "!err.not_started"),
    (ALL, "lobby", "alice", "Decline", "!err.not_started"),
    (ALL, "lobby", "alice", "Stop", "!err.not_started"),
    (ALL, "lobby", "alice", "Done", "!err.not_started"),
    (ALL, "lobby", "alice", "Ground", "!err.not_started"),
    (ALL, "lobby", "alice", "ClaimTime", "!err.not_started"),
    (ALL, "lobby", "bot", "AIMove", "!err.not_started"),
    (ALL, "lobby", "bot", "Tick", "- | lobby +0"),
    # -- a three-seat Boxes lobby with Alice and Bob: the creator may start it early ------
    ("boxes", "lobby 2/3", "alice", "Start", "Refresh | active +1"),
    ("boxes", "lobby 2/3", "bob", "Start", "!err.creator_only"),
    ("boxes", "lobby 2/3", "carol", "Join", "Refresh | active +2"),
    ("boxes", "lobby 2/3", "carol", "Leave", "!err.not_joined"),
    ("boxes", "lobby 2/3", "bob", "Leave", "Refresh | lobby +1"),
    ("boxes", "lobby 2/3", "alice", "AddBot", "Refresh | active +2"),
    ("boxes", "lobby 2/3", "bob", "AddBot", "Refresh | active +2"),  # any seated player
    # -- active, Alice to move --------------------------------------------------------------
    (ALL, "active", "eve", "Join", "!err.already_started"),
    (ALL, "active", "alice", "Leave", "!err.already_started"),
    (ALL, "active", "alice", "Start", "!err.already_started"),
    (ALL, "active", "alice", "AddBot", "!err.already_started"),
    (ALL, "active", "alice", "Cancel", "!err.already_started"),
    (ALL, "active", "alice", "Play", "Refresh | active +1"),
    (ALL, "active", "bob", "Play", "!err.not_your_turn"),
    (ALL, "active", "eve", "Play", "!err.not_a_player"),
    (ALL, "active", "bot", "Play", "!err.not_a_player"),  # no actor: only AIMove is the bot's
    (ALL, "active", "alice", "Menu", "Refresh@0 | active +0"),
    (ALL, "active", "bob", "Menu", "Refresh@0 | active +0"),  # the menu is open on any turn
    (ALL, "active", "eve", "Menu", "!err.not_a_player"),
    (ALL, "active", "bob", "Resign?", "Refresh@0 | active +0"),  # only asks "really?"
    (ALL, "active", "bob", "Resign!", "Refresh, Finished | finished +1"),
    (ALL, "active", "eve", "Resign!", "!err.not_a_player"),
    (
        ALL,
        "active",
        "alice",
        "OfferDraw",
        "Refresh, Popup draw.offered, Notify Bob draw.offer_to_you | active +1",
    ),
    (
        ALL,
        "active",
        "bob",
        "OfferDraw",
        "Refresh, Popup draw.offered, Notify Alice draw.offer_to_you | active +1",
    ),
    (
        "dots",
        "active",
        "alice",
        "EndHere",
        "Refresh, Popup end_here.offered, Notify Bob end_here.offer_to_you | active +1",
    ),
    (NOT_DOTS, "active", "alice", "EndHere", "!err.bad_button"),
    (ALL, "active", "eve", "OfferDraw", "!err.not_a_player"),
    (ALL, "active", "alice", "Accept", "!err.no_draw_offer"),
    (ALL, "active", "alice", "Decline", "!err.no_draw_offer"),
    ("dots", "active", "alice", "Stop", "Refresh | active +1"),
    ("dots", "active", "bob", "Stop", "Refresh | active +1"),  # STOP is tied to no turn
    (NOT_DOTS, "active", "alice", "Stop", "!err.bad_button"),
    (ALL, "active", "alice", "Done", "!err.bad_button"),  # nobody called STOP
    ("dots", "active", "alice", "Ground", "!illegal.dots.no_grounding"),
    (NOT_DOTS, "active", "alice", "Ground", "!err.bad_button"),
    (ALL, "active", "bob", "ClaimTime", "!err.not_expired"),
    (ALL, "active", "alice", "ClaimTime", "!err.claim_own"),
    (ALL, "active", "eve", "ClaimTime", "!err.not_a_player"),
    (ALL, "active", "bot", "AIMove", "!err.stale"),  # no bot seat
    (ALL, "active", "bot", "Tick", "- | active +0"),
    # -- active, Bob to move ---------------------------------------------------------------
    (ALL, "bob's turn", "alice", "Play", "!err.not_your_turn"),
    (ALL, "bob's turn", "bob", "Play", "Refresh | active +1"),
    (ALL, "bob's turn", "alice", "Resign!", "Refresh, Finished | finished +1"),
    (ALL, "bob's turn", "alice", "ClaimTime", "!err.not_expired"),
    (ALL, "bob's turn", "bob", "ClaimTime", "!err.claim_own"),
    ("dots", "bob's turn", "alice", "Stop", "Refresh | active +1"),
    (ALL, "bob's turn", "bot", "Tick", "- | active +0"),
    # -- Bob's draw offer pending, Alice to move --------------------------------------------
    (ALL, "offer", "alice", "Accept", "Refresh, Finished | finished +1"),
    (ALL, "offer", "alice", "Decline", "Refresh, Popup draw.declined | active +1"),
    (ALL, "offer", "bob", "Accept", "!err.own_offer"),
    (ALL, "offer", "bob", "Decline", "Refresh | active +1"),  # Bob withdraws his offer
    (ALL, "offer", "eve", "Accept", "!err.not_a_player"),
    (ALL, "offer", "alice", "OfferDraw", "!err.draw_pending"),
    (ALL, "offer", "bob", "OfferDraw", "!err.draw_pending"),
    ("dots", "offer", "alice", "EndHere", "!err.draw_pending"),
    (ALL, "offer", "alice", "Play", "Refresh | active +1"),  # a move lets the offer lapse
    ("dots", "offer", "bob", "Stop", "Refresh | active +1"),  # so does STOP
    (ALL, "offer", "bob", "Resign!", "Refresh, Finished | finished +1"),
    (ALL, "offer", "bot", "Tick", "- | active +0"),
    # -- Dots: Bob called STOP on Alice's turn; Alice moves alone ----------------------------
    ("dots", "stop", "alice", "Play", "Refresh | active +1"),
    ("dots", "stop", "bob", "Play", "!err.not_your_turn"),
    ("dots", "stop", "alice", "Done", "Refresh, Finished | finished +1"),
    ("dots", "stop", "bob", "Done", "!err.not_your_turn"),
    ("dots", "stop", "eve", "Done", "!err.not_a_player"),
    ("dots", "stop", "alice", "Stop", "!illegal.dots.already_stopped"),
    ("dots", "stop", "bob", "Stop", "!illegal.dots.already_stopped"),
    ("dots", "stop", "alice", "Resign!", "Refresh, Finished | finished +1"),
    ("dots", "stop", "bob", "Menu", "Refresh@0 | active +0"),
    (
        "dots",
        "stop",
        "alice",
        "OfferDraw",
        "Refresh, Popup draw.offered, Notify Bob draw.offer_to_you | active +1",
    ),
    ("dots", "stop", "bob", "ClaimTime", "!err.not_expired"),
    ("dots", "stop", "bot", "AIMove", "!err.stale"),
    ("dots", "stop", "bot", "AI_DONE", "!err.stale"),  # no bot seat
    ("dots", "stop", "bot", "AI_STOP", "!err.stale"),
    ("dots", "stop", "alice", "Accept", "!err.no_draw_offer"),
    ("dots", "stop", "alice", "Ground", "!illegal.dots.no_grounding"),
    ("dots", "stop", "bot", "Tick", "- | active +0"),  # three minutes not yet over
    # -- finished: Bob resigned -------------------------------------------------------------
    (ALL, "finished", "eve", "Join", "!err.finished"),
    (ALL, "finished", "alice", "Leave", "!err.finished"),
    (ALL, "finished", "alice", "Start", "!err.finished"),
    (ALL, "finished", "alice", "AddBot", "!err.finished"),
    (ALL, "finished", "alice", "Cancel", "!err.finished"),
    (ALL, "finished", "alice", "Play", "!err.finished"),
    (ALL, "finished", "alice", "Menu", "!err.finished"),
    (ALL, "finished", "alice", "Resign!", "!err.finished"),
    (ALL, "finished", "alice", "Resign?", "!err.finished"),
    (ALL, "finished", "alice", "OfferDraw", "!err.finished"),
    (ALL, "finished", "alice", "EndHere", "!err.finished"),
    (ALL, "finished", "alice", "Accept", "!err.finished"),
    (ALL, "finished", "alice", "Decline", "!err.finished"),
    (ALL, "finished", "alice", "Stop", "!err.finished"),
    (ALL, "finished", "alice", "Done", "!err.finished"),
    (ALL, "finished", "alice", "Ground", "!err.finished"),
    (ALL, "finished", "alice", "ClaimTime", "!err.finished"),
    (ALL, "finished", "bot", "AIMove", "!err.finished"),
    (ALL, "finished", "bot", "Tick", "- | finished +0"),
    # -- a lobby closed by its creator --------------------------------------------------------
    (ALL, "cancelled", "bob", "Join", "!err.finished"),
    (ALL, "cancelled", "alice", "Cancel", "!err.finished"),
    (ALL, "cancelled", "alice", "Play", "!err.finished"),
    (ALL, "cancelled", "bot", "Tick", "- | finished +0"),
    # -- Alice against the bot, her turn -------------------------------------------------------
    (ALL, "vs bot", "alice", "Play", "AITurn | active +1"),
    (ALL, "vs bot", "alice", "Join", "!err.already_started"),
    (ALL, "vs bot", "eve", "Play", "!err.not_a_player"),
    (ALL, "vs bot", "bot", "AIMove", "!err.stale"),  # not the bot's turn
    (ALL, "vs bot", "alice", "OfferDraw", "Refresh, Finished | finished +1"),  # 0:0, it agrees
    ("dots", "vs bot", "alice", "EndHere", "Refresh, Finished | finished +1"),
    ("dots", "vs bot", "alice", "Stop", "Refresh, AITurn | active +1"),
    (ALL, "vs bot", "alice", "Resign!", "Refresh, Finished | finished +1"),
    (ALL, "vs bot", "bot", "Tick", "- | active +0"),  # a private game: no ping
    (ALL, "vs bot", "alice", "ClaimTime", "!err.claim_own"),
    ("dots", "vs bot", "alice", "Done", "!err.bad_button"),
    # -- the bot to move ---------------------------------------------------------------------
    (ALL, "bot's turn", "bot", "AIMove", "Refresh | active +1"),
    (ALL, "bot's turn", "alice", "Play", "!err.not_your_turn"),
    (ALL, "bot's turn", "alice", "Menu", "Refresh@0 | active +0"),
    ("dots", "bot's turn", "bot", "AI_STOP", "Refresh, Say stop.bot_called | active +1"),
    ("dots", "bot's turn", "bot", "AI_DONE", "!err.stale"),  # nobody called STOP
    (NOT_DOTS, "bot's turn", "bot", "AI_STOP", "!err.bad_button"),
    (ALL, "bot's turn", "alice", "ClaimTime", "!err.not_expired"),  # no clock for the bot
    ("dots", "bot's turn", "alice", "Stop", "Refresh, AITurn | active +1"),  # it moves alone
    (ALL, "bot's turn", "bot", "Tick", "- | active +0"),
    # -- Dots: Alice called STOP against the bot; it moves alone -------------------------------
    ("dots", "bot alone", "bot", "AIMove", "AITurn | active +1"),  # and again
    ("dots", "bot alone", "bot", "AI_DONE", "Refresh, Finished | finished +1"),
    ("dots", "bot alone", "bot", "AI_STOP", "!illegal.dots.already_stopped"),
    ("dots", "bot alone", "alice", "Play", "!err.not_your_turn"),
    ("dots", "bot alone", "alice", "Done", "!err.not_your_turn"),
    ("dots", "bot alone", "bot", "Tick", "- | active +0"),
    # -- the remaining cells: the actions of other phases, asked for in each state ------------
    # (lobby actions once a game runs, moves and endings in a lobby or a cancelled match, the
    # menu and the other player's buttons on each turn, against the bot and in its STOP run)
    ("boxes", "lobby 2/3", "alice", "AddBot?", "!err.bad_button"),
    ("boxes", "lobby 2/3", "alice", "Cancel", "Refresh | finished +1"),
    ("boxes", "lobby 2/3", "alice", "Menu", "!err.not_started"),
    ("boxes", "lobby 2/3", "alice", "Resign?", "!err.not_started"),
    ("boxes", "lobby 2/3", "alice", "Resign!", "!err.not_started"),
    ("boxes", "lobby 2/3", "alice", "OfferDraw", "!err.not_started"),
    ("boxes", "lobby 2/3", "alice", "EndHere", "!err.not_started"),
    ("boxes", "lobby 2/3", "alice", "Accept", "!err.not_started"),
    ("boxes", "lobby 2/3", "alice", "Decline", "!err.not_started"),
    ("boxes", "lobby 2/3", "alice", "Stop", "!err.not_started"),
    ("boxes", "lobby 2/3", "alice", "Done", "!err.not_started"),
    ("boxes", "lobby 2/3", "alice", "Ground", "!err.not_started"),
    ("boxes", "lobby 2/3", "alice", "ClaimTime", "!err.not_started"),
    ("boxes", "lobby 2/3", "alice", "Tick", "- | lobby +0"),
    ("boxes", "lobby 2/3", "alice", "Play", "!err.not_started"),
    ("boxes", "lobby 2/3", "bot", "AIMove", "!err.not_started"),
    (ALL, "active", "alice", "AddBot?", "!err.already_started"),
    (ALL, "bob's turn", "eve", "Join", "!err.already_started"),
    (ALL, "bob's turn", "bob", "Leave", "!err.already_started"),
    (ALL, "bob's turn", "bob", "Start", "!err.already_started"),
    (ALL, "bob's turn", "bob", "AddBot", "!err.already_started"),
    (ALL, "bob's turn", "bob", "AddBot?", "!err.already_started"),
    (ALL, "bob's turn", "bob", "Cancel", "!err.already_started"),
    (ALL, "bob's turn", "bob", "Menu", "Refresh@0 | active +0"),
    (ALL, "bob's turn", "bob", "Resign?", "Refresh@0 | active +0"),
    (
        ALL,
        "bob's turn",
        "bob",
        "OfferDraw",
        "Refresh, Popup draw.offered, Notify Alice draw.offer_to_you | active +1",
    ),
    (
        "dots",
        "bob's turn",
        "bob",
        "EndHere",
        "Refresh, Popup end_here.offered, Notify Alice end_here.offer_to_you | active +1",
    ),
    ("boxes sprouts", "bob's turn", "bob", "EndHere", "!err.bad_button"),
    (ALL, "bob's turn", "bob", "Accept", "!err.no_draw_offer"),
    (ALL, "bob's turn", "bob", "Decline", "!err.no_draw_offer"),
    (ALL, "bob's turn", "bob", "Done", "!err.bad_button"),
    ("dots", "bob's turn", "bob", "Ground", "!illegal.dots.no_grounding"),
    ("boxes sprouts", "bob's turn", "bob", "Ground", "!err.bad_button"),
    (ALL, "bob's turn", "bot", "AIMove", "!err.stale"),
    (ALL, "offer", "eve", "Join", "!err.already_started"),
    (ALL, "offer", "alice", "Leave", "!err.already_started"),
    (ALL, "offer", "alice", "Start", "!err.already_started"),
    (ALL, "offer", "alice", "AddBot", "!err.already_started"),
    (ALL, "offer", "alice", "AddBot?", "!err.already_started"),
    (ALL, "offer", "alice", "Cancel", "!err.already_started"),
    (ALL, "offer", "alice", "Menu", "Refresh@0 | active +0"),
    (ALL, "offer", "alice", "Resign?", "Refresh@0 | active +0"),
    (ALL, "offer", "alice", "Done", "!err.bad_button"),
    ("dots", "offer", "alice", "Ground", "!illegal.dots.no_grounding"),
    ("boxes sprouts", "offer", "alice", "Ground", "!err.bad_button"),
    (ALL, "offer", "alice", "ClaimTime", "!err.claim_own"),
    (ALL, "offer", "bot", "AIMove", "!err.stale"),
    ("dots", "stop", "eve", "Join", "!err.already_started"),
    ("dots", "stop", "alice", "Leave", "!err.already_started"),
    ("dots", "stop", "alice", "Start", "!err.already_started"),
    ("dots", "stop", "alice", "AddBot", "!err.already_started"),
    ("dots", "stop", "alice", "AddBot?", "!err.already_started"),
    ("dots", "stop", "alice", "Cancel", "!err.already_started"),
    ("dots", "stop", "alice", "Resign?", "Refresh@0 | active +0"),
    (
        "dots",
        "stop",
        "alice",
        "EndHere",
        "Refresh, Popup end_here.offered, Notify Bob end_here.offer_to_you | active +1",
    ),
    ("dots", "stop", "alice", "Decline", "!err.no_draw_offer"),
    (ALL, "finished", "alice", "AddBot?", "!err.finished"),
    (ALL, "cancelled", "alice", "Leave", "!err.finished"),
    (ALL, "cancelled", "alice", "Start", "!err.finished"),
    (ALL, "cancelled", "alice", "AddBot", "!err.finished"),
    (ALL, "cancelled", "alice", "AddBot?", "!err.finished"),
    (ALL, "cancelled", "alice", "Menu", "!err.finished"),
    (ALL, "cancelled", "alice", "Resign?", "!err.finished"),
    (ALL, "cancelled", "alice", "Resign!", "!err.finished"),
    (ALL, "cancelled", "alice", "OfferDraw", "!err.finished"),
    (ALL, "cancelled", "alice", "EndHere", "!err.finished"),
    (ALL, "cancelled", "alice", "Accept", "!err.finished"),
    (ALL, "cancelled", "alice", "Decline", "!err.finished"),
    (ALL, "cancelled", "alice", "Stop", "!err.finished"),
    (ALL, "cancelled", "alice", "Done", "!err.finished"),
    (ALL, "cancelled", "alice", "Ground", "!err.finished"),
    (ALL, "cancelled", "alice", "ClaimTime", "!err.finished"),
    (ALL, "cancelled", "bot", "AIMove", "!err.finished"),
    (ALL, "vs bot", "alice", "Leave", "!err.already_started"),
    (ALL, "vs bot", "alice", "Start", "!err.already_started"),
    (ALL, "vs bot", "alice", "AddBot", "!err.already_started"),
    (ALL, "vs bot", "alice", "AddBot?", "!err.already_started"),
    (ALL, "vs bot", "alice", "Cancel", "!err.already_started"),
    (ALL, "vs bot", "alice", "Menu", "Refresh@0 | active +0"),
    (ALL, "vs bot", "alice", "Resign?", "Refresh@0 | active +0"),
    (ALL, "vs bot", "alice", "Accept", "!err.no_draw_offer"),
    (ALL, "vs bot", "alice", "Decline", "!err.no_draw_offer"),
    ("dots", "vs bot", "alice", "Ground", "!illegal.dots.no_grounding"),
    ("boxes sprouts", "vs bot", "alice", "Ground", "!err.bad_button"),
    (ALL, "bot's turn", "eve", "Join", "!err.already_started"),
    (ALL, "bot's turn", "alice", "Leave", "!err.already_started"),
    (ALL, "bot's turn", "alice", "Start", "!err.already_started"),
    (ALL, "bot's turn", "alice", "AddBot", "!err.already_started"),
    (ALL, "bot's turn", "alice", "AddBot?", "!err.already_started"),
    (ALL, "bot's turn", "alice", "Cancel", "!err.already_started"),
    (ALL, "bot's turn", "alice", "Resign?", "Refresh@0 | active +0"),
    (ALL, "bot's turn", "alice", "Resign!", "Refresh, Finished | finished +1"),
    (ALL, "bot's turn", "alice", "OfferDraw", "Refresh, Finished | finished +1"),
    ("dots", "bot's turn", "alice", "EndHere", "Refresh, Finished | finished +1"),
    ("boxes sprouts", "bot's turn", "alice", "EndHere", "!err.bad_button"),
    (ALL, "bot's turn", "alice", "Accept", "!err.no_draw_offer"),
    (ALL, "bot's turn", "alice", "Decline", "!err.no_draw_offer"),
    (ALL, "bot's turn", "alice", "Done", "!err.bad_button"),
    ("dots", "bot's turn", "alice", "Ground", "!illegal.dots.no_grounding"),
    ("boxes sprouts", "bot's turn", "alice", "Ground", "!err.bad_button"),
    ("dots", "bot alone", "eve", "Join", "!err.already_started"),
    ("dots", "bot alone", "alice", "Leave", "!err.already_started"),
    ("dots", "bot alone", "alice", "Start", "!err.already_started"),
    ("dots", "bot alone", "alice", "AddBot", "!err.already_started"),
    ("dots", "bot alone", "alice", "AddBot?", "!err.already_started"),
    ("dots", "bot alone", "alice", "Cancel", "!err.already_started"),
    ("dots", "bot alone", "alice", "Menu", "Refresh@0 | active +0"),
    ("dots", "bot alone", "alice", "Resign?", "Refresh@0 | active +0"),
    ("dots", "bot alone", "alice", "Resign!", "Refresh, Finished | finished +1"),
    ("dots", "bot alone", "alice", "OfferDraw", "Refresh, Finished | finished +1"),
    ("dots", "bot alone", "alice", "EndHere", "Refresh, Finished | finished +1"),
    ("dots", "bot alone", "alice", "Accept", "!err.no_draw_offer"),
    ("dots", "bot alone", "alice", "Decline", "!err.no_draw_offer"),
    ("dots", "bot alone", "alice", "Stop", "!illegal.dots.already_stopped"),
    ("dots", "bot alone", "alice", "Ground", "!illegal.dots.no_grounding"),
    ("dots", "bot alone", "alice", "ClaimTime", "!err.not_expired"),
    # Dots-only actions asked for in the other two games: no such button
    ("boxes sprouts", "bob's turn", "bob", "Stop", "!err.bad_button"),
    ("boxes sprouts", "offer", "alice", "EndHere", "!err.bad_button"),
    ("boxes sprouts", "offer", "alice", "Stop", "!err.bad_button"),
    ("boxes sprouts", "vs bot", "alice", "EndHere", "!err.bad_button"),
    ("boxes sprouts", "vs bot", "alice", "Stop", "!err.bad_button"),
    ("boxes sprouts", "vs bot", "alice", "Done", "!err.bad_button"),
    ("boxes sprouts", "bot's turn", "alice", "Stop", "!err.bad_button"),
]


def _action(name: str, kind: str, match: Match) -> Action:
    if name in FIXED:
        return FIXED[name]
    live = match.status == "active"
    game = match.game if live else engine.new(kind, **OPTIONS[kind])
    text = game.format_move(game.legal_moves()[0])
    if name == "Play":
        return actions.Play(text=text)
    move = {"AIMove": text, "AI_STOP": actions.AI_STOP, "AI_DONE": actions.AI_DONE}[name]
    return actions.AIMove(seat=game.turn, move=move)


def _rows() -> list[Any]:
    rows = []
    seen = set()
    for kinds, state, who, action, expected in RULES:
        for kind in kinds.split():
            assert kind in KINDS
            key = (kind, state, who, action)
            assert key not in seen, f"two rules for {key}"
            seen.add(key)
            rows.append(pytest.param(kind, state, who, action, expected, id="-".join(key)))
    return rows


@pytest.mark.parametrize(("kind", "state", "who", "action", "expected"), _rows())
def test_rule(kind: str, state: str, who: str, action: str, expected: str) -> None:
    match = STATES[state](kind)
    actor = WHO[who]
    act = _action(action, kind, match)
    if expected.startswith("!"):
        assert refusal(match, actor, act) == expected[1:]
        return
    effects, outcome = expected.split(" | ")
    status, bump = outcome.split(" +")
    before = match.version
    got = said(apply(match, actor, act))
    assert got == ([] if effects == "-" else effects.split(", "))
    assert (match.status, match.version - before) == (status, int(bump))


def test_every_action_in_every_state_has_a_rule() -> None:
    """The table above is the coverage: each action is ruled on in each state, for every game
    the state exists in (STOP phases are Dots only; the three-seat lobby is Boxes)."""
    names = {*FIXED, "Play", "AIMove"}
    ruled: dict[tuple[str, str], set[str]] = {}
    for kinds, state, _who, action, _ in RULES:
        for kind in kinds.split():
            ruled.setdefault((kind, state), set()).add(action)
    assert {state for _, state in ruled} == set(STATES)
    for (kind, state), done in ruled.items():
        assert names <= done, (kind, state, sorted(names - done))
