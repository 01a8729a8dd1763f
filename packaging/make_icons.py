#!/usr/bin/env python3
"""Render Parley's SVG icon into the formats the macOS and Windows builds need.

    python packaging/make_icons.py OUTDIR      -> OUTDIR/parley.icns, parley.ico, parley-512.png

Qt (already in the build environment) draws the SVG and writes ICNS and ICO through its image
plugins, so no icon is kept in git twice. parley.spec runs this on macOS and Windows.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ICON = Path(__file__).resolve().parent.parent / "parley" / "resources" / "icons" / "parley.svg"


def render(size: int):
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    renderer = QSvgRenderer(str(ICON))
    if not renderer.isValid():
        raise SystemExit(f"{ICON}: not a valid SVG")
    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    renderer.render(painter)
    painter.end()
    return image


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QGuiApplication

    app = QGuiApplication([])  # noqa: F841  (image plugins need an application object)
    out = Path(argv[1])
    out.mkdir(parents=True, exist_ok=True)
    for name, size, fmt in (("parley.icns", 512, "ICNS"), ("parley.ico", 256, "ICO"), ("parley-512.png", 512, "PNG")):
        if not render(size).save(str(out / name), fmt):
            raise SystemExit(f"Qt could not write {out / name} ({fmt} image plugin missing?)")
    print(f"icons written to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
