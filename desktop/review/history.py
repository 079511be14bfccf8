"""Undo and redo, read back from a reviewer's lines in the judgement log."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from itertools import groupby
from operator import itemgetter

from desktop.gold.effective import MARK, instant, line_order, target_of
from desktop.gold.span_items import SpanKey
from desktop.project import now


def next_at(last: str | None) -> str:
    """The time for a new line: now, or a millisecond after the reviewer's last line when the
    clock has not moved on. Two lines with the same reviewer, time, key and value are one line
    in the log (its identity), so a quick undo-redo must not reuse a time."""
    at = now()
    if last and instant(at) <= instant(last):
        moment = datetime.fromisoformat(last.replace("Z", "+00:00"))
        at = (moment + timedelta(milliseconds=1)).isoformat(timespec="milliseconds")
    return at


def _value_key(value: object) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def history(project, reviewer: str) -> UndoHistory:
    """The reviewer's undo and redo stacks, from their lines in the log."""
    return UndoHistory(project.reads.judgements(reviewer=reviewer))


Key = tuple[str, str, str, str]  # (question_id, kind, passage_id, settles or '')


@dataclass
class Step:
    """One change a reviewer made: the key, the value before (None: none, or withdrawn) and
    after, and the note's system if any."""

    key: Key
    before: object
    after: object
    system: str | None = None

    @property
    def question_id(self) -> str:
        return self.key[0]

    @property
    def kind(self) -> str:
        return self.key[1]


class UndoHistory:
    """A reviewer's undo and redo stacks, derived from their lines in the log so that they
    survive a restart. The log is append-only: an undo is a new line putting back the value
    the undone line replaced (null when there was none), and a redo appends the undone value
    again. Lines written together (one time: an added item's evidence and role lines, a drop
    and its reason) are one step. Reading the log back, lines that restore exactly what the
    latest step replaced are its undo, and lines that re-apply the latest undone step are its
    redo; anything else is a new step and clears the redo stack."""

    def __init__(self, rows: Iterable[dict] = ()):
        self.current: dict[Key, str] = {}  # value keys (JSON) as the reviewer's lines leave them
        self.done: list[list[Step]] = []
        self.undone: list[list[Step]] = []
        self.last_at: str | None = None
        ordered = sorted(rows, key=line_order)
        for _, together in groupby(ordered, key=itemgetter("at", "question_id")):
            self.record_all(list(together))

    @staticmethod
    def key_of(row: dict) -> Key:
        """A line's key; a line about a span is keyed by the span (a SpanKey), as the
        effective gold keys it; a reviewer-mark line by the reviewer it marks."""
        if row["kind"] == MARK:
            return ("", MARK, row["reviewer"], "")
        return (row["question_id"], row["kind"], target_of(row) or "", row.get("settles") or "")

    def record(self, row: dict) -> str:
        """Read one new line of this reviewer's; returns 'undo', 'redo', 'change' or 'same'."""
        return self.record_all([row])

    def record_all(self, rows: Sequence[dict]) -> str:
        """Read lines written together, as one step."""
        steps = []
        for row in rows:
            key = self.key_of(row)
            after = json.loads(row["value"]) if isinstance(row["value"], str) else row["value"]
            after_key = _value_key(after)
            before_key = self.current.get(key, _value_key(None))
            self.current[key] = after_key
            if self.last_at is None or instant(row["at"]) >= instant(self.last_at):
                self.last_at = row["at"]
            if after_key != before_key:
                steps.append(Step(key, json.loads(before_key), after, row.get("system")))
        if not steps:
            return "same"
        if self.done and _changes(self.done[-1], backwards=True) == _changes(steps):
            self.undone.append(self.done.pop())
            return "undo"
        if self.undone and _changes(self.undone[-1]) == _changes(steps):
            self.done.append(self.undone.pop())
            return "redo"
        self.done.append(steps)
        self.undone.clear()
        return "change"

    def know_mark(self, reviewer: str, value: object) -> None:
        """The log's latest mark of a reviewer (None: none), before this window writes one:
        it was written under the marked reviewer's name, maybe by another window or an import,
        so this reviewer's own lines do not tell what an undo must put back."""
        self.current[("", MARK, reviewer, "")] = _value_key(value)

    def can_undo(self) -> bool:
        return bool(self.done)

    def can_redo(self) -> bool:
        return bool(self.undone)

    def undo_lines(self) -> list[dict]:
        """The judgements to append, together, to undo the latest step (Project.add_judgement
        arguments); empty when there is nothing to undo."""
        if not self.done:
            return []
        return [self._line(step, step.before) for step in reversed(self.done[-1])]

    def redo_lines(self) -> list[dict]:
        if not self.undone:
            return []
        return [self._line(step, step.after) for step in self.undone[-1]]

    @staticmethod
    def _line(step: Step, value: object) -> dict:
        question_id, kind, passage_id, settles = step.key
        if kind == MARK:  # Project.mark_reviewer's arguments, the kind and no question
            return {"question_id": "", "kind": MARK, "reviewer": passage_id, "value": value}
        line = {
            "question_id": question_id,
            "kind": kind,
            "value": value,
            "passage_id": passage_id,
            "settles": settles or None,
            "system": step.system,
        }
        if isinstance(passage_id, SpanKey):
            span = passage_id.span
            line.update(passage_id="", span=(span.document, span.start, span.end))
        return line


def _changes(steps: Sequence[Step], backwards: bool = False) -> dict[Key, tuple[str, str]]:
    """Key -> (value before, value after) of a step, or (after, before) to match its undo."""
    pairs = ((_value_key(s.before), _value_key(s.after)) for s in steps)
    return {
        s.key: (after, before) if backwards else (before, after)
        for s, (before, after) in zip(steps, pairs, strict=True)
    }
