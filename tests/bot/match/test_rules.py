"""The rules behind the table's cells that one row cannot show: how a game ends and who wins,
stale buttons and redelivered updates, move input, keyboard steps, draws among several
players and against the bot, the bot's own STOP, rematches and link challenges."""

from __future__ import annotations

import pytest

from bot.match import actions, links, lobby
from bot.match.actions import Actor, Refused
from bot.match.model import Match
from engine.boxes import Move as Line
from engine.dots import Move as Point
from tests.bot.match.builders import (
    ALICE,
    BOB,
    CAROL,
    EVE,
    GROUP,
    KINDS,
    OPTIONS,
    STATES,
    T0,
    active,
    apply,
    finished,
    first_move,
    lobby_of,
    offered,
    refusal,
    said,
    stopped,
    vs_bot,
)

# -- how a game ends -----------------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_resigning_gives_the_win_to_the_other(kind: str) -> None:
    match = active(kind)
    apply(match, ALICE, actions.Resign(confirmed=True), now=T0 + 5)
    res = match.game.result
    assert res is not None and (res.winner, res.loser, res.reason) == (1, 0, "resign")
    assert match.turn_since == T0 + 5 and match.updated == T0 + 5


@pytest.mark.parametrize("kind", KINDS)
def test_an_accepted_draw_is_a_draw_whatever_the_score(kind: str) -> None:
    match = offered(kind)
    apply(match, ALICE, actions.AnswerDraw(accept=True))
    res = match.game.result
    assert res is not None and res.draw and res.reason == "agreement"
    assert "draw" not in match.extra


def test_dots_end_here_lets_the_scores_decide() -> None:
    match = _alice_captured(vs_bot_game=False)
    apply(match, BOB, actions.OfferDraw(scores=True))
    assert match.extra.get("end_scores") is True
    apply(match, ALICE, actions.AnswerDraw(accept=True))
    res = match.game.result
    assert res is not None and (res.winner, res.reason) == (0, "agreement")


def test_dots_done_after_stop_scores_decide() -> None:
    match = stopped("dots")
    apply(match, ALICE, first_move(match))
    assert said(apply(match, ALICE, actions.Done())) == ["Refresh", "Finished"]
    res = match.game.result
    assert res is not None and res.reason == "stop" and match.game.ply == 1


def test_dots_grounding_on_own_turn_only() -> None:
    match = active("dots", options={**OPTIONS["dots"], "grounding": True})
    assert refusal(match, BOB, actions.Ground()) == "illegal.dots.not_your_turn"
    assert said(apply(match, ALICE, actions.Ground())) == ["Refresh", "Finished"]
    res = match.game.result
    assert res is not None and res.reason == "ground"


# -- stale buttons and redelivered updates ---------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_a_button_of_an_older_version_is_stale(kind: str) -> None:
    match = active(kind)
    shown = match.version
    apply(match, ALICE, first_move(match), version=shown)
    assert refusal(match, BOB, actions.Resign(confirmed=True), version=shown) == "err.stale"
    assert said(apply(match, BOB, actions.Resign(confirmed=True), version=match.version)) == [
        "Refresh",
        "Finished",
    ]


@pytest.mark.parametrize("kind", KINDS)
def test_keyboard_steps_keep_buttons_valid(kind: str) -> None:
    """Opening the menu bumps nothing (the other buttons stay good) and is no activity."""
    match = active(kind)
    shown = match.version
    apply(match, BOB, actions.Cursor("menu"), version=shown, now=T0 + 30)
    assert match.version == shown and match.updated == T0
    assert match.places[0].cursor.get("menu") == 1
    apply(match, BOB, actions.Cursor("back"), version=shown)
    assert "menu" not in match.places[0].cursor
    apply(match, ALICE, first_move(match), version=shown, now=T0 + 40)
    assert match.updated == T0 + 40


def test_the_same_request_twice_is_already_applied() -> None:
    match = active("dots")
    apply(match, ALICE, first_move(match), request="cq1")
    with pytest.raises(actions.AlreadyApplied) as caught:
        apply(match, ALICE, first_move(match), request="cq1")
    assert caught.value.match is match and match.game.ply == 1
    # a refused request is not remembered: the same id may come back and be refused again
    assert refusal(match, ALICE, first_move(match), request="cq2") == "err.not_your_turn"
    assert refusal(match, ALICE, first_move(match), request="cq2") == "err.not_your_turn"
    apply(match, BOB, first_move(match), request="cq2")
    assert match.game.ply == 2 and match.extra["rq"] == "cq2"


