"""Representative pictures of every game for reviewers: ``python -m render.gallery OUTDIR``.

Writes openings, crowded middle games and finals in both languages, each also scaled to a
400-px-wide phone preview (``*-phone.png``), a few replays, and an ``index.html`` to look at
them all. Positions come from the engines' own AIs with fixed seeds, so runs repeat.
"""

from __future__ import annotations

import argparse
import html
import io
import random
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Unpack

from PIL import Image

import engine
import render
from engine.boxes import Game as BoxesGame
from engine.dots import Game as DotsGame
from render.view import View

NAMES = {
    "ru": ["Алиса", "Борис", "Вера", "Глеб"],
    "en": ["Alice", "Bob", "Carol", "Dan"],
}
PHONE_WIDTH = 400

Picture = tuple[str, engine.Game[Any], View]  # file stem, game, view


def _view(language: str, n: int, **extra: Unpack[View]) -> View:
    view: View = {"lang": language, "players": NAMES[language][:n]}
    view.update(extra)
    return view


def _dots_ai(g: DotsGame, moves: int, seed: int) -> DotsGame:
    from engine.dots import ai

    for i in range(moves):
        if g.over:
            break
        g.play(ai.choose_move(g, "easy", seed=seed + i))
    return g


def _boxes_ai(g: BoxesGame, moves: int | None, seed: int) -> BoxesGame:
    from engine.boxes import ai

    i = 0
    while not g.over and (moves is None or i < moves):
        g.play(ai.choose_move(g, "easy", seed=seed + i, time_limit=0.05))
        i += 1
    return g


def dots_pictures() -> Iterator[Picture]:
    g = engine.new("dots", preset="tournament")
    yield "dots-opening-zone", g, _view("ru", 2)
    yield "dots-opening-window", _dots_ai(g.copy(), 3, 1), _view("en", 2, window=[15, 8, 8, 7])
    yield "dots-middle-15", _dots_ai(engine.new("dots", preset="quick"), 110, 7), _view("en", 2)
    late = _dots_ai(engine.new("dots", preset="tournament"), 700, 3)
    yield "dots-crowded-38x31", late, _view("ru", 2, window=[20, 12, 8, 7])
    final = _dots_ai(engine.new("dots", preset="quick"), 400, 11)
    if not final.over:
        final.agree()
    yield "dots-final-15", final, _view("ru", 2)
    stop = _dots_ai(engine.new("dots", width=20, height=20), 160, 5)
    stop.stop(stop.turn)
    _dots_ai(stop, 6, 50)
    yield "dots-stop-20", stop, _view("en", 2)
    stop.finish_stop()
    yield "dots-stop-final-20", stop, _view("en", 2)
    resigned = _dots_ai(engine.new("dots", preset="modern"), 260, 13)
    resigned.resign(resigned.turn)
    yield "dots-resigned-39x32", resigned, _view("en", 2)


def boxes_pictures() -> Iterator[Picture]:
    g = engine.new("boxes", preset="classic")
    yield "boxes-opening-labels", g, _view("ru", 2, labels=True)
    yield "boxes-middle-5x5", _boxes_ai(g.copy(), 38, 3), _view("en", 2)
    yield "boxes-middle-labels", _boxes_ai(g.copy(), 38, 3), _view("en", 2, labels=True)
    yield "boxes-final-5x5", _boxes_ai(g.copy(), None, 3), _view("ru", 2)
    big = engine.new("boxes", rows=8, cols=8, players=3)
    yield "boxes-middle-8x8-3p", _boxes_ai(big, 120, 9), _view("en", 3, labels=True)
    heart = engine.new("boxes", shape="heart", players=4)
    yield "boxes-final-heart-4p", _boxes_ai(heart, None, 2), _view("ru", 4)
    yield "boxes-12x12", _boxes_ai(engine.new("boxes", rows=12, cols=12), 200, 4), _view("en", 2)


