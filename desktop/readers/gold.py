"""The gold: evidence per question from JSONL, TREC qrels (graded levels and what they mean),
BEIR qrels or a ranx / pytrec_eval JSON dict."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from desktop.readers.json_dict import read_json_dict
from desktop.readers.kinds import ROLES, check_kind, columns_kind, header_kind, pick_format
from desktop.readers.opening import InputError, nfc, read_lines, shown
from desktop.readers.span_values import span_value
from desktop.readers.values import json_lines, table_rows, text_id, whole

SpanValue = tuple[str, int, int]  # (document id, start, end)


@dataclass
class EvidenceRecord:
    line: int
    passage_id: str  # '' for an item given as a span
    role: str | None
    alternatives: list[str] = field(default_factory=list)
    span: SpanValue | None = None  # an item given as a span (design section 10)
    alternative_spans: list[SpanValue] = field(default_factory=list)


@dataclass
class GoldRecord:
    line: int
    question_id: str
    evidence: list[EvidenceRecord]
    # Passages judged not evidence (qrels level 0, JSONL "not_evidence"): (line, passage_id).
    not_evidence: list[tuple[int, str]] = field(default_factory=list)


def read_gold(path, fmt=None, encoding=None, progress=None, levels=None) -> Iterator[GoldRecord]:
    """Gold evidence per question. Questions come out in file order, each once. levels: what
    graded levels mean (parse_levels), for qrels, BEIR and JSON qrels."""
    fmt = pick_format(path, "gold", fmt)
    _check_levels(path, fmt, levels)
    if fmt == "json-dict":
        yield from _json_dict_gold(path, encoding, progress, levels)
    elif fmt == "jsonl":
        yield from _jsonl_gold(path, encoding, progress)
    else:
        yield from _qrels_gold(path, fmt, encoding, progress, levels)


def _jsonl_gold(path, encoding, progress) -> Iterator[GoldRecord]:
    seen: set[str] = set()
    for number, obj in json_lines(path, encoding, progress):
        check_kind(path, number, obj, "gold")
        qid = text_id(path, number, obj.get("question_id"), "question_id")
        if qid in seen:
            raise InputError(path, number, f"gold for question '{qid}' given twice")
        seen.add(qid)
        evidence = obj.get("evidence")
        if not isinstance(evidence, list):
            raise InputError(
                path, number, "a gold line needs 'evidence', a list (empty: no evidence)"
            )
        items = _evidence_items(path, number, evidence)
        primaries = {item.passage_id for item in items}
        judged_not = obj.get("not_evidence", [])
        if not isinstance(judged_not, list):
            raise InputError(path, number, "'not_evidence' must be a list of passage ids")
        not_ids: list[tuple[int, str]] = []
        for pid in judged_not:
            pid = text_id(path, number, pid, "not_evidence")
            if pid in primaries:
                raise InputError(path, number, f"passage '{pid}' is both evidence and not evidence")
            not_ids.append((number, pid))
        yield GoldRecord(number, qid, items, not_ids)


def _evidence_items(path, number: int, evidence: list) -> list[EvidenceRecord]:
    """A JSONL gold line's evidence items, each primary passage (or span) once."""
    items: list[EvidenceRecord] = []
    primaries: set = set()
    for item in evidence:
        if not isinstance(item, dict):
            raise InputError(path, number, "each evidence item must be an object")
        if "span" in item:
            if "passage_id" in item:
                raise InputError(
                    path, number, "an evidence item has a passage_id or a span, not both"
                )
            span = span_value(path, number, item["span"])
            pid, primary = "", span
        else:
            span = None
            pid = text_id(path, number, item.get("passage_id"), "passage_id")
            primary = pid
        if primary in primaries:
            raise InputError(path, number, f"{_named(primary)} is evidence twice")
        primaries.add(primary)
        role = item.get("role")
        if role not in (None, *ROLES):
            raise InputError(
                path,
                number,
                f"role must be core or supporting (or missing), not {shown(repr(role))}",
            )
        record = EvidenceRecord(number, pid, role, span=span)
        _alternatives(path, number, item.get("alternatives", []), record)
        items.append(record)
    return items


def _named(primary) -> str:
    if isinstance(primary, tuple):
        return f"span {primary[0]}:{primary[1]}-{primary[2]}"
    return f"passage '{primary}'"


def _alternatives(path, number: int, alts, record: EvidenceRecord) -> None:
    """An item's alternatives: passage ids, or spans (objects) of any document."""
    if not isinstance(alts, list):
        raise InputError(
            path, number, "'alternatives' must be a list of passage ids or span objects"
        )
    for alt in alts:
        if isinstance(alt, dict):
            span = span_value(path, number, alt, "alternatives")
            if span != record.span and span not in record.alternative_spans:
                record.alternative_spans.append(span)
            continue
        alt = text_id(path, number, alt, "alternatives")
        if alt != record.passage_id and alt not in record.alternatives:
            record.alternatives.append(alt)