# -- move input ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "code"),
    [("dots", "3.4"), ("boxes", "h0.0"), ("sprouts", "1.2.0")],
)
def test_a_move_button_plays_its_move(kind: str, code: str) -> None:
    match = active(kind)
    assert said(apply(match, ALICE, actions.Play(code=code))) == ["Refresh"]
    assert match.game.ply == 1 and match.game.turn == 1


@pytest.mark.parametrize(
    ("kind", "code"),
    [
        ("dots", "3"),
        ("dots", "10.0"),  # off the 10×10 board
        ("boxes", "x0.0"),
        ("boxes", "h9.9"),
        ("sprouts", "1.2"),
        ("sprouts", "1.2.5"),  # there is one curve from 1 to 2 at the start
    ],
)
def test_a_malformed_move_button_is_a_bad_button(kind: str, code: str) -> None:
    assert refusal(active(kind), ALICE, actions.Play(code=code)) == "err.bad_button"


@pytest.mark.parametrize(
    ("kind", "text", "key"),
    [
        ("dots", "zz", "err.bad_notation"),
        ("boxes", "zz", "err.bad_notation"),
        ("sprouts", "zz", "err.bad_notation"),
        ("boxes", "a1-a1", "illegal.boxes.not_adjacent"),  # notation with a reason of its own
    ],
)
def test_typed_moves_that_do_not_parse(kind: str, text: str, key: str) -> None:
    assert refusal(active(kind), ALICE, actions.Play(text=text)) == key


def test_an_illegal_move_is_refused_with_the_engine_reason() -> None:
    match = active("dots")
    apply(match, ALICE, actions.Play(code="0.0"))
    assert refusal(match, BOB, actions.Play(code="0.0")) == "illegal.dots.occupied"


def test_a_move_closes_menus_and_confirmations_and_lets_an_offer_lapse() -> None:
    match = offered("dots")
    apply(match, ALICE, actions.Cursor("menu"))
    apply(match, BOB, actions.Resign(confirmed=False))
    assert match.places[0].cursor.get("confirm") == ["resign", BOB.user]
    apply(match, ALICE, first_move(match), now=T0 + 9)
    assert "menu" not in match.places[0].cursor and "confirm" not in match.places[0].cursor
    assert "draw" not in match.extra and match.turn_since == T0 + 9


def test_boxes_a_closed_box_keeps_the_turn_and_its_clock() -> None:
    """Closing a box gives the same player another move; the turn (and its clock) goes on."""
    match = active("boxes")
    for who, line in ((ALICE, "h0.0"), (BOB, "h3.2"), (ALICE, "v0.0"), (BOB, "v2.3")):
        apply(match, who, actions.Play(code=line))
    apply(match, ALICE, actions.Play(code="h1.0"), now=T0 + 10)  # box (0, 0) has three sides now
    assert match.game.turn == 1 and match.turn_since == T0 + 10
    assert said(apply(match, BOB, actions.Play(code="v0.1"), now=T0 + 20)) == ["Refresh"]
    assert match.game.scores == (0, 1) and match.game.turn == 1
    assert match.turn_since == T0 + 10, "an extra move is the same turn"


# -- keyboard steps --------------------------------------------------------------------------


def test_dots_window_steps_off_turn_only_on_ones_own_board() -> None:
    """The Dots window may be moved by any player on a board of their own, but a group's
    shared board belongs to the player to move."""
    big = {"width": 20, "height": 20}
    match = active("dots", options=big)
    assert refusal(match, BOB, actions.Cursor("l")) == "err.not_your_turn"
    assert said(apply(match, ALICE, actions.Cursor("l"))) == ["Refresh@0"]
    link = links.new_challenge(
        match_id="k", kind="dots", options=big, creator=ALICE, chat=ALICE.user, lang="en", now=T0
    )
    links.join_by_link(link, BOB, BOB.user, "en", T0)
    assert [p.seat for p in link.places] == [0, 1]
    assert said(apply(link, BOB, actions.Cursor("l"), place=1)) == ["Refresh@1"]  # Bob's own board
    assert link.places[1].cursor["w"] != link.places[0].cursor.get("w")


def test_sprouts_selection_belongs_to_the_player_to_move_and_auto_plays() -> None:
    match = active("sprouts")
    assert refusal(match, BOB, actions.Cursor("s1")) == "err.not_your_turn"
    assert said(apply(match, ALICE, actions.Cursor("s1"))) == ["Refresh@0"]
    assert match.version == 2 and match.game.ply == 0
    # 1 and 2 are joined by one curve only: choosing 2 plays it
    assert said(apply(match, ALICE, actions.Cursor("s2"))) == ["Refresh"]
    assert match.game.ply == 1 and match.places[0].cursor == {}