def sprouts_pictures() -> Iterator[Picture]:
    cls = engine.GAMES.get("sprouts")
    if cls is None:
        print("sprouts: the engine is not registered yet; skipped", file=sys.stderr)
        return
    rng = random.Random(1)
    for spots, moves, stem in ((4, 0, "opening"), (8, 9, "middle"), (12, 22, "crowded")):
        g = engine.new("sprouts", spots=spots)
        engine.random_playout(g, rng, max_moves=moves)
        yield f"sprouts-{stem}-{spots}", g, _view("ru" if spots % 8 else "en", 2)
    g = engine.new("sprouts", spots=5)
    engine.random_playout(g, rng, max_moves=4)
    legal = g.legal_moves()
    if legal:
        yield "sprouts-preview", g, _view("en", 2, preview=legal[len(legal) // 2])
    engine.random_playout(g, rng)
    yield "sprouts-final-5", g, _view("ru", 2)


SOURCES: dict[str, Callable[[], Iterator[Picture]]] = {
    "dots": dots_pictures,
    "boxes": boxes_pictures,
    "sprouts": sprouts_pictures,
}


def replays() -> Iterator[Picture]:
    yield "replay-boxes-5x5", _boxes_ai(engine.new("boxes", preset="classic"), None, 3), {}
    dots = _dots_ai(engine.new("dots", preset="quick"), 400, 11)
    if not dots.over:
        dots.agree()
    yield "replay-dots-15", dots, {"lang": "ru", "players": NAMES["ru"][:2]}


def write(outdir: Path, kinds: list[str], with_replays: bool) -> list[tuple[str, str, str]]:
    outdir.mkdir(parents=True, exist_ok=True)
    rows: list[tuple[str, str, str]] = []
    for kind in kinds:
        for stem, game, view in SOURCES[kind]():
            started = time.perf_counter()
            data = render.board_png(game, view)
            ms = (time.perf_counter() - started) * 1000
            (outdir / f"{stem}.png").write_bytes(data)
            img = Image.open(io.BytesIO(data))
            phone = img.convert("RGB").resize(
                (PHONE_WIDTH, round(PHONE_WIDTH * img.height / img.width)), Image.Resampling.LANCZOS
            )
            phone.save(outdir / f"{stem}-phone.png")
            note = f"{img.width}×{img.height}, {len(data) // 1024} KB, {ms:.0f} ms"
            print(f"{stem}.png  {note}")
            rows.append((stem, f"{stem}.png", note))
    if with_replays:
        for stem, game, view in replays():
            started = time.perf_counter()
            data = render.replay(game, view=view)
            s = time.perf_counter() - started
            (outdir / f"{stem}.gif").write_bytes(data)
            # n_frames is on the multi-frame formats only, so not on the type open() returns
            frames = getattr(Image.open(io.BytesIO(data)), "n_frames", 1)
            note = f"{frames} frames, {len(data) // 1024} KB, {s:.1f} s"
            print(f"{stem}.gif  {note}")
            rows.append((stem, f"{stem}.gif", note))
    _index(outdir, rows)
    return rows


def _index(outdir: Path, rows: list[tuple[str, str, str]]) -> None:
    parts = ["<!doctype html><meta charset=utf-8><title>Tetrad pictures</title>"]
    parts.append("<style>body{font-family:sans-serif;background:#ddd}figure{display:inline-block;")
    parts.append("vertical-align:top;margin:8px}img.full{width:640px}</style>")
    for stem, name, note in rows:
        phone = f"<img src='{stem}-phone.png'>" if name.endswith(".png") else ""
        parts.append(
            f"<figure><img class=full src='{name}'>{phone}"
            f"<figcaption>{html.escape(name)} — {html.escape(note)}</figcaption></figure>"
        )
    (outdir / "index.html").write_text("\n".join(parts), encoding="utf-8")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("outdir", type=Path)
    parser.add_argument("--games", default=",".join(SOURCES), help="comma-separated kinds")
    parser.add_argument("--no-replays", action="store_true")
    args = parser.parse_args(argv)
    kinds = [k for k in args.games.split(",") if k]
    unknown = [k for k in kinds if k not in SOURCES]
    if unknown:
        parser.error(f"unknown games: {', '.join(unknown)}")
    write(args.outdir, kinds, not args.no_replays)


if __name__ == "__main__":
    main()
