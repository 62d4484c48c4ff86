"""The colours of every picture, PNG and SVG alike: one source, so the two cannot disagree.

The PNG renderers draw on the light palette (notebook paper); the SVG renderer writes both
palettes into its stylesheet as CSS custom properties and picks one by a class on the root
element (see :mod:`render.svg`). The tints that pictures lay over the paper (captured areas,
taken boxes, the first-move zone) are given as an alpha here and mixed by each renderer.
"""

from __future__ import annotations

from dataclasses import dataclass

RGB = tuple[int, int, int]

PAPER: RGB = (251, 249, 243)  # off-white notebook paper
GRID: RGB = (196, 216, 234)  # pale blue squares
MARGIN: RGB = (226, 122, 122)  # the red margin line of a school notebook
INK: RGB = (31, 38, 56)  # ballpoint ink for text and marks
MUTED: RGB = (112, 120, 136)  # secondary text
WHITE: RGB = (255, 255, 255)

# Okabe–Ito, the colour-blind-safe set; the bot's captions use 🟠 🔵 🟢 🟣 for seats 0–3.
PLAYER: tuple[RGB, ...] = ((230, 159, 0), (0, 114, 178), (0, 158, 115), (204, 121, 167))
# The same hues darkened so thin lines and outlines stand out on paper.
PLAYER_DARK: tuple[RGB, ...] = ((178, 118, 0), (0, 84, 138), (0, 118, 86), (168, 78, 128))
# A distinct marker shape per seat, so nobody has to tell the colours apart.
MARKERS = ("circle", "square", "triangle", "diamond")

# Tints laid over the paper, as the alpha of the colour mixed in.
DOTS_FILL_ALPHA = (0.30, 0.24)  # a captured area, per owner (blue is darker, so less of it)
DOTS_ZONE_ALPHA = 0.07  # the first-move zone, in ink
DOTS_FRAME: RGB = (180, 150, 200)  # the keyboard's window and the map: a light lavender band
BOX_ALPHA = 0.30  # a taken box, in its owner's colour
HALO_MIX = 0.3  # Boxes: the pencil shadow under the last turn's lines, ink into paper


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """``a`` moved a fraction ``t`` of the way to ``b``."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


@dataclass(frozen=True)
class Theme:
    """The base colours of one look; everything else is mixed from them."""

    paper: RGB
    grid: RGB
    ink: RGB
    muted: RGB
    spot: RGB  # Рассада: the inside of a live spot
    player: tuple[RGB, ...]
    player_dark: tuple[RGB, ...]  # lines and outlines in a player's colour


LIGHT = Theme(PAPER, GRID, INK, MUTED, WHITE, PLAYER, PLAYER_DARK)
# Dark: slate paper, faint squares, light ink; the players keep their hues, and their lines
# are lightened instead of darkened so they stand out on the dark paper.
DARK = Theme(
    paper=(28, 32, 40),
    grid=(48, 60, 78),
    ink=(226, 230, 238),
    muted=(150, 158, 174),
    spot=(46, 52, 64),
    player=PLAYER,
    player_dark=tuple(mix(p, WHITE, 0.3) for p in PLAYER),
)
THEMES = {"light": LIGHT, "dark": DARK}