def test_a_sprouts_step_from_a_keyboard_older_than_the_selection_is_stale() -> None:
    """Two taps racing on one keyboard (spots 1 and 3 tapped at once): the first chooses 1,
    the second joins 1 to 1, so a spot tapped on the keyboard shown before that is out of
    date, not broken."""
    match = active("sprouts")
    apply(match, ALICE, actions.Cursor("s1"))
    apply(match, ALICE, actions.Cursor("s1"))  # a loop: 4 curves, so a preview, no move
    assert match.places[0].cursor == {"a": 1, "b": 1, "i": 0} and match.game.ply == 0
    assert refusal(match, ALICE, actions.Cursor("s3")) == "err.stale"
    assert said(apply(match, ALICE, actions.Cursor("n"))) == ["Refresh@0"]
    assert refusal(match, ALICE, actions.Cursor("s")) == "err.bad_button"  # no such button


@pytest.mark.parametrize("place", [None, 1, -1])
def test_a_keyboard_step_needs_a_place_of_the_match(place: int | None) -> None:
    assert refusal(active("dots"), ALICE, actions.Cursor("menu"), place=place) == "err.bad_button"


def test_resign_asks_first_and_only_the_asker_confirms() -> None:
    match = active("boxes")
    assert refusal(match, BOB, actions.Resign(confirmed=False), place=None) == "err.bad_button"
    apply(match, BOB, actions.Resign(confirmed=False))
    assert refusal(match, ALICE, actions.Resign(confirmed=True)) == "err.not_your_confirm"
    apply(match, BOB, actions.Cursor("back"))
    assert "confirm" not in match.places[0].cursor
    assert said(apply(match, BOB, actions.Resign(confirmed=True))) == ["Refresh", "Finished"]


# -- draws among several players and against the bot ------------------------------------------


def test_boxes_draw_among_three_needs_every_human() -> None:
    match = lobby_of("boxes", players=3)
    apply(match, BOB, actions.Join())
    apply(match, CAROL, actions.Join())
    assert match.status == "active"
    got = said(apply(match, CAROL, actions.OfferDraw()))
    assert got == [
        "Refresh",
        "Popup draw.offered",
        "Notify Alice draw.offer_to_you",
        "Notify Bob draw.offer_to_you",
    ]
    assert said(apply(match, ALICE, actions.AnswerDraw(accept=True))) == ["Refresh"]
    assert match.extra["draw"] == [0, 2] and match.status == "active"
    assert refusal(match, ALICE, actions.AnswerDraw(accept=True)) == "err.own_offer"
    assert said(apply(match, BOB, actions.AnswerDraw(accept=True))) == ["Refresh", "Finished"]
    res = match.game.result
    assert res is not None and res.draw and res.reason == "agreement"


def _alice_captured(*, vs_bot_game: bool) -> Match:
    """Dots: Alice's four dots around the second player's first one: Alice leads 1:0, and it
    is the second player's turn."""
    match = vs_bot("dots") if vs_bot_game else active("dots")
    second = [(4, 4), (8, 8), (8, 6)]
    for i, (x, y) in enumerate([(4, 3), (3, 4), (5, 4), (4, 5)]):
        apply(match, ALICE, actions.Play(code=f"{x}.{y}"))
        if i < len(second):
            text = match.game.format_move(Point(*second[i]))
            if vs_bot_game:
                apply(match, None, actions.AIMove(seat=1, move=text))
            else:
                apply(match, BOB, actions.Play(text=text))
    assert match.game.scores == (1, 0) and match.game.turn == 1
    return match


def _bot_captured() -> Match:
    """Dots: the bot's four dots around Alice's first one: the bot leads 0:1, its turn."""
    match = vs_bot("dots")
    for mine, (x, y) in zip(
        [(4, 4), (8, 8), (8, 6), (6, 8)], [(4, 3), (3, 4), (5, 4), (4, 5)], strict=True
    ):
        apply(match, ALICE, actions.Play(code=f"{mine[0]}.{mine[1]}"))
        apply(match, None, actions.AIMove(seat=1, move=match.game.format_move(Point(x, y))))
    apply(match, ALICE, actions.Play(code="2.8"))
    assert match.game.scores == (0, 1) and match.game.turn == 1
    return match


