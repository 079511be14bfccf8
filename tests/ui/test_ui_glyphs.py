"""Every marker symbol the window draws exists in the bundled NanumGothic, so a machine whose
only font is the bundled one shows no missing-glyph boxes."""

import re
from pathlib import Path

import resources

UI = Path(__file__).resolve().parents[2] / "desktop" / "ui"


def test_marker_symbols_are_in_the_bundled_font(qapp):
    from PySide6.QtGui import QRawFont

    font = QRawFont(str(resources.path("fonts", "NanumGothic.ttf")), 12)
    text = "".join(p.read_text(encoding="utf-8") for p in UI.glob("*.py"))
    # Symbols and dingbats the code writes literally (Hangul and Latin are the font's core).
    symbols = sorted(set(re.findall(r"[\u2190-\u2bff\u00d7]", text)))
    assert symbols, "expected some marker symbols in the UI code"
    missing = [s for s in symbols if font.glyphIndexesForString(s) == [0]]
    assert missing == [], f"not in NanumGothic: {missing}"
