"""Notation, JSON and SGF records."""

from __future__ import annotations

import pickle
import random

import pytest

from engine import BadNotation, BadRecord
from engine.dots import Game, Move
from engine.dots.sgf import write_sgf

from .helpers import moves


def test_notation_columns_and_rows() -> None:
    g = Game(39, 32)
    assert g.format_move(Move(7, 20)) == "h12"
    assert g.parse_move("h12") == Move(7, 20)
    assert g.parse_move(" H12 ") == Move(7, 20)
    assert g.format_move(Move(0, 31)) == "a1" and g.format_move(Move(0, 0)) == "a32"
    assert g.format_move(Move(25, 0)) == "z32"
    assert g.format_move(Move(26, 0)) == "aa32"  # past z: aa, ab, … am
    assert g.format_move(Move(38, 31)) == "am1"
    assert g.parse_move("AM1") == Move(38, 31)
    for x in range(39):
        for y in range(32):
            assert g.parse_move(g.format_move(Move(x, y))) == Move(x, y)
    for bad in ("an1", "a33", "a0", "ba1", "h", "12", "h12x", "", "h-1"):
        with pytest.raises(BadNotation):
            g.parse_move(bad)
    with pytest.raises(BadNotation):
        Game(9, 9).parse_move("j1")


def test_json_is_compact_for_a_finished_big_game() -> None:
    rng = random.Random(7)
    g = Game.preset("modern")
    order = g.legal_moves()
    rng.shuffle(order)
    for m in order:
        if g.over:
            break
        if g.is_legal(m):
            g.play(m)
    assert g.over and g.ply > 1000
    import json

    text = json.dumps(g.to_json(), separators=(",", ":"))
    assert len(text.encode()) <= 4096
    assert Game.from_json(json.loads(text)).to_json() == g.to_json()


def test_pickle_goes_through_json() -> None:
    g = moves(Game(9, 9), [(4, 4), (4, 3), (3, 4)])
    g2 = pickle.loads(pickle.dumps(g))
    assert g2.to_json() == g.to_json()


def test_bad_json_records() -> None:
    good = moves(Game(7, 7), [(3, 3), (3, 2)]).to_json()
    for bad in (
        {**good, "m": "dddd"},  # the same point twice
        {**good, "m": "ddd"},
        {**good, "m": "zz"},
        {**good, "o": {"width": 3}},
        {**good, "o": "x"},
        {**good, "stop": [9, 0, None]},
        {**good, "end": {"s": "x"}},
        {**good, "kind": "boxes"},
    ):
        with pytest.raises(BadRecord):
            Game.from_json(bad)


def test_sgf_written_and_read() -> None:
    g = moves(Game(5, 5), [(2, 1), (0, 0), (1, 2), (4, 4), (3, 2), (0, 4), (2, 3), (2, 2)])
    text = g.to_sgf()
    assert text.startswith("(;FF[4]GM[40]") and "SZ[5]" in text
    assert ";B[cb];W[aa];B[bc];W[ee];B[dc];W[ae];B[cd];W[cc])" in text
    ringed = g.to_sgf(rings=True)
    # The intruder was caught at once, but the ring is written on A's next move; the game
    # has none yet, so it goes on the last move.
    assert "W[cc.cdsaid]" not in ringed and ".cd" in ringed.split(";")[-1]
    g.resign(1)
    assert "RE[B+R]" in g.to_sgf()
    back = Game.from_sgf(g.to_sgf())
    assert back.to_json() == g.to_json()
    wide = Game(39, 32)
    wide.play(Move(38, 31))
    assert "SZ[39:32]" in wide.to_sgf() and "B[MF]" in wide.to_sgf()
    assert Game.from_sgf(wide.to_sgf()).moves == [Move(38, 31)]
    named = write_sgf(g, players=("hard", "a]b"), comment="seed 7")
    assert "PB[hard]PW[a\\]b]GC[seed 7]" in named
    assert Game.from_sgf(named).to_json() == g.to_json()


def test_sgf_from_elsewhere() -> None:
    text = "(;GM[40]FF[4]CA[UTF-8]SZ[9]C[note [x\\]];B[ed];W[ee]\n;B[fd](;W[fe];B[hd])(;W[aa]))"
    g = Game.from_sgf(text)
    assert g.moves == [Move(4, 3), Move(4, 4), Move(5, 3), Move(5, 4), Move(7, 3)]
    cross = "(;GM[40]FF[4]SZ[12]AB[ff][gg]AW[gf][fg]RE[W+0.5];B[fe])"
    g = Game.from_sgf(cross)
    assert g.start == "cross" and g.cell(5, 5).dot == 0 and g.cell(6, 5).dot == 1
    # One colour moving twice running: the other had called STOP.
    g = Game.from_sgf("(;GM[40]FF[4]SZ[6];B[cc];W[dd];B[cd];B[dc])")
    assert g.stopped_by == 1 and g.stop_ply == 3 and g.turn == 0


@pytest.mark.parametrize(
    "text",
    [
        "",
        "(;GM[1]SZ[9];B[aa])",
        "(;GM[40]SZ[9];B[zz])",
        "(;GM[40]SZ[2];B[aa])",
        "(;GM[40]SZ[9];B[aa];W[aa])",
        "(;GM[40]SZ[9]AB[aa];B[bb])",
        "(;GM[40]SZ[9];B[aa",
        "(;GM[40]SZ[9]RE[Q+];B[aa])",
        "(;GM[40]SZ[9]XS[x];B[aa])",
    ],
)
def test_bad_sgf(text: str) -> None:
    with pytest.raises(BadRecord):
        Game.from_sgf(text)
