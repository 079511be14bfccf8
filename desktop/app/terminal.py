"""Text printed to a terminal, made safe: ids, system names and notes come from the user's
files, and a control character in them (an escape sequence, a carriage return, a bidi
override) must not move the cursor, recolour the terminal or hide text. No Qt here.
"""

from __future__ import annotations

import re
import unicodedata

# C0 and C1 controls, DEL, and the invisible format characters that reorder or hide text
# (bidi embeddings, overrides and isolates; zero-width marks).
_BIDI = "\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff"
_VALUE = re.compile(f"[\x00-\x1f\x7f-\x9f{_BIDI}]")
_STREAM = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f{_BIDI}]")  # keeps \t and \n


def _escape(match: re.Match) -> str:
    return f"\\u{ord(match.group()):04x}"


def printable(value: object) -> str:
    """One value (an id, a name, a note) for a line of output: every control and
    format character, newlines included, shown as \\uXXXX."""
    text = str(value)
    return _VALUE.sub(_escape, text) if _VALUE.search(text) else text


def width(text: str) -> int:
    """Columns a text takes in a terminal: Hangul and other wide characters take two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


class SafeStream:
    """A text stream that escapes control characters other than tab and newline. The \\uXXXX
    form is also a valid JSON escape, so JSON output stays valid and means the same."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, text: str) -> int:
        safe = _STREAM.sub(_escape, text) if _STREAM.search(text) else text
        try:
            self._stream.write(safe)
        except UnicodeEncodeError:
            # Windows writes a pipe or file in the ANSI code page (cp949 on Korean Windows,
            # cp1252 elsewhere): a character outside it is shown as \uXXXX, not a failure.
            encoding = self._stream.encoding
            self._stream.write(safe.encode(encoding, "backslashreplace").decode(encoding))
        return len(text)

    def __getattr__(self, name):
        return getattr(self._stream, name)
