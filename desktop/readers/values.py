"""From lines to values: JSON lines (finite numbers, no lone surrogates), CSV/TSV rows, ids
and whole numbers, each refusal naming its file and line."""

from __future__ import annotations

import csv
import json
import math
import re
import sys
from collections.abc import Iterator

from desktop.readers import opening
from desktop.readers.opening import InputError, long_line, nfc, read_lines, shown

# A CSV field may be as long as a JSONL line: csv's own limit of 128 KiB is not a rule of ours
# (the C long it is stored in is 32 bits on Windows).
csv.field_size_limit(min(sys.maxsize, 2**31 - 1))

_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def encodable(value) -> bool:
    """False when a decoded JSON value holds a lone surrogate (SQLite cannot store it)."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return False
        return True
    if isinstance(value, dict):
        return all(encodable(k) and encodable(v) for k, v in value.items())
    if isinstance(value, list):
        return all(encodable(v) for v in value)
    return True


class BadNumber(ValueError):
    pass


def whole(path, number: int, text: str, what: str) -> int:
    try:
        return int(number_text(text))
    except ValueError:
        raise InputError(
            path, number, f"{what} must be a whole number in ASCII digits, not {shown(text)!r}"
        ) from None


def number_text(text: str) -> str:
    """text when float()/int() may read it: ASCII only, no "1_000" (Python's digit
    grouping) and no full-width or other script's digits, which float() also accepts."""
    if not text.isascii() or "_" in text:
        raise ValueError(text)
    return text


def finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise BadNumber(f"the number {text[:20]} is too large for a float")
    return value


def no_constant(name: str):
    raise BadNumber(f"{name} is not a JSON number")


_DECODER = json.JSONDecoder(parse_float=finite, parse_constant=no_constant)


def json_lines(path, encoding, progress) -> Iterator[tuple[int, dict]]:
    for number, text in read_lines(path, encoding, progress):
        if not text.strip():
            continue
        try:
            obj = _DECODER.decode(text)
        except json.JSONDecodeError as error:
            raise InputError(
                path,
                number,
                f"not valid JSON ({error.msg.removesuffix(' at')} at column {error.colno})",
            ) from None
        except BadNumber as error:
            raise InputError(path, number, f"not usable JSON ({error})") from None
        except ValueError:
            # Python's int-string limit: a whole number of thousands of digits.
            raise InputError(
                path, number, "not usable JSON (a whole number has too many digits)"
            ) from None
        except RecursionError:
            raise InputError(path, number, "not usable JSON (nested too deeply)") from None
        if not isinstance(obj, dict):
            raise InputError(path, number, "each line must be a JSON object")
        if "\\u" in text and _SURROGATE_ESCAPE.search(text) and not encodable(obj):
            raise InputError(
                path,
                number,
                "a \\u escape stands for half of a UTF-16 pair "
                "(a lone surrogate), which is not text",
            )
        yield number, obj


def table_rows(path, encoding, progress, delimiter: str) -> Iterator[tuple[int, list[str]]]:
    """CSV/TSV rows as (line where the row starts, fields); blank lines skipped."""
    lines = read_lines(path, encoding, progress)
    current = [0, 0]  # the line read last; the characters read since the row began

    def feed():
        # A quoted field may hold line breaks: a row is refused, like a line, once it is
        # longer than MAX_LINE_BYTES, before csv gathers more of it.
        for number, text in lines:
            current[0], current[1] = number, current[1] + len(text) + 1
            if current[1] > opening.MAX_LINE_BYTES:  # read when used: tests lower it
                raise long_line(path, start)
            yield text + "\n"

    reader = csv.reader(feed(), delimiter=delimiter, strict=True)
    start = 1
    try:
        for row in reader:
            if any(cell.strip() for cell in row):
                yield start, row
            start, current[1] = current[0] + 1, 0
    except csv.Error as error:
        raise InputError(
            path, current[0], f"bad {'TSV' if delimiter == chr(9) else 'CSV'} ({error})"
        ) from None


def record_id(path, number, obj: dict, what: str) -> str:
    """Pop a record's id, named `id` or (BEIR) `_id`."""
    key = "id" if "id" in obj else "_id" if "_id" in obj else None
    if key is None:
        raise InputError(path, number, f"{what} has no 'id' (or BEIR '_id')")
    return text_id(path, number, obj.pop(key), key)


def text_id(path, number, value, name) -> str:
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise InputError(path, number, f"'{name}' must be a string")
    value = str(value).strip()
    if not value:
        raise InputError(path, number, f"'{name}' is empty")
    return nfc(value)


def spelling(raw, normalised: str) -> str | None:
    """The id as the file spelled it, when NFC normalisation changed it (else None)."""
    if raw is normalised or raw == normalised:
        return None
    spelled = str(raw).strip()
    return None if spelled == normalised else spelled
