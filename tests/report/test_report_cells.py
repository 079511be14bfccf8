"""The workbook's cells against a golden dump (tests/data/report_cells.json): every sheet's
values, in both languages, on the bundled sample with two reviewers' judgements, so that a
change in any cell of the report cannot pass unnoticed. After a deliberate change of the
report's contents, regenerate the dump with ``python tests/test_report_cells.py`` and review
its diff."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from openpyxl import load_workbook

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "data" / "report_cells.json"
FAST = {"resamples": 200, "permutations": 200}
# Settings rows that name this run's files, time or version, not the report's numbers.
VOLATILE = ("database file", "report file", "written at", "app version", "corpus imported at")
IMPORTED = re.compile(r"imported [0-9T:.+-]+\)$")  # a system's import time (Settings)


def cells(path) -> dict[str, list[list]]:
    """Every sheet's rows of cell values (trailing empty cells dropped), by sheet title."""
    wb = load_workbook(path, read_only=True)
    out = {}
    for ws in wb.worksheets:
        rows = []
        for row in ws.iter_rows(values_only=True):
            row = list(row)
            while row and row[-1] is None:
                row.pop()
            if row and isinstance(row[0], str) and row[0].startswith(VOLATILE):
                row = [row[0], "…"]
            elif row and row[0] == "corpus file":
                row = [row[0], row[1].replace(str(ROOT), "ROOT").replace("\\", "/")]
            elif row and isinstance(row[0], str) and row[0].startswith("system: "):
                # the run's file as a path inside this checkout, wherever that is
                text = IMPORTED.sub("imported …)", row[1]).replace(str(ROOT), "ROOT")
                row = [row[0], text.replace("\\", "/")]
            rows.append(row)
        out[ws.title] = rows
    wb.close()
    return out


def judged_sample(project) -> None:
    """The bundled sample, with judgements of every kind by two reviewers."""
    from desktop.app.sample import load_sample

    list(load_sample(project))
    lines = (ROOT / "resources" / "sample" / "gold.jsonl").read_text(encoding="utf-8").split("\n")
    rows = [json.loads(line) for line in lines if line.strip()]
    with_gold = [r for r in rows if r["evidence"]]
    gold = {r["question_id"]: [i["passage_id"] for i in r["evidence"]] for r in with_gold}
    q1, q2, q3, q4 = list(gold)[:4]
    minutes = iter(range(60))

    def add(**line):  # fixed instants, a minute apart: the dump holds them
        project.add_judgement(**line, at=f"2026-12-01T10:{next(minutes):02d}:00+09:00")

    add(reviewer="kim", question_id=q1, kind="role", passage_id=gold[q1][0], value="core")
    add(reviewer="lee", question_id=q1, kind="role", passage_id=gold[q1][0], value="core")
    add(reviewer="kim", question_id=q2, kind="role", passage_id=gold[q2][0], value="core")
    add(reviewer="lee", question_id=q2, kind="role", passage_id=gold[q2][0], value="supporting")
    add(reviewer="kim", question_id=q3, kind="answerable", value=True)
    add(reviewer="lee", question_id=q3, kind="answerable", value=False)
    add(reviewer="kim", question_id=q4, kind="drop", passage_id=gold[q4][0], value=True)
    add(reviewer="kim", question_id=q1, kind="note", passage_id=gold[q1][0], value="재검토")
    add(reviewer="lee", question_id=q2, kind="note", value="메모 =1+1", system="bm25")


def report_cells(project, tmp: Path) -> dict:
    from desktop.report import write_report

    return {
        lang: cells(write_report(project, tmp / f"{lang}.xlsx", [5, 10], **FAST, lang=lang))
        for lang in ("en", "ko")
    }


def test_cells_match_the_golden_dump(project, tmp_path):
    judged_sample(project)
    got = json.loads(json.dumps(report_cells(project, tmp_path), ensure_ascii=False))
    want = json.loads(GOLDEN.read_text(encoding="utf-8"))
    for lang in want:
        assert list(got[lang]) == list(want[lang])
        for title, rows in want[lang].items():
            assert len(got[lang][title]) == len(rows), (lang, title)
            for number, (a, b) in enumerate(zip(got[lang][title], rows, strict=True), 1):
                assert a == b, (lang, title, number)


if __name__ == "__main__":
    import tempfile

    sys.path.insert(0, str(ROOT))
    from desktop.project import Project

    with tempfile.TemporaryDirectory() as tmp:
        import os

        os.environ["RECALL_REVIEWER_HOME"] = str(Path(tmp) / "home")
        project = Project(Path(tmp) / "golden.db")
        judged_sample(project)
        dumped = report_cells(project, Path(tmp))
        project.close()
    GOLDEN.write_text(json.dumps(dumped, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    print(GOLDEN, GOLDEN.stat().st_size)


def test_excerpts_are_read_once_for_every_system(project, tmp_path):
    """The Misses sheet's passage excerpts come from one read for the whole report, not one
    per system and question (issue 24): the sample's three systems miss items on many
    questions."""
    from desktop.report import write_report

    judged_sample(project)
    real = project.reads.passage_excerpts
    calls = []

    def counted(pks, length):
        calls.append(length)
        return real(pks, length)

    project.reads.passage_excerpts = counted  # the real read, counted
    path = write_report(project, tmp_path / "r.xlsx", [5, 10], **FAST, lang="en")
    assert len(calls) == 1
    head, *rows = cells(path)["Misses"]
    text = [str(label).split("\n")[0] for label in head].index("passage text")
    assert len(rows) > 10 and all(len(row) > text and row[text] for row in rows)
