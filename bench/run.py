"""Every benchmark in one run: ``python -m bench [--full] [--only SECTIONS] [--no-write]``.

Sections: ``engine`` (Dots random games on 39×32, the Boxes solver on 3×3 and on 5×5
endgames, Sprouts outcomes once the engine is there), ``ai`` (think time per level and game),
``render`` (picture times and sizes), ``storage`` (bytes per match in Redis), ``latency``
(tap-to-edit latency and bot CPU per tap with 1, 50 and 200 matches, and the keyboard-only
throughput of one process, through the playground and a real redis-server). Each section runs
the functions of its own bench module, prints its lines as it goes, and ends with a table.
The tables, the machine (CPU, cores, RAM, Python, load average at the start) and the commands
are written to ``docs/PERFORMANCE.md``; a partial run (``--only``) replaces only its own tables
there and keeps the others.

The quick form (default) takes a few minutes; ``--full`` runs longer series (200 matches, more
positions and games) and takes about half an hour. Timings on a shared machine are noisy: the
load average at the start is recorded next to them.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import os
import platform
import shlex
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import engine

if TYPE_CHECKING:
    from bench.ai_times import Times

DOC = Path(__file__).resolve().parent.parent / "docs" / "PERFORMANCE.md"
SECTIONS = ("engine", "ai", "render", "storage", "latency")


@dataclass
class Table:
    title: str
    columns: list[str]
    rows: list[list[Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    command: str = ""

    def add(self, *cells: Any) -> None:
        self.rows.append(list(cells))

    def text(self) -> str:
        cells = [self.columns] + [[fmt(c) for c in row] for row in self.rows]
        widths = [max(len(r[i]) for r in cells) for i in range(len(self.columns))]
        lines = [f"== {self.title}"]
        for k, row in enumerate(cells):
            lines.append("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)))
            if k == 0:
                lines.append("  ".join("-" * w for w in widths))
        lines += [f"note: {n}" for n in self.notes]
        return "\n".join(lines)

    def markdown(self) -> str:
        out = [f"### {self.title}", ""]
        if self.command:
            out += [f"`{self.command}`", ""]
        out.append("| " + " | ".join(self.columns) + " |")
        out.append("|" + "---|" * len(self.columns))
        for row in self.rows:
            out.append("| " + " | ".join(fmt(c) for c in row) + " |")
        out += [""] + [f"- {n}" for n in self.notes]
        return "\n".join(out).rstrip() + "\n"


def fmt(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, float):
        if value >= 100:
            return f"{value:.0f}"
        if value >= 10:
            return f"{value:.1f}"
        return f"{value:.2f}"
    return str(value)


def verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


# -- sections ------------------------------------------------------------------------------------


def engine_section(full: bool) -> list[Table]:
    from bench import boxes_speed, dots_speed

    games = 20 if full else 5
    dots = dots_speed.measure(games, ai=False)
    t = Table("Engines", ["what", "figure", "target", "status"])
    t.command = f"python -m bench.dots_speed --games {games}; python -m bench.boxes_speed"
    t.add(
        f"Dots 39×32 random game to the end ({dots['moves per game']:.0f} moves), median",
        f"{dots['full game median ms']:.1f} ms (best {dots['full game best ms']:.1f}, "
        f"worst {dots['full game worst ms']:.1f})",
        "≤ 150 ms",
        verdict(dots["full game median ms"] <= 150),
    )
    t.add(
        "Dots play() p50 / p99",
        f"{dots['play p50 ms']:.3f} / {dots['play p99 ms']:.3f} ms",
        "p99 ≤ 1 ms",
        verdict(dots["play p99 ms"] <= 1),
    )
    t.add("Dots finished game to_json", f"{dots['json max bytes']:.0f} B", "≤ 4096 B", "")
    t.add("Dots from_json of a finished game (replay)", f"{dots['from_json ms']:.1f} ms", "", "")
    for solved in boxes_speed.bench_solve([(3, 3)]):
        t.add(
            "Boxes 3×3 solved from the empty board (no table)",
            f"{solved['seconds']:.1f} s, value {solved['value']:+.0f}, {solved['nodes']:.0f} nodes",
            "≤ 60 s",
            verdict(solved["seconds"] <= 60),
        )
    ends = boxes_speed.bench_exact30(30 if full else 10)
    t.add(
        f"Boxes 5×5 endgames, 30 lines left ({ends['positions']:.0f} positions): exact solve",
        f"p50 {ends['p50 s']:.3f} s, max {ends['max s']:.3f} s; within hard's budget "
        f"{ends['within budget']:.0f}/{ends['positions']:.0f}",
        "",
        "",
    )
    tables = [t]
    sprouts = sprouts_table(full)
    if sprouts is not None:
        tables.append(sprouts)
    else:
        t.notes.append("Sprouts: the engine is not on this branch yet; no outcome figures.")
    return tables


def sprouts_table(full: bool) -> Table | None:
    """Outcomes of n-spot Sprouts (normal 1..11, misère 1..6; the full run goes on to 13 and
    8) with solve times, from the Sprouts engine's own bench once it is there."""
    try:
        from bench import sprouts_solver
    except ImportError:
        return None
    t = Table("Sprouts outcomes", ["variant", "n", "outcome", "seconds"])
    t.command = "python -m bench.sprouts_solver"
    for variant, top in (("normal", 13 if full else 11), ("misère", 8 if full else 6)):
        for n, outcome, seconds in sprouts_solver.outcomes(variant, range(1, top + 1)):
            t.add(variant, n, outcome, seconds)
    return t


