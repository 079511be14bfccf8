"""Documents and passage spans on import (design section 10): the reader of a documents file
(JSONL `id`, `text`, `title`, other fields kept), the placing of a corpus line that carries
`document_id` (and `start`/`end`) in its document, and a chunking's size and overlap measured
from its spans. Offsets count code points of the NFC text (the readers normalise first)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from desktop.evaluation.spans import Span, locate
from desktop.readers.corpus import CorpusFiles, PassageRecord
from desktop.readers.kinds import pick_format
from desktop.readers.opening import InputError, nfc, nfc_same
from desktop.readers.values import json_lines, record_id

SPAN_UNIT = "characters"  # what a measured chunk size and overlap count


@dataclass
class DocumentRecord:
    line: int
    id: str
    text: str
    title: str | None
    meta: dict


def read_documents(path, fmt=None, encoding=None, progress=None) -> Iterator[DocumentRecord]:
    """The documents of a JSONL file, NFC-normalised; ids repeated (after NFC) refused."""
    pick_format(path, "documents", fmt)
    seen: dict[str, int] = {}
    for number, obj in json_lines(path, encoding, progress):
        raw = obj.get("id", obj.get("_id"))
        did = record_id(path, number, obj, "document")
        if did in seen:
            if str(raw).strip() != did:
                raise nfc_same(path, number, did, f"line {seen[did]}")
            raise InputError(
                path,
                number,
                f"document id {did!r} appears twice (first at line "
                f"{seen[did]}); nothing was imported",
            )
        seen[did] = number
        text = obj.pop("text", None)
        if not isinstance(text, str) or not text:
            raise InputError(path, number, f"document {did!r} has no 'text' string")
        title = obj.pop("title", None)
        title = nfc(str(title)) if title not in (None, "") else None
        yield DocumentRecord(number, did, nfc(text), title, obj)


def document_rows(path, fmt=None, encoding=None, progress=None):
    """(line, id, text, title, meta_json) rows for the store."""
    for r in read_documents(path, fmt, encoding, progress):
        meta = json.dumps(r.meta, ensure_ascii=False) if r.meta else None
        yield r.line, r.id, r.text, r.title, meta


class Placement:
    """Where each passage of a corpus lies in its document. lookup(document id) gives the
    document's (key, text) or None; consecutive passages of one document share one lookup."""

    def __init__(self, lookup: Callable[[str], tuple[int, str] | None]):
        self.lookup = lookup
        self._last: tuple[str, tuple[int, str] | None] | None = None
        self._hints: dict[str, int] = {}  # per document: where its previous passage began
        self.placed = 0

    def span(self, path, record: PassageRecord) -> tuple[int | None, int | None, int | None]:
        """(document key, start, end) of the record, its `document_id`, `start` and `end`
        taken out of its metadata; (None, None, None) for a passage with no document."""
        meta = record.meta
        document_id = meta.pop("document_id", None)
        bounds = (meta.pop("start", None), meta.pop("end", None))
        if document_id in (None, ""):
            if bounds != (None, None):
                raise InputError(path, record.line, "'start'/'end' need a 'document_id'")
            return None, None, None
        document_id = nfc(str(document_id).strip())
        document = self._document(path, record.line, document_id)
        if bounds == (None, None):
            start, end = self._located(path, record, document_id, document[1])
        else:
            start, end = self._given(path, record, document_id, document[1], bounds)
        self._hints[document_id] = start
        self.placed += 1
        return document[0], start, end

    def _document(self, path, line: int, document_id: str) -> tuple[int, str]:
        if self._last is None or self._last[0] != document_id:
            self._last = (document_id, self.lookup(document_id))
        if self._last[1] is None:
            raise InputError(
                path,
                line,
                f"document {document_id!r} is not in the database (import documents FILE first)",
            )
        return self._last[1]

    def _located(self, path, record, document_id: str, text: str) -> tuple[int, int]:
        found = locate(record.text, text, self._hints.get(document_id, 0))
        if found is None:
            raise InputError(
                path,
                record.line,
                f"passage {record.id!r}'s text is not in document {document_id!r}, neither "
                "exactly nor ignoring whitespace; give its 'start' and 'end' or fix the text",
            )
        return found

    def _given(self, path, record, document_id: str, text: str, bounds) -> tuple[int, int]:
        start, end = (
            _offset(path, record.line, name, v)
            for name, v in zip(("start", "end"), bounds, strict=True)
        )
        try:
            Span(document_id, start, end).check(len(text))
        except ValueError as error:
            raise InputError(path, record.line, str(error)) from None
        if text[start:end] != record.text:
            raise InputError(
                path,
                record.line,
                f"passage {record.id!r}'s text is not characters {start}..{end} of document "
                f"{document_id!r} (offsets count code points after NFC normalisation)",
            )
        return start, end


def _offset(path, line: int, name: str, value) -> int:
    if value is None:
        raise InputError(path, line, f"'start' and 'end' come together; '{name}' is missing")
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(path, line, f"'{name}' must be a whole number, not {value!r}")
    return value


class PlacedCorpusFiles(CorpusFiles):
    """CorpusFiles whose rows carry each passage's span: (line, id, text, title, meta_json,
    document key, start, end)."""

    def __init__(self, files, fmt, encoding, tag: bool, placement: Placement):
        super().__init__(files, fmt, encoding, tag)
        self.placement = placement

    def rows(self, progress):
        for index, r in self.records(progress):
            self.counts[index] += 1
            span = self.placement.span(self.files[index], r)
            meta = r.meta
            if self.tag:
                meta.setdefault("source_file", self.files[index].name)
            dumped = json.dumps(meta, ensure_ascii=False) if meta else None
            yield (index << 32 | r.line, r.id, r.text, r.title, dumped, *span)


def median(sorted_values: list[int]) -> int | None:
    """The middle value (the lower of the two middle ones), or None for none."""
    return sorted_values[(len(sorted_values) - 1) // 2] if sorted_values else None


def measured_shape(lengths: list[int], overlaps: list[int]) -> tuple[int | None, int | None]:
    """(chunk size, overlap) read off a chunking's spans: the median span length, and the
    median of what consecutive passages of a document share (0 when none share any)."""
    if not lengths:
        return None, None
    return median(lengths), median(overlaps) or 0
