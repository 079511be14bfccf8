"""The report's cell values and sizes: text cleaned so that Excel and openpyxl take it as it
is, excerpts, sheet titles, and how many lines a text takes wrapped in a column (row heights
and column widths). No openpyxl here."""

from __future__ import annotations

import math
import re

from desktop.report.gold_pass import as_text

MAX_CELL = 32_767  # Excel's limit, in UTF-16 code units
CUT_MARK = "… [잘림 cut]"
EXCERPT = 500  # characters of passage text on the Misses sheet
LINE_POINTS = 13.0  # one line of 10 pt text, in points


# openpyxl's ILLEGAL_CHARACTERS_RE (C0 controls but tab, newline, carriage return) plus what
# XML 1.0 cannot hold either: lone surrogates (JSON's "\ud800" decodes to one) and U+FFFE/F.
_ILLEGAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_SHEET_FORBIDDEN = re.compile(r"[\\/?*\[\]:]")


def clean_text(value: str) -> str:
    """A string Excel and openpyxl accept as it is: XML-illegal characters removed, and cut
    with ``CUT_MARK`` to fit 32,767 UTF-16 code units."""
    if _ILLEGAL.search(value):
        value = _ILLEGAL.sub("", value)
    if len(value) > MAX_CELL // 2 and _utf16_len(value) > MAX_CELL:
        keep = MAX_CELL - _utf16_len(CUT_MARK)
        units = 0
        for index, char in enumerate(value):
            units += 2 if ord(char) > 0xFFFF else 1
            if units > keep:
                value = value[:index]
                break
        value += CUT_MARK
    return value


def _utf16_len(value: str) -> int:
    return len(value.encode("utf-16-le")) // 2


def excerpt(text: str | None, length: int = EXCERPT) -> str:
    text = text or ""
    return text if len(text) <= length else text[:length] + "…"


def sheet_title(name: str) -> str:
    """A valid sheet name: none of \\ / ? * [ ] :, no control characters, no leading or
    trailing apostrophe, 1 to 31 characters."""
    name = _SHEET_FORBIDDEN.sub("_", clean_text(name)).strip().strip("'")
    return name[:31].rstrip() or "Sheet"


def cleaned(value):
    """A cell value as written: None, a bool or number as it is, text cleaned (anything else
    as its JSON text)."""
    if value is None or isinstance(value, (bool, int, float)):
        return value
    return clean_text(value if isinstance(value, str) else as_text(value))


def text_lines(text, width: float) -> int:
    """About how many lines a text takes wrapped in a column ``width`` characters wide: Hangul
    and other wide characters count two (three UTF-8 bytes each against one), and a tenth more
    for breaking at spaces rather than anywhere."""
    if not isinstance(text, str):
        return 1
    room = max(int(width) - 1, 1)
    total = 0
    for line in text.split("\n"):
        shown = len(line) + (len(line.encode("utf-8", "surrogatepass")) - len(line)) // 2
        total += max(1, math.ceil(shown * 1.1 / room))
    return total


def header_width(label) -> float:
    """The narrowest column (as text_lines counts) that shows a header in two lines: each of
    its lines on one, or a one-line header wrapped in two."""
    if not isinstance(label, str):
        return 0
    lines = label.split("\n")
    shown = max(len(x) + (len(x.encode("utf-8", "surrogatepass")) - len(x)) // 2 for x in lines)
    return math.ceil(shown * 1.1 / (2 if len(lines) == 1 else 1)) + 1


def h(english: str, korean: str = "") -> str:
    """A header: English, and Korean on a second line."""
    return f"{english}\n{korean}" if korean else english