def ai_section(full: bool) -> list[Table]:
    from bench import ai_times

    per = 12 if full else 4
    t = _ai_table(
        "AI think time per move (the bot's time limits, AI_TIME_SCALE=1)",
        f"python -m bench.ai_times --positions {per}",
        ai_times.measure(per, log=lambda line: print(line, flush=True)),
    )
    missing = [label for label, kind, _, _ in ai_times.BOARDS if kind not in engine.GAMES]
    if missing:
        t.notes.append(f"not measured yet (engine missing): {', '.join(missing)}")
    tight = _ai_table(
        "Точки think time on the tightest clock (a 50 ms budget a move)",
        f"python -m bench.ai_times --games dots --budget 0.05 --positions {per}",
        ai_times.measure(
            per, log=lambda line: print(line, flush=True), budget=0.05, kinds=("dots",)
        ),
    )
    tight.notes.append(
        "bot.match.clocks.think_budget never gives a move less than 50 ms; the limit column is "
        "the budget"
    )
    return [t, tight]


def _ai_table(title: str, command: str, results: list[Times]) -> Table:
    t = Table(
        title,
        ["board", "level", "moves", "p50 ms", "p95 ms", "max ms", "limit ms", "limit +10 %"],
    )
    t.command = command
    for r in results:
        row = r.row
        t.add(
            row["board"],
            row["level"],
            row["moves"],
            1000 * row["p50 s"],
            1000 * row["p95 s"],
            1000 * row["max s"],
            1000 * row["limit s"],
            "within" if row["within"] else "OVER",
        )
    t.notes.append(
        "each move is timed as the bot's workers run it, replaying the game's record first; "
        "p95 and max are by nearest rank (with 4 positions p95 is the slowest move)"
    )
    return t


def render_section(full: bool) -> list[Table]:
    from bench import render_bench as rb

    runs = 60 if full else 20
    view, dots_view = rb.VIEW, rb.DOTS_VIEW
    dots, boxes = rb.dots_late(), rb.boxes_mid()
    sprouts, source = rb.sprouts_late()
    rows: list[dict[str, Any]] = []
    rb.bench_picture("dots", dots, dots_view, runs, rows)
    rb.bench_dots_paths(dots, dots_view, runs, rows)
    rb.bench_picture("boxes", boxes, view, runs, rows)
    rb.bench_picture("sprouts", sprouts, view, runs, rows)
    rb.bench_sprouts_cold(sprouts, view, runs, rows)
    t = Table(
        "Board pictures",
        ["picture", "wall median ms", "wall p90 ms", "CPU median ms", "KB", "target ms", "status"],
    )
    t.command = f"python -m bench.render_bench --runs {runs}"
    for r in rows:
        t.add(
            r["picture"],
            r["wall median ms"],
            r["wall p90 ms"],
            r["cpu median ms"],
            r["KB"],
            r["target ms"],
            verdict(r["wall median ms"] <= r["target ms"]),
        )
    t.notes.append(
        f"Dots 38×31 late game: {dots.ply} moves; Boxes 5×5: {boxes.ply} lines; "
        f"Sprouts 12 spots: {source}."
    )
    return [t]


def storage_section(full: bool) -> list[Table]:
    from bench import storage_bench as sb

    async def figures() -> list[tuple[str, dict[str, float], str]]:
        import storage
        from storage import Config

        out: list[tuple[str, dict[str, float], str]] = []
        with sb.temporary_server() as url:
            async with await storage.connect(url, config=Config(prefix="bench")) as store:
                for label, game, how in sb.engine_games():
                    if game is None:
                        out.append((label, {}, how))
                        continue
                    out.append((label, await sb.memory_bytes(store, game), how))
        return out

    t = Table(
        "Bytes per match in Redis",
        ["record", "JSON bytes", "MEMORY USAGE of the key", "used_memory per match", "made by"],
    )
    t.command = "python -m bench.storage_bench"
    for label, f, how in asyncio.run(figures()):
        t.add(label, f.get("json"), f.get("key"), f.get("redis per match"), how)
    t.notes.append(
        "used_memory per match: growth of Redis' used_memory over 500 such matches (record, "
        "chat index entries, allocator overhead), on the real redis-server."
    )
    return [t]


