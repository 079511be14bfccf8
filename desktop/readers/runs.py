"""A system's run: ranked lists per question from TREC, JSONL, CSV, MS MARCO or a JSON dict."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from desktop.readers.json_dict import read_json_dict
from desktop.readers.kinds import check_kind, columns_kind, header_kind, pick_format
from desktop.readers.opening import InputError, nfc, read_lines, shown
from desktop.readers.values import json_lines, number_text, table_rows, text_id, whole


@dataclass
class RankedList:
    question_id: str
    line: int
    results: list[tuple[str, float | None, int]]  # (passage_id, score, line) in metric order
    repeats: list[tuple[int, str]] = field(default_factory=list)  # (line, passage_id) dropped


def _score(path, number, text) -> float:
    try:
        value = float(number_text(text))
    except ValueError:
        raise InputError(
            path, number, f"score must be a number in ASCII digits, not {shown(text)!r}"
        ) from None
    if not math.isfinite(value):
        raise InputError(
            path,
            number,
            f"score must be a finite number, not {shown(text)!r} (it reads as {value})",
        )
    return value


def _json_score(path, number, score) -> float:
    if isinstance(score, bool) or not isinstance(score, (int, float)):
        raise InputError(path, number, "'score' must be a number")
    try:
        return float(score)  # the reader refused NaN and infinities already
    except OverflowError:
        raise InputError(path, number, "'score' is a whole number too large for a float") from None


def read_run(path, fmt=None, encoding=None, progress=None) -> tuple[str, list[RankedList]]:
    """All ranked lists of one run file, each in the order the metrics use, repeats dropped.

    TREC files are ordered as trec_eval orders them: score descending, ties by passage id
    descending; the rank column is ignored. JSONL keeps its order; CSV follows its rank column.
    """
    fmt = pick_format(path, "run", fmt)
    readers = {
        "json-dict": _json_dict_run,
        "msmarco": _msmarco_run,
        "trec": _trec_run,
        "jsonl": _jsonl_run,
    }
    return fmt, readers.get(fmt, _csv_run)(path, encoding, progress)


def _trec_run(path, encoding, progress) -> list[RankedList]:
    raw: dict[str, list[tuple[float, str, int]]] = {}
    first_line: dict[str, int] = {}
    for number, text in read_lines(path, encoding, progress):
        fields = text.split()
        if not fields:
            continue
        if len(fields) < 6:
            raise InputError(
                path,
                number,
                "expected 'qid Q0 passage_id rank score tag'" + columns_kind(path, fields),
            )
        qid, pid = nfc(fields[0]), nfc(fields[2])
        raw.setdefault(qid, []).append((_score(path, number, fields[4]), pid, number))
        first_line.setdefault(qid, number)
    return [_dedupe(qid, first_line[qid], _trec_order(rows)) for qid, rows in raw.items()]


def _jsonl_run(path, encoding, progress) -> list[RankedList]:
    lists: dict[str, RankedList] = {}
    for number, obj in json_lines(path, encoding, progress):
        check_kind(path, number, obj, "run")
        qid = text_id(path, number, obj.get("question_id"), "question_id")
        if qid in lists:
            raise InputError(path, number, f"results for question '{qid}' given twice")
        results = obj.get("results")
        if not isinstance(results, list):
            raise InputError(
                path, number, "a run line needs 'results', a list (empty: nothing retrieved)"
            )
        rows = []
        for entry in results:
            if isinstance(entry, str):
                rows.append((entry, None, number))
                continue
            if not isinstance(entry, dict):
                raise InputError(path, number, "each result must be an object with 'passage_id'")
            pid = text_id(path, number, entry.get("passage_id"), "passage_id")
            score = entry.get("score")
            if score is not None:
                score = _json_score(path, number, score)
            rows.append((pid, score, number))
        lists[qid] = _dedupe(qid, number, rows)
    return list(lists.values())


def _csv_run(path, encoding, progress) -> list[RankedList]:
    rows_iter = table_rows(path, encoding, progress, ",")
    header_line, header = next(rows_iter, (1, []))
    names = [h.strip() for h in header]
    for needed in ("question_id", "passage_id", "rank"):
        if needed not in names:
            raise InputError(
                path,
                header_line,
                "the header row must be question_id,passage_id,rank,score"
                + header_kind(path, names, "csv"),
            )
    raw_csv: dict[str, list[tuple[int, str, float | None, int]]] = {}
    first_line: dict[str, int] = {}
    for number, row in rows_iter:
        if len(row) != len(names):
            raise InputError(path, number, f"{len(row)} fields, the header has {len(names)}")
        obj = dict(zip(names, row, strict=True))
        qid = text_id(path, number, obj["question_id"], "question_id")
        pid = text_id(path, number, obj["passage_id"], "passage_id")
        rank = whole(path, number, obj["rank"], "rank")
        score_text = (obj.get("score") or "").strip()
        score = _score(path, number, score_text) if score_text else None
        raw_csv.setdefault(qid, []).append((rank, pid, score, number))
        first_line.setdefault(qid, number)
    return [
        _dedupe(qid, first_line[qid], _rank_order(path, qid, rows)) for qid, rows in raw_csv.items()
    ]


def _dedupe(qid: str, line: int, rows: list[tuple[str, float | None, int]]) -> RankedList:
    seen: set[str] = set()
    kept, repeats = [], []
    for pid, score, number in rows:
        if pid in seen:
            repeats.append((number, pid))
            continue
        seen.add(pid)
        kept.append((pid, score, number))
    return RankedList(qid, line, kept, repeats)


def _trec_order(rows: list[tuple[float, str, int]]) -> list[tuple[str, float | None, int]]:
    """(score, passage id, line) rows as (passage id, score, line) in trec_eval's order: score
    descending, ties by passage id descending (what its qsort comparator gives)."""
    rows.sort(key=lambda r: (r[0], r[1]), reverse=True)
    return [(p, s, n) for s, p, n in rows]


def _rank_order(path, qid: str, rows: list[tuple[int, str, float | None, int]]):
    """(rank, passage id, score, line) rows in rank order as (passage id, score, line); a
    rank given twice for one question is refused."""
    rows.sort(key=lambda r: (r[0], r[3]))
    for before, after in zip(rows, rows[1:], strict=False):
        if before[0] == after[0]:
            raise InputError(path, after[3], f"rank {after[0]} given twice for question '{qid}'")
    return [(p, s, n) for _, p, s, n in rows]


def _msmarco_run(path, encoding, progress) -> list[RankedList]:
    """MS MARCO's run TSV, qid<TAB>pid<TAB>rank (no score), in rank order."""
    raw: dict[str, list[tuple[int, str, float | None, int]]] = {}
    first_line: dict[str, int] = {}
    for number, text in read_lines(path, encoding, progress):
        fields = text.split()
        if not fields:
            continue
        if len(fields) != 3:
            raise InputError(
                path, number, "expected 'qid<TAB>passage_id<TAB>rank'" + columns_kind(path, fields)
            )
        qid, pid, rank = nfc(fields[0]), nfc(fields[1]), fields[2]
        rank_value = whole(path, number, rank, "rank")
        raw.setdefault(qid, []).append((rank_value, pid, None, number))
        first_line.setdefault(qid, number)
    return [_dedupe(q, first_line[q], _rank_order(path, q, rows)) for q, rows in raw.items()]


def _json_dict_run(path, encoding, progress) -> list[RankedList]:
    """A ranx / pytrec_eval run, ordered as trec_eval orders a TREC run."""
    lists = []
    for line, qid, pairs in read_json_dict(path, encoding, progress, "score"):
        rows = [(_json_score(path, line, score), pid, line) for pid, score in pairs]
        lists.append(_dedupe(qid, line, _trec_order(rows)))
    return lists
