"""The judgement log area of the store, and its journal beside the database file
(db/journal.py): every judgement line is appended to both, the journal after the commit."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator
from pathlib import Path

from db import journal
from db.rows import Area, chunks

FEW_LINES = 16  # judgement lines inserted one statement each (a window's keypress)
INSERT_JUDGEMENT = (
    "INSERT OR IGNORE INTO judgement (reviewer, at, question_id, kind, passage_id, value, "
    "settles, system, span, machine) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)

log = logging.getLogger("recall_reviewer.store")


def _full_row(row: tuple) -> tuple:
    """A row of the columns before 0010 (span) and 0011 (machine) gets no span, a person's mark."""
    return row if len(row) == len(JudgementLog.JUDGEMENT_COLUMNS) else (*row, None, 0)


class JudgementLog(Area):
    """The judgement log, appended to and mirrored in its journal (db/journal.py).

    Needs the Store's atomic() and after_commit()."""

    JUDGEMENT_COLUMNS = (
        "reviewer",
        "at",
        "question_id",
        "kind",
        "passage_id",
        "value",
        "settles",
        "system",
        "span",  # a span's key 'd1:10-200' when the line judges a span (passage_id '')
        "machine",  # 1 on a machine's line (an LLM judge): never counted in the gold
    )

    def add_judgements(self, rows: Iterable[tuple]) -> int:
        """Append judgement lines (columns as JUDGEMENT_COLUMNS); a line already in the log is
        skipped, so re-importing or re-merging adds nothing. Returns how many were added; they
        go to the journal once the transaction has committed."""
        few = isinstance(rows, list) and len(rows) <= FEW_LINES
        # a line about no span may leave its last column out (rows written before spans)
        rows = [*map(_full_row, rows)] if few else map(_full_row, rows)
        with self.atomic():
            if few:
                added = self._insert_lines(rows)
            else:
                last = self._scalar("SELECT coalesce(max(pk), 0) FROM judgement")
                for batch in chunks(rows):
                    self.conn.executemany(INSERT_JUDGEMENT, batch)
                # new rows get keys above the old maximum (INTEGER PRIMARY KEY picks max + 1)
                added = self._query("SELECT * FROM judgement WHERE pk > ? ORDER BY pk", [last])
            if added:
                self.after_commit(lambda: self._journal_append(added))
        return len(added)

    def _insert_lines(self, rows: list[tuple]) -> list[dict]:
        """A window's few lines: one statement each, the added ones known from the cursor
        (no read of the log's maximum before, nor of the new rows after)."""
        added = []
        for row in rows:
            cursor = self.conn.execute(INSERT_JUDGEMENT, row)
            if cursor.rowcount == 1:
                added.append(
                    {"pk": cursor.lastrowid, **dict(zip(self.JUDGEMENT_COLUMNS, row, strict=True))}
                )
        return added

    @property
    def journal_path(self) -> Path:
        return journal.journal_path(self.path)

    def database_id(self) -> str:
        # Made once with the database: read once per connection (the journal names it after
        # every judgement).
        if self._database_id is None:
            self._database_id = self._scalar(
                "SELECT value FROM store_meta WHERE key = 'database_id'"
            )
        return self._database_id

    @property
    def journal_problem(self) -> str | None:
        """Why the journal's latest write failed (its judgements are only in the database
        until a write succeeds), or None."""
        return journal.problem(self.journal_path)

    def _journal_append(self, rows: list[dict]) -> None:
        """After a commit: the new lines to the journal, or, after an earlier write failed,
        every line it lacks. A failure is recorded (journal.failed), never raised: the
        judgements are safely committed by now."""
        path = self.journal_path
        try:
            if journal.problem(path) is not None:
                self._reconcile()
            else:
                journal.append(path, self.database_id(), map(journal.judgement_line, rows))
        except OSError as error:
            journal.failed(path, error)
            return
        journal.written(path)

    def reconcile_journal(self) -> int:
        """Append to the journal every logged judgement it lacks (after a kill between a
        commit and its journal write, a torn last line or a failed write); returns how many.
        Cheap when the journal's line count matches the log, as it does after every ordinary
        session. Raises OSError (recorded as the journal's problem)."""
        try:
            added = self._reconcile()
        except OSError as error:
            journal.failed(self.journal_path, error)
            raise
        journal.written(self.journal_path)
        return added

    def _reconcile(self) -> int:
        path = self.journal_path
        count = self._scalar("SELECT count(*) FROM judgement")
        if count == 0:
            return 0  # nothing to keep; a journal there may be a lost database's, for restore
        header = journal.header_of(path)
        if header is None or header.get("database_id") != self.database_id():
            have: set[tuple] = set()
        elif journal.line_count(path) == count:
            return 0
        else:
            try:
                have = {journal.identity(line) for line in journal.read(path)[1]}
            except journal.JournalError as error:
                log.warning("rewriting the journal: %s", error)
                journal.set_aside(path, header)
                have = set()
        missing = [
            row
            for row in self._query("SELECT * FROM judgement ORDER BY pk")
            if journal.identity(journal.judgement_line(row)) not in have
        ]
        journal.append(path, self.database_id(), map(journal.judgement_line, missing))
        return len(missing)

    def judgements(self, question_id: str | None = None, reviewer: str | None = None) -> list[dict]:
        where, params = [], []
        if question_id is not None:
            # that question's lines only: who needs the reviewer-mark lines (about no question)
            # to tell who is a machine adds mark_lines() (desktop/review/seen.py question_gold)
            where.append("question_id = ?")
            params.append(question_id)
        if reviewer is not None:
            where.append("reviewer = ?")
            params.append(reviewer)
        clause = f"WHERE {' AND '.join(where)}" if where else ""
        return self._query(f"SELECT * FROM judgement {clause} ORDER BY at, pk", params)

    def each_question_judgements(self) -> Iterator[tuple[int, dict]]:
        """(question_pk, line) of every line about a question the database has, in question
        order and, within a question, in judgements(question_id)'s order (at, pk), streamed:
        one statement for the report's whole pass instead of one per question."""
        cursor = self.conn.execute(
            "SELECT q.pk, j.* FROM judgement j JOIN question q ON q.id = j.question_id "
            "ORDER BY q.pk, j.at, j.pk"
        )
        names = [d[0] for d in cursor.description][1:]
        for row in cursor:
            yield row[0], dict(zip(names, row[1:], strict=True))

    def orphan_judgements(self) -> Iterator[dict]:
        """Judgement lines about question ids the database no longer has, by question id
        and in log order, streamed."""
        return self._stream(
            "SELECT * FROM judgement WHERE question_id NOT IN (SELECT id FROM question) "
            "AND question_id != '' "  # a reviewer-mark line is about no question
            "ORDER BY question_id, at, pk"
        )

    def judged_pairs(self) -> set[tuple[str, str]]:
        """(question id, passage id) of every judgement line naming a passage, of any kind
        (one this version does not know too) and by anyone: a passage a reviewer has said
        anything about is no longer a candidate to look at (desktop/report/candidates.py)."""
        return set(
            self.conn.execute(
                "SELECT DISTINCT question_id, passage_id FROM judgement WHERE passage_id != ''"
            ).fetchall()
        )

    def reviewer_lines(self) -> list[tuple[str, bool, bool]]:
        """Each reviewer with a line in the log (reviewer-mark lines and dismissed candidates
        aside: neither makes its writer a reviewer of the gold): (name, has a person's line,
        has a machine's line), for the one rule of who is a machine
        (desktop/gold/effective.py people_and_machines)."""
        return [
            (r[0], bool(r[1]), bool(r[2]))
            for r in self.conn.execute(
                "SELECT reviewer, max(machine = 0), max(machine = 1) FROM judgement "
                "WHERE kind NOT IN ('machine', 'dismissed') GROUP BY reviewer ORDER BY reviewer"
            )
        ]

    def mark_lines(self) -> list[dict]:
        """The reviewer-mark lines (kind 'machine': reviewer is a machine, or a person again),
        about no question: read through the question index, not the whole log."""
        return self._query(
            "SELECT * FROM judgement WHERE question_id = '' AND kind = 'machine' ORDER BY at, pk"
        )
