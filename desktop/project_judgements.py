"""A project's judgement log: judging (the window's keys), importing and exporting
judgement lines, merging another database's log and restoring it from its journal. Mixed into
Project (desktop/project.py), which holds the store."""

from __future__ import annotations

import json
import os
from datetime import datetime
from pathlib import Path

from db import Store, StoreError
from db import journal as journal_file
from desktop import readers
from desktop.app import scratch, targets
from desktop.gold import effective as gold
from desktop.gold import machines
from desktop.gold.span_items import span_key
from desktop.project_imports import ImportReport, now
from desktop.readers import InputError, Progress


def _alternative_problem(
    kind: str, question_id: str, value, primaries: dict[str, set[str]], added=None
) -> str | None:
    """An alternative stands for an evidence item, and a candidate is dismissed for one: its
    value must be the primary passage of one of that question's imported items or of an item
    an evidence line added (or null, which withdraws it)."""
    if kind not in ("alternative", readers.DISMISSED) or value is None:
        return None
    these = primaries.get(question_id, set()) | (added or {}).get(question_id, set())
    if value in these:
        return None
    named = ", ".join(repr(p) for p in sorted(these)[:5]) or "none"
    line = "an alternative" if kind == "alternative" else "a dismissed line"
    return (
        f"{line}'s value must be the primary passage of one of question "
        f"{question_id!r}'s evidence items ({named}), not {value!r}"
    )


def _item_problem(
    kind: str, question_id: str, passage_id: str, primaries: dict[str, set[str]], added
) -> str | None:
    """evidence adds a passage that is not already an imported item's primary; drop names
    an item's primary, imported or added by an evidence line."""
    imported = primaries.get(question_id, set())
    if kind == "evidence" and passage_id in imported:
        return (
            f"passage {passage_id!r} is already the primary of one of question "
            f"{question_id!r}'s imported evidence items (an evidence line adds a new one)"
        )
    if kind == "drop" and passage_id not in imported | added.get(question_id, set()):
        return (
            f"passage {passage_id!r} is not the primary of an evidence item of question "
            f"{question_id!r}: nothing to drop"
        )
    return None


def _record_added(added: dict[str, set[str]], kind: str, question_id: str, passage_id: str, value):
    if kind == "evidence" and value is True:
        added.setdefault(question_id, set()).add(passage_id)


