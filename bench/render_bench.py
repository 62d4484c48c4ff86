"""Render speed and size: ``python -m bench.render_bench [--runs N] [--svg]``.

The issue's targets (median of many runs): Точки 38×31 late game ≤ 20 ms, Boxes 5×5 ≤ 10 ms,
Sprouts 12-spot late game ≤ 30 ms, every PNG ≤ 250 KB. Each picture is drawn once to fill
the caches (static layers, sprites, text), then timed ``--runs`` times; the median and the
90th percentile of wall time are shown, with the median CPU time of the process next to it
(steadier on a shared machine, where wall time also counts waiting for a core).

Точки keeps the last boards drawn: what the rings make of the board (zone, areas, rings,
bases) changes only when a ring closes, and the next picture of a game only adds a dot or two.
Рассада's curves are smoothed and inked once per drawing (cached): the ``sprouts`` line draws
the same position again (a board shown in a second place, or a move played after its preview);
``sprouts cold`` clears both each time, which is what the first picture after a move costs.

The first ``dots`` line draws the same position again (a board shown in a second place);
``dots after a move`` draws the position after the one drawn before it (the bot's usual
path); ``dots cold`` clears every cache first, which is what a picture after a capture costs.

Baselines in the same run: ``encode`` is the PNG encoding alone of the finished picture
(so the drawing's share is visible), and ``rgb encode`` the same picture encoded as an RGB
PNG at the default level, which is what a plain RGB pipeline would pay for encoding alone.

``--svg`` measures the Mini App's SVG pictures instead (``render.board_svg``) of the same
positions, plus a 38×31 board after 700 random legal moves: bytes uncompressed (the budget:
38×31 Dots ≤ 150 KB) and gzipped (as the page is served), the median time to build one, and
the PNG of the same position as the baseline.
"""

from __future__ import annotations

import argparse
import io
import statistics
import time
from collections.abc import Callable
from functools import partial
from typing import Any

import engine
import render
from render import animation
from render.common import png, to_palette_image
from render.view import View

TARGET_MS = {"dots": 20.0, "boxes": 10.0, "sprouts": 30.0}
MAX_PNG_KB = 250


def dots_late() -> Any:
    """38×31 tournament game, 700-odd moves of the easy AI against itself (about 60% full,
    with rings everywhere): the heaviest picture the bot draws."""
    from engine.dots import ai
    from render.dots import territory

    g = engine.new("dots", preset="tournament")
    for i in range(700):
        g.play(ai.choose_move(g, "easy", seed=i))
    # End on a quiet move (no ring closed), the common case for "after a move".
    before = territory(g)
    while True:
        g.play(ai.choose_move(g, "easy", seed=g.ply))
        if territory(g) == before:
            return g
        before = territory(g)


def boxes_mid() -> Any:
    from engine.boxes import ai

    g = engine.new("boxes", preset="classic")
    for i in range(44):
        g.play(ai.choose_move(g, "easy", seed=i, time_limit=0.05))
    return g


def sprouts_late() -> tuple[Any, str]:
    """A 12-spot game late on: the engine's own when it draws, else the tests' stand-in
    drawing of the same size (37 spots, 25 curves of 25 points each)."""
    cls = engine.GAMES.get("sprouts")
    if cls is not None and hasattr(cls, "__init__"):
        try:
            import random

            g = engine.new("sprouts", spots=12)
            engine.random_playout(g, random.Random(1), max_moves=25)
            if hasattr(g, "drawing"):
                return g, "engine"
        except (engine.EngineError, TypeError):
            pass
    from tests.render.fakes import random_sprouts

    return random_sprouts(12, 25, seed=1), "stand-in drawing"


def timed(fn: Callable[[], Any], runs: int) -> tuple[list[float], list[float]]:
    wall: list[float] = []
    cpu: list[float] = []
    for _ in range(runs):
        w, c = time.perf_counter(), time.process_time()
        fn()
        cpu.append((time.process_time() - c) * 1000)
        wall.append((time.perf_counter() - w) * 1000)
    return wall, cpu


VIEW: View = {"lang": "ru", "players": ["Алиса", "Борис"]}
DOTS_VIEW: View = {**VIEW, "window": [15, 10, 8, 7]}  # the Dots keyboard's window drawn too


def p90(xs: list[float]) -> float:
    return sorted(xs)[int(0.9 * (len(xs) - 1))]


