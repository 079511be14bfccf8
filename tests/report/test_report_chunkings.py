"""The report of a study with documents and several chunkings (issue 19 item 6, issue 26):
every run scored as `metrics` scores it (the span rule on another chunking), the Chunkings
sheet's figures equal to `metrics --json --budget --coverage`, its chart one line per
(chunking, system), misses on other chunkings with their span and the coverage reached, and
unranked runs' rank measures and short cut-offs greyed with a footnote. The study is
tests/readers/test_graph_import.py's, imported from an empty database by the command line."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path
from xml.etree import ElementTree

import pytest
from openpyxl import load_workbook
from openpyxl.chart import LineChart
from openpyxl.chart.chartspace import ChartSpace
from openpyxl.chart.reader import read_chart

from tests.helpers import cli, cli_here, refused_by_cli
from tests.readers.test_graph_import import spans_of, stored, study  # noqa: F401 (fixture)

ROOT = Path(__file__).resolve().parents[2]
OPTIONS = ("--k", "5,10", "--budget", "50,500,2000", "--coverage", "0.4")
CUTS = ["@5", "@10", "@50ch", "@500ch", "@2000ch"]
MEASURES = ["Recall", "SpanRecall", "SpanPrecision"]
GREY = "FF8C8C8C"


@pytest.fixture(scope="module")
def exported(study, tmp_path_factory):  # noqa: F811 (the fixture imported above)
    """The study's report in English, and metrics --json with the same options."""
    db, _, _ = study
    path = tmp_path_factory.mktemp("report") / "study.xlsx"
    done = cli_here(db, "export", str(path), *OPTIONS, "--lang", "en")
    assert done.returncode == 0, done.stderr
    metrics = cli_here(db, "metrics", *OPTIONS, "--json", "--per-question")
    assert metrics.returncode == 0, metrics.stderr
    return db, path, json.loads(metrics.stdout)


def rows_of(path, title):
    wb = load_workbook(path)
    return [list(row) for row in wb[title].iter_rows()]


def values(row):
    out = [cell.value for cell in row]
    while out and out[-1] is None:
        out.pop()
    return out


def table(rows, first_header: str):
    """The rows under the header whose first cell starts with first_header, to a blank."""
    start = next(i for i, row in enumerate(rows) if str(row[0].value).startswith(first_header))
    head = [str(v).split("\n")[0] for v in values(rows[start])]
    body = []
    for row in rows[start + 1 :]:
        if not values(row):
            break
        body.append(row)
    return head, body


def chunkings_table(path, metrics_data, db):
    """Checks the Chunkings sheet's figures against metrics --json; returns the rows' cells
    and the chunking of each system."""
    rows = rows_of(path, "Chunkings")
    head, body = table(rows, "chunking")
    cuts = [cut for cut in head[7:]]
    assert head[:7] == ["chunking", "size", "overlap", "unit", "passages", "system", "measure"]
    by_system = {row["system"]: row for row in metrics_data["systems"]}
    shapes = {
        name: (size, overlap, unit, n)
        for name, size, overlap, unit, n in stored(
            db,
            "SELECT name, chunk_size, overlap, unit, (SELECT count(*) FROM passage p "
            "WHERE p.chunking_pk = c.pk) FROM chunking c",
        )
    }
    seen, measures = {}, {}
    for row in body:
        cells = [cell.value for cell in row]
        seen[cells[5]] = cells[0]
        measures.setdefault(cells[5], []).append(cells[6])
        assert tuple(cells[1:5]) == shapes[cells[0]]
        want = [by_system[cells[5]][cells[6] + cut] for cut in cuts]
        # Excel's cells hold 15 to 17 significant digits: equal up to the last of them
        assert cells[7:] == pytest.approx(want, rel=1e-15)
    assert all(these == MEASURES for these in measures.values())
    return rows, cuts, seen


def test_the_chunkings_sheet_equals_metrics_json(exported):
    db, path, data = exported
    rows, cuts, seen = chunkings_table(path, data, db)
    assert "θ = 0.4" in rows[0][0].value and cuts == CUTS
    assert seen == {"BM25": "c160", "GraphRAG": "graphrag", "LightRAG": "lightrag"}