def _qrels_gold(path, fmt: str, encoding, progress, levels) -> Iterator[GoldRecord]:
    """TREC and BEIR qrels: a line per (question, passage); grouped by question keeping file
    order."""
    grouped: dict[str, GoldRecord] = {}
    seen_pairs: set[tuple[str, str]] = set()
    if fmt == "qrels":
        rows = ((n, t.split()) for n, t in read_lines(path, encoding, progress) if t.strip())
    else:
        rows = table_rows(path, encoding, progress, "\t")
    for number, fields in rows:
        if fmt == "beir" and number == 1 and fields[0].strip().lower() in BEIR_HEADERS:
            continue
        qid, pid, level = _qrels_fields(path, number, fields, fmt)
        qid, pid = nfc(qid.strip()), nfc(pid.strip())
        level_value = whole(path, number, level, "relevance level")
        if (qid, pid) in seen_pairs:
            raise InputError(path, number, f"question '{qid}' judges passage '{pid}' twice")
        seen_pairs.add((qid, pid))
        record = grouped.setdefault(qid, GoldRecord(number, qid, []))
        _add_level(record, number, pid, level_value, levels)
    yield from grouped.values()


BEIR_HEADERS = ("query-id", "query_id", "qid")  # a BEIR qrels file's first column, when named


def _qrels_fields(path, number: int, fields: list[str], fmt: str) -> tuple[str, str, str]:
    """(question id, passage id, level) of a qrels line, or why the line is not one."""
    if fmt == "beir":
        if len(fields) != 3:
            hint = header_kind(path, fields, "tsv") if number == 1 else ""
            raise InputError(
                path,
                number,
                "expected 'query-id<TAB>corpus-id<TAB>score'"
                + (hint or columns_kind(path, " ".join(fields).split())),
            )
        qid, pid, level = fields
        return qid, pid, level
    if len(fields) != 4:
        raise InputError(
            path, number, "expected 'qid 0 passage_id level'" + columns_kind(path, fields)
        )
    qid, _, pid, level = fields
    return qid, pid, level


LEVEL_MEANINGS = ("core", "supporting", "not")


def parse_levels(text: str) -> dict[int, str]:
    """--levels '2=core,1=supporting,0=not': what the graded levels of a qrels file mean.
    Raises ValueError saying what is wrong."""
    levels: dict[int, str] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        level, sep, meaning = part.partition("=")
        meaning = meaning.strip().lower()
        try:
            number = int(level)
        except ValueError:
            number = None
        if number is None or not sep or meaning not in LEVEL_MEANINGS:
            raise ValueError(
                f"--levels: {part!r} is not LEVEL=MEANING, a whole number and core, "
                "supporting or not (for example --levels 2=core,1=supporting,0=not)"
            )
        if number in levels:
            raise ValueError(f"--levels: level {number} is given twice")
        levels[number] = meaning
    if not levels:
        raise ValueError("--levels names no level (for example --levels 1=core)")
    return levels


def _check_levels(path, fmt: str, levels) -> None:
    if levels and fmt == "jsonl":
        raise InputError(
            path,
            None,
            "--levels is for graded qrels (qrels, beir, json-dict); gold JSONL names its roles",
        )


def level_role(level: int, levels: dict[int, str] | None = None) -> str | None:
    """The role a qrels level gives a passage, None for judged not evidence. A level that
    levels does not name keeps TREC's meaning: 2 and up core, 1 supporting, 0 and below
    (as trec_eval reads it) judged and not relevant."""
    meaning = levels.get(level) if levels else None
    if meaning is None:
        meaning = "core" if level >= 2 else "supporting" if level >= 1 else "not"
    return None if meaning == "not" else meaning


def _add_level(record: GoldRecord, line: int, pid: str, level: int, levels) -> None:
    role = level_role(level, levels)
    if role is None:
        record.not_evidence.append((line, pid))
    else:
        record.evidence.append(EvidenceRecord(line, pid, role))


def _json_dict_gold(path, encoding, progress, levels) -> Iterator[GoldRecord]:
    """ranx / pytrec_eval qrels: levels as TREC qrels levels (or as --levels says)."""
    for line, qid, pairs in read_json_dict(path, encoding, progress, "level"):
        record = GoldRecord(line, qid, [])
        seen: set[str] = set()
        for pid, level in pairs:
            if isinstance(level, bool) or not isinstance(level, int):
                raise InputError(
                    path, line, f"relevance level must be a whole number, not {level!r}"
                )
            if pid in seen:
                raise InputError(path, line, f"question '{qid}' judges passage '{pid}' twice")
            seen.add(pid)
            _add_level(record, line, pid, level, levels)
        yield record