def _bot_took_a_box() -> Match:
    """Boxes: the bot closes box (0, 0) and moves again; it leads 0:1, Alice to move."""
    match = vs_bot("boxes")
    bot = [Line("h", 3, 2), Line("v", 2, 3), Line("v", 0, 1), Line("h", 0, 2)]
    for i, line in enumerate(("h0.0", "v0.0", "h1.0")):
        apply(match, ALICE, actions.Play(code=line))
        apply(match, None, actions.AIMove(seat=1, move=match.game.format_move(bot[i])))
    apply(
        match, None, actions.AIMove(seat=1, move=match.game.format_move(bot[3]))
    )  # its extra move
    assert match.game.scores == (0, 1) and match.game.turn == 0
    return match


def test_the_bot_refuses_a_draw_when_it_leads() -> None:
    match = _bot_took_a_box()
    assert refusal(match, ALICE, actions.OfferDraw()) == "draw.bot_declines"
    assert said(apply(match, ALICE, actions.Resign(confirmed=True))) == ["Refresh", "Finished"]


def test_the_bot_ends_here_only_when_not_behind() -> None:
    match = _alice_captured(vs_bot_game=True)
    assert refusal(match, ALICE, actions.OfferDraw(scores=True)) == "end_here.bot_declines"
    assert said(apply(match, ALICE, actions.OfferDraw())) == ["Refresh", "Finished"]  # a draw: yes
    res = match.game.result
    assert res is not None and res.draw


# -- the bot's own STOP ---------------------------------------------------------------------------


def test_the_bot_calls_stop_and_says_why_in_each_chat() -> None:
    match = _bot_captured()  # the bot's turn, one ahead
    got = apply(match, None, actions.AIMove(seat=1, move=actions.AI_STOP), now=T0 + 50)
    assert said(got) == ["Refresh", "Say stop.bot_called"]
    say = got[1]
    assert say.chat == ALICE.user  # type: ignore[union-attr]
    lead = say.text.params["lead"]  # type: ignore[union-attr]
    assert lead.key == "count.points" and lead.params["n"] == 1  # a plural: "1 point", "2 points"
    assert say.text.params["minutes"] == 3  # type: ignore[union-attr]
    assert match.extra["stop_lead"] == 1 and match.extra["stop_limit"] == 180
    assert match.game.turn == 0 and match.game.deadline == T0 + 50 + 180  # type: ignore[attr-defined]
    assert (
        refusal(match, None, actions.AIMove(seat=1, move=actions.AI_DONE)) == "err.stale"
    )  # Alice's phase
    assert said(apply(match, ALICE, actions.Done())) == ["Refresh", "Finished"]


def test_after_a_persons_stop_the_bot_ends_its_phase_itself() -> None:
    match = vs_bot("dots")
    apply(match, ALICE, first_move(match))
    assert said(apply(match, None, actions.AIMove(seat=1, move=actions.AI_STOP))) == [
        "Refresh",
        "Say stop.bot_called",
    ]
    other = vs_bot("dots")
    assert said(apply(other, ALICE, actions.Stop())) == ["Refresh", "AITurn"]
    apply(other, None, actions.AIMove(seat=1, move=first_move(other).text or ""))
    assert refusal(other, ALICE, actions.Done()) == "err.not_your_turn"  # the bot moves alone
    assert said(apply(other, None, actions.AIMove(seat=1, move=actions.AI_DONE))) == [
        "Refresh",
        "Finished",
    ]
    res = other.game.result
    assert res is not None and res.reason == "stop"


# -- lobby details ----------------------------------------------------------------------------


def test_a_lobby_seats_bots_and_starts_when_full() -> None:
    match = lobby_of("boxes", players=3)
    assert said(apply(match, ALICE, actions.AddBot("hard"))) == ["Refresh"]
    assert (match.status, len(match.seats)) == ("lobby", 2)
    assert said(apply(match, BOB, actions.Join())) == ["Refresh"]
    assert match.status == "active" and [s.level for s in match.seats] == [None, "hard", None]


def test_start_early_shrinks_the_game_to_the_players_seated() -> None:
    match = lobby_of("boxes", players=4)
    apply(match, BOB, actions.Join())
    assert said(apply(match, ALICE, actions.Start())) == ["Refresh"]
    assert match.players == 2 and match.options["players"] == 2 and match.game.players == 2


def test_a_lobby_with_only_bots_left_is_cancelled() -> None:
    match = lobby_of("boxes", players=3)
    apply(match, ALICE, actions.AddBot("easy"))
    apply(match, ALICE, actions.Leave())
    assert match.status == "finished" and match.extra["cancelled"] is True
    assert refusal(match, EVE, actions.Join()) == "err.finished"


