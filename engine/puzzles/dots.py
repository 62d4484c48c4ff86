"""Точки puzzles: "capture in N" and "save in N" (N ≤ 3) with a unique winning first move, cut
from bot-vs-bot games at each level and from random games on a 15×15 board, found by the
forcing-sequence prover (:mod:`engine.dots.forcing`) and proved by the exact search
(:func:`exact`, on :mod:`engine.dots.tactics`), which also sees quiet moves.

A puzzle's ``values``: 1 for the right first move, 0 for a wrong one (every legal move not
listed is wrong too). Its ``plan`` is the whole solution for the bot (notation throughout):

- ``kind`` "capture" or "save", ``n`` the depth, ``k`` the dots to capture (1);
- ``node``: the person's position, ``{"ok": {move: step}, "no": {move: reason}}``; a step is
  ``{}`` when the move reaches the goal (solved), else ``{"r": the bot's reply (the prover's
  best defence), "n": the next node}``; a reason is the line that refutes the move (for a
  capture: the defender's reply that holds; for a save: the opponent's capturing line).
  A wrong move not in ``no`` threatens nothing (a capture) or lets the capture through (a
  save).

The prover has no clock (every budget is counted in its nodes), so a seed gives the same bank.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable, Iterator
from typing import Any

from engine.dots import Game, Move
from engine.dots.ai import choose_move
from engine.dots.forcing import Proof, prove_capture, prove_save
from engine.dots.tactics import Threat, forced
from engine.puzzles import Analysis, Puzzle, cuts

PREFIX = "d"
SIZE = 15  # 15×15: the whole board reads on a phone, and the keyboard's window shows the action
MIN_PLY = 14  # fewer dots leave nothing to read
SOURCES = ("easy", "medium", "hard", "random")
HARD_ITERATIONS = 120  # the hard level by playouts, not by the clock (reproducible)
MAX_NO = 6  # refutations kept per node besides the tempting one
# The most share of the bank each kind may take (``kind_of``): a random or weak game leaves a
# dot one move from capture far more often than it leaves a ladder.
SHARES = {"save in 1": 0.3, "capture in 1": 0.25}


def _play(game: Game, line: tuple[Move, ...]) -> Game:
    g = game.copy()
    for m in line:
        g.play(m)
    return g


def capture_node(game: Game, left: int, proof: Proof | None = None) -> dict[str, Any]:
    """The person's node (see the module's docstring): every move that still captures within
    ``left`` with the bot's reply, and the refutation of each other forcing try."""
    proof = proof if proof is not None else prove_capture(game, left)
    assert proof is not None
    ok: dict[str, Any] = {}
    for m, line in proof.lines.items():
        if len(line) == 1:
            ok[game.format_move(m)] = {}
        else:
            after = _play(game, line[:2])
            ok[game.format_move(m)] = {
                "r": game.format_move(line[1]),
                "n": capture_node(after, left - 1),
            }
    return {"ok": ok, "no": _refutations(game, left, set(proof.moves))}


def _refutations(game: Game, left: int, right: set[Move]) -> dict[str, list[str]]:
    """The defender's holding reply to each forcing try that fails (nearest the right move
    first, at most :data:`MAX_NO`); none for a move that threatens nothing, nor in a capture
    in 1 (a failing move captures nothing)."""
    if left <= 1:
        return {}
    out: dict[str, list[str]] = {}
    for m in _tries(game, right):
        if len(out) == MAX_NO:
            break
        after = _play(game, (m,))
        if not _threat_points(after):
            continue  # it threatens nothing: the bot says so without a line
        held = prove_save(after, left - 1, most=0)
        if held.moves and not forced(after, Threat(game.turn, left - 1), held.moves[0]):
            out[game.format_move(m)] = [game.format_move(held.moves[0])]  # holds every attack
    return out


def _tries(game: Game, right: set[Move]) -> list[Move]:
    """The moves a solver is drawn to: free points next to the right move's neighbourhood,
    nearest first (the wrong ones only)."""
    xs = [m.x for m in right]
    ys = [m.y for m in right]
    cx, cy = sum(xs) / len(xs), sum(ys) / len(ys)
    near = [
        m
        for m in game.legal_moves()
        if m not in right and max(abs(m.x - cx), abs(m.y - cy)) <= 2.5 and _touches(game, m)
    ]
    return sorted(near, key=lambda m: (abs(m.x - cx) + abs(m.y - cy), m.y, m.x))


