"""Render the app icon from its SVG source into every file an OS wants.

    python packaging/make_icons.py

resources/icons/recall-reviewer.svg is the source (recall-reviewer-small.svg for 16-32 px, where
the full drawing turns to mush). Written next to them:

- recall-reviewer-{16,24,32,48,64,128,256,512}.png  Linux hicolor sizes and the window icon
- recall-reviewer.ico   Windows: 16-256 px, PNG-compressed entries (Vista and later)
- recall-reviewer.icns  macOS: 16-1024 px incl. @2x, PNG entries (OS X 10.7 and later)

Only Qt (QtSvg, part of PySide6-Essentials) is needed; the ICO and ICNS containers are written
here by hand, both are a small header and a table of PNG blobs.
"""

from __future__ import annotations

import os
import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ICONS = ROOT / "resources" / "icons"
NAME = "recall-reviewer"
PNG_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
# ICNS type codes and the pixel size each holds (Apple's iconutil names in comments).
ICNS_TYPES = (
    (b"icp4", 16),  # icon_16x16
    (b"icp5", 32),  # icon_32x32
    (b"ic11", 32),  # icon_16x16@2x
    (b"icp6", 64),
    (b"ic12", 64),  # icon_32x32@2x
    (b"ic07", 128),  # icon_128x128
    (b"ic08", 256),  # icon_256x256
    (b"ic13", 256),  # icon_128x128@2x
    (b"ic09", 512),  # icon_512x512
    (b"ic14", 512),  # icon_256x256@2x
    (b"ic10", 1024),  # icon_512x512@2x
)
SMALL_UP_TO = 32


def render(size: int) -> bytes:
    """The icon as PNG bytes at size x size pixels."""
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    source = ICONS / (f"{NAME}-small.svg" if size <= SMALL_UP_TO else f"{NAME}.svg")
    renderer = QSvgRenderer(str(source))
    if not renderer.isValid():
        raise SystemExit(f"{source}: not a valid SVG")
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    renderer.render(painter)
    painter.end()
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.convertToFormat(QImage.Format.Format_ARGB32).save(buffer, "PNG")
    buffer.close()
    return bytes(data.data())


def ico(pngs: dict[int, bytes]) -> bytes:
    """A Windows .ico holding one PNG entry per size (a width/height byte of 0 means 256)."""
    sizes = [s for s in ICO_SIZES if s in pngs]
    header = struct.pack("<HHH", 0, 1, len(sizes))
    offset = len(header) + 16 * len(sizes)
    entries, blobs = b"", b""
    for size in sizes:
        blob = pngs[size]
        entries += struct.pack(
            "<BBBBHHII", size % 256, size % 256, 0, 0, 1, 32, len(blob), offset + len(blobs)
        )
        blobs += blob
    return header + entries + blobs


def icns(pngs: dict[int, bytes]) -> bytes:
    """A macOS .icns: 'icns' + total length, then (type, length, PNG) per entry."""
    body = b"".join(
        code + struct.pack(">I", 8 + len(pngs[size])) + pngs[size] for code, size in ICNS_TYPES
    )
    return b"icns" + struct.pack(">I", 8 + len(body)) + body


def main() -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QGuiApplication

    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])  # noqa: F841 (kept alive)
    sizes = sorted({*PNG_SIZES, *ICO_SIZES, *(s for _, s in ICNS_TYPES)})
    pngs = {size: render(size) for size in sizes}
    written = []
    for size in PNG_SIZES:
        target = ICONS / f"{NAME}-{size}.png"
        target.write_bytes(pngs[size])
        written.append(target)
    (ICONS / f"{NAME}.ico").write_bytes(ico(pngs))
    (ICONS / f"{NAME}.icns").write_bytes(icns(pngs))
    written += [ICONS / f"{NAME}.ico", ICONS / f"{NAME}.icns"]
    for path in written:
        print(f"{path.relative_to(ROOT)}  {path.stat().st_size:,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
