"""How a Точки lesson task is proved: a question for the capture prover
(:mod:`engine.dots.tactics`), asked after the person's move, never the stored answer.

- ``capture``: after the move the person forces a capture of ``at_least`` of ``targets``
  (enemy dots; none named: ``at_least`` points of score, dots or territory as the game
  counts) within ``moves`` own moves, the move itself the first, against every defence.
- ``save``: after the move the opponent cannot force a capture of ``at_least`` of
  ``targets`` (the person's dots; none named: any ``at_least``) within ``moves`` of theirs.
- ``secure``: after the move every target is grounded (joined to the board edge by
  horizontal and vertical steps through the person's live dots and captured area), so no
  number of opponent dots can ever capture it, STOP or not: an enemy ring is a polygon
  through enemy dots with sides between neighbouring points; to hold a grounded dot it would
  have to cross the dot's 4-connected path to the edge, and a side meets that path only in a
  point of it, which holds the person's dot, not the enemy's; nor can the ring go round the
  path, whose end on the edge is never inside a ring. The tests also show each tempting wrong
  move loses a target to the opponent moving alone (after STOP) within ``moves`` dots.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, cast

from engine.dots import Game, Move
from engine.dots.tactics import Threat, forced
from engine.lessons.model import Task
from engine.puzzles import Analysis, Verdict

Kind = Literal["capture", "save", "secure"]


@dataclass(frozen=True)
class Proof:
    """The question a task's move must answer yes (see the module's words)."""

    kind: Kind
    moves: int
    targets: tuple[str, ...] = ()  # points in the game's notation
    at_least: int = 1


def _game(task: Task) -> Game:
    return cast(Game, task.start())


def threat(task: Task, proof: Proof) -> Threat:
    """The prover's question: who attacks (the person for ``capture``, else the opponent)."""
    game = _game(task)
    attacker = task.turn if proof.kind == "capture" else 1 - task.turn
    targets = tuple(game.parse_move(t) for t in proof.targets)
    return Threat(attacker, proof.moves, targets, proof.at_least)


def solved(task: Task, proof: Proof, move: Move) -> bool:
    """Whether ``move`` (legal) answers the task's question."""
    game = _game(task)
    if proof.kind == "secure":
        game.play(move)
        safe = game.grounded(task.turn)
        return all(game.parse_move(t) in {Move(x, y) for x, y in safe} for t in proof.targets)
    got = forced(game, threat(task, proof), move)
    return got if proof.kind == "capture" else not got


def verdict(task: Task, proof: Proof, notation: str) -> Verdict | None:
    """The engine's verdict on a move given in notation: 1 proved, 0 not, of 1; None when
    it is not a legal move there."""
    game = _game(task)
    move = _legal(game, notation)
    if move is None:
        return None
    return Verdict(ok := solved(task, proof, move), int(ok), 1)


def analysis(task: Task, proof: Proof) -> Analysis:
    """Every legal move's verdict (1 or 0), the tests' proof that the judge is the engine."""
    game = _game(task)
    values = {game.format_move(m): int(solved(task, proof, m)) for m in game.legal_moves()}
    return Analysis(values, 1)


def _legal(game: Game, notation: Any) -> Move | None:
    try:
        move = game.parse_move(notation)
    except ValueError:
        return None
    return move if game.is_legal(move) else None
