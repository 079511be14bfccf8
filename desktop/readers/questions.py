"""The questions: JSONL or TSV, each an id and its text."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from desktop.readers.kinds import check_kind, header_kind, looks_like_kind, pick_format
from desktop.readers.opening import InputError, nfc, nfc_same
from desktop.readers.values import json_lines, number_text, record_id, spelling, table_rows, text_id


@dataclass
class QuestionRecord:
    line: int
    id: str
    text: str
    answerable: bool
    meta: dict
    spelled: str | None = None  # the id as the file spelled it, when NFC changed it


QUESTION_HEADERS = ("id", "_id", "query-id", "query_id", "qid")


def _a_corpus(path, number: int, what: str, fmt: str) -> InputError:
    return InputError(
        path,
        number,
        f"questions have no {what}, passages do"
        + looks_like_kind(path, "corpus", fmt, sure=True)
        + " (if these are questions, rename 'title')",
    )


def _run_like(fields: list[str]) -> bool:
    """A TREC run line: qid Q0 passage rank score tag, rank whole and score a number."""
    if len(fields) != 6 or not (fields[3].isascii() and fields[3].isdigit()):
        return False
    try:
        float(number_text(fields[4]))
    except ValueError:
        return False
    return True


def read_questions(path, fmt=None, encoding=None, progress=None) -> Iterator[QuestionRecord]:
    fmt = pick_format(path, "questions", fmt)
    seen: dict[str, tuple[int, str]] = {}  # id -> (line, spelling) of its first line

    def check(rec: QuestionRecord) -> QuestionRecord:
        spelled = rec.spelled or rec.id
        first = seen.setdefault(rec.id, (rec.line, spelled))
        if first[0] != rec.line:
            if first[1] != spelled:
                raise nfc_same(path, rec.line, rec.id, f"line {first[0]}")
            raise InputError(path, rec.line, f"question '{rec.id}' appears twice")
        return rec

    if fmt == "jsonl":
        for number, obj in json_lines(path, encoding, progress):
            raw = obj.get("id", obj.get("_id"))
            check_kind(path, number, obj, "questions")
            if "title" in obj:
                raise _a_corpus(path, number, "'title'", "jsonl")
            qid = record_id(path, number, obj, "question")
            text = obj.pop("text", None)
            if not isinstance(text, str) or not text.strip():
                raise InputError(path, number, f"question '{qid}' has no 'text'")
            answerable = obj.pop("answerable", True)
            if not isinstance(answerable, bool):
                raise InputError(path, number, "'answerable' must be true or false")
            spelled = spelling(raw, qid)
            yield check(QuestionRecord(number, qid, nfc(text), answerable, obj, spelled))
        return
    for number, row in table_rows(path, encoding, progress, "\t"):
        if number == 1 and row and row[0].strip().lower() in QUESTION_HEADERS:
            hint = header_kind(path, row, "tsv")
            if hint and "corpus" not in hint:
                raise InputError(path, number, "expected 'id<TAB>text'" + hint)
            if "title" in (cell.strip().lower() for cell in row):
                raise _a_corpus(path, number, "'title' column", "tsv")
            continue  # a header row
        if _run_like(" ".join(row).split()):
            raise InputError(
                path, number, "expected 'id<TAB>text'" + looks_like_kind(path, "run", "trec")
            )
        if len(row) < 2:
            raise InputError(path, number, "expected 'id<TAB>text'")
        qid = text_id(path, number, row[0], "id")
        text = "\t".join(row[1:]).strip()
        if not text:
            raise InputError(path, number, f"question '{qid}' has no text")
        yield check(QuestionRecord(number, qid, nfc(text), True, {}, spelling(row[0], qid)))
