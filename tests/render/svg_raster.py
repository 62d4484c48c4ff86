"""SVG pictures through headless Chromium (Playwright, the system Chromium), back as images,
so tests can check what a browser really draws, and people can look at it."""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence

from PIL import Image

from tests.playground.browser import chromium

SVG = "{http://www.w3.org/2000/svg}"
PHONE_WIDTH = 412


def parse(svg: str) -> ET.Element:
    """The SVG as an element tree (fails on anything that is not well-formed XML)."""
    return ET.fromstring(svg)


def view_box(svg: str) -> tuple[float, float, float, float]:
    x, y, w, h = (float(v) for v in parse(svg).attrib["viewBox"].split())
    return x, y, w, h


def with_preview(svg: str, fragment: str) -> str:
    """The board with a :func:`render.preview_svg` fragment inside its root."""
    return svg[: svg.rindex("</svg>")] + fragment + "</svg>"


def cropped(svg: str, box: tuple[float, float, float, float]) -> str:
    """The same picture with its viewBox narrowed to ``box`` (a zoom, for looking)."""
    return re.sub(r'viewBox="[^"]*"', 'viewBox="{} {} {} {}"'.format(*box), svg, count=1)


async def rasterise(svgs: Sequence[str], width: float | None = None) -> list[Image.Image]:
    """Each SVG drawn ``width`` CSS pixels wide (default: one pixel per user unit) in
    Chromium, as an RGB image."""
    out = []
    async with chromium() as browser:
        page = await browser.new_page(viewport={"width": 800, "height": 800})
        for svg in svgs:
            w = width if width is not None else view_box(svg)[2]
            await page.set_content(
                f"<html><body style='margin:0'><div id='b' style='width:{w}px'>{svg}</div>"
                "</body></html>"
            )
            shot = await page.locator("#b svg").screenshot()
            out.append(Image.open(io.BytesIO(shot)).convert("RGB"))
        await page.close()
    return out


def rgb(img: Image.Image, x: int, y: int) -> tuple[int, int, int]:
    px = img.getpixel((x, y))
    assert isinstance(px, tuple)
    return (int(px[0]), int(px[1]), int(px[2]))


def assert_like_png(
    png: Image.Image, raster: Image.Image, svg: str, probes: Sequence[tuple[int, int]], tol: int = 8
) -> None:
    """At each probe (PNG pixels = user units), Chromium's SVG has the PNG's colour."""
    x0, y0, _, _ = view_box(svg)
    for px, py in probes:
        want, got = rgb(png, px, py), rgb(raster, round(px - x0), round(py - y0))
        assert max(abs(a - b) for a, b in zip(want, got, strict=True)) <= tol, ((px, py), want, got)
