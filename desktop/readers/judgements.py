"""The judgement log's lines: the kinds of judgement and the value each kind takes."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from db.judgement_kinds import STORED_KINDS
from desktop.readers.kinds import ROLES, check_kind, pick_format
from desktop.readers.opening import InputError, nfc, shown
from desktop.readers.span_values import span_value
from desktop.readers.values import json_lines

# A judgements file holds the kinds the log stores: one list, the store's (its CHECK).
KINDS = STORED_KINDS
# A candidate alternative the reviewer dismissed for an item (issue 21): their own list's
# line, never the gold's, so it neither counts nor makes its writer a reviewer of the gold.
DISMISSED = "dismissed"
# Kinds an adjudication never settles: it, a note, a reviewer mark and a dismissal are no
# reviewer's vote on the gold.
UNSETTLED = ("adjudication", "note", "machine", DISMISSED)
# Kinds that name a passage of the question (the others name none, or the question itself).
PASSAGE_KINDS = ("role", "alternative", "not_evidence", "evidence", "drop", "dismissed")
# Kinds that may name a span instead (design section 10): an item given as a span added,
# given a role or dropped, or a span made an alternative of an item.
SPAN_KINDS = ("role", "alternative", "evidence", "drop")


@dataclass
class JudgementRecord:
    line: int
    reviewer: str
    at: str
    question_id: str
    kind: str
    passage_id: str  # '' when the kind has none
    value: object
    settles: str | None
    system: str | None
    span: tuple[str, int, int] | None = None  # (document id, start, end); passage_id ''
    machine: bool = False  # a machine's line (design section 6): never counted in the gold


def check_judgement_value(kind: str, value: object) -> str | None:
    """The reason a value does not fit its kind, or None when it does."""
    if kind == "role" and value not in (*ROLES, None):
        return "a role judgement's value must be core, supporting or null"
    if kind in ("alternative", DISMISSED) and value is not None and not isinstance(value, str):
        name = "an alternative" if kind == "alternative" else "a dismissed line"
        return f"{name}'s value must be the primary passage id of its item, or null"
    # isinstance, not ==: 1 and 0.0 equal True and False but are not JSON booleans.
    if kind in ("not_evidence", "answerable") and value is not None and not isinstance(value, bool):
        return f"a {kind} judgement's value must be true, false or null, not {shown(repr(value))}"
    if kind == "note" and value is not None and not isinstance(value, str):
        return "a note's value must be text"
    # Adding or dropping an item has no "false": null withdraws it.
    if kind in ("evidence", "drop") and value is not True and value is not None:
        return f"a {kind} judgement's value must be true or null, not {shown(repr(value))}"
    if kind == "machine" and value is not None and not isinstance(value, bool):
        return (
            "a machine (reviewer mark) judgement's value must be true (a machine), false (a "
            f"person) or null, not {shown(repr(value))}"
        )
    return None


def read_judgements(path, fmt=None, encoding=None, progress=None) -> Iterator[JudgementRecord]:
    pick_format(path, "judgements", fmt)
    for number, obj in json_lines(path, encoding, progress):
        check_kind(path, number, obj, "judgements")
        if obj.get("kind") == "machine":
            yield _mark(path, number, obj)
            continue
        for key in ("reviewer", "at", "question_id", "kind"):
            if not isinstance(obj.get(key), str) or not obj[key].strip():
                raise InputError(path, number, f"judgement needs a '{key}' string")
        kind = obj["kind"]
        if kind not in KINDS:
            raise InputError(
                path, number, f"unknown kind {shown(repr(kind))} (one of {', '.join(KINDS)})"
            )
        if "value" not in obj:
            raise InputError(path, number, "judgement needs a 'value' (null is allowed)")
        settles = obj.get("settles")
        checked_kind = kind
        if kind == "adjudication":
            if settles not in KINDS or settles in UNSETTLED:
                raise InputError(
                    path,
                    number,
                    "an adjudication needs 'settles': the kind it "
                    "settles (role, alternative, not_evidence, answerable, evidence, drop)",
                )
            checked_kind = settles
        elif settles is not None:
            raise InputError(path, number, "only an adjudication has 'settles'")
        problem = check_judgement_value(checked_kind, obj["value"])
        if problem:
            raise InputError(path, number, problem)
        passage_id = obj.get("passage_id") or ""
        if not isinstance(passage_id, str):
            raise InputError(path, number, "'passage_id' must be a string")
        span = _span(path, number, obj, checked_kind, passage_id)
        if checked_kind in PASSAGE_KINDS and not passage_id and span is None:
            raise InputError(path, number, f"a {checked_kind} judgement needs a 'passage_id'")
        system = obj.get("system")
        if system is not None and not isinstance(system, str):
            raise InputError(path, number, "'system' must be a string")
        machine = obj.get("machine", False)
        if not isinstance(machine, bool):
            raise InputError(path, number, "'machine' must be true or false")
        value = obj["value"]
        yield JudgementRecord(
            number,
            nfc(obj["reviewer"].strip()),
            obj["at"],
            nfc(obj["question_id"]),
            kind,
            nfc(passage_id),
            nfc(value) if isinstance(value, str) else value,
            settles,
            system,
            span,
            machine,
        )


def _mark(path, number: int, obj: dict) -> JudgementRecord:
    """A reviewer-mark line (issue 22): its reviewer is a machine (value true) or a person
    (false; null withdraws the mark), about no question or passage; a machine's line itself
    when true (its "machine" field is read from the value)."""
    for key in ("reviewer", "at"):
        if not isinstance(obj.get(key), str) or not obj[key].strip():
            raise InputError(path, number, f"judgement needs a '{key}' string")
    for key in ("question_id", "passage_id", "span", "settles", "system"):
        if obj.get(key) not in (None, ""):
            raise InputError(
                path,
                number,
                f"a machine (reviewer mark) line is about a reviewer, not a question or "
                f"passage: its '{key}' must be null or left out",
            )
    if "value" not in obj:
        raise InputError(path, number, "judgement needs a 'value' (null is allowed)")
    problem = check_judgement_value("machine", obj["value"])
    if problem:
        raise InputError(path, number, problem)
    value = obj["value"]
    if obj.get("machine", value is True) is not (value is True):
        raise InputError(
            path,
            number,
            "a machine (reviewer mark) line's 'machine' is true exactly when its value is",
        )
    reviewer = nfc(obj["reviewer"].strip())
    return JudgementRecord(
        number, reviewer, obj["at"], "", "machine", "", value, None, None, None, value is True
    )


def _span(path, number: int, obj: dict, kind: str, passage_id: str):
    """A line's span (design section 10: passage_id null, "span" an object), or None."""
    if obj.get("span") is None:
        return None
    if kind not in SPAN_KINDS:
        raise InputError(
            path,
            number,
            f"a {kind} judgement names a passage, not a span ({', '.join(SPAN_KINDS)} may)",
        )
    if passage_id:
        raise InputError(path, number, "a judgement names a passage_id or a span, not both")
    return span_value(path, number, obj["span"])
