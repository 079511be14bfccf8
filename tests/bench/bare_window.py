"""The bare reference for bench_window: the reviewer's screen made plainly with PySide6 and
sqlite3 on the same database (question list, one or two top-K tables, evidence table, reader
with neighbours, metrics table), with no project code. bench_window drives it beside the
app in one process, alternating their runs, so that each figure has a ratio to what Qt and
SQLite alone cost on this machine.

    python tests/bench/bare_window.py DB   # opens it, switches 100 times, prints peak RSS
"""

from __future__ import annotations

import html
import sqlite3
import sys

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QMainWindow,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

TOP_K = """
    SELECT r.rank, r.score, p.pk, p.id, p.text,
           EXISTS (SELECT 1 FROM evidence_item e
                   WHERE e.question_pk = r.question_pk AND e.passage_pk = r.passage_pk)
    FROM result r JOIN passage p ON p.pk = r.passage_pk
    WHERE r.system_pk = ? AND r.question_pk = ? AND r.rank <= ? ORDER BY r.rank
"""
EVIDENCE = """
    SELECT e.pk, p.id, coalesce(e.role, ''), substr(p.text, 1, 160)
    FROM evidence_item e JOIN passage p ON p.pk = e.passage_pk
    WHERE e.question_pk = ? ORDER BY e.pk
"""
# Evidence items found in each system's top k, per question: the metrics table's means.
FOUND = """
    SELECT r.system_pk, e.question_pk, count(DISTINCT e.pk)
    FROM evidence_item e JOIN result r
      ON r.question_pk = e.question_pk AND r.passage_pk = e.passage_pk
    WHERE r.rank <= ? {where} GROUP BY r.system_pk, e.question_pk
"""
ITEMS = "SELECT question_pk, count(*) FROM evidence_item {where} GROUP BY question_pk"


def _table(columns: list[str]) -> QTableWidget:
    table = QTableWidget(0, len(columns))
    table.setHorizontalHeaderLabels(columns)
    table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
    table.verticalHeader().hide()
    table.horizontalHeader().setStretchLastSection(True)
    return table


def _fill(table: QTableWidget, rows: list[tuple]) -> None:
    table.setRowCount(len(rows))
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            table.setItem(r, c, QTableWidgetItem("" if value is None else str(value)))


class BareWindow(QMainWindow):
    """The same screen as the app's, plainly."""

    def __init__(self, db: str):
        super().__init__()
        self.db = sqlite3.connect(db)
        self.k = 5
        self.compare = False
        self.systems = [pk for (pk,) in self.db.execute("SELECT pk FROM system ORDER BY pk")]
        self.questions = self.db.execute("SELECT pk, id, text FROM question ORDER BY pk").fetchall()
        self.row_of = {q[1]: i for i, q in enumerate(self.questions)}
        self.current = 0
        self.question_list = _table(["ID", "Question"])
        _fill(self.question_list, [(q[1], q[2]) for q in self.questions])
        self.rankings = [_table(["Rank", "", "Score", "Passage", "Text"]) for _ in range(2)]
        self.rankings[1].hide()
        self.evidence = _table(["Item", "Passage", "Role", "Text"])
        self.reader = QTextBrowser()
        self.metrics = _table(["System", "Recall@K"])
        middle = QWidget()
        column = QVBoxLayout(middle)
        for table in (*self.rankings, self.evidence):
            column.addWidget(table)
        right = QSplitter(Qt.Orientation.Vertical)
        right.addWidget(self.reader)
        right.addWidget(self.metrics)
        split = QSplitter()
        for widget in (self.question_list, middle, right):
            split.addWidget(widget)
        self.setCentralWidget(split)
        self.update_metrics()

    def show_question(self, qid: str) -> None:
        self.current = self.row_of[qid]
        qpk = self.questions[self.current][0]
        self.question_list.selectRow(self.current)
        shown = self.systems[: 2 if self.compare else 1]
        first = None
        for table, system in zip(self.rankings, shown, strict=False):
            rows = self.db.execute(TOP_K, (system, qpk, self.k)).fetchall()
            marks = ("○", "●")
            _fill(table, [(r, marks[e], f"{s:.2f}", p, t[:320]) for r, s, _, p, t, e in rows])
            first = first if first is not None else (rows[0][2] if rows else None)
        self._fill_evidence(qpk)
        self.show_passage(first)

    def next_question(self) -> None:
        self.show_question(self.questions[(self.current + 1) % len(self.questions)][1])

    def _fill_evidence(self, qpk: int) -> None:
        _fill(self.evidence, [row[1:] for row in self.db.execute(EVIDENCE, (qpk,))])

    def show_passage(self, pk: int | None) -> None:
        if pk is None:
            self.reader.clear()
            return
        neighbours = "SELECT pk, id, text FROM passage WHERE pk BETWEEN ? AND ? ORDER BY pk"
        rows = self.db.execute(neighbours, (pk - 1, pk + 1)).fetchall()
        parts = []
        for ppk, pid, text in rows:
            style = "" if ppk == pk else " style='color:#808080'"
            parts.append(f"<p{style}><b>{html.escape(pid)}</b> {html.escape(text)}</p>")
        self.reader.setHtml("".join(parts))

    def set_mode(self, k: int, compare: bool) -> None:
        self.k, self.compare = k, compare
        self.rankings[1].setVisible(compare)
        self.update_metrics()

    def update_metrics(self, question_pk: int | None = None) -> None:
        """Recall@K per system, the mean over questions with evidence; after a judgement only
        that question is counted again."""
        where, args = ("", ()) if question_pk is None else ("AND e.question_pk = ?", (question_pk,))
        if question_pk is None:
            self.found: dict[tuple[int, int], int] = {}
            self.items: dict[int, int] = {}
        items = "" if question_pk is None else "WHERE question_pk = ?"
        self.items.update(self.db.execute(ITEMS.format(where=items), args).fetchall())
        for system, question, found in self.db.execute(FOUND.format(where=where), (self.k, *args)):
            self.found[system, question] = found
        rows = []
        for system in self.systems:
            recall = [self.found.get((system, q), 0) / n for q, n in self.items.items() if n]
            rows.append((system, f"{sum(recall) / max(len(recall), 1):.4f}"))
        _fill(self.metrics, rows)

    def judge(self) -> None:
        """A role for the current question's first item: written, then the evidence shown."""
        qpk, qid = self.questions[self.current][:2]
        item = self.db.execute(EVIDENCE, (qpk,)).fetchone()
        with self.db:
            self.db.execute(
                "INSERT INTO judgement (reviewer, at, question_id, kind, passage_id, value)"
                " VALUES ('bare', strftime('%Y-%m-%dT%H:%M:%f', 'now'), ?, 'role', ?, 'core')",
                (qid, item[1] if item else ""),
            )
        self._fill_evidence(qpk)


def main() -> None:
    import json
    import os
    import random
    import time

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    app = QApplication(["bare"])
    window = BareWindow(sys.argv[1])
    window.resize(1366, 768)
    window.show()
    rng = random.Random(5)
    for _ in range(100):
        window.show_question(rng.choice(window.questions)[1])
        app.processEvents()
    time.sleep(0)
    with open("/proc/self/status") as handle:
        peak = next(int(line.split()[1]) / 1024 for line in handle if line.startswith("VmHWM:"))
    print(json.dumps({"peak_rss_mb": round(peak, 1)}))


if __name__ == "__main__":
    main()