def latency_section(full: bool) -> list[Table]:
    from bench import latency

    opts = latency.options(quick=not full)
    runs = asyncio.run(latency.measure(opts, log=lambda line: print(line, flush=True)))
    t = Table(
        "Tap to edit, one bot process (webhook mode) through the playground and a real Redis",
        [
            "game",
            "scenario",
            "taps",
            "taps/s",
            "wall p50/p95/p99 ms",
            "bot CPU p50/p95/p99 ms",
            "CPU mean ms (in handlers)",
            "workers CPU per tap ms",
            "target (median / p99)",
            "status",
        ],
    )
    t.command = "python -m bench.latency" + ("" if full else " --quick")
    through = Table(
        "Throughput of one process (Dots window steps: keyboard and framed picture)",
        [
            "tappers",
            "taps",
            "taps/s achieved",
            "bot CPU per tap ms",
            "taps per CPU-second",
            "wall p50/p99 ms",
            "target",
            "status",
        ],
    )
    through.command = t.command
    for run in runs:
        r = run.row()
        if run.target_ms is None:
            capacity = 1000 / run.cpu_per_tap_ms if run.cpu_per_tap_ms else 0.0
            through.add(
                run.matches,
                run.taps,
                run.rate,
                run.cpu_per_tap_ms,
                capacity,
                f"{fmt(r['wall p50'])} / {fmt(r['wall p99'])}",
                "≥ 200 taps/s",
                verdict(max(run.rate, capacity) >= latency.THROUGHPUT_TARGET),
            )
            continue
        med, p99 = r["cpu p50"], r["cpu p99"]
        ok = med is not None and p99 is not None
        ok = ok and med <= run.target_ms and p99 <= latency.P99_TARGET_MS
        t.add(
            run.game,
            run.name,
            run.taps,
            run.rate,
            f"{fmt(r['wall p50'])} / {fmt(r['wall p95'])} / {fmt(r['wall p99'])}",
            f"{fmt(med)} / {fmt(r['cpu p95'])} / {fmt(p99)}",
            f"{fmt(r['cpu mean'])} ({fmt(r['handler cpu mean'])})",
            fmt(r["workers cpu per tap"]) if run.workers_cpu_s >= 0.01 else "—",
            f"≤ {run.target_ms:.0f} / ≤ {latency.P99_TARGET_MS:.0f}",
            "did not keep up" if run.failure else verdict(ok),
        )
        if run.failure:
            t.notes.append(f"{run.game}, {run.name}: {run.failure}.")
    t.notes += [
        "1 match: each tap waits for the edited board; bot CPU per tap is the bot process's "
        "CPU time (all threads, /proc/<pid>/task/*/schedstat) from the tap until the bot is "
        "idle, minus its idle rate. Many matches: people think 3–9 s between moves; the CPU "
        "quantiles are the bot's tetrad_handler_cpu_seconds histogram (interpolated in its "
        "buckets) plus the mean CPU a tap costs outside its handler (process CPU over the run "
        "per tap minus the handlers' mean); the mean is the process's CPU over the run per tap. "
        "A handler's own thread is what the histogram times: work it hands to other threads "
        "(every picture) is spread evenly by that mean, so with many matches the quantiles "
        "understate the tail of the taps that draw a new picture (the 1-match rows show it).",
        "The bot's worker processes do the heavy work off the taps' CPU: the bot's moves and "
        "the replay animation of each ended game (the AI pool), and Рассада's curves "
        "(ROUTE_WORKERS, 2 here: the routing and tidying of each new curve, a previewed one "
        "included). Their CPU is not in the bot CPU columns; the workers column is theirs over "
        "the run per tap, the replays of the games that ended included, so bot plus workers is "
        "what a tap costs the machine.",
        "The emulator's flood limits are OFF and the bot's own pacing is lifted "
        "(GROUP_EDITS_PER_MINUTE=60000, MESSAGES_PER_SECOND=10000) for these runs.",
        "Wall times include the emulator and the simulated people, which share the machine's "
        "cores with the bot.",
    ]
    through.notes.append(
        "taps per CPU-second = what one process sustains at one fully used core (the bot's "
        "event loop is one thread); the achieved rate is bounded by the cores left over on "
        "this machine."
    )
    return [t, through]