def test_the_study_samples_report_compares_its_three_chunkings(tmp_path):
    """demo --study: the article chunking and 200- and 500-character windows, a BM25 run on
    each; by default the budgets 500..4000 and θ 0.5, as metrics --budget takes them; the
    randomization tests leave nDCG out for runs on another chunking (none defined there)."""
    db, path = tmp_path / "study.db", tmp_path / "study.xlsx"
    assert cli_here(db, "demo", "--study").returncode == 0
    done = cli(db, "export", str(path), "--lang", "en")
    assert done.returncode == 0, done.stderr
    metrics = cli(db, "metrics", "--budget", "500,1000,2000,4000", "--coverage", "0.5", "--json")
    data = json.loads(metrics.stdout)
    rows, cuts, seen = chunkings_table(path, data, db)
    assert "θ = 0.5" in rows[0][0].value
    assert cuts == ["@5", "@10", "@500ch", "@1000ch", "@2000ch", "@4000ch"]
    assert len(seen) == 3 and len(set(seen.values())) == 3
    head, body = table(rows_of(path, "Comparison"), "system A")
    tested = [[cell.value for cell in row] for row in body]
    across = set(data["across_chunkings"])
    assert across and all(
        not (set(row[:2]) & across and str(row[2]).startswith("nDCG")) for row in tested
    )


def test_runs_on_other_chunkings_are_scored_as_metrics_scores_them(exported):
    """The Summary and Per question hold metrics --json's figures: a GraphRAG run is not
    scored 0 by ids it cannot share with the gold, and nDCG/P/Judged are '—' with the reason."""
    _, path, data = exported
    head, body = table(rows_of(path, "Summary"), "system")
    by_system = {row["system"]: row for row in data["systems"]}
    for row in body:
        cells = dict(zip(head, (cell.value for cell in row), strict=False))
        want = by_system[cells["system"]]
        for label in ("Recall@5", "Hit@5", "MRR@10", "Recall@10"):
            assert cells[label] == pytest.approx(want[label], rel=1e-15), (cells["system"], label)
        shown = "—" if cells["system"] in data["across_chunkings"] else want["nDCG@5"]
        assert cells["nDCG@5"] == cells["P@10"] == shown or cells["system"] == "BM25"
    assert by_system["GraphRAG"]["Recall@5"] > 0  # the id rule gave 0
    notes = [values(row)[0] for row in rows_of(path, "Summary") if len(values(row)) == 1]
    assert any("θ = 0.4" in note and "not defined across chunkings" in note for note in notes)
    head, body = table(rows_of(path, "Per question"), "system")
    per_question = {(p["system"], p["question"]): p for p in data["per_question"]}
    for row in body:
        cells = dict(zip(head, (cell.value for cell in row), strict=False))
        want = per_question[(cells["system"], cells["question"])]
        for label in ("Recall@5", "MRR@10"):
            assert cells[label] == pytest.approx(want[label], rel=1e-15)


def test_the_chart_draws_span_recall_by_budget_a_line_per_chunking_and_system(exported):
    _, path, _ = exported
    head, body = table(rows_of(path, "Chunkings"), "chunking · system")
    assert head[1:] == ["50", "500", "2000"]
    figures = {
        (row[0].value, row[5].value): [cell.value for cell in row[9:]]
        for row in table(rows_of(path, "Chunkings"), "chunking")[1]
        if row[6].value == "SpanRecall"
    }
    assert {row[0].value: [c.value for c in row[1:4]] for row in body} == {
        f"{chunking} · {system}": these for (chunking, system), these in figures.items()
    }
    assert [row[0].value for row in body] == [
        "c160 · BM25",
        "graphrag · GraphRAG",
        "lightrag · LightRAG",
    ]
    charts = read_charts(path)
    drawn = [c for c in charts if c.series and "'Chunkings'!" in c.series[0].val.numRef.f]
    assert len(drawn) == 1 and isinstance(drawn[0], LineChart)
    assert drawn[0].title.tx.rich.p[0].r[0].t == "SpanRecall by context length (θ = 0.4)"
    assert len(drawn[0].series) == len(body)
    first = body[0][0].row
    for number, series in enumerate(drawn[0].series):
        row = first + number
        assert series.tx.strRef.f.replace("$", "") == f"'Chunkings'!A{row}"
        assert series.val.numRef.f.replace("$", "") == f"'Chunkings'!B{row}:D{row}"


