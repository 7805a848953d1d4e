"""QR codes made here, by segno: an SVG for the page, blocks of text for the terminal.

No outside service draws them, so they work on a Wi-Fi with no internet.
"""

from __future__ import annotations

import io
from functools import lru_cache

import segno


def _code(url: str) -> segno.QRCode:
    # Medium error correction: a code on a scratched phone screen or a dim laptop still reads.
    return segno.make_qr(url, error="m")


@lru_cache(maxsize=256)
def qr_svg(url: str) -> str:
    """An SVG of the URL's QR code, to serve or inline.

    No size (the CSS sizes it through the viewBox), no XML declaration, and colours as
    presentation attributes, not `style=`, which the Content-Security-Policy would block.
    Dark modules on white even in dark mode: scanners expect it.
    """
    out = io.BytesIO()
    _code(url).save(
        out,
        kind="svg",
        xmldecl=False,
        nl=False,
        omitsize=True,
        svgclass="qr",
        lineclass="qr-dark",
        dark="#000",
        light="#fff",
        border=4,
    )
    return out.getvalue().decode("utf-8")


def qr_terminal(url: str) -> str:
    """The URL's QR code in Unicode half blocks, two rows of modules per line of text."""
    out = io.StringIO()
    _code(url).terminal(out=out, compact=True)
    return out.getvalue()
