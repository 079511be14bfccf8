"""Undo and redo, read back from a reviewer's lines in the judgement log."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from desktop.gold import instant
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
    return UndoHistory(project.judgements(reviewer=reviewer))


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
    again. Reading the log back, a line that restores exactly what the latest change replaced
    is its undo, and one that re-applies the latest undone change is its redo; any other line
    is a new change and clears the redo stack."""

    def __init__(self, rows: Iterable[dict] = ()):
        self.current: dict[Key, str] = {}  # value keys (JSON) as the reviewer's lines leave them
        self.done: list[Step] = []
        self.undone: list[Step] = []
        self.last_at: str | None = None
        for row in sorted(rows, key=lambda r: (instant(r["at"]), r.get("pk") or 0)):
            self.record(row)

    @staticmethod
    def key_of(row: dict) -> Key:
        return (row["question_id"], row["kind"], row["passage_id"] or "", row.get("settles") or "")

    def record(self, row: dict) -> str:
        """Read one new line of this reviewer's; returns 'undo', 'redo' or 'change'."""
        key = self.key_of(row)
        after = json.loads(row["value"]) if isinstance(row["value"], str) else row["value"]
        after_key = _value_key(after)
        before_key = self.current.get(key, _value_key(None))
        self.current[key] = after_key
        if self.last_at is None or instant(row["at"]) >= instant(self.last_at):
            self.last_at = row["at"]
        if after_key == before_key:
            return "same"
        top = self.done[-1] if self.done else None
        if (
            top is not None
            and top.key == key
            and _value_key(top.before) == after_key
            and _value_key(top.after) == before_key
        ):
            self.undone.append(self.done.pop())
            return "undo"
        redo = self.undone[-1] if self.undone else None
        if (
            redo is not None
            and redo.key == key
            and _value_key(redo.after) == after_key
            and _value_key(redo.before) == before_key
        ):
            self.done.append(self.undone.pop())
            return "redo"
        self.done.append(Step(key, json.loads(before_key), after, row.get("system")))
        self.undone.clear()
        return "change"

    def can_undo(self) -> bool:
        return bool(self.done)

    def can_redo(self) -> bool:
        return bool(self.undone)

    def undo_line(self) -> dict | None:
        """The judgement to append to undo the latest change (Project.add_judgement args)."""
        if not self.done:
            return None
        return self._line(self.done[-1], self.done[-1].before)

    def redo_line(self) -> dict | None:
        if not self.undone:
            return None
        return self._line(self.undone[-1], self.undone[-1].after)

    @staticmethod
    def _line(step: Step, value: object) -> dict:
        question_id, kind, passage_id, settles = step.key
        return {
            "question_id": question_id,
            "kind": kind,
            "value": value,
            "passage_id": passage_id,
            "settles": settles or None,
            "system": step.system,
        }