class ProjectJudgements:
    """Project's judgement work; Project sets self.store, self.path and self._gold_cache."""

    def add_judgement(
        self,
        reviewer: str,
        question_id: str,
        kind: str,
        value,
        passage_id: str = "",
        settles: str | None = None,
        system: str | None = None,
        at: str | None = None,
        span: tuple[str, int, int] | None = None,
    ) -> dict:
        """Append one line to the log, committed before this returns. span: (document id,
        start, end) for a line about a span (design section 10) instead of a passage."""
        checked = settles if kind == "adjudication" else kind
        primaries = self.store.evidence_primaries(question_id)
        # Only an alternative, a dismissal or a drop may name an item an evidence line added.
        named_item = ("alternative", "drop", readers.DISMISSED)
        added = self.added_evidence(question_id) if checked in named_item else {}
        target = span_key(*span) if span else passage_id
        problem = (
            readers.check_judgement_value(checked, value)
            or (self._span_problem(checked, passage_id, span) if span else None)
            or _alternative_problem(checked, question_id, value, primaries, added)
            or _item_problem(checked, question_id, target, primaries, added)
        )
        if not (problem or span) and checked == "evidence":
            if not self.store.passage_pks([passage_id]):
                problem = f"unknown passage id {passage_id!r}: it is not in the corpus"
        if problem:
            raise ValueError(problem)
        row = self._judgement_row(
            reviewer, question_id, kind, value, passage_id, settles, system, at
        )
        row["span"] = str(target) if span else None
        self.store.add_judgements([tuple(row[c] for c in self.store.JUDGEMENT_COLUMNS)])
        return row

    def _span_problem(self, kind: str, passage_id: str, span) -> str | None:
        """Why a line cannot name this span: a kind that names passages only, a passage too,
        or a span its document does not hold."""
        if kind not in readers.SPAN_KINDS:
            return f"a {kind} judgement names a passage, not a span"
        if passage_id:
            return "a judgement names a passage or a span, not both"
        document, start, end = span
        found = self.store.document_text(document)
        if found is None:
            return f"unknown document id {document!r}: import its documents first"
        if not 0 <= start < end <= len(found[1]):
            return (
                f"span {document}:{start}-{end} is not inside document {document!r} "
                f"({len(found[1])} characters)"
            )
        return None

    def add_evidence(
        self,
        reviewer: str,
        question_id: str,
        passage_id: str,
        role: str,
        system=None,
        at: str | None = None,
    ) -> list[dict]:
        """Add a passage as a new evidence item with its role (the window's "add as core" /
        "add as supporting"): the evidence line and the role line in one transaction."""
        if readers.check_judgement_value("role", role) or role is None:
            raise ValueError("a role must be core or supporting")
        line = {"question_id": question_id, "passage_id": passage_id}
        return self.add_judgement_lines(
            reviewer,
            [
                {**line, "kind": "evidence", "value": True},
                {**line, "kind": "role", "value": role, "system": system},
            ],
            at,
        )

    def add_judgement_lines(
        self, reviewer: str, lines: list[dict], at: str | None = None
    ) -> list[dict]:
        """Several lines (add_judgement's arguments) written together: one transaction and
        one time, which the window's undo takes as one step (an added item, a drop and its
        reason). Nothing is written when one of them is refused."""
        at = at or now()
        with self.store.atomic():
            return [self.add_judgement(reviewer, at=at, **line) for line in lines]

    def added_evidence(self, question_id: str | None = None) -> dict[str, set[str]]:
        """Question id -> passages an evidence line (or an adjudication of one) in the log
        adds as an item, whether or not that is in force."""
        added: dict[str, set[str]] = {}
        for row in self.store.judgements(question_id=question_id):
            kind = row["settles"] if row["kind"] == "adjudication" else row["kind"]
            value = json.loads(row["value"])
            _record_added(added, kind, row["question_id"], str(gold.target_of(row)), value)
        return added

    @staticmethod
    def _judgement_row(reviewer, question_id, kind, value, passage_id, settles, system, at):
        return {
            "reviewer": reviewer,
            "at": at or now(),
            "question_id": question_id,
            "kind": kind,
            "passage_id": passage_id or "",
            "value": json.dumps(value, ensure_ascii=False),
            "settles": settles,
            "system": system,
            "machine": 0,  # the window's lines are a person's
        }

    def import_judgements(
        self, path, encoding=None, progress: Progress | None = None, fmt=None, machine=False
    ) -> ImportReport:
        """machine: every line is a machine's (as if each had "machine": true)."""
        path = str(path)
        known = {q["id"] for q in self.store.questions()}
        primaries = self.store.evidence_primaries()
        added = self.added_evidence()
        rows = [
            self._imported_row(path, rec, known, primaries, added, machine)
            for rec in readers.read_judgements(path, fmt, encoding, progress)
        ]
        ids = {r[5] for r in rows if r[5]}
        missing = sorted(ids - set(self.store.passage_pks(ids)))
        if missing:
            line = next(r[0] for r in rows if r[5] == missing[0])
            raise InputError(
                path,
                line,
                f"unknown passage id {missing[0]!r}: {len(missing)} "
                "passage ids in this file are not in the corpus; nothing was "
                "imported",
            )
        with self.store.atomic():
            added = self.store.add_judgements(r[1:] for r in rows)
            self.store.log_import("judgements", os.path.abspath(path), now(), added, 0)
        report = ImportReport("judgements", path, added)
        report.messages.append(f"added {added} judgements ({len(rows) - added} already there)")
        self._gold_cache = None
        return report

    def _imported_row(
        self, path: str, rec, known: set, primaries: dict, added: dict, machine: bool
    ) -> tuple:
        """One line of a judgements file as (line, *row), checked against the database;
        machine: every line of the file is a machine's."""
        if rec.question_id not in known and rec.kind != gold.MARK:  # a mark names no question
            raise InputError(
                path, rec.line, f"unknown question id {rec.question_id!r}; nothing was imported"
            )
        kind = rec.settles or rec.kind
        target = str(span_key(*rec.span)) if rec.span else rec.passage_id
        problem = (
            (self._span_problem(kind, "", rec.span) if rec.span else None)
            or _alternative_problem(kind, rec.question_id, rec.value, primaries, added)
            or _item_problem(kind, rec.question_id, target, primaries, added)
        )
        _record_added(added, kind, rec.question_id, target, rec.value)
        if problem:
            raise InputError(path, rec.line, f"{problem}; nothing was imported")
        try:
            datetime.fromisoformat(rec.at.replace("Z", "+00:00"))
        except ValueError:
            raise InputError(
                path, rec.line, f"'at' is not an ISO date and time: {rec.at!r}"
            ) from None
        return (
            rec.line,
            rec.reviewer,
            rec.at,
            rec.question_id,
            rec.kind,
            rec.passage_id,
            json.dumps(rec.value, ensure_ascii=False),
            rec.settles,
            rec.system,
            target if rec.span else None,
            1 if machine or rec.machine else 0,
        )

    def judgement_lines(self, reviewer: str | None = None) -> list[dict]:
        """The log as design section 6 lines (JSON-ready), oldest first."""
        return [journal_file.judgement_line(r) for r in self.store.judgements(reviewer=reviewer)]

    def export_judgements(self, path, reviewer: str | None = None, force: bool = False) -> int:
        """Write the log (or one reviewer's lines) as judgement JSONL; returns the lines written.
        Without force, an empty result never replaces a non-empty file."""
        target = self.export_target(path)
        lines = self.judgement_lines(reviewer)
        targets.refuse_emptying(target, len(lines), "judgements", force)
        with scratch.replacing(target) as tmp:
            with open(tmp, "w", encoding="utf-8", newline="\n") as handle:
                for line in lines:
                    handle.write(json.dumps(line, ensure_ascii=False) + "\n")
        return len(lines)

    def merge(self, other_path) -> ImportReport:
        """Add the other database's judgement lines this one lacks; refuse a database that
        describes a different evaluation. One transaction; running it twice adds nothing."""
        other_path = str(other_path)
        if os.path.isfile(other_path) and os.path.samefile(other_path, self.path):
            # Merging a file into itself adds nothing but a misleading "merge" in the log.
            raise StoreError(
                f"{other_path}: this is the database being merged into; "
                "name another reviewer's database"
            )
        theirs, rows = self._read_other(other_path)
        mine = self.store.fingerprint()
        differ = [k for k in ("corpus", "questions", "gold") if mine[k] != theirs[k]]
        if differ:
            raise InputError(
                other_path,
                None,
                "not the same evaluation: its "
                f"{', '.join(differ)} differ from this database's; "
                "nothing was merged",
            )
        with self.store.atomic():
            added = self.store.add_judgements(rows)
            self.store.log_import("merge", os.path.abspath(other_path), now(), added, 0)
        report = ImportReport("merge", other_path, added)
        report.messages.append(f"merged {added} judgements ({len(rows) - added} already here)")
        self._gold_cache = None
        return report

    def _read_other(self, other_path: str) -> tuple[dict, list[tuple]]:
        """The fingerprint and judgement rows of the database a merge reads, opened read-only
        with nothing created beside it (Store._open_source); read again in the ordinary way
        when another program started writing it while it was read without locks."""
        for _attempt in range(3):
            other = Store(other_path, readonly=True)
            try:
                theirs = other.fingerprint()
                columns = self.store.JUDGEMENT_COLUMNS
                rows = [tuple(r.get(c) for c in columns) for r in other.judgements()]
            except StoreError:
                if not other.changed_since_open():
                    raise
                continue
            finally:
                other.close()
            if not other.changed_since_open():
                return theirs, rows
        raise StoreError(
            f"{other_path}: another program kept changing it while it was read; "
            "try again when it is done. Nothing was merged."
        )

    def people_and_machines(self) -> tuple[list[str], list[str]]:
        """The people and the machines with a line in the log, by the one rule
        (effective.is_machine)."""
        marks = gold.machine_marks(self.store.mark_lines())
        return gold.people_and_machines(self.store.reviewer_lines(), marks)

    def reviewers(self) -> list[str]:
        """The people with a line in the log (machines are not reviewers of the gold)."""
        return self.people_and_machines()[0]

    def machine_reviewers(self) -> list[str]:
        """The machines with a line in the log."""
        return self.people_and_machines()[1]

    def mark_reviewer(self, reviewer: str, machine: bool | None, at: str | None = None) -> dict:
        """A reviewer-mark line (issue 22): reviewer is a machine (True) or a person (False)
        from now on, for every line of theirs; None withdraws the mark (each line's own mark
        stands again). About no question; a machine's line itself when True."""
        if machine not in (True, False, None):
            raise ValueError("a reviewer mark's value must be true, false or null")
        row = self._judgement_row(reviewer, "", gold.MARK, machine, "", None, None, at)
        row.update(span=None, machine=1 if machine is True else 0)
        self.store.add_judgements([tuple(row[c] for c in self.store.JUDGEMENT_COLUMNS)])
        self._gold_cache = None
        return row

    def agreement(self) -> dict:
        """Design section 6's agreement of the people, and each machine against them."""
        return self.agreement_of(self.store.judgements(), self.effective_gold())

    def agreement_of(self, rows: list[dict], built: gold.EffectiveGold) -> dict:
        """agreement() of these log rows, the machines held to this effective gold."""
        data = gold.agreement(rows)
        counted = gold.as_counted(rows)
        named = {r["passage_id"] for r in counted if r.get("machine") and r["passage_id"]}
        question_pks = {q["id"]: q["pk"] for q in self.store.questions()}
        passage_pks = self.store.passage_pks(named)
        data["machines"] = machines.against_people(rows, built, question_pks, passage_pks)
        return data

    def restore_judgements(self, path=None, force: bool = False) -> ImportReport:
        """Add the judgement lines of a journal (by default the one beside this database)
        that the log lacks: the way back after the database file was lost or damaged. A
        journal of another database (its header names another id; a rebuilt database has a
        new one) is refused unless force. Lines about questions this database lacks are
        taken (nothing is lost) and counted in a warning."""
        path = Path(path) if path else self.store.journal_path
        if os.path.lexists(path):  # a missing journal: journal_file.read says so
            readers.regular_file(path)
        try:
            header, lines, _torn = journal_file.read(path)
        except journal_file.JournalError as error:
            raise StoreError(str(error)) from None
        except OSError as error:
            raise StoreError(f"{path}: cannot read the journal ({error.strerror})") from None
        mine = self.store.database_id()
        if header.get("database_id") != mine and not force:
            raise StoreError(
                f"{path}: the journal of another database ({header.get('database') or '?'}, "
                f"id {str(header.get('database_id'))[:8]}), not of {self.path.name} (id "
                f"{mine[:8]}); to rebuild this database's judgements from it anyway (after "
                "the database was lost or damaged), add --force. Nothing was restored."
            )
        rows = [journal_file.row_of(line) for line in lines]
        with self.store.atomic():
            added = self.store.add_judgements(rows)
            self.store.log_import("restore", str(path.resolve()), now(), added, 0)
        report = ImportReport("judgements", str(path), added)
        report.messages.append(
            f"restored {added} judgements from {path} ({len(rows) - added} already here)"
        )
        unknown = self._unknown_questions(line["question_id"] for line in lines)
        if unknown:
            first = ", ".join(repr(q) for q in list(unknown)[:5])
            report.warnings.append(
                f"{sum(unknown.values())} of the journal's lines are about "
                f"{len(unknown)} questions this database lacks ({first}"
                f"{', …' if len(unknown) > 5 else ''}): they are in the log, and count once "
                "those questions are imported"
            )
        self._gold_cache = None
        return report

    def _unknown_questions(self, question_ids) -> dict[str, int]:
        """Question id -> lines, for the ids this database has no question for, first seen
        first."""
        known = {q["id"] for q in self.store.questions()}
        unknown: dict[str, int] = {}
        for question_id in question_ids:
            if question_id and question_id not in known:  # a reviewer mark names none
                unknown[question_id] = unknown.get(question_id, 0) + 1
        return unknown
