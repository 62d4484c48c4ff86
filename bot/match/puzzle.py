"""The /puzzle flow's pure part: a puzzle shown as a board with the game's own keyboard, a
tap read as a move, the next puzzle at the person's level, and the words of each step.

A puzzle is shown through a stand-in :class:`Match` (the puzzle's position, the person in
the seat to move), so the game UI's keyboard (:mod:`bot.match.ui`) and the board picture are
the ones matches use; only its buttons' wire form differs (:class:`buttons.PuzzleOn`).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping

from bot.i18n import Text
from bot.match import ui
from bot.match.actions import Refused
from bot.match.buttons import PUZZLE_HINT, PUZZLE_NEXT, PuzzleOn
from bot.match.model import Match, Place, Seat
from bot.match.ui import Button, Keyboard
from engine.puzzles import Puzzle

NEAREST = 5  # the next puzzle is drawn from this many unsolved ones nearest the person's level


def stand_in(puzzle: Puzzle, user: int, name: str, opponent: str, lang: str) -> Match:
    """The puzzle's position as an active match: ``user`` sits in the seat to move."""
    seats = [Seat(None, opponent), Seat(None, opponent)]
    seats[puzzle.turn] = Seat(user, name)
    match = Match(
        id=puzzle.id,
        kind=puzzle.game,
        options={},
        players=len(seats),
        seats=seats,
        status="active",
        places=[Place(chat=user, lang=lang)],
        lang=lang,
    )
    match.attach(puzzle.start())
    return match


def board_keyboard(match: Match, attempt: int) -> Keyboard:
    """The game's move buttons for the puzzle, then Hint and Skip."""
    on = PuzzleOn(match.id, attempt)
    rows = ui.get(match.kind).move_rows(match, match.places[0], on)
    return [
        *rows,
        [
            Button(Text("puzzle.btn.hint"), PUZZLE_HINT.data(match.id, attempt)),
            Button(Text("puzzle.btn.skip"), PUZZLE_NEXT.data(match.id, attempt)),
        ],
    ]


def next_keyboard(puzzle_id: str, attempt: int) -> Keyboard:
    return [[Button(Text("puzzle.btn.next"), PUZZLE_NEXT.data(puzzle_id, attempt))]]


def read_move(match: Match, code: str) -> str:
    """A move button's code → the move in the engine's notation (Refused if no legal move)."""
    game = match.game
    move = ui.get(match.kind).decode(match, code)
    if not game.is_legal(move):
        raise Refused("info.drawn")
    return str(game.format_move(move))


def choose(
    bank: Iterable[Puzzle],
    live: Mapping[str, float],
    solved: set[str],
    level: float,
    rng: random.Random,
    current: str | None = None,
) -> Puzzle | None:
    """The next puzzle: one of the :data:`NEAREST` unsolved ones whose rating (``live``, else
    its start) is closest to ``level``; once all are solved, any but the current one."""
    pool = [p for p in bank if p.id != current]
    fresh = [p for p in pool if p.id not in solved] or pool
    if not fresh:
        return None
    fresh.sort(key=lambda p: abs(live.get(p.id, p.rating) - level))
    return rng.choice(fresh[:NEAREST])


def margin(value: int) -> Text:
    """A net score as words: "2 boxes ahead", "level", "1 box behind"."""
    if value == 0:
        return Text("puzzle.level")
    key = "puzzle.ahead" if value > 0 else "puzzle.behind"
    return Text(key, boxes=Text("count.boxes_margin", n=abs(value)))


def task(puzzle: Puzzle, rating: float) -> list[Text]:
    """The caption of a fresh puzzle: what it is and what to find."""
    return [
        Text("puzzle.title", id=puzzle.id, game=Text(f"game.{puzzle.game}"), rating=round(rating)),
        Text("puzzle.goal", net=margin(puzzle.value)),
    ]


def rating_line(before: float, after: float, rated: bool) -> Text:
    if not rated:
        return Text("puzzle.unrated", rating=round(after))
    delta = round(after) - round(before)
    return Text("puzzle.rating", before=round(before), after=round(after), delta=f"{delta:+d}")


def wrong(move: str, got: int, best: int) -> Text:
    return Text("puzzle.wrong", move=move, got=margin(got), best=margin(best))


def solved(move: str, best: int, streak: int) -> list[Text]:
    return [Text("puzzle.solved", move=move, net=margin(best)), Text("puzzle.streak", n=streak)]
