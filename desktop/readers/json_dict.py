"""ranx / pytrec_eval JSON dicts ({"question id": {"passage id": value}}), read with their
line numbers for the messages."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator

from desktop.readers.opening import GZIP_ERRORS, InputError, codec_for, gzip_refusal, open_bytes
from desktop.readers.values import BadNumber, encodable, finite, no_constant, text_id

# The whole object is parsed at once (the standard library has no streaming JSON parser), and
# parsed JSON takes about ten times its size in memory: bigger files are refused.
JSON_DICT_LIMIT = 256 * 2**20


class _Pairs(list):
    """A JSON object as its (key, value) pairs, so that a repeated key is seen, not dropped."""


_PAIRS_DECODER = json.JSONDecoder(
    parse_float=finite, parse_constant=no_constant, object_pairs_hook=_Pairs
)


def read_json_dict(path, encoding, progress, what: str) -> Iterator[tuple[int, str, list]]:
    """(line, question id, [(passage id, value), ...]) for each question of a ranx /
    pytrec_eval file {"q1": {"d1": 1.2, ...}, ...}, in file order; the line is where the
    question's key is. what: 'score' or 'level', for the messages."""
    text = _json_dict_text(path, encoding, progress)
    lines = _LineCounter(text)
    shape = f'expected one JSON object {{"question id": {{"passage id": {what}}}}}'
    index = _skip(text, 0)
    if text[index : index + 1] != "{":
        raise InputError(path, lines.at(index), shape)
    index = _skip(text, index + 1)
    seen: set[str] = set()
    while text[index : index + 1] != "}":
        line = lines.at(index)
        key, index = _json_value(path, text, index, lines)
        index = _skip(text, index)
        if not isinstance(key, str) or text[index : index + 1] != ":":
            raise InputError(path, line, shape)
        value, index = _json_value(path, text, _skip(text, index + 1), lines)
        qid = text_id(path, line, key, "question id")
        if qid in seen:
            raise InputError(path, line, f"question '{qid}' given twice")
        seen.add(qid)
        if not isinstance(value, _Pairs):
            raise InputError(path, line, f"question '{qid}': {shape}")
        yield line, qid, [(text_id(path, line, p, "passage id"), v) for p, v in value]
        index = _skip(text, index)
        if text[index : index + 1] == ",":
            index = _skip(text, index + 1)
        elif text[index : index + 1] != "}":
            raise InputError(path, lines.at(index), f"expected ',' or '}}' after question '{qid}'")
    if _skip(text, index + 1) < len(text):
        raise InputError(path, lines.at(index + 1), "more after the JSON object ends")


def _json_dict_text(path, encoding, progress) -> str:
    try:
        size = os.path.getsize(path)
        handle, on_disk = open_bytes(path)
        with on_disk, handle:
            data = handle.read(JSON_DICT_LIMIT + 1)
    except OSError as error:
        raise InputError(path, None, f"cannot read the file ({error.strerror})") from None
    except GZIP_ERRORS as error:
        raise gzip_refusal(path, error) from None
    if len(data) > JSON_DICT_LIMIT:
        raise InputError(
            path,
            None,
            f"over {JSON_DICT_LIMIT // 2**20} MB of JSON, which is read whole: convert it to "
            "TREC (a line per result) and import that",
        )
    if progress is not None:
        progress(size, size, "reading")
    codec = codec_for(path, encoding)
    try:
        return data.decode(codec).removeprefix("\ufeff")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise InputError(
            path, line, f"not valid {encoding or 'UTF-8'}; say which encoding with --encoding"
        ) from None


class _LineCounter:
    """Line numbers of positions in text, asked for in increasing order (counted once)."""

    def __init__(self, text: str):
        self.text, self.index, self.line = text, 0, 1

    def at(self, index: int) -> int:
        self.line += self.text.count("\n", self.index, index)
        self.index = index
        return self.line


_SPACE = re.compile(r"[ \t\r\n]*")


def _skip(text: str, index: int) -> int:
    return _SPACE.match(text, index).end()


def _json_value(path, text: str, index: int, lines: _LineCounter) -> tuple[object, int]:
    try:
        value, end = _PAIRS_DECODER.raw_decode(text, index)
    except json.JSONDecodeError as error:
        message = f"not valid JSON ({error.msg} at column {error.colno})"
        raise InputError(path, error.lineno, message) from None
    except BadNumber as error:
        raise InputError(path, lines.at(index), f"not usable JSON ({error})") from None
    except RecursionError:
        raise InputError(path, lines.at(index), "not usable JSON (nested too deeply)") from None
    except ValueError:
        message = "not usable JSON (a whole number has too many digits)"
        raise InputError(path, lines.at(index), message) from None
    if "\\u" in text[index:end] and not encodable(value):
        raise InputError(
            path,
            lines.at(index),
            "a \\u escape stands for half of a UTF-16 pair (a lone surrogate), which is not text",
        )
    return value, end
