"""Shared checks for the picture tests: decode, size limits, colour at a pixel."""

from __future__ import annotations

import io

from PIL import Image

MAX_PNG_BYTES = 250 * 1024
LONG_SIDE = 1280


def decode(data: bytes) -> Image.Image:
    """A PNG as an RGB image, after checking it is a PNG within the size limits."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(data) <= MAX_PNG_BYTES, f"{len(data)} bytes"
    img = Image.open(io.BytesIO(data))
    img.load()
    assert max(img.size) <= LONG_SIDE
    return img.convert("RGB")


def at(img: Image.Image, x: float, y: float) -> tuple[int, int, int]:
    px = img.getpixel((round(x), round(y)))
    assert isinstance(px, tuple)
    return (px[0], px[1], px[2])


def count(img: Image.Image, rgb: tuple[int, int, int], box: tuple[int, int, int, int]) -> int:
    """How many pixels of ``box`` have exactly the colour ``rgb``."""
    region = img.crop(box)
    return sum(n for n, c in region.getcolors(region.width * region.height) or [] if c == rgb)
