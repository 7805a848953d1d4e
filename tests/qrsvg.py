"""Read the modules back out of a segno SVG: a QR code compared with the one expected."""

from __future__ import annotations

import re

import segno

_VIEWBOX = re.compile(r'viewBox="0 0 (\d+) (\d+)"')
_DARK_PATH = re.compile(r'<path class="qr-dark"[^>]* d="([^"]+)"')
_STEP = re.compile(r"([MmHhVvZz])\s*(-?[\d.]*)\s*,?\s*(-?[\d.]*)")


def svg_modules(svg: str) -> list[list[bool]]:
    """The dark and light modules an SVG draws, quiet zone included.

    segno draws each run of dark modules of a row as a horizontal stroke through the
    row's middle (`M x y+.5 h length`, then relative moves `m dx dy`).
    """
    width, height = (int(n) for n in _VIEWBOX.search(svg).groups())
    grid = [[False] * width for _ in range(height)]
    x = y = 0.0
    for command, first, second in _STEP.findall(_DARK_PATH.search(svg).group(1)):
        if command == "M":
            x, y = float(first), float(second)
        elif command == "m":
            x, y = x + float(first), y + float(second)
        elif command == "h":
            for column in range(int(x), int(x + float(first))):
                grid[int(y)][column] = True
            x += float(first)
        else:
            raise AssertionError(f"unexpected path command {command!r}")
    return grid


def expected_modules(url: str, border: int = 4) -> list[list[bool]]:
    """What segno itself makes for `url`, with the same quiet zone."""
    code = segno.make_qr(url, error="m")
    return [[bool(m) for m in row] for row in code.matrix_iter(border=border)]
