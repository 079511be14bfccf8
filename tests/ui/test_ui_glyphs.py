"""Every character the window shows has a glyph in the fonts it bundles: the marker symbols
and Hangul in NanumGothic, CJK punctuation and symbols (｢｣ among them) in the symbols subset."""

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


# Punctuation and symbols common in Korean (legal, religious, newspaper) text.
COMMON = (
    "｢｣「」『』〈〉《》【】〔〕（）［］｛｝〃〆〓・･…‥·‧※〜～―—–‐"
    "‘’“”′″‰§¶†‡°℃℉№㈜㉠㉮①②③④⑤⑥⑦⑧⑨⑩⑴⑵⒜ⅠⅡⅢⅣⅤⅰⅱⅲ"
    "→←↑↓⇒⇔○●◎◇◆□■△▲▽▼☆★♡♥✓×÷±≤≥≠∼∴∵"
    "㎞㎏㎎㎖㎡㏊"
    "，．：；！？、。"
)


def _sample_characters() -> set[str]:
    text = ""
    for name in ("corpus.jsonl", "questions.jsonl", "gold.jsonl"):
        text += resources.path("sample", name).read_text(encoding="utf-8")
    return {c for c in text if c.isprintable()}


def test_every_character_of_the_sample_and_common_punctuation_has_a_glyph():
    """The fonts the app loads (NanumGothic when the system has no Hangul font, the symbols
    subset always) cover every distinct character of the sample and the common punctuation,
    so no character depends on what the machine happens to have."""
    from fontTools.ttLib import TTFont

    covered: set[int] = set()
    for name in ("NanumGothic.ttf", "RecallReviewerSymbols.otf"):
        covered |= set(TTFont(resources.path("fonts", name)).getBestCmap())
    wanted = _sample_characters() | set(COMMON)
    missing = sorted(c for c in wanted if ord(c) not in covered)
    assert missing == [], f"no bundled glyph for {[f'U+{ord(c):04X} {c}' for c in missing]}"
    assert "｢" in wanted and "｣" in wanted


def test_the_symbols_font_is_a_small_subset_used_after_the_normal_font(qapp):
    from fontTools.ttLib import TTFont
    from PySide6.QtGui import QFontInfo

    from desktop.ui import app as ui_app

    path = resources.path("fonts", "RecallReviewerSymbols.otf")
    assert path.stat().st_size < 2 * 2**20
    cmap = TTFont(path).getBestCmap()
    assert 0xFF62 in cmap and 0xFF63 in cmap
    assert 0xAC00 not in cmap  # no Hangul syllables: those come from the Korean font
    assert resources.path("fonts", "OFL-NotoSansCJK.txt").read_text().count("OPEN FONT LICENSE")
    before = qapp.font()
    try:
        family = ui_app.ensure_symbol_font(qapp)
        assert family == "Recall Reviewer Symbols"
        families = qapp.font().families()
        assert families[-1] == family and len(families) >= 2
        assert QFontInfo(qapp.font()).family() != family  # the normal font draws first
    finally:
        qapp.setFont(before)