RUNNERS: dict[str, Callable[[bool], list[Table]]] = {
    "engine": engine_section,
    "ai": ai_section,
    "render": render_section,
    "storage": storage_section,
    "latency": latency_section,
}


# -- the machine and the document ----------------------------------------------------------------


def machine() -> dict[str, str]:
    def read(path: str) -> str:
        try:
            return Path(path).read_text()
        except OSError:
            return ""

    cpu = next(
        (
            line.split(":", 1)[1].strip()
            for line in read("/proc/cpuinfo").splitlines()
            if line.startswith("model name")
        ),
        platform.processor() or platform.machine(),
    )
    mem = next(
        (
            int(line.split()[1])
            for line in read("/proc/meminfo").splitlines()
            if line.startswith("MemTotal")
        ),
        0,
    )
    load = os.getloadavg() if hasattr(os, "getloadavg") else (0.0, 0.0, 0.0)
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=False,
            cwd=DOC.parent.parent,
        ).stdout.strip()
    except OSError:
        commit = ""
    return {
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "commit": commit or "?",
        "CPU": cpu,
        "cores": str(os.cpu_count()),
        "RAM": f"{mem / 1024 / 1024:.1f} GiB" if mem else "?",
        "OS": f"{platform.system()} {platform.release()}",
        "Python": platform.python_version(),
        "load average at start (1/5/15 min)": " / ".join(f"{x:.2f}" for x in load),
    }


def document(info: dict[str, str], tables: list[Table], command: str, seconds: float) -> str:
    lines = [
        "# Performance",
        "",
        f"Written by `{command}` in {seconds / 60:.1f} minutes. Re-run it to refresh this file "
        "(`python -m bench --full` for the longer series; `python -m bench.<module> --help` for "
        "each part).",
        "",
        "## Machine",
        "",
        "| | |",
        "|---|---|",
        *[f"| {k} | {v} |" for k, v in info.items()],
        "",
        "A shared machine: other jobs ran at the same time (see the load average), so wall "
        "times are noisy and CPU times somewhat inflated; compare figures within one run.",
        "",
        "## Figures",
        "",
    ]
    for table in tables:
        lines.append(table.markdown())
    return "\n".join(lines)


def _blocks(doc: str) -> tuple[str, list[tuple[str, str]]]:
    """A document's head (up to its figures) and its tables as (title, markdown) pairs."""
    head, _, body = doc.partition("## Figures\n")
    blocks = ["### " + b for b in ("\n" + body).split("\n### ")[1:]]
    return head, [(b.splitlines()[0], b.rstrip() + "\n") for b in blocks]


def merged(old: str, new: str) -> str:
    """A partial run (``--only``) written over a whole one: its tables replace theirs by title,
    the other tables stay, and the head says which run each comes from."""
    head, fresh = _blocks(new)
    _, kept = _blocks(old)
    earlier = next((ln for ln in old.splitlines() if ln.startswith("| commit |")), "")
    titles = dict(fresh)
    out = [titles.pop(t, b) for t, b in kept] + list(titles.values())
    note = (
        "Tables not re-measured by this partial run are kept from the previous run"
        f" ({earlier.strip('| ').replace(' | ', ' ') or 'unknown'}).\n\n"
    )
    return head + "## Figures\n\n" + note + "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="the long series (~30 min)")
    parser.add_argument("--quick", action="store_true", help="the short series (default)")
    parser.add_argument("--only", help=f"comma-separated sections of {','.join(SECTIONS)}")
    parser.add_argument("--no-write", action="store_true", help=f"do not write {DOC.name}")
    parser.add_argument("--out", type=Path, default=DOC)
    args = parser.parse_args(argv)
    sections = args.only.split(",") if args.only else list(SECTIONS)
    unknown = [s for s in sections if s not in RUNNERS]
    if unknown:
        parser.error(f"unknown sections: {', '.join(unknown)}")
    info = machine()
    started = time.perf_counter()
    tables: list[Table] = []
    for name in sections:
        print(f"\n##### {name}", flush=True)
        for table in RUNNERS[name](args.full):
            tables.append(table)
            print("\n" + table.text(), flush=True)
    seconds = time.perf_counter() - started
    print("\n##### machine")
    for k, v in info.items():
        print(f"{k}: {v}")
    if not args.no_write:
        command = "python -m bench" + "".join(
            f" {shlex.quote(a)}" for a in (argv if argv is not None else sys.argv[1:])
        )
        args.out.parent.mkdir(parents=True, exist_ok=True)
        text = document(info, tables, command, seconds)
        if args.only and args.out.exists():
            text = merged(args.out.read_text(), text)
        args.out.write_text(text)
        print(f"\nwritten: {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
