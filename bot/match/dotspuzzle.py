"""A Точки puzzle of several moves, played out on its plan (:mod:`engine.puzzles.dots`): the
person's right move is answered by the bot's stored best defence and the person goes on until
the capture; a wrong move gets the reason (the reply that holds, or the opponent's capture).

Where the person is in the plan is a *path*: the index of each right move played so far among
its node's right moves (sorted), as digits ("", "0", "01"). A board's buttons carry it, so each
board says which position it shows and a stale one cannot act on another.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.i18n import Text
from bot.match.actions import Refused
from bot.match.ui.dots import H, W
from engine.puzzles import Puzzle

MAX_PATH = 2  # the person's moves before the last one, in a capture in 3


@dataclass(frozen=True)
class Spot:
    """The position a path leads to: ``moves`` played from the puzzle's (person, bot, …),
    ``node`` the person's node there, ``left`` the person's moves left."""

    moves: tuple[str, ...]
    node: dict[str, Any]
    left: int


@dataclass(frozen=True)
class Step:
    """What one move does: ``solved`` (the goal reached, or the save found), ``reply`` the
    bot's answer when the person goes on (``path`` then the new path), else ``reason`` why it
    is wrong."""

    solved: bool
    reply: str | None = None
    path: str = ""
    reason: Text | None = None


def multi(p: Puzzle) -> bool:
    """A puzzle played on its plan (the Точки ones)."""
    return bool(p.plan.get("node"))


def walk(p: Puzzle, path: str) -> Spot:
    """The position ``path`` leads to; Refused for a path no board of this puzzle carries."""
    if len(path) > MAX_PATH or (not path.isdigit() and path):
        raise Refused("err.bad_button")
    node: dict[str, Any] = p.plan["node"]
    moves: list[str] = []
    for digit in path:
        right = sorted(node["ok"])
        k = int(digit)
        if k >= len(right) or not node["ok"][right[k]]:
            raise Refused("err.bad_button")
        step = node["ok"][right[k]]
        moves += [right[k], step["r"]]
        node = step["n"]
    return Spot(tuple(moves), node, int(p.plan["n"]) - len(path))


def play(p: Puzzle, path: str, move: str) -> Step:
    """The person plays ``move`` (engine notation, legal) at ``path``."""
    spot = walk(p, path)
    ok, no = spot.node["ok"], spot.node["no"]
    if move in ok:
        step = ok[move]
        if not step:
            return Step(True)
        return Step(False, reply=step["r"], path=path + str(sorted(ok).index(move)))
    return Step(False, reason=_reason(p, spot, move, no.get(move)))


def _reason(p: Puzzle, spot: Spot, move: str, line: list[str] | None) -> Text:
    if p.plan["kind"] == "save":
        if line:
            return Text("puzzle.wrong.dots.taken", move=move, line=" ".join(line))
        return Text("puzzle.wrong.dots.still", move=move)
    if line:
        return Text("puzzle.wrong.dots.holds", move=move, reply=line[0], moves=moves(spot.left))
    if spot.left <= 1:
        return Text("puzzle.wrong.dots.nothing", move=move)
    return Text("puzzle.wrong.dots.quiet", move=move)


def moves(n: int) -> Text:
    return Text("count.dots_moves", n=n)


def goal(p: Puzzle, left: int | None = None) -> Text:
    """What to find, with the moves left."""
    n = int(p.plan["n"]) if left is None else left
    return Text(f"puzzle.goal.dots.{p.plan['kind']}", moves=moves(n))


def going_on(move: str, reply: str, left: int) -> Text:
    return Text("puzzle.dots.going_on", move=move, reply=reply, moves=moves(left))


def solved_line(p: Puzzle, move: str, got: int) -> Text:
    """The caption's solved line: the dots the line took, or the save."""
    if p.plan["kind"] == "save":
        return Text("puzzle.solved.dots.save", move=move, moves=moves(int(p.plan["n"])))
    return Text("puzzle.solved.dots.capture", move=move, dots=Text("count.dots", n=got))


def focus(p: Puzzle) -> tuple[int, int] | None:
    """Where the action is (the keyboard's window opens on it): the middle of the box round
    the principal line (the first right moves and the bot's replies, with a save's
    refutations), or round the first move and the tempting one when that box is bigger than
    the window."""
    node = p.plan.get("node")
    if not node:
        return None
    pts: list[str] = []
    while node:
        right = sorted(node["ok"])
        step = node["ok"][right[0]]
        pts += right[:1] + ([step["r"]] if step else [])
        if p.plan["kind"] == "save":
            pts += [line[0] for line in list(node["no"].values())[:2]]
        node = step.get("n") if step else None
    game = p.start()
    xy = [game.parse_move(x) for x in pts]
    if (
        max(m.x for m in xy) - min(m.x for m in xy) >= W
        or max(m.y for m in xy) - min(m.y for m in xy) >= H
    ):  # a long line: the first move and the tempting one
        xy = [game.parse_move(x) for x in (pts[0], p.wrong)]
    xs, ys = [m.x for m in xy], [m.y for m in xy]
    return (min(xs) + max(xs) + 1) // 2, (min(ys) + max(ys) + 1) // 2
