"""The report streams: rows written as text are the rows openpyxl would write, and the big
sheets are written as the ranked lists come from the store, not gathered first."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import zipfile

import pytest
from openpyxl import Workbook, load_workbook

from desktop.evaluation import compare, scored
from desktop.report import cells as rc
from desktop.report import sheet as rs
from desktop.report import workbook as rw
from tests.helpers import write_jsonl, write_text
from tests.report.test_report import FAST, ROOT

ROWS = [
    (["a & <b> > c", " lead", "trail ", "  ", "", "x\ny", "=1+1", "#N/A", "#", "한국어"], None),
    ([1, 2.5, True, False, None, 1 / 3, 1e20, 123456789012345678, -0.0, float("nan")], None),
    ([float("inf"), -float("inf"), 0, 10**30, 7e-300], "num"),
    (
        ["bold", 0.25, "wrapped text that is long enough", None, "=x"],
        ["bold", "p", "wrap", "num", None],
    ),
    ([{"json": [1, "둘"]}, ["a"], "bad\x00char\ud800"], [None, "pct", None]),
    ([], None),
]


def test_rows_go_through_openpyxl_cells_as_they_are(tmp_path):
    """Every value cleaned and written as it is: text never taken for a formula or an error
    code, one shared style object per kind (the workbook holds a handful, not one per cell),
    the Hangul font on every cell and the row's height where asked."""
    wb = Workbook(write_only=True)
    sheet = rs.Sheet(wb, "S", [10, 20, 30], "B2")
    for values, styles in ROWS:
        sheet.append(values, styles, sheet.lines(values) if values else None)
    sheet.header(["one\n하나", "two\n둘\n셋"])
    sheet.autofilter(1, 3)
    wb.save(tmp_path / "s.xlsx")
    ws = load_workbook(tmp_path / "s.xlsx")["S"]
    assert ws["A1"].value == "a & <b> > c" and ws["G1"].value == "=1+1"
    assert ws["G1"].data_type == "s" and ws["H1"].value == "#N/A" and ws["I1"].value == "#"
    assert ws["B1"].value == " lead" and ws["C1"].value == "trail " and ws["J1"].value == "한국어"
    assert ws["F1"].value == "x\ny" and ws["E1"].value is None
    assert [ws.cell(2, c).value for c in range(1, 10)] == [
        1,
        2.5,
        True,
        False,
        None,
        1 / 3,
        1e20,
        pytest.approx(123456789012345678),  # Excel keeps 15 to 17 digits
        0,
    ]
    assert ws["C2"].value is True and ws["F2"].value == 1 / 3
    assert ws["B4"].number_format == "0.0000" and ws["A4"].font.b and ws["C4"].alignment.wrap_text
    assert ws["D4"].value is None  # None: no cell, whatever its style
    assert ws["A5"].value == '{"json": [1, "둘"]}' and ws["B5"].value == '["a"]'
    assert ws["C5"].value == "badchar"
    cells = [c for row in ws.iter_rows() for c in row if c.value not in (None, True, False)]
    assert {c.font.name for c in cells} == {rs.FONT_NAME}
    assert not ws["C2"].has_style  # a plain boolean: LibreOffice shows TRUE, not 1
    assert ws.row_dimensions[7].height == rc.LINE_POINTS * 3 + 3  # the header's three lines
    assert ws.freeze_panes == "B2" and ws.auto_filter.ref == "A1:C7"
    with zipfile.ZipFile(tmp_path / "s.xlsx") as z:
        styles = z.read("xl/styles.xml").decode()
    assert styles.count("<font>") + styles.count("<font ") <= 5


# -- a project big enough that gathering would show -------------------------------------------

QUESTIONS = 40


def many_questions(project, tmp_path) -> None:
    """40 questions, two runs of ten results each (the second misses some questions), gold
    with one to three items, a few judgements."""
    import random

    rng = random.Random(5)
    passages = [f"p{i:03d}" for i in range(60)]
    project.import_corpus(
        write_jsonl(tmp_path / "c.jsonl", [{"id": p, "text": f"본문 {p}"} for p in passages])
    )
    qids = [f"q{i:02d}" for i in range(QUESTIONS)]
    project.import_questions(
        write_jsonl(tmp_path / "q.jsonl", [{"id": q, "text": f"질문 {q}"} for q in qids])
    )
    gold = []
    for i, q in enumerate(qids):
        if i % 10 == 3:
            continue  # a question without evidence
        items = rng.sample(passages, rng.randint(1, 3))
        roles = ["core", "supporting", None]
        gold.append(
            {
                "question_id": q,
                "evidence": [{"passage_id": p, "role": rng.choice(roles)} for p in items],
            }
        )
    project.import_gold(write_jsonl(tmp_path / "g.jsonl", gold))
    for name in ("A", "B"):
        lines = []
        for i, q in enumerate(qids):
            if name == "B" and i % 7 == 0:
                continue
            for rank, p in enumerate(rng.sample(passages, 10), 1):
                lines.append(f"{q} Q0 {p} {rank} {20 - rank // 2} {name}")
        project.import_run(write_text(tmp_path / f"{name}.trec", "\n".join(lines) + "\n"), name)
    project.add_judgement("kim", "q01", "not_evidence", True, passage_id="p001")
    project.add_evidence("kim", "q02", "p002", "core")