def read_charts(path) -> list:
    """The workbook's charts as openpyxl reads a chart part back (openpyxl.chart.reader)."""
    with zipfile.ZipFile(path) as archive:
        names = [n for n in archive.namelist() if n.startswith("xl/charts/chart")]
        trees = [ElementTree.fromstring(archive.read(name)) for name in names]
    return [read_chart(ChartSpace.from_tree(tree)) for tree in trees]


def test_misses_on_another_chunking_name_the_span_and_the_coverage_reached(exported):
    db, path, _ = exported
    head, body = table(rows_of(path, "Misses"), "system")
    spans = {pid: (doc, s, e) for pid, doc, s, e in spans_of(db, "c160")}
    across = [dict(zip(head, (c.value for c in row), strict=False)) for row in body]
    across = [row for row in across if row["system"] in ("GraphRAG", "LightRAG")]
    assert across
    for row in across:
        doc, start, end = spans[row["passage"]]
        assert row["evidence span"].startswith(f"{doc} {start}–{end} (")
        reached = re.fullmatch(r"(\d\.\d\d) at 5, (\d\.\d\d) at 10", row["coverage reached"])
        assert reached and all(float(x) < 0.4 for x in reached.groups())


def test_unranked_runs_figures_past_their_order_are_grey_with_a_footnote(exported):
    _, path, _ = exported
    rows = rows_of(path, "Summary")
    head, body = table(rows, "system")
    for row in body:
        cells = dict(zip(head, row, strict=False))
        unranked = cells["system"].value != "BM25"
        assert (
            cells["MRR@5"].font.color is not None and cells["MRR@5"].font.color.rgb == GREY
        ) is unranked
        assert cells["Recall@10"].font.color is None  # K beyond every context: fair
    assert any(str(r[0].value).startswith("Grey figures (GraphRAG, LightRAG)") for r in rows)
    rows = rows_of(path, "Chunkings")
    head, body = table(rows, "chunking")
    for row in body:
        cells = dict(zip(head, row, strict=False))
        grey = cells["@50ch"].font.color
        assert (grey is not None and grey.rgb == GREY) is (cells["system"].value != "BM25")
        assert cells["@2000ch"].font.color is None
    assert any(str(r[0].value).startswith("Grey figures (GraphRAG, LightRAG)") for r in rows)


def test_a_bad_budget_or_coverage_is_refused_and_no_report_written(study, tmp_path):  # noqa: F811
    db, _, _ = study
    target = tmp_path / "r.xlsx"
    error = refused_by_cli(db, "export", str(target), "--budget", "12ab")
    assert "budget" in error and not target.exists()
    error = refused_by_cli(db, "export", str(target), "--coverage", "1.5")
    assert "--coverage" in error and not target.exists()


DUMP = """
import json, sys
import openpyxl.xml
from openpyxl import load_workbook
from desktop.project import Project
from desktop.report import write_report
with Project(sys.argv[1]) as project:
    path = write_report(project, sys.argv[2], [5, 10], resamples=50, permutations=50,
                        budgets=[50, 2000])
wb = load_workbook(path, read_only=True)
sheets = {ws.title: [list(row) for row in ws.iter_rows(values_only=True)] for ws in wb}
print(json.dumps({"lxml": openpyxl.xml.LXML, "sheets": sheets}, ensure_ascii=False, default=str))
"""


def test_the_study_report_is_the_same_with_and_without_lxml(study, tmp_path):  # noqa: F811
    db, _, _ = study
    dumps = {}
    for lxml in ("True", "False"):
        done = subprocess.run(
            [sys.executable, "-c", DUMP, str(db), str(tmp_path / f"r{lxml}.xlsx")],
            cwd=ROOT,
            env={**os.environ, "OPENPYXL_LXML": lxml},
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stderr
        dumps[lxml] = json.loads(done.stdout)
    assert dumps["True"]["lxml"] is True and dumps["False"]["lxml"] is False
    with_lxml, without = dumps["True"]["sheets"], dumps["False"]["sheets"]
    assert list(with_lxml) == list(without) and "청킹 비교" in with_lxml
    for title, rows in with_lxml.items():
        if title != "설정":  # its time written and file names differ
            assert rows == without[title], title