def _touches(game: Game, m: Move) -> bool:
    """A dot of either player next to the point."""
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            x, y = m.x + dx, m.y + dy
            if 0 <= x < game.width and 0 <= y < game.height and game.cell(x, y).dot is not None:
                return True
    return False


def hint_of(game: Game, proof: Proof) -> str:
    """What the first move does: captures at once, makes two threats at once (the double),
    starts a chase of single threats (the ladder)."""
    if proof.depth == 1:
        return "capture"
    return "double" if _threat_points(_play(game, proof.line[:1])) >= 2 else "ladder"


def _threat_points(game: Game) -> int:
    """How many points the player not to move would capture at (if it were their move)."""
    proof = prove_capture(game, 1, attacker=1 - game.turn)
    return 0 if proof is None else len(proof.moves)


def exact(game: Game, plan: dict[str, Any]) -> str | None:
    """What is wrong with a puzzle by the exact search (:mod:`engine.dots.tactics`: every
    attacker point, every defence), None if nothing: the forcing prover behind a plan sees
    only forcing attacks, so a quiet first move that also wins, or a save that a quiet
    attack breaks, would slip past it.

    A capture in N: at every node of the plan its right moves are exactly the legal moves
    that force the capture within the moves left, each of its refutations holds, and the
    first right move needs all N. A save in N: its right moves are exactly the moves after
    which the opponent cannot force a capture within N."""
    n = int(plan["n"])
    right = plan["node"]["ok"]
    if plan["kind"] == "save":
        threat = Threat(1 - game.turn, n)
        if not _exactly(game, set(right), lambda m: not forced(game, threat, m)):
            return "another move saves too, or the save fails against a quiet attack"
        return None
    shorter = Threat(game.turn, n - 1) if n > 1 else None
    if shorter and any(forced(game, shorter, game.parse_move(m)) for m in right):
        return "the capture takes fewer moves"
    return _exact_node(game, plan["node"], n, "another first move captures too")


def _exact_node(game: Game, node: dict[str, Any], left: int, other: str) -> str | None:
    """:func:`exact` at one node of a capture's plan (``other``: what to say when a move not
    listed wins there)."""
    threat = Threat(game.turn, left)
    if not _exactly(game, set(node["ok"]), lambda m: forced(game, threat, m)):
        return other
    for move, line in node["no"].items():  # the wrong move, then the reply that holds
        after = _play(game, (game.parse_move(move),))
        if forced(after, Threat(game.turn, left - 1), after.parse_move(line[0])):
            return "a refutation does not hold"
    for move, step in node["ok"].items():
        if step:
            after = _play(game, (game.parse_move(move), game.parse_move(step["r"])))
            why = _exact_node(after, step["n"], left - 1, "another move wins at a later step")
            if why is not None:
                return why
    return None


def _exactly(game: Game, right: set[str], wins: Callable[[Move], bool]) -> bool:
    """Whether the moves for which ``wins`` holds are exactly ``right`` (the right ones asked
    first; the search stops at the first other move that wins)."""
    moves = sorted(game.legal_moves(), key=lambda m: game.format_move(m) not in right)
    return all(wins(m) == (game.format_move(m) in right) for m in moves)


def _capture(game: Game) -> tuple[str, Puzzle | None, float]:
    proof = prove_capture(game, 3)
    if proof is None:
        return "no capture within 3", None, 0.0
    if len(proof.moves) > 1:
        return "several first moves capture", None, 0.0
    n = proof.depth
    right = proof.moves[0]
    node = capture_node(game, n, proof)
    tries = [m for m in _tries(game, {right}) if game.format_move(m) in node["no"]]
    tries = tries or _tries(game, {right})
    if not tries:
        return "no tempting wrong move", None, 0.0
    wrong = tries[0]
    got = _play(game, proof.line).scores[game.turn] - game.scores[game.turn]
    plan = {"kind": "capture", "n": n, "k": 1, "got": got, "node": node}
    hint = hint_of(game, proof)
    return "ok", _puzzle(game, right, wrong, n, plan, hint), _hardness(n, proof.nodes, hint)


