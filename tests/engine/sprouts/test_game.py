"""The Sprouts game object: options, turns, results, records, copies and illegal moves."""

from __future__ import annotations

import json
from typing import Any

import pytest

import engine
from engine import BadOptions, BadRecord, GameOver, IllegalMove
from engine.sprouts import ILLEGAL_CODES, Game
from engine.sprouts.moves import Move


def test_registered_and_options() -> None:
    g = engine.new("sprouts", spots=4, misere=True)
    assert isinstance(g, Game) and g.kind == "sprouts"
    assert g.options == {"spots": 4, "misere": True}
    assert type(g)(**g.options).to_json() == Game(4, misere=True).to_json()
    assert Game.preset("quick").options == {"spots": 3, "misere": False}
    for bad in (0, 13, 2.5, True, "3"):
        with pytest.raises(BadOptions):
            Game(bad)  # type: ignore[arg-type]
    with pytest.raises(BadOptions):
        Game(3, misere="yes")  # type: ignore[arg-type]


def test_drawing_surface() -> None:
    g = Game(3)
    d = g.drawing
    assert [s.number for s in d.spots] == [1, 2, 3]
    assert all(s.lives == 3 for s in d.spots) and d.curves == ()
    g.play(g.parse_move("1-2"))
    d = g.drawing
    assert [s.number for s in d.spots] == [1, 2, 3, 4]
    assert [s.lives for s in d.spots] == [2, 2, 3, 1]
    first, second = d.curves
    assert (first.a, first.b, second.a, second.b) == (1, 4, 4, 2)
    spot = {s.number: (s.x, s.y) for s in d.spots}
    assert first.points[0] == spot[1] and first.points[-1] == spot[4]
    assert second.points[0] == spot[4] and second.points[-1] == spot[2]
    assert g.to_glop() == "1a1a.0"


def _one_spot_game(misere: bool) -> Game:
    g = Game(1, misere=misere)
    g.play(g.parse_move("1-1"))
    g.play(g.parse_move("1-2 @in"))
    return g


def test_normal_play_last_mover_wins() -> None:
    g = _one_spot_game(False)
    assert g.over and g.legal_moves() == []
    assert g.result is not None and g.result.winner == 1 and g.scores == (0, 1)


def test_misere_last_mover_loses() -> None:
    g = _one_spot_game(True)
    assert g.over and g.result is not None and g.result.winner == 0 and g.scores == (1, 0)
    with pytest.raises(GameOver):
        g.play(Move(1, 2))


def test_record_keeps_the_drawing_exactly() -> None:
    g = Game(4)
    for text in ("1-1 [2]", "1-5 @3 ccw", "3-4"):
        g.play(g.parse_move(text))
    d = json.loads(json.dumps(g.to_json()))
    back = Game.from_json(d)
    assert back.drawing.to_json() == g.drawing.to_json()
    assert back.moves == g.moves and back.turn == g.turn
    assert back.legal_moves() == g.legal_moves()
    # the next move draws the same curve on the copy as on the original
    m = g.legal_moves()[0]
    back.play(m)
    g.play(m)
    assert back.to_json() == g.to_json()


@pytest.mark.parametrize(
    "bad",
    [
        {"kind": "sprouts", "v": 1, "spots": 3, "misere": False, "moves": [], "drawing": {}},
        {"kind": "sprouts", "v": 1, "spots": 3, "moves": [[1, 2]], "drawing": None},
        {"kind": "sprouts", "v": 2, "spots": 3, "moves": [], "drawing": {}},
    ],
)
def test_bad_records(bad: dict) -> None:
    with pytest.raises(BadRecord):
        Game.from_json(bad)


def test_record_must_match_its_moves() -> None:
    d = Game(3).to_json()
    d["moves"] = [[1, 2]]
    with pytest.raises(BadRecord):
        Game.from_json(d)