def test_the_big_sheets_are_written_as_the_lists_come(project, tmp_path, monkeypatch):
    many_questions(project, tmp_path)
    written: dict[str, int] = {}
    original_append = rs.Sheet.append

    def counting_append(self, *args, **kwargs):
        written[self.title] = written.get(self.title, 0) + 1
        return original_append(self, *args, **kwargs)

    monkeypatch.setattr(rs.Sheet, "append", counting_append)
    stored = project.reads.ranked_lists
    pulled = []

    def watched():
        for entry in stored():
            pulled.append(entry)
            # Rows written on Per question so far (its header is one): the pass may hold the
            # list being written and the next one, never more.
            rows = written.get(rs.PER_QUESTION, 0) - 1
            assert len(pulled) <= rows + 3, f"{len(pulled)} lists pulled, {rows} rows written"
            yield entry

    monkeypatch.setattr(project.reads, "ranked_lists", watched)
    wb = load_workbook(rw.write_report(project, tmp_path / "r.xlsx", [5, 10], **FAST, lang="en"))
    assert len(pulled) == QUESTIONS + QUESTIONS - len(range(0, QUESTIONS, 7))
    assert wb[rs.PER_QUESTION].max_row == 1 + 2 * QUESTIONS


def test_one_pass_gives_evaluate_numbers(project, tmp_path):
    many_questions(project, tmp_path)
    evaluation = project.evaluate([3, 10])
    scores = scored.collect(project, [3, 10])
    assert list(scores.values) == [s.system for s in evaluation.systems]
    for system in evaluation.systems:
        assert scores.means[system.system] == {
            k: v for k, v in system.means.items() if k in scores.labels
        }
        for q, values in system.per_question.items():
            kept = scores.values[system.system][q]
            assert kept == {label: values[label] for label in scores.labels}
        runs = project.runs(10)
        masks = compare.found_masks(evaluation.items, runs[system.system], [3, 10])
        assert {q: scores.found[system.system][q] for q in masks} == masks


def test_unjudged_counts_are_the_pool_counted(project, tmp_path):
    many_questions(project, tmp_path)
    for depth in (1, 5, 10):
        pool = project.pool(depth)
        assert project.unjudged_counts(depth) == {qid: len(entries) for qid, entries in pool}


# -- with and without lxml ----------------------------------------------------------------------

EXPORT_AND_DUMP = """
import json, sys
import openpyxl.xml
from openpyxl import load_workbook
from desktop.project import Project
from desktop.report import write_report
with Project(sys.argv[1]) as project:
    path = write_report(project, sys.argv[2], [5, 10], resamples=100, permutations=100)
wb = load_workbook(path, read_only=True)
sheets = {ws.title: [list(row) for row in ws.iter_rows(values_only=True)] for ws in wb}
print(json.dumps({"lxml": openpyxl.xml.LXML, "sheets": sheets}, ensure_ascii=False, default=str))
"""


def test_the_report_is_the_same_with_and_without_lxml(tmp_path):
    """openpyxl takes lxml whenever it is installed (a test dependency here) unless
    OPENPYXL_LXML=False, read when it is imported: one export in a child process each way,
    every cell compared (the report file's name and the time written aside)."""
    db = tmp_path / "sample.db"
    run = [sys.executable, "-m", "desktop", "--db", str(db)]
    subprocess.run([*run, "demo"], check=True, cwd=ROOT, capture_output=True)
    dumps = {}
    for lxml in ("True", "False"):
        env = {**os.environ, "OPENPYXL_LXML": lxml}
        done = subprocess.run(
            [sys.executable, "-c", EXPORT_AND_DUMP, str(db), str(tmp_path / "r.xlsx")],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stderr
        dumps[lxml] = json.loads(done.stdout)
    assert dumps["True"]["lxml"] is True, "lxml is in the test extra: pip install -e '.[test]'"
    assert dumps["False"]["lxml"] is False
    with_lxml, without = dumps["True"]["sheets"], dumps["False"]["sheets"]
    assert list(with_lxml) == list(without) == list(rs.sheet_names("ko").values())
    settings = rs.sheet_names("ko")[rs.SETTINGS]
    for title, rows in with_lxml.items():
        if title != settings:
            assert rows == without[title], title
    written = "written at 작성 시각"
    assert [r for r in with_lxml[settings] if r[0] != written] == [
        r for r in without[settings] if r[0] != written
    ]
    assert sum(len(rows) for rows in with_lxml.values()) > 300


KILLED_HALFWAY = """
import os, signal, sys
from desktop.project import Project
from desktop.report import write_report

def progress(done, total):
    if done >= total // 2:
        os.kill(os.getpid(), signal.SIGKILL)

with Project(sys.argv[1]) as project:
    write_report(project, sys.argv[2], [5, 10], progress, resamples=50, permutations=50)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")
def test_a_killed_export_leaves_openpyxl_files_only_in_the_system_temp_folder(tmp_path):
    """What README's "What keeps your work safe" says: nothing beside the target;
    openpyxl's own sheet files stay in the system temp folder."""
    from desktop.project import Project

    db, out, system_temp = tmp_path / "s.db", tmp_path / "out", tmp_path / "system temp"
    out.mkdir()
    system_temp.mkdir()
    run = [sys.executable, "-m", "desktop", "--db", str(db)]
    subprocess.run([*run, "demo"], check=True, cwd=ROOT, capture_output=True)
    done = subprocess.run(
        [sys.executable, "-c", KILLED_HALFWAY, str(db), str(out / "r.xlsx")],
        cwd=ROOT,
        env={**os.environ, "TMPDIR": str(system_temp)},
        capture_output=True,
    )
    assert done.returncode == -signal.SIGKILL, done.stderr
    # killed while writing its sheets: nothing beside the target (issue 24: the report's
    # records are in memory; the hidden .rr-tmp file appears only when the workbook is saved)
    assert list(out.iterdir()) == []
    with Project(db):
        pass  # opening the database cleans what a killed export registered
    assert list(out.iterdir()) == []
    assert [p.name for p in system_temp.iterdir() if p.name.startswith("openpyxl.")] != []