def bench_picture(
    kind: str, game: Any, view: View, runs: int, into: list[dict[str, Any]] | None = None
) -> bool:
    """Prints one line; appends its figures to ``into`` (for ``python -m bench``)."""
    module = __import__(f"render.{kind}", fromlist=["board_image"])
    data = render.board_png(game, view)  # fills the caches
    wall, cpu = timed(lambda: render.board_png(game, view), runs)
    img = module.board_image(game, view)
    enc_wall, _ = timed(lambda: png(img.copy()), runs)
    rgb = to_palette_image(img).convert("RGB")
    rgb_wall, _ = timed(lambda: rgb.save(io.BytesIO(), "PNG"), max(5, runs // 5))
    med = statistics.median(wall)
    kb = len(data) / 1024
    ok = med <= TARGET_MS[kind] and kb <= MAX_PNG_KB
    print(
        f"{kind:8} {img.width}×{img.height}  wall median {med:6.2f} ms  p90 {p90(wall):6.2f}  "
        f"cpu median {statistics.median(cpu):6.2f}  |  encode {statistics.median(enc_wall):5.2f} ms"
        f"  rgb encode {statistics.median(rgb_wall):6.2f} ms "
        f"(×{statistics.median(rgb_wall) / statistics.median(enc_wall):.1f})  |  "
        f"{kb:5.1f} KB  target {TARGET_MS[kind]:.0f} ms: {'ok' if ok else 'MISSED'}"
    )
    if into is not None:
        into.append(
            {
                "picture": f"{kind} {img.width}×{img.height}",
                "wall median ms": med,
                "wall p90 ms": p90(wall),
                "cpu median ms": statistics.median(cpu),
                "KB": kb,
                "target ms": TARGET_MS[kind],
            }
        )
    return ok


def bench_dots_paths(
    game: Any, view: View, runs: int, into: list[dict[str, Any]] | None = None
) -> bool:
    """The Dots picture by the path a bot takes: after one more move (the board before is
    reused, the new dot stamped), and cold (after a capture: rings and dots redrawn)."""
    from render.dots import _BODIES, _territory

    before = type(game)(**game.options)  # the same game one move earlier
    for move in game.moves[:-1]:
        before.play(move)

    def next_move() -> tuple[float, float]:
        _BODIES.clear()
        render.board_png(before, view)
        w, c = time.perf_counter(), time.process_time()
        render.board_png(game, view)
        return (time.perf_counter() - w) * 1000, (time.process_time() - c) * 1000

    def cold() -> bytes:
        _territory.cache_clear()
        _BODIES.clear()
        return render.board_png(game, view)

    pairs = [next_move() for _ in range(runs)]
    ok = True
    for name, wall, cpu in (
        ("dots after a move", [p[0] for p in pairs], [p[1] for p in pairs]),
        ("dots cold (after a capture)", *timed(cold, runs)),
    ):
        med = statistics.median(wall)
        ok = ok and med <= TARGET_MS["dots"]
        if into is not None:
            into.append(
                {
                    "picture": name,
                    "wall median ms": med,
                    "wall p90 ms": p90(wall),
                    "cpu median ms": statistics.median(cpu),
                    "KB": None,
                    "target ms": TARGET_MS["dots"],
                }
            )
        print(
            f"{name:28} wall median {med:6.2f} ms  p90 {p90(wall):6.2f}  cpu median "
            f"{statistics.median(cpu):6.2f}  target {TARGET_MS['dots']:.0f} ms: "
            f"{'ok' if med <= TARGET_MS['dots'] else 'MISSED'}"
        )
    return ok


def bench_sprouts_cold(
    game: Any, view: View, runs: int, into: list[dict[str, Any]] | None = None
) -> bool:
    """The Sprouts picture of a position not drawn before (the bot's path after every move):
    the smoothed curves are computed again each run (their cache cleared). ``smoothing`` is
    that computation alone, the share it takes of the picture."""
    from render import sprouts as rs

    lay, fit = rs.layout(game, view)
    room = rs.Room.of(lay, fit.k)

    def cold() -> bytes:
        rs._smoothed.cache_clear()
        rs._inked.clear()
        return render.board_png(game, view)

    def smoothing() -> Any:
        rs._smoothed.cache_clear()
        return rs.smooth_curves(game.drawing, room)

    wall, cpu = timed(cold, runs)
    alone, _ = timed(smoothing, runs)
    med = statistics.median(wall)
    ok = med <= TARGET_MS["sprouts"]
    if into is not None:
        into.append(
            {
                "picture": "sprouts cold (new position)",
                "wall median ms": med,
                "wall p90 ms": p90(wall),
                "cpu median ms": statistics.median(cpu),
                "KB": None,
                "target ms": TARGET_MS["sprouts"],
            }
        )
    print(
        f"{'sprouts cold (new position)':28} wall median {med:6.2f} ms  p90 {p90(wall):6.2f}  "
        f"cpu median {statistics.median(cpu):6.2f}  |  smoothing {statistics.median(alone):5.2f} ms"
        f"  target {TARGET_MS['sprouts']:.0f} ms: {'ok' if ok else 'MISSED'}"
    )
    return ok


def bench_replay(name: str, game: Any, view: View) -> None:
    t = time.perf_counter()
    data = render.replay(game, view=view)
    s = time.perf_counter() - t
    from PIL import GifImagePlugin, Image

    gif = Image.open(io.BytesIO(data))
    assert isinstance(gif, GifImagePlugin.GifImageFile)
    frames = gif.n_frames
    print(
        f"replay {name:18} {game.ply:5} moves  {frames:4} frames  {len(data) / 1024:7.0f} KB  "
        f"{s:5.2f} s  (limit {animation.MAX_BYTES // 1_000_000} MB)"
    )


SVG_LIMIT_KB = 150  # 38×31 Dots, uncompressed


def dots_random(plies: int = 700, seed: int = 7) -> Any:
    import random

    g = engine.new("dots", width=38, height=31)
    rnd = random.Random(seed)
    for _ in range(plies):
        g.play(rnd.choice(g.legal_moves()))
    return g


def bench_svg(positions: list[tuple[str, Any]], runs: int) -> bool:
    """Bytes and build time of each position's SVG, its PNG alongside."""
    import gzip

    print(f"{'svg':26} {'KB':>7} {'gzip KB':>8} {'median ms':>10} {'png KB':>7} {'svg/png':>8}")
    ok = True
    for name, game in positions:
        data = render.board_svg(game).encode()
        wall, _ = timed(partial(render.board_svg, game), runs)
        png_kb = len(render.board_png(game, VIEW)) / 1024
        kb, gz = len(data) / 1024, len(gzip.compress(data, 6)) / 1024
        limit = ""
        if game.kind == "dots" and (game.width, game.height) == (38, 31):
            ok &= kb <= SVG_LIMIT_KB
            limit = f"  limit {SVG_LIMIT_KB} KB: {'ok' if kb <= SVG_LIMIT_KB else 'MISSED'}"
        print(
            f"{name:26} {kb:7.1f} {gz:8.1f} {statistics.median(wall):10.2f} {png_kb:7.1f}"
            f" {kb / png_kb:8.2f}{limit}"
        )
    return ok


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=60)
    parser.add_argument("--no-replays", action="store_true")
    parser.add_argument("--svg", action="store_true", help="the Mini App's SVG pictures")
    args = parser.parse_args(argv)
    view, dots_view = VIEW, DOTS_VIEW
    print("positions: building (the AIs play the Dots and Boxes games)…", flush=True)
    dots, boxes = dots_late(), boxes_mid()
    sprouts, source = sprouts_late()
    print(
        f"dots: {dots.ply} moves, {len(dots.captures)} captures; boxes: {boxes.ply} lines; "
        f"sprouts: {len(sprouts.drawing.spots)} spots, {len(sprouts.drawing.curves)} curves "
        f"({source})"
    )
    if args.svg:
        positions = [
            ("dots 38×31 easy AI", dots),
            ("dots 38×31 700 random", dots_random()),
            ("boxes 5×5", boxes),
            ("sprouts 12 spots", sprouts),
        ]
        ok = bench_svg([(n, g) for n, g in positions if _has_svg(g)], args.runs)
        print("svg budget met" if ok else "svg budget MISSED")
        return
    results = [
        bench_picture("dots", dots, dots_view, args.runs),
        bench_dots_paths(dots, dots_view, args.runs),
        bench_picture("boxes", boxes, view, args.runs),
        bench_picture("sprouts", sprouts, view, args.runs),
        bench_sprouts_cold(sprouts, view, args.runs),
    ]
    if not args.no_replays:
        bench_replay("dots 38×31", dots, view)
        bench_replay("boxes 5×5", boxes, view)
    print("all targets met" if all(results) else "some targets MISSED (see above)")


def _has_svg(game: Any) -> bool:
    import importlib.util

    return importlib.util.find_spec(f"render.svg_{game.kind}") is not None


if __name__ == "__main__":
    main()
