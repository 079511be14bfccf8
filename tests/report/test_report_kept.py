"""The pass over the runs makes each question's items and metrics.Prepared once for every
system for its first runs.KEPT_QUESTIONS questions, and once per row past them (issue 24, the
report's speed): every way gives the same workbook, the golden dump's."""

from __future__ import annotations

import json

from desktop.report import runs
from tests.report.test_report_cells import GOLDEN, judged_sample, report_cells


def test_items_kept_or_made_per_row_give_the_golden_cells(
    project, tmp_path, monkeypatch, prepared_made
):
    judged_sample(project)
    made = prepared_made  # one for each metrics.Prepared made
    want = json.loads(GOLDEN.read_text(encoding="utf-8"))
    kept = json.loads(json.dumps(report_cells(project, tmp_path), ensure_ascii=False))
    once = len(made)
    monkeypatch.setattr(runs, "KEPT_QUESTIONS", 0)
    made.clear()
    per_row = json.loads(json.dumps(report_cells(project, tmp_path), ensure_ascii=False))
    assert kept == per_row == want
    systems = len(project.systems())
    # per row, the two languages' reports make one more per evaluated question and system
    rows = want["en"]["Per question"][1:]
    evaluated = sum(1 for row in rows if row[0] == rows[0][0] and row[4])
    assert systems == 3 and evaluated > 10
    assert len(made) - once == 2 * (systems - 1) * evaluated


def test_the_first_kept_questions_are_prepared_once_and_the_rest_per_row(
    project, tmp_path, monkeypatch, prepared_made
):
    judged_sample(project)
    made = prepared_made  # one for each metrics.Prepared made
    want = json.loads(GOLDEN.read_text(encoding="utf-8"))
    report_cells(project, tmp_path)
    once = len(made)  # every question kept
    made.clear()
    monkeypatch.setattr(runs, "KEPT_QUESTIONS", 5)
    got = json.loads(json.dumps(report_cells(project, tmp_path), ensure_ascii=False))
    assert got == want
    systems = len(project.systems())
    rows = want["en"]["Per question"][1:]
    rows = [row for row in rows if row[0] == rows[0][0]]  # the first system's
    evaluated = sum(1 for row in rows if row[4])
    first = sum(1 for row in rows[:5] if row[4])  # kept: prepared for the first system only
    assert 0 < first < evaluated
    # per row past the first five, in both languages' reports
    assert len(made) - once == 2 * (systems - 1) * (evaluated - first)
