"""A span as a file gives it (design section 10): `{"document_id": "d1", "start": 10,
"end": 200}`, code points of the document's NFC text, half-open. Whether the document exists
and is long enough is the store's to say (db/gold.py); here only the shape is checked."""

from __future__ import annotations

from desktop.readers.opening import InputError, shown
from desktop.readers.values import text_id

SPAN_SHAPE = '{"document_id": ID, "start": N, "end": N}'


def span_value(path, number: int, value, name: str = "span") -> tuple[str, int, int]:
    """(document id, start, end) of a span object, or InputError saying what is wrong."""
    if not isinstance(value, dict):
        raise InputError(path, number, f"'{name}' must be an object {SPAN_SHAPE}")
    document = text_id(path, number, value.get("document_id"), f"{name}.document_id")
    bounds = []
    for key in ("start", "end"):
        offset = value.get(key)
        # isinstance, not ==: true is 1 and 1.0 equals 1, but neither is a JSON whole number.
        if isinstance(offset, bool) or not isinstance(offset, int):
            raise InputError(
                path,
                number,
                f"'{name}.{key}' must be a whole number of characters, not {shown(repr(offset))}",
            )
        bounds.append(offset)
    start, end = bounds
    if start < 0 or start >= end:
        raise InputError(
            path, number, f"'{name}' needs 0 <= start < end, not start {start} and end {end}"
        )
    return document, start, end