def test_copy_is_independent() -> None:
    g = Game(3)
    c = g.copy()
    c.play(c.legal_moves()[0])
    assert g.ply == 0 and c.ply == 1 and g.drawing.curves == ()


@pytest.mark.parametrize(
    ("move", "code"),
    [
        (None, "not_a_move"),
        ("1-2", "not_a_move"),
        (Move(2, 1), "not_a_move"),
        (Move(1, 9), "no_such_spot"),
        (Move(1, 2, (3,)), "no_such_move"),
    ],
)
def test_illegal_moves_have_codes(move: object, code: str) -> None:
    g = Game(3)
    before = g.to_json()
    with pytest.raises(IllegalMove) as e:
        g.play(move)  # type: ignore[arg-type]
    assert e.value.code == code and code in ILLEGAL_CODES
    assert g.to_json() == before


def test_dead_and_unjoinable_spots() -> None:
    g = Game(2)
    g.play(g.parse_move("1-1"))
    g.play(g.parse_move("1-3 @in"))  # 1 and 3 are dead; 3's loop holds nothing else
    with pytest.raises(IllegalMove) as e:
        g.check(Move(1, 2))
    assert e.value.code == "dead_spot"
    assert g.joinable(2) == sorted(g.joinable(2))
    assert 1 not in g.joinable(2)


def test_keyboard_helpers() -> None:
    g = Game(3)
    assert g.joinable(1) == [1, 2, 3]
    pair = g.moves_between(3, 1)
    assert pair == [g.parse_move("1-3")]
    loops = g.moves_between(2, 2)
    assert [m.inside for m in loops] == [(), (1,), (3,), (1, 3)]
    info = g.describe(loops[1])
    assert info.inside == frozenset({1}) and info.reach == (1, 3)


def test_every_code_has_a_message() -> None:
    for code, text in ILLEGAL_CODES.items():
        assert code and text


def test_a_previewed_curve_is_played_from_a_reloaded_record(monkeypatch) -> None:
    """The bot reloads the game for every tap: the curve drawn for a preview is reused."""
    import engine.sprouts.game as game_module

    g = Game(4)
    g.play(g.legal_moves()[0])
    move = g.legal_moves()[-1]
    preview = g.copy()
    preview.play(move)
    calls: list[tuple[Any, ...]] = []
    real = game_module.draw_move

    def counted(*a: Any) -> Any:
        calls.append(a)
        return real(*a)

    monkeypatch.setattr(game_module, "draw_move", counted)
    later = Game.from_json(json.loads(json.dumps(g.to_json())))
    later.play(move)
    assert calls == []
    assert later.to_json() == preview.to_json()
    other = next(m for m in g.legal_moves() if m != move)
    later = Game.from_json(g.to_json())
    later.play(other)
    assert len(calls) == 1


def test_a_reloaded_record_keeps_what_was_derived_from_its_drawing() -> None:
    """Faces, position and move table are derived once per drawing, not once per tap."""
    g = Game(4)
    g.play(g.legal_moves()[0])
    record = json.dumps(g.to_json())
    first = Game.from_json(json.loads(record))
    moves = first.legal_moves()
    again = Game.from_json(json.loads(record))
    assert again.drawing is first.drawing
    assert again.legal_moves() == moves
    changed = json.loads(record)
    changed["drawing"]["w"] += 1.0  # another drawing: derived on its own
    assert Game.from_json(changed).drawing is not first.drawing


def test_snapshots_are_the_replayed_positions_in_the_present_geometry() -> None:
    import random

    from engine.sprouts.drawing import check_geometry

    rng = random.Random(5)
    g = Game(5)
    while not g.over:
        g.play(rng.choice(g.legal_moves()))
    shots = [(s.ply, s.position.canonical(), s.over) for s in g.snapshots()]
    replayed = [(s.ply, s.position.canonical(), s.over) for s in g.replay()]
    assert shots == replayed
    *_, last = g.snapshots()
    assert last.to_json() == g.to_json()
    for s in g.snapshots():
        check_geometry(s.drawing)
