"""SGF for Точки in the ``FF[4]GM[40]`` dialect.

Player 0 is Black (B) and moves first, player 1 is White (W). Coordinates are two letters,
column then row from the top-left: ``a``–``z`` = 0–25, ``A``–``Z`` = 26–51. ``SZ[w:h]`` (or
``SZ[n]`` when square). The starting cross is written as ``AB``/``AW`` setup dots. Results:
``B+3`` (score margin), ``W+R`` (resignation), ``W+T`` (time), ``B+G`` (grounding), ``0`` (draw).
Player names (``PB``/``PW``) and a game comment (``GC``) are written when given, and ignored
when read.

Our own properties, which other readers ignore: ``RU[tetrad:start=zone;zone=8x15;
grounding=1;scoring=territory;edge=capturable]`` for the variant,
``XS[ply:player:deadline]`` for a STOP call (a reader may also infer STOP when one colour
moves twice running) and ``XR[reason]`` when the result came by agreement, at the end of a
STOP phase or by grounding (a drawn result reads ``0`` and would not say how). With
``rings=True`` a move that closes rings carries them after the point, ``B[hj.ghhiijhk]``;
a ring that caught an intruder in an empty base is written on its owner's next move, as
tournament records credit it. Readers of this module ignore everything after the point's two
letters, so rules decide captures.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.core import BadOptions, BadRecord, GameResult, IllegalMove
from engine.dots.game import LETTERS, Move

if TYPE_CHECKING:
    from engine.dots.game import Game

COLOURS = "BW"


def _pt(x: int, y: int) -> str:
    return LETTERS[x] + LETTERS[y]


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


def write_sgf(
    game: Game,
    *,
    rings: bool = False,
    players: tuple[str, str] | None = None,
    comment: str | None = None,
) -> str:
    """The game as SGF text (see the module notes for the dialect). ``players``: the names
    of Black and White (``PB``/``PW``), ``comment`` the game's (``GC``): how a bench's game
    was played, say."""
    root = [f"FF[4]GM[40]CA[UTF-8]AP[Tetrad]SZ[{_size(game)}]"]
    if players is not None:
        root.append(f"PB[{_escape(players[0])}]PW[{_escape(players[1])}]")
    if comment is not None:
        root.append(f"GC[{_escape(comment)}]")
    root.append(f"RU[{_escape('tetrad:' + ';'.join(_rules(game)))}]")
    cross = game.cross_points()
    for colour in (0, 1):
        pts = [_pt(x, y) for x, y, p in cross if p == colour]
        if pts:
            root.append(f"A{COLOURS[colour]}" + "".join(f"[{p}]" for p in pts))
    if game.stopped_by is not None:
        deadline = "" if game.deadline is None else f":{game.deadline!r}"
        root.append(f"XS[{game.stop_ply}:{game.stopped_by}{deadline}]")
    result = game.result
    if result is not None:
        root.append(f"RE[{_result_text(result)}]")
        if result.reason in ("agreement", "stop", "ground"):
            root.append(f"XR[{result.reason}]")
    credited: dict[int, list[tuple[tuple[int, int], ...]]] = {}
    if rings:
        last = max(game.ply - 1, 0)
        for c in game.captures:
            credited.setdefault(min(c.credited, last), []).append(c.ring)
    nodes = ["".join(root)]
    for ply, (move, player) in enumerate(zip(game.moves, _movers(game), strict=True)):
        value = _pt(move.x, move.y)
        for ring in credited.get(ply, []):
            value += "." + "".join(_pt(x, y) for x, y in ring)
        nodes.append(f"{COLOURS[player]}[{value}]")
    return "(;" + ";".join(nodes) + ")"


def _rules(game: Game) -> list[str]:
    """The variant as ``RU[tetrad:…]`` items: the start, and every rule off its default."""
    rules = [f"start={game.start}"]
    if game.start == "zone":
        z = game.options
        rules.append(f"zone={z['zone_width']}x{z['zone_height']}")
    if game.grounding:
        rules.append("grounding=1")
    if game.scoring != "captures":
        rules.append(f"scoring={game.scoring}")
    if game.edge != "safe":
        rules.append(f"edge={game.edge}")
    return rules


def _size(game: Game) -> str:
    return str(game.width) if game.width == game.height else f"{game.width}:{game.height}"


def _movers(game: Game) -> list[int]:
    s, at = game.stopped_by, game.stop_ply
    return [1 - s if s is not None and ply >= at else ply % 2 for ply in range(game.ply)]


def _result_text(result: GameResult) -> str:
    if result.winner is None:
        return "0"
    w = COLOURS[result.winner]
    if result.reason == "resign":
        return f"{w}+R"
    if result.reason == "time":
        return f"{w}+T"
    if result.reason == "ground":
        return f"{w}+G"
    s = result.scores
    return f"{w}+{s[result.winner] - s[1 - result.winner]}"


# -- reading ----------------------------------------------------------------------------------


def parse_nodes(text: str) -> list[dict[str, list[str]]]:
    """The main line of the first game tree (the first branch at every fork): one dict of
    property value lists per node."""
    i = text.find("(")
    if i < 0:
        raise BadRecord("no SGF game tree")
    nodes: list[dict[str, list[str]]] = []
    n = len(text)
    prop = ""
    while i < n:
        ch = text[i]
        if ch == ")":
            break  # the first close ends the first branch, which is the main line
        if ch == ";":
            nodes.append({})
            prop = ""
        elif ch == "[":
            if not nodes or not prop:
                raise BadRecord("SGF value without a node or property name")
            j = i + 1
            value = []
            while j < n and text[j] != "]":
                if text[j] == "\\" and j + 1 < n:
                    j += 1
                value.append(text[j])
                j += 1
            if j >= n:
                raise BadRecord("unterminated SGF property value")
            nodes[-1].setdefault(prop, []).append("".join(value))
            i = j
        elif ch.isascii() and ch.isalpha():
            j = i
            while j < n and text[j].isascii() and text[j].isalpha():
                j += 1
            prop = "".join(c for c in text[i:j] if c.isupper())  # FF[3] allowed lowercase
            i = j - 1
        elif ch != "(" and not ch.isspace():
            raise BadRecord(f"unexpected {ch!r} in SGF")
        i += 1
    if not nodes:
        raise BadRecord("empty SGF game tree")
    return nodes


def _point(value: str, game: Game) -> Move:
    if len(value) < 2 or value[0] not in LETTERS or value[1] not in LETTERS:
        raise BadRecord(f"bad SGF point {value!r}")
    x, y = LETTERS.index(value[0]), LETTERS.index(value[1])
    if not (0 <= x < game.width and 0 <= y < game.height):
        raise BadRecord(f"SGF point {value!r} is off the board")
    return Move(x, y)


def _options(root: dict[str, list[str]], setup: bool) -> dict[str, Any]:
    size = root.get("SZ", ["20"])[0]
    try:
        if ":" in size:
            w, h = (int(v) for v in size.split(":"))
        else:
            w = h = int(size)
    except ValueError as e:
        raise BadRecord(f"bad SGF size {size!r}") from e
    opts: dict[str, Any] = {"width": w, "height": h, "start": "cross" if setup else "free"}
    for rule in root.get("RU", []):
        if not rule.startswith("tetrad:"):
            continue
        for item in rule[len("tetrad:") :].split(";"):
            key, _, value = item.partition("=")
            if key == "start":
                opts["start"] = value
            elif key == "zone":
                zw, _, zh = value.partition("x")
                opts["zone_width"], opts["zone_height"] = int(zw), int(zh)
            elif key == "grounding":
                opts["grounding"] = value == "1"
            elif key == "scoring":
                opts["scoring"] = value
            elif key == "edge":
                opts["edge"] = value
    return opts


def read_sgf(text: str) -> Game:
    """A game from SGF text (see the module notes); raise :class:`BadRecord` when it is not one."""
    from engine.dots.game import Game

    if not isinstance(text, str):
        raise BadRecord("SGF must be text")
    nodes = parse_nodes(text)
    root = nodes[0]
    if root.get("GM", ["40"])[0].strip() != "40":
        raise BadRecord("not a Dots SGF (GM is not 40)")
    setup = {(c, v) for c in (0, 1) for v in root.get("A" + COLOURS[c], [])}
    try:
        game = Game(**_options(root, bool(setup)))
        want = {(p, _pt(x, y)) for x, y, p in game.cross_points()}
        if setup != want:
            raise BadRecord("SGF setup dots other than the starting cross are not supported")
        stop = _stop_prop(root)
        for node in nodes[1:]:
            for colour in (0, 1):
                for value in node.get(COLOURS[colour], []):
                    if stop is not None and game.ply == stop[0] and game.stopped_by is None:
                        _stop(game, stop)
                    if colour != game.turn and game.stopped_by is None:
                        game.stop(1 - colour)  # one colour moving twice: the other stopped
                    game.play(_point(value.split(".")[0], game))
        if stop is not None and game.stopped_by is None and game.ply == stop[0]:
            _stop(game, stop)
        _apply_result(game, root)
    except (BadOptions, IllegalMove, ValueError) as e:
        if isinstance(e, BadRecord):
            raise
        raise BadRecord(f"bad Dots SGF: {e}") from e
    return game


def _stop(game: Game, stop: tuple[int, int, float | None]) -> None:
    if stop[2] is None:
        game.stop(stop[1])
    else:
        game.stop(stop[1], now=stop[2], limit=0.0)


def _stop_prop(root: dict[str, list[str]]) -> tuple[int, int, float | None] | None:
    if "XS" not in root:
        return None
    parts = root["XS"][0].split(":")
    if len(parts) not in (2, 3) or parts[1] not in ("0", "1"):
        raise BadRecord(f"bad XS[{root['XS'][0]}]")
    deadline = float(parts[2]) if len(parts) == 3 and parts[2] else None
    return (int(parts[0]), int(parts[1]), deadline)


def _apply_result(game: Game, root: dict[str, list[str]]) -> None:
    if "RE" not in root:
        return
    text = root["RE"][0].strip()
    reason = root.get("XR", [""])[0].strip()
    if text in ("0", "Draw", "D", "Jigo"):
        winner = None
        how = ""
    else:
        if len(text) < 2 or text[0] not in COLOURS or text[1] != "+":
            raise BadRecord(f"bad SGF result {text!r}")
        winner = COLOURS.index(text[0])
        how = text[2:].upper()
    if game.over:
        return  # the rules ended it; the moves say how
    if winner is not None and how in ("R", "RESIGN"):  # a draw has no how
        game.resign(1 - winner)
    elif winner is not None and how in ("T", "TIME"):
        game.timeout(1 - winner)
    elif how == "G" or reason == "ground":
        game.ground(game.turn)
    elif reason == "stop" and game.stopped_by is not None:
        game.finish_stop()
    else:
        game.agree(draw=winner is None)
