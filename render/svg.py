"""What the SVG pictures share: the root element, the stylesheet of both themes, numbers.

Themes: every colour is a CSS custom property set on the root ``<svg class="tetrad">``
twice, light (the PNG's notebook paper, the same values as :mod:`render.palette`) and dark
(``.tetrad.dark``); ``view["theme"] = "dark"`` writes the ``dark`` class, and a page may
toggle that class itself (no new request) or restyle the properties. The shapes take their
colours from classes scoped under ``.tetrad``, so the sheet touches nothing else on a page
the SVG is inlined into, and a :func:`render.preview_svg` fragment put inside the root finds
the same classes.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping

from render.palette import (
    BOX_ALPHA,
    DOTS_FILL_ALPHA,
    HALO_MIX,
    RGB,
    THEMES,
    Theme,
    mix,
)
from render.view import View

FONT = "'DejaVu Sans',Verdana,sans-serif"


def num(v: float) -> str:
    """A coordinate as short as it can be: a tenth of a user unit (a pixel of the PNG at
    its default size) is finer than any screen shows the board."""
    r = round(v, 1)
    return str(int(r)) if r == int(r) else f"{r:.1f}"


def hex_of(c: RGB) -> str:
    return "#{:02x}{:02x}{:02x}".format(*c)


def colours(t: Theme) -> dict[str, RGB]:
    """Every named colour of the pictures in theme ``t``, mixed as the PNG renderers mix
    them on the light theme (tests compare the two)."""
    out: dict[str, RGB] = {
        "pa": t.paper,
        "gr": t.grid,
        "ink": t.ink,
        "mu": t.muted,
        "halo": mix(t.paper, t.ink, HALO_MIX),
        "guide": mix(t.paper, t.muted, 0.55),
        "spot": t.spot,
        "dead": mix(t.paper, t.muted, 0.3),
        "used": mix(t.paper, t.muted, 0.35),
    }
    for p, (fill, line) in enumerate(zip(t.player, t.player_dark, strict=True)):
        out[f"p{p}"], out[f"d{p}"] = fill, line
        out[f"box{p}"] = mix(t.paper, fill, BOX_ALPHA)
    for p in (0, 1):  # Точки: two players
        area = mix(t.paper, t.player[p], DOTS_FILL_ALPHA[p])
        enemy = mix(t.paper, t.player[1 - p], DOTS_FILL_ALPHA[1 - p])
        out[f"area{p}"] = area
        out[f"gf{p}"] = mix(t.player[p], enemy, 0.72)  # a captured dot: its fill
        out[f"gl{p}"] = mix(t.player_dark[p], enemy, 0.4)  # and its outline
        out[f"fade{p}"] = mix(t.player_dark[p], enemy, 0.55)  # a ring whose dots were taken
        out[f"base{p}"] = mix(t.player[p], t.paper, 0.35)  # an empty ring
    return out


def _vars(t: Theme) -> str:
    return ";".join(f"--{k}:{hex_of(c)}" for k, c in colours(t).items())


def stylesheet(rules: Iterable[tuple[str, str]]) -> str:
    """Both themes' properties, then each ``(selector, declarations)`` scoped to the root."""
    head = f".tetrad{{{_vars(THEMES['light'])}}}.tetrad.dark{{{_vars(THEMES['dark'])}}}"
    body = "".join(
        ",".join(f".tetrad {s.strip()}" for s in sel.split(",")) + f"{{{decl}}}"
        for sel, decl in rules
    )
    return f"<style>{head}{body}</style>"


COMMON_RULES = (
    (".bg", "fill:var(--pa)"),
    (".gr", "stroke:var(--gr);fill:none"),
    (".lb", f"fill:var(--mu);font-family:{FONT};text-anchor:middle;dominant-baseline:central"),
    (".lm", "stroke:var(--ink);fill:none"),
    (".pv", "pointer-events:none"),
)


def theme_of(view: View) -> str:
    return "dark" if view.get("theme") == "dark" else "light"


def root(
    game: str,
    box: tuple[float, float, float, float],
    view: View,
    data: Mapping[str, object],
    rules: Iterable[tuple[str, str]],
    body: Iterable[str],
) -> str:
    """The whole ``<svg>``: ``box`` its viewBox (x, y, width, height in user units),
    ``data`` its ``data-*`` attributes (values other than strings as JSON)."""
    cls = "tetrad dark" if theme_of(view) == "dark" else "tetrad"
    attrs = "".join(
        f" data-{k}='{v if isinstance(v, str) else json.dumps(v, separators=(',', ':'))}'"
        for k, v in data.items()
    )
    x, y, w, h = box
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="{cls}" data-game="{game}"'
        f' viewBox="{num(x)} {num(y)} {num(w)} {num(h)}"{attrs}>'
        + stylesheet((*COMMON_RULES, *rules))
        + f'<rect class="bg" x="{num(x)}" y="{num(y)}" width="{num(w)}" height="{num(h)}"/>'
        + "".join(body)
        + "</svg>"
    )


def grid_path(xs: Iterable[float], ys: Iterable[float], box: tuple[float, ...]) -> str:
    """Squared paper: vertical lines at ``xs`` and horizontal ones at ``ys`` within ``box``
    (x0, y0, x1, y1), as one path."""
    x0, y0, x1, y1 = box
    d = "".join(f"M{num(x)} {num(y0)}V{num(y1)}" for x in xs)
    d += "".join(f"M{num(x0)} {num(y)}H{num(x1)}" for y in ys)
    return f'<path class="gr" d="{d}"/>'


def steps(origin: float, step: float, lo: float, hi: float) -> list[float]:
    """The lines ``step`` apart through ``origin`` that fall within [lo, hi], as
    :func:`render.common.grid_paper` draws them."""
    k = -int((origin - lo) // step)
    out = []
    while (v := origin + k * step) <= hi:
        if v >= lo:
            out.append(v)
        k += 1
    return out


def escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