def _save(game: Game) -> tuple[str, Puzzle | None, float]:
    threat = prove_capture(game, 3, attacker=1 - game.turn)
    if threat is None:
        return "nothing to capture or save", None, 0.0
    n = threat.depth
    save = prove_save(game, n, most=1)
    if not save.moves:
        return "no save", None, 0.0
    if len(save.moves) > 1:
        return "several moves save", None, 0.0
    right = save.moves[0]
    near = [m for m in _tries(game, {right}) if m in save.refuted]
    if not near:
        return "no tempting wrong move", None, 0.0
    no = {game.format_move(m): [game.format_move(x) for x in save.refuted[m]] for m in near}
    node = {"ok": {game.format_move(right): {}}, "no": dict(list(no.items())[: MAX_NO + 1])}
    plan = {"kind": "save", "n": n, "k": 1, "node": node}
    return "ok", _puzzle(game, right, near[0], n, plan, "save"), _hardness(n, save.nodes, "save")


def _puzzle(
    game: Game, right: Move, wrong: Move, n: int, plan: dict[str, Any], hint: str
) -> Puzzle:
    values = {game.format_move(right): 1, game.format_move(wrong): 0}
    analysis = Analysis(values, 1)
    cut = Puzzle.cut("dots", game, analysis, game.format_move(wrong), hint)
    return Puzzle(**{**cut.__dict__, "plan": plan})


def _hardness(n: int, nodes: int, hint: str) -> float:
    """Deeper lines and wider searches are harder; a save is read backwards, a bit harder."""
    return 4.0 * n + math.log2(1 + nodes) + (1.5 if hint == "save" else 0.0)


def judge(game: Game, cut_seed: int) -> tuple[str, Puzzle | None, float]:
    """A candidate's fate: ("ok", puzzle, its hardness) or (the reason it was rejected, None,
    0). A capture for the player to move makes a capture puzzle; else a threat of the
    opponent's makes a save puzzle. What the forcing prover cut is then checked by the exact
    search (:func:`exact`). ``cut_seed`` is unused."""
    del cut_seed
    if game.over:
        return "game over", None, 0.0
    reason, puzzle, hard = _capture(game)
    if reason == "no capture within 3":
        reason, puzzle, hard = _save(game)
    if puzzle is not None and (wrong := exact(game, puzzle.plan)) is not None:
        return f"exact search: {wrong}", None, 0.0
    return reason, puzzle, hard


def _game(rng: random.Random, source: str, seed: int) -> list[Game]:
    """One game of ``source`` (both seats), as the positions from :data:`MIN_PLY` on."""
    g = Game(SIZE, SIZE)
    seen = []
    while not g.over and g.ply < SIZE * SIZE * 2 // 3:
        if g.ply >= MIN_PLY:
            seen.append(g.copy())
        if source == "random":
            g.play(rng.choice(g.legal_moves()))
        elif source == "hard":
            g.play(choose_move(g, "hard", seed=seed + g.ply, iterations=HARD_ITERATIONS))
        else:
            g.play(choose_move(g, source, seed=seed + g.ply))
    return seen


def candidates(seed: int, every: int | None = None) -> Iterator[tuple[Game, int]]:
    """Positions from games of each source in turn; which of a game's are cut:
    :func:`engine.puzzles.cuts` (every 3rd by default: a game's positions near one another
    hold the same tactic)."""
    rng = random.Random(seed)
    n = 0
    while True:
        source = SOURCES[n % len(SOURCES)]
        n += 1
        for p in cuts(rng, _game(rng, source, seed * 100_000 + n * 1000), every or 3):
            yield p, 0


def kind_of(puzzle: Puzzle) -> str:
    """The puzzle's kind as the bank's shares count it: "capture in 2", "save in 1"."""
    return f"{puzzle.plan['kind']} in {puzzle.plan['n']}"


def tactic(puzzle: Puzzle) -> tuple[object, ...]:
    """The same tactic: the same answer and the same replies (a ladder cut again after a move
    far away)."""
    return (puzzle.plan["kind"], puzzle.turn, json.dumps(puzzle.plan["node"]["ok"]))


def key(game: Game) -> tuple[object, ...]:
    """What makes two cut positions the same puzzle: the dots on the board and who moves."""
    dots = tuple(
        (x, y, c.dot, c.area)
        for y in range(game.height)
        for x in range(game.width)
        if (c := game.cell(x, y)).dot is not None or c.area is not None
    )
    return (game.width, game.height, game.turn, dots)
