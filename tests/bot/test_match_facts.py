"""The match layer takes what differs between games from the engine's facts (and the game
UIs), never from the game's name: which buttons a board offers, how many seats a lobby has,
which AI levels the menus list, the record's format. Pure: no Redis, no emulator."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path
from typing import Any

import pytest

import engine
from bot.i18n import t
from bot.match import ending, lobby, menus, records, views
from bot.match.actions import Actor, Refused
from bot.match.model import Match
from tests.bot.helpers import group_match

ALICE, BOB = Actor(1, "Alice"), Actor(2, "Bob")
MATCH_LAYER = Path(__file__).resolve().parents[2] / "bot" / "match"


def _match(kind: str, options: dict[str, Any], ai: str | None = "easy", moves: int = 2) -> Match:
    return group_match(kind, options, ai=ai, moves=moves, seed=1, creator=ALICE)


def _texts(match: Match, menu: bool = False) -> set[str]:
    match.places[0].cursor = {"menu": 1} if menu else {}
    return {b.text for row in views.keyboard(match, 0) for b in row}  # type: ignore[misc]


def _btn(key: str) -> str:
    return t("en", key)


def _named_kind(node: ast.expr) -> bool:
    name = node.id if isinstance(node, ast.Name) else getattr(node, "attr", None)
    return name == "kind"


def _literal(node: ast.expr) -> bool:
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return any(_literal(e) for e in node.elts)
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def _kind_compares(tree: ast.AST) -> list[int]:
    """Lines that compare something named ``kind`` with a game's name (``kind == "dots"``,
    ``match.kind in ("dots", "boxes")``…); a registry lookup (``kind in _REGISTRY``) is not
    a branch."""
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            sides = (node.left, *node.comparators)
            if any(_named_kind(s) for s in sides) and any(_literal(s) for s in sides):
                lines.append(node.lineno)
    return lines


def test_the_match_layer_never_branches_on_the_game_kind() -> None:
    found = {}
    for path in sorted(MATCH_LAYER.rglob("*.py")):
        lines = _kind_compares(ast.parse(path.read_text(), str(path)))
        if lines:
            found[path.name] = lines
    assert not found, f"compares on the game kind: {found}"


def test_the_check_finds_a_kind_branch() -> None:
    code = "if match.kind == 'dots': pass\nx = kind in ('boxes',)\ny = kind in KINDS"
    assert _kind_compares(ast.parse(code)) == [1, 2]


def test_menu_lists_every_registered_game() -> None:
    assert sorted(menus.KINDS.values()) == sorted(engine.GAMES)


@pytest.mark.parametrize("kind", sorted(engine.GAMES))
def test_menu_offers_the_games_levels(kind: str) -> None:
    code = next(c for c, k in menus.KINDS.items() if k == kind)
    path = menus.QUICK[code].rsplit(".", 1)[0]
    screen = menus.screen(7, f"{path}.o", private=True)
    assert isinstance(screen, menus.Screen)
    levels = engine.facts_of(kind).levels
    bots = [b.text.key for row in screen.keyboard for b in row if b.text.key.startswith("menu.vs_")]  # type: ignore[union-attr]
    assert bots[: len(levels)] == [f"menu.vs_{lv}" for lv in levels]
    assert all(len(row) <= 3 for row in screen.keyboard)  # a phone's width
    codes = menus.level_codes(kind)
    assert sorted(codes.values()) == sorted(levels)  # one letter each
    for code, level in codes.items():
        choice = menus.screen(7, f"{path}.a{code}", private=True)
        assert isinstance(choice, menus.Choice) and choice.ai_level == level


def test_bench_levels_are_not_the_bots() -> None:
    with pytest.raises(Refused):
        _match("dots", {"width": 6, "height": 6}, ai="classic-hard")
    m = _match("boxes", {"rows": 2, "cols": 2, "players": 3}, ai=None)
    with pytest.raises(Refused):
        lobby.add_bot(m, ALICE, "mcts-fresh", 1.0)


def test_seats_come_from_the_facts() -> None:
    assert lobby.seat_count("boxes", {"players": 3}) == 3
    assert lobby.seat_count("boxes", {}) == 2
    assert lobby.seat_count("dots", {"players": 3}) == 2  # Dots has no such option
    assert lobby.seat_count("sprouts", {}) == 2


def test_only_a_game_with_a_range_of_players_starts_early() -> None:
    three = _match("boxes", {"rows": 2, "cols": 2, "players": 3}, ai=None)
    assert _btn("btn.start_now") in _texts(three)
    with pytest.raises(Refused):
        lobby.start_early(three, ALICE, 1.0)  # alone
    lobby.join(three, BOB, 1.0)
    assert _btn("btn.start_now") in _texts(three)
    lobby.start_early(three, ALICE, 2.0)
    assert three.status == "active" and three.players == 2
    two = _match("dots", {"width": 6, "height": 6}, ai=None)
    assert _btn("btn.start_now") not in _texts(two)
    with pytest.raises(Refused):
        lobby.start_early(two, ALICE, 1.0)


def test_menu_buttons_follow_the_extra_actions() -> None:
    dots = _texts(_match("dots", {"width": 6, "height": 6}), menu=True)
    assert {_btn("btn.stop"), _btn("btn.end_here"), _btn("btn.half_draw")} <= dots
    assert _btn("btn.ground") not in dots and _btn("btn.offer_draw") not in dots
    grounded = _texts(_match("dots", {"width": 6, "height": 6, "grounding": True}), menu=True)
    assert _btn("btn.ground") in grounded
    for kind, options in (("boxes", {"rows": 2, "cols": 2}), ("sprouts", {"spots": 3})):
        other = _texts(_match(kind, options), menu=True)
        assert _btn("btn.offer_draw") in other
        assert not {_btn("btn.stop"), _btn("btn.end_here"), _btn("btn.ground")} & other


def test_the_facts_not_the_name_decide(monkeypatch: pytest.MonkeyPatch) -> None:
    """Take STOP and grounding out of Dots' facts: their buttons and actions go with them."""
    cls = engine.game_class("dots")
    facts = dataclasses.replace(cls.facts, extras=frozenset({engine.Extra.DRAW}))
    monkeypatch.setattr(cls, "facts", facts)
    m = _match("dots", {"width": 6, "height": 6, "grounding": True})
    texts = _texts(m, menu=True)
    assert _btn("btn.offer_draw") in texts
    assert not {_btn("btn.stop"), _btn("btn.ground"), _btn("btn.end_here")} & texts
    for act in (
        lambda: ending.stop(m, ALICE, 1.0, 180.0),
        lambda: ending.ground(m, ALICE, 1.0),
        lambda: ending.offer_draw(m, ALICE, 1.0, scores=True),
    ):
        with pytest.raises(Refused):
            act()
    assert m.status == "active"