# -- rematch ------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_a_rematch_rotates_the_seats_and_starts_at_once(kind: str) -> None:
    old = finished(kind)
    old.extra["clock"] = 300
    shown = old.version
    new = lobby.rematch(old, BOB, "m2", T0 + 60)
    assert old.extra["rematch"] == "m2" and old.version == shown + 1
    assert [s.user for s in new.seats] == [BOB.user, ALICE.user]
    assert new.creator == BOB.user and new.extra == {"clock": 300}
    assert [(p.chat, p.group) for p in new.places] == [(GROUP, True)]
    assert said(lobby.start(new, T0 + 60)) == ["Refresh"]
    assert new.status == "active" and new.game.turn == 0 and new.turn_since == T0 + 60
    with pytest.raises(Refused) as again:
        lobby.rematch(old, ALICE, "m3", T0 + 61)
    assert again.value.text.key == "err.rematch_started"


def test_a_rematch_against_the_bot_lets_the_bot_begin() -> None:
    old = vs_bot("dots")
    apply(old, ALICE, actions.Resign(confirmed=True))
    new = lobby.rematch(old, ALICE, "m2", T0)
    assert [s.is_ai for s in new.seats] == [True, False]
    assert said(lobby.start(new, T0)) == ["AITurn"]


@pytest.mark.parametrize(
    ("state", "who", "key"),
    [
        ("active", ALICE, "err.no_rematch"),
        ("lobby", ALICE, "err.no_rematch"),
        ("cancelled", ALICE, "err.no_rematch"),
        ("finished", EVE, "err.not_a_player"),
    ],
)
def test_who_may_ask_for_a_rematch(state: str, who: Actor, key: str) -> None:
    old = STATES[state]("dots")
    before = old.to_json()
    with pytest.raises(Refused) as caught:
        lobby.rematch(old, who, "m2", T0)
    assert caught.value.text.key == key and old.to_json() == before


def test_rematch_places_follow_their_players() -> None:
    """A link game's boards belong to seats: after the rotation each still shows its player."""
    link = links.new_challenge(
        match_id="k",
        kind="boxes",
        options=OPTIONS["boxes"],
        creator=ALICE,
        chat=ALICE.user,
        lang="en",
        now=T0,
    )
    links.join_by_link(link, BOB, BOB.user, "ru", T0)
    apply(link, ALICE, actions.Resign(confirmed=True), place=0)
    new = lobby.rematch(link, ALICE, "m2", T0)
    assert [(p.chat, p.seat, p.lang) for p in new.places] == [
        (ALICE.user, 1, "en"),
        (BOB.user, 0, "ru"),
    ]


# -- link challenges ----------------------------------------------------------------------------


def test_who_may_take_a_link_challenge() -> None:
    link = links.new_challenge(
        match_id="k", kind="dots", options=OPTIONS["dots"], creator=ALICE, chat=1, lang="en", now=T0
    )
    with pytest.raises(Refused) as own:
        links.join_by_link(link, ALICE, ALICE.user, "en", T0)
    assert own.value.text.key == "link.own"
    assert said(links.join_by_link(link, BOB, BOB.user, "en", T0)) == ["Refresh"]
    assert link.status == "active"
    with pytest.raises(Refused) as taken:
        links.join_by_link(link, EVE, EVE.user, "en", T0)
    assert taken.value.text.key == "link.taken"
    apply(link, BOB, actions.Resign(confirmed=True), place=1)
    with pytest.raises(Refused) as closed:
        links.join_by_link(link, EVE, EVE.user, "en", T0)
    assert closed.value.text.key == "link.closed"


# -- three players ---------------------------------------------------------------------------


def test_three_players_move_in_seat_order_and_a_resignation_ends_it() -> None:
    match = lobby_of("boxes", players=3)
    apply(match, BOB, actions.Join())
    apply(match, CAROL, actions.Join())
    for who, others in ((ALICE, (BOB, CAROL)), (BOB, (ALICE, CAROL)), (CAROL, (ALICE, BOB))):
        for other in others:
            assert refusal(match, other, first_move(match)) == "err.not_your_turn"
        apply(match, who, first_move(match))
    assert match.game.turn == 0
    assert said(apply(match, CAROL, actions.Resign(confirmed=True))) == ["Refresh", "Finished"]
    res = match.game.result
    assert res is not None and res.loser == 2 and res.reason == "resign"