def test_stop_phase_shows_done_and_ends() -> None:
    m = _match("dots", {"width": 6, "height": 6}, ai=None)
    lobby.join(m, BOB, 0.0)
    ending.stop(m, ALICE, 10.0, 180.0)
    assert _btn("btn.done") in _texts(m)
    assert _btn("btn.stop") not in _texts(m, menu=True)
    with pytest.raises(Refused):
        ending.done(m, ALICE, 11.0)  # the caller of STOP does not tap Done
    ending.done(m, BOB, 12.0)
    assert m.status == "finished" and m.game.result is not None
    assert m.game.result.reason == "stop"


def test_scores_shown_only_where_scored() -> None:
    boxes = views.caption(_match("boxes", {"rows": 2, "cols": 2}), _match_place())
    sprouts = views.caption(_match("sprouts", {"spots": 3}), _match_place())
    assert "— 0" in boxes and "— 0" not in sprouts


def _match_place() -> Any:
    from bot.match.model import Place

    return Place(chat=-100, lang="en", group=True)


@pytest.mark.parametrize(
    ("kind", "options", "suffix"),
    [
        ("dots", {"width": 6, "height": 6}, "sgf"),
        ("boxes", {"rows": 2, "cols": 2}, "txt"),
        ("sprouts", {"spots": 2}, "txt"),
    ],
)
def test_record_file_in_the_games_format(kind: str, options: dict[str, Any], suffix: str) -> None:
    m = _match(kind, options, moves=3)
    ending.resign(m, ALICE, True, None, 5.0)
    name, data = records.record_file(m)
    assert name == f"tetrad-abcdEFGH.{suffix}"
    game = records.read_record(name, data)
    assert game.kind == kind and game.moves == m.game.moves
