"""The Excel report (issue 4): numbers against Project.evaluate and a hand-computed case,
layout, hostile data, reviewers, the command line, cancelling, and the statistics."""

from __future__ import annotations

import json
import math
import os
import random
import re
import subprocess
import sys
import tempfile
import zipfile
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest
from openpyxl import load_workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

from desktop.evaluation import stats
from desktop.project import Project
from desktop.readers import Cancelled
from desktop.report import cells as rc
from desktop.report import sheet as rs
from desktop.report import workbook as rw
from desktop.report import write_report
from tests.helpers import write_jsonl, write_text

ROOT = Path(__file__).resolve().parents[2]
FAST = {"resamples": 200, "permutations": 200}
# Each sheet's Korean name -> its English one, in the workbook's order.
KOREAN_SHEETS = {
    "요약": "Summary",
    "질문별": "Per question",
    "누락": "Misses",
    "비교": "Comparison",
    "검수자": "Reviewers",
    "설정": "Settings",
    "차트": "Charts",
    "정답 근거 변경": "Gold changes",
}
ENGLISH_SHEETS = list(KOREAN_SHEETS.values())  # the sheets in order, named in English


# -- reading the workbook back ------------------------------------------------------------------


def english(header) -> str:
    return str(header).split("\n")[0]


def table(ws, header_row: int = 1) -> list[dict]:
    """Rows under a header row as dicts keyed by the header's English line, until a blank."""
    rows = ws.iter_rows(min_row=header_row, values_only=True)
    head = [english(h) if h is not None else None for h in next(rows)]
    out = []
    for row in rows:
        if not row or all(v is None for v in row):
            break
        out.append({h: v for h, v in zip(head, row, strict=False) if h is not None})
    return out


def find_row(ws, first_value: str) -> int:
    for row in ws.iter_rows(min_col=1, max_col=1):
        value = row[0].value
        if isinstance(value, str) and english(value).startswith(first_value):
            return row[0].row
    raise AssertionError(f"no row starting with {first_value!r} on {ws.title}")


def charts_in(path) -> list[tuple[str, bool]]:
    """Each chart of the workbook: its kind and whether both its axes are shown (read from
    the file: openpyxl keeps loaded charts only in a private list)."""
    out = []
    with zipfile.ZipFile(path) as z:
        for name in sorted(n for n in z.namelist() if n.startswith("xl/charts/chart")):
            xml = z.read(name).decode()
            kind = re.search(r"<(?:c:)?(barChart|lineChart)>", xml).group(1)
            shown = len(re.findall(r'<(?:c:)?delete val="0"\s*/>', xml)) == 2
            out.append((kind, shown))
    return out


def misses_sheet(wb):
    (name,) = [n for n in wb.sheetnames if "Misses" in n or "누락" in n]
    return wb[name]


# -- the hand-computed case -----------------------------------------------------------------------
#
# Passages p1..p9. Questions (K = 2, 4):
#   q1: p1 core, p2 supporting, p3 unassigned with alternative p4
#   q2: p5 core
#   q3: no evidence (to be abstained on)
# System A: q1 -> p4 p9 p1 p2   q2 -> p9 p8 p6 p5   q3 -> p1
# System B: q1 -> p2 p1 p8 p4   (q2 missing from the run)
#
# Gains 2 core, 1 otherwise. IDCG@2 = 2 + 1/log2 3; IDCG@4 = 2 + 1/log2 3 + 1/log2 4.
#   A q1 @2: p4 finds p3 (alt) -> Recall 1/3, Core 0, Hit 1, MRR 1, DCG 1
#   A q1 @4: all found -> Recall 1, Core 1, MRR 1, DCG 1 + 2/log2 4 + 1/log2 5
#   A q2 @2: nothing; @4: p5 at 4 -> Recall 1, Core 1, MRR 1/4, nDCG (2/log2 5) / 2
#   B q1 @2: p2, p1 -> Recall 2/3, Core 1, MRR 1, DCG 1 + 2/log2 3
#   B q1 @4: + p4 at 4 -> Recall 1, DCG 1 + 2/log2 3 + 1/log2 5
#   B q2: missing from the run -> 0 everywhere
# Means over q1, q2 (q3 has no evidence and is reported apart).
# Misses at K = 2: A: q1 p1 core (rank 3), q1 p2 supporting (rank 4), q2 p5 core (rank 4);
#                  B: q1 p3 unassigned (rank 4, via p4), q2 p5 core (not retrieved).

L2 = math.log2
IDCG2 = 2 + 1 / L2(3)
IDCG4 = 2 + 1 / L2(3) + 1 / L2(4)
EXPECTED = {
    "A": {
        "Recall@2": (1 / 3 + 0) / 2,
        "CoreRecall@2": 0.0,
        "Hit@2": 0.5,
        "MRR@2": 0.5,
        "nDCG@2": (1 / IDCG2) / 2,
        "Recall@4": 1.0,
        "CoreRecall@4": 1.0,
        "Hit@4": 1.0,
        "MRR@4": (1 + 1 / 4) / 2,
        "nDCG@4": ((1 + 2 / L2(4) + 1 / L2(5)) / IDCG4 + (2 / L2(5)) / 2) / 2,
    },
    "B": {
        "Recall@2": (2 / 3) / 2,
        "CoreRecall@2": 0.5,
        "Hit@2": 0.5,
        "MRR@2": 0.5,
        "nDCG@2": ((1 + 2 / L2(3)) / IDCG2) / 2,
        "Recall@4": 0.5,
        "CoreRecall@4": 0.5,
        "Hit@4": 0.5,
        "MRR@4": 0.5,
        "nDCG@4": ((1 + 2 / L2(3) + 1 / L2(5)) / IDCG4) / 2,
    },
}


def hand_case(project, tmp_path: Path) -> None:
    write_jsonl(
        tmp_path / "corpus.jsonl",
        [{"id": f"p{i}", "text": f"문단 {i} 본문", "title": f"제{i}조"} for i in range(1, 10)],
    )
    project.import_corpus(tmp_path / "corpus.jsonl", chunk_size=300, overlap=50, unit="조")
    write_jsonl(
        tmp_path / "questions.jsonl",
        [
            {"id": "q1", "text": "첫 질문"},
            {"id": "q2", "text": "둘째 질문"},
            {"id": "q3", "text": "답할 수 없는 질문", "answerable": False},
        ],
    )
    project.import_questions(tmp_path / "questions.jsonl")
    write_jsonl(
        tmp_path / "gold.jsonl",
        [
            {
                "question_id": "q1",
                "evidence": [
                    {"passage_id": "p1", "role": "core"},
                    {"passage_id": "p2", "role": "supporting"},
                    {"passage_id": "p3", "alternatives": ["p4"]},
                ],
            },
            {"question_id": "q2", "evidence": [{"passage_id": "p5", "role": "core"}]},
            {"question_id": "q3", "evidence": []},
        ],
    )
    project.import_gold(tmp_path / "gold.jsonl")
    runs = {
        "A": {"q1": ["p4", "p9", "p1", "p2"], "q2": ["p9", "p8", "p6", "p5"], "q3": ["p1"]},
        "B": {"q1": ["p2", "p1", "p8", "p4"]},
    }
    for name, lists in runs.items():
        lines = [
            {
                "question_id": q,
                "results": [{"passage_id": p, "score": 10 - r} for r, p in enumerate(ranked)],
            }
            for q, ranked in lists.items()
        ]
        project.import_run(write_jsonl(tmp_path / f"{name}.jsonl", lines), name)


def test_hand_computed_case(project, tmp_path):
    hand_case(project, tmp_path)
    out = write_report(project, tmp_path / "r.xlsx", "2,4", **FAST, lang="en")
    assert out == tmp_path / "r.xlsx"
    wb = load_workbook(out)
    assert wb.sheetnames[0] == "Summary"
    rows = {r["system"]: r for r in table(wb["Summary"])}
    assert list(rows) == ["A", "B"]
    for system, expected in EXPECTED.items():
        for label, value in expected.items():
            assert rows[system][label] == pytest.approx(value, abs=1e-12), (system, label)
        assert rows[system]["evaluated"] == 2
        assert rows[system]["without evidence"] == 1
        assert rows[system]["core evaluated"] == 2
    assert rows["A"]["missing from run"] == 0 and rows["B"]["missing from run"] == 1
    assert [rows["A"][f"{r} misses@2"] for r in ("core", "supporting", "unassigned")] == [2, 1, 0]
    assert [rows["B"][f"{r} misses@2"] for r in ("core", "supporting", "unassigned")] == [1, 0, 1]
    assert rows["A"]["misses@2"] == 3 and rows["B"]["misses@2"] == 2
    for system in ("A", "B"):
        low, high = rows[system]["Recall@2 CI95 low"], rows[system]["Recall@2 CI95 high"]
        assert 0 <= low <= rows[system]["Recall@2"] <= high <= 1

    per_q = table(wb["Per question"])
    assert [(r["system"], r["question"]) for r in per_q] == list(
        product(["A", "B"], ["q1", "q2", "q3"])
    )
    by_key = {(r["system"], r["question"]): r for r in per_q}
    assert by_key[("A", "q1")]["Recall@2"] == pytest.approx(1 / 3)
    assert by_key[("A", "q2")]["MRR@4"] == pytest.approx(0.25)
    assert by_key[("B", "q1")]["nDCG@4"] == pytest.approx((1 + 2 / L2(3) + 1 / L2(5)) / IDCG4)
    assert by_key[("B", "q2")]["Recall@4"] == 0 and by_key[("B", "q2")]["in run"] is False
    q3 = by_key[("A", "q3")]
    assert q3["answerable"] is False and q3["evidence items"] == 0
    assert all(q3[label] is None for label in EXPECTED["A"])  # never averaged in
    assert by_key[("A", "q1")]["evidence items"] == 3 and by_key[("A", "q1")]["core items"] == 1
    assert {r["review status"] for r in per_q} == {"untouched"}

    misses = table(misses_sheet(wb))
    got = [
        (
            m["system"],
            m["question"],
            m["missed@2"],
            m["missed@4"],
            m["passage"],
            m["role"],
            m["found at rank"],
        )
        for m in misses
    ]
    # Misses at every K asked: a row per item missed at the smallest, saying at which K.
    assert got == [
        ("A", "q1", True, False, "p1", "core", 3),
        ("A", "q1", True, False, "p2", "supporting", 4),
        ("A", "q2", True, False, "p5", "core", 4),
        ("B", "q1", True, False, "p3", "unassigned", 4),
        ("B", "q2", True, True, "p5", "core", None),
    ]
    assert rows["A"]["misses@4"] == 0 and rows["B"]["misses@4"] == 1
    assert rows["B"]["core misses@4"] == 1
    unassigned = misses[3]
    assert unassigned["역할"] == "미지정" and unassigned["found via"] == "p4"
    assert unassigned["alternatives"] == "p4"
    assert misses[0]["역할"] == "핵심" and misses[1]["역할"] == "보조"
    assert misses[0]["role set by"].startswith("imported gold")
    assert misses[0]["title"] == "제1조" and misses[0]["passage text"] == "문단 1 본문"
    assert misses[4]["found via"] is None


def test_charts_sheet_holds_bars_per_k_and_the_curve(project, tmp_path):
    hand_case(project, tmp_path)
    path = write_report(project, tmp_path / "r.xlsx", [2, 4], **FAST, lang="en")
    assert sorted(charts_in(path)) == [("barChart", True), ("barChart", True), ("lineChart", True)]
    ws = load_workbook(path)["Charts"]
    bars = table(ws)
    assert [(r["system"], r["Recall@2"], r["Recall@4"]) for r in bars] == [
        ("A", pytest.approx(1 / 6), 1),
        ("B", pytest.approx(1 / 3), 0.5),
    ]
    curve = table(ws, find_row(ws, "rank"))
    expected = project.recall_curves()
    assert [r["rank"] for r in curve] == list(range(1, 5))
    for system in ("A", "B"):
        assert [r[system] for r in curve] == pytest.approx(expected[system], abs=1e-12)


# -- against Project.evaluate on the bundled sample -----------------------------------------------


@pytest.fixture
def sample(project):
    from desktop.app.sample import load_sample

    list(load_sample(project))
    return project


def test_numbers_match_project_evaluate(sample, tmp_path):
    evaluation = sample.evaluate([5, 10])
    wb = load_workbook(write_report(sample, tmp_path / "r.xlsx", [5, 10], **FAST, lang="en"))
    labels = evaluation.labels()
    summary = {r["system"]: r for r in table(wb["Summary"])}
    assert list(summary) == [s.system for s in evaluation.systems]
    ids = {q["pk"]: q["id"] for q in evaluation.questions}
    per_q = {(r["system"], r["question"]): r for r in table(wb["Per question"])}
    assert len(per_q) == len(evaluation.systems) * len(evaluation.questions)
    misses = table(misses_sheet(wb))
    items = sample.effective_gold().items
    for scores in evaluation.systems:
        row = summary[scores.system]
        assert row["evaluated"] == scores.evaluated == evaluation.evaluated
        for label in labels:
            assert row[label] == pytest.approx(scores.means[label], rel=1e-15, abs=1e-15)
        for q, values in scores.per_question.items():
            cells = per_q[(scores.system, ids[q])]
            for label in labels:
                expected = values[label]
                assert cells[label] == (
                    None if expected is None else pytest.approx(expected, rel=1e-15, abs=1e-15)
                )
        # Every item not found at the smallest K is one Misses row, and nothing else is.
        expected_misses = sum(
            round((1 - values["Recall@5"]) * len(items[q]))
            for q, values in scores.per_question.items()
        )
        mine = [m for m in misses if m["system"] == scores.system and m["missed@5"]]
        assert len(mine) == expected_misses == row["misses@5"]
        assert row["core misses@5"] == sum(1 for m in mine if m["role"] == "core")
        assert row["supporting misses@5"] == sum(1 for m in mine if m["role"] == "supporting")
        assert all(m["found at rank"] is None or m["found at rank"] > 5 for m in mine)
        at_10 = [m for m in misses if m["system"] == scores.system and m["missed@10"]]
        assert (
            len(at_10)
            == row["misses@10"]
            == sum(
                round((1 - values["Recall@10"]) * len(items[q]))
                for q, values in scores.per_question.items()
            )
        )
    curve_ws = wb["Charts"]
    curve = table(curve_ws, find_row(curve_ws, "rank"))
    for name, values in sample.recall_curves().items():
        assert [r[name] for r in curve] == pytest.approx(values, abs=1e-12)


def test_miss_rank_beyond_k_comes_from_the_full_ranking(sample, tmp_path):
    """A miss found beyond every K asked is still located in the stored list."""
    wb = load_workbook(write_report(sample, tmp_path / "r.xlsx", [1, 2], **FAST, lang="en"))
    misses = table(misses_sheet(wb))
    systems = {s["name"]: s["pk"] for s in sample.systems()}
    questions = {q["id"]: q["pk"] for q in sample.questions()}
    deep = [m for m in misses if m["found at rank"] and m["found at rank"] > 10]
    assert deep, "the sample should have misses found deep in a ranking"
    for m in deep:
        ranked = sample.store.ranking(systems[m["system"]], questions[m["question"]])
        assert ranked[m["found at rank"] - 1]["passage_id"] == m["found via"]


# -- layout ---------------------------------------------------------------------------------------


def test_headers_frozen_panes_filters_widths_and_formats(sample, tmp_path):
    wb = load_workbook(write_report(sample, tmp_path / "r.xlsx", "5,10", **FAST, lang="en"))
    assert wb.sheetnames == ENGLISH_SHEETS
    summary = wb["Summary"]
    head = [c.value for c in summary[1]]
    measures = ("Recall", "CoreRecall", "Hit", "MRR", "nDCG", "P", "Judged")
    labels = [f"{m}@{k}" for k in (5, 10) for m in measures]
    assert head[6 : 6 + len(labels)] == labels
    for k in (5, 10):
        assert f"Recall@{k} CI95 low" in head and f"Recall@{k} CI95 high" in head
        assert f"Recall@{k} better than ★" in head
    assert {"core misses@5", "supporting misses@5"} <= set(head)
    assert summary.freeze_panes == "B2"
    assert wb["Per question"].freeze_panes == "C2"
    assert misses_sheet(wb).freeze_panes == "C2"
    assert summary.auto_filter.ref == f"A1:{summary.cell(1, len(head)).column_letter}4"
    for name in ("Per question", "Misses", "Settings"):
        assert wb[name].auto_filter.ref and wb[name].auto_filter.ref.startswith("A1:")
    assert wb["Reviewers"].auto_filter.ref
    metric = summary.cell(2, 7)
    assert isinstance(metric.value, float) and metric.number_format == "0.000"
    assert wb["Per question"].cell(2, 9).number_format == "0.000"
    assert summary.column_dimensions["A"].width >= 15
    assert misses_sheet(wb).column_dimensions["M"].width >= 40  # the excerpt, after two K
    assert summary["A1"].font.b and summary["A2"].font.name == rs.FONT_NAME
    per_q_head = [english(c.value) for c in wb["Per question"][1]]
    assert per_q_head[:8] == [
        "system",
        "question",
        "question text",
        "answerable",
        "evidence items",
        "core items",
        "review status",
        "in run",
    ]
    assert per_q_head[8:] == [*labels, "unjudged@10"]


def test_significance_is_marked_with_the_alpha_used(sample, tmp_path):
    wb = load_workbook(write_report(sample, tmp_path / "r.xlsx", [5, 10], **FAST, lang="en"))
    ws = wb["Summary"]
    start = find_row(ws, "system A")
    pairs = table(ws, start)
    header = [english(c.value) for c in ws[start] if c.value]
    assert header[-1] == "★ (α = 0.05)"
    assert len(pairs) == 3 * 2  # three systems: three pairs, at two K each
    rows = {r["system"]: r for r in table(ws)}
    letters = {r["letter"]: name for name, r in rows.items()}
    for pair in pairs:
        assert 0 < pair["p-value"] <= 1
        assert pair["A − B"] == pytest.approx(pair["Recall@K A"] - pair["Recall@K B"])
        assert pair["p-value"] <= pair["p (Holm)"] <= 1
        significant = pair["p (Holm)"] < 0.05  # corrected over every pair, measure and K
        assert (pair["★ (α = 0.05)"] == "★") == significant
        winner, loser = (
            (pair["system A"], pair["system B"])
            if pair["A − B"] > 0
            else (pair["system B"], pair["system A"])
        )
        marks = (rows[winner][f"Recall@{pair['K']} better than ★"] or "").split()
        loser_letter = next(k for k, v in letters.items() if v == loser)
        assert (loser_letter in marks) == significant
    settings = {r["setting"]: r["value"] for r in table(wb["Settings"])}
    assert settings["bootstrap resamples"] == 200 and settings["permutations"] == 200
    assert settings["random seed"] == rw.SEED and settings["α (significance level)"] == 0.05


def test_settings_record_what_reproduces_the_numbers(project, tmp_path):
    hand_case(project, tmp_path)
    wb = load_workbook(write_report(project, tmp_path / "r.xlsx", [2, 4], lang="en"))
    settings = {r["setting"]: r["value"] for r in table(wb["Settings"])}
    assert settings["corpus 말뭉치"] == "corpus"
    assert settings["chunk size 청크 크기"] == 300 and settings["overlap 겹침"] == 50
    assert settings["unit 단위"] == "조"
    assert settings["K"] == "2, 4"
    assert settings["database file"] == str(project.path.resolve())
    assert settings["app version"].endswith(__import__("desktop").__version__)
    assert settings["bootstrap resamples"] == 1000 and settings["permutations"] == 1000
    assert "adjudication wins" in settings["gold policy 정답 정책"]
    assert re.match(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d", settings["written at 작성 시각"])


# -- hostile data ---------------------------------------------------------------------------------

HOSTILE_SYSTEM = "a/b:c*?[x]" + "y" * 30  # 40 characters, every character a sheet name forbids
FORMULA = '=HYPERLINK("http://example.com","click")'
CONTROL = "before\x00\x01\x02\x03\x04\x05\x06\x07\x08\x0b\x0c\x0e\x1fafter"
LONG = "가" * 40_000


def hostile_case(project, tmp_path: Path) -> None:
    lines = [
        {"id": "p1", "text": FORMULA, "title": "=1+1"},
        {"id": "p2", "text": CONTROL, "title": "@title"},
        {"id": "p3", "text": LONG, "title": "#N/A"},
        {"id": "p4", "text": "filler"},
    ]
    (tmp_path / "corpus.jsonl").write_text(
        "".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8"
    )
    project.import_corpus(tmp_path / "corpus.jsonl", name="=cmd|' /C calc'!A0")
    write_jsonl(
        tmp_path / "questions.jsonl",
        [
            {"id": "q1", "text": "+1 plus"},
            {"id": "q2", "text": "-1 minus"},
            {"id": "q3", "text": "@SUM(A1)"},
            {"id": "q4", "text": "=" + "나" * 40_000},
        ],
    )
    project.import_questions(tmp_path / "questions.jsonl")
    write_jsonl(
        tmp_path / "gold.jsonl",
        [
            {"question_id": q, "evidence": [{"passage_id": p, "role": "core"}]}
            for q, p in (("q1", "p1"), ("q2", "p2"), ("q3", "p3"), ("q4", "p1"))
        ],
    )
    project.import_gold(tmp_path / "gold.jsonl")
    for system in (HOSTILE_SYSTEM, "=SUM(1,2)"):
        write_text(tmp_path / "run.trec", "".join(f"q{i} Q0 p4 1 1 t\n" for i in range(1, 5)))
        project.import_run(tmp_path / "run.trec", system)
    project.add_judgement("=kim", "q1", "note", "=" + "메" * 40_000)
    project.add_judgement("=kim", "q2", "note", CONTROL)


def test_hostile_data_stays_literal_clean_and_within_limits(project, tmp_path):
    hostile_case(project, tmp_path)
    path = write_report(project, tmp_path / "r.xlsx", [5], **FAST, lang="en")
    # No sheet of the workbook holds a formula element at all.
    with zipfile.ZipFile(path) as archive:
        for name in archive.namelist():
            if name.startswith("xl/worksheets/sheet"):
                assert b"<f>" not in archive.read(name) and b"<f " not in archive.read(name)
    wb = load_workbook(path)
    for ws in wb.worksheets:
        assert len(ws.title) <= 31 and not re.search(r"[\\/?*\[\]:]", ws.title)
        for row in ws.iter_rows():
            for cell in row:
                if isinstance(cell.value, str):
                    assert cell.data_type == "s", (ws.title, cell.coordinate, cell.value[:40])
                    assert not ILLEGAL_CHARACTERS_RE.search(cell.value)
                    assert len(cell.value) <= rc.MAX_CELL
    systems = [r["system"] for r in table(wb["Summary"])]
    assert systems == [HOSTILE_SYSTEM, "=SUM(1,2)"]
    misses = table(misses_sheet(wb))
    by_passage = {m["passage"]: m for m in misses if m["system"] == HOSTILE_SYSTEM}
    assert by_passage["p1"]["passage text"] == FORMULA
    assert by_passage["p1"]["title"] == "=1+1"
    assert by_passage["p2"]["passage text"] == "beforeafter"
    assert by_passage["p3"]["title"] == "#N/A"
    long_text = by_passage["p3"]["passage text"]
    assert long_text == "가" * rc.EXCERPT + "…"
    q1_note = next(m for m in misses if m["question"] == "q1")["reviewer notes"]
    assert q1_note.startswith("=kim: =메") and q1_note.endswith(rc.CUT_MARK)
    assert len(q1_note) == rc.MAX_CELL
    per_q = {r["question"]: r for r in table(wb["Per question"])}
    assert [per_q[q]["question text"] for q in ("q1", "q2", "q3")] == [
        "+1 plus",
        "-1 minus",
        "@SUM(A1)",
    ]
    assert per_q["q4"]["question text"].startswith("=나나")
    assert per_q["q4"]["question text"].endswith(rc.CUT_MARK)
    settings = {r["setting"]: r["value"] for r in table(wb["Settings"])}
    assert settings["corpus 말뭉치"] == "=cmd|' /C calc'!A0"


def test_clean_text_and_sheet_titles():
    assert rc.clean_text("a\x00b\x08c\x0bd\x1fe\tf\ng") == "abcde\tf\ng"
    assert rc.clean_text("x\ud800y\udfffz\ufffe") == "xyz"
    cut = rc.clean_text("a" * 40_000)
    assert len(cut) == rc.MAX_CELL and cut.endswith(rc.CUT_MARK)
    # Excel counts UTF-16 units: 20,000 emoji are 40,000 units and must be cut too.
    emoji = rc.clean_text("😀" * 20_000)
    assert emoji.endswith(rc.CUT_MARK)
    assert len(emoji.encode("utf-16-le")) // 2 <= rc.MAX_CELL
    assert rc.clean_text("short") == "short"
    title = rc.sheet_title(HOSTILE_SYSTEM)
    assert len(title) <= 31 and not re.search(r"[\\/?*\[\]:]", title)
    assert rc.sheet_title("'quoted'") == "quoted" and rc.sheet_title("[]") == "__"
    assert rc.sheet_title("\x00") == "Sheet"


# -- reviewers ------------------------------------------------------------------------------------


def section(ws, title: str) -> list[dict]:
    """The table under a bold section title."""
    return table(ws, find_row(ws, title) + 1)


def test_reviewers_sheet_with_two_reviewers(project, tmp_path):
    hand_case(project, tmp_path)
    add = project.add_judgement
    add(reviewer="kim", question_id="q1", kind="role", passage_id="p1", value="core")
    add(reviewer="lee", question_id="q1", kind="role", passage_id="p1", value="core")
    add(reviewer="kim", question_id="q1", kind="role", passage_id="p3", value="core")
    add(reviewer="lee", question_id="q1", kind="role", passage_id="p3", value="supporting")
    add(reviewer="kim", question_id="q2", kind="role", passage_id="p5", value="supporting")
    add(reviewer="kim", question_id="q3", kind="answerable", value=True)
    add(reviewer="lee", question_id="q3", kind="answerable", value=False)
    add(reviewer="kim", question_id="q1", kind="note", passage_id="p2", value="보조 근거 재검토")
    add(reviewer="lee", question_id="q1", kind="note", value="B만 해당", system="B")
    wb = load_workbook(write_report(project, tmp_path / "r.xlsx", [2, 4], **FAST, lang="en"))
    ws = wb["Reviewers"]

    counts = {r["reviewer"]: r for r in section(ws, "Judgement lines per reviewer")}
    assert counts["kim"]["role"] == 3 and counts["kim"]["answerable"] == 1
    assert counts["kim"]["note"] == 1 and counts["kim"]["total"] == 5
    assert counts["lee"]["role"] == 2 and counts["lee"]["total"] == 4
    assert counts["kim"]["questions"] == 3

    pairs = section(ws, "Agreement per pair and kind")
    expected = project.agreement()["pairs"]
    assert [(p["reviewer A"], p["reviewer B"], p["kind"], p["items"]) for p in pairs] == [
        (*e["reviewers"], e["kind"], e["items"]) for e in expected
    ]
    role = next(p for p in pairs if p["kind"] == "role")
    assert role["agreement"] == pytest.approx(0.5) and role["items"] == 2
    assert role["Cohen's κ"] == pytest.approx(
        next(e["kappa"] for e in expected if e["kind"] == "role")
    )
    answerable = next(p for p in pairs if p["kind"] == "answerable")
    assert answerable["agreement"] == 0
    assert ws.cell(find_row(ws, "Agreement per pair") + 2, 5).number_format == "0.0%"

    disputes = section(ws, "Open disagreements")
    assert {(d["question"], d["kind"], d["passage"]) for d in disputes} == {
        ("q1", "role", "p3"),
        ("q3", "answerable", None),
    }
    p3 = next(d for d in disputes if d["passage"] == "p3")
    assert p3["votes"] == "kim=core, lee=supporting"
    assert p3["value in force"].startswith("unassigned")
    waiting = section(ws, "Waiting for a second review")
    assert [(w["question"], w["passage"], w["votes"]) for w in waiting] == [
        ("q2", "p5", "kim=supporting")
    ]
    assert section(ws, "Single-reviewed changes") == []
    disputed_answerable = section(ws, "Questions whose answerability is disputed")
    assert [
        (d["question"], d["question text"], d["imported answerable"]) for d in (disputed_answerable)
    ] == [("q3", "답할 수 없는 질문", False)]
    decisions = section(ws, "Every decision")
    assert {d["status"] for d in decisions} == {"agreed", "disputed", "pending"}
    assert ws.auto_filter.ref.startswith(f"A{find_row(ws, 'Every decision') + 1}:")

    misses = table(misses_sheet(wb))
    set_by = {(m["system"], m["passage"]): m["role set by"] for m in misses}
    assert set_by[("A", "p1")] == "kim, lee (agreed 합의)"
    assert set_by[("B", "p3")] == (
        "imported gold 가져온 정답; disputed 이견: kim=core, lee=supporting"
    )
    assert set_by[("A", "p5")] == (
        "imported gold 가져온 정답; pending second review 검수 대기: kim=supporting"
    )
    notes = {(m["system"], m["passage"]): m["reviewer notes"] for m in misses}
    assert notes[("A", "p2")] == "kim: 보조 근거 재검토"  # about p2, any system
    assert notes[("A", "p1")] is None  # kim's note is about p2; lee's is about system B
    assert notes[("B", "p3")] == "lee: B만 해당"
    status = {r["question"]: r["review status"] for r in table(wb["Per question"])}
    assert status == {"q1": "in progress", "q2": "in progress", "q3": "in progress"}


def test_single_reviewer_changes_and_done_status(project, tmp_path):
    hand_case(project, tmp_path)
    project.add_judgement("kim", "q1", "role", "supporting", passage_id="p3")
    project.add_judgement("kim", "q2", "role", "core", passage_id="p5")
    # Done also needs the answerability settled (the window's rule): q2's is left open.
    project.add_judgement("kim", "q1", "answerable", True)
    wb = load_workbook(write_report(project, tmp_path / "r.xlsx", [2, 4], **FAST, lang="en"))
    ws = wb["Reviewers"]
    single = section(ws, "Single-reviewed changes")
    assert [(s["question"], s["passage"], s["value in force"]) for s in single] == [
        ("q1", None, "true"),
        ("q1", "p3", "supporting"),
        ("q2", "p5", "core"),
    ]
    assert "only one reviewer" in ws.cell(find_row(ws, "Single-reviewed changes"), 1).value
    status = {r["question"]: r["review status"] for r in table(wb["Per question"])}
    # q1's p1 and p2 are missed too and have only their imported roles: not reviewed yet.
    assert status == {"q1": "in progress", "q2": "in progress", "q3": "untouched"}
    misses = table(misses_sheet(wb))
    b_p3 = next(m for m in misses if (m["system"], m["passage"]) == ("B", "p3"))
    assert b_p3["role"] == "supporting" and b_p3["역할"] == "보조"
    assert b_p3["role set by"] == "kim (single-reviewed 1인 검수)"
    summary = {r["system"]: r for r in table(wb["Summary"])}
    assert summary["B"]["unassigned misses@2"] == 0 and summary["B"]["supporting misses@2"] == 1
    # A role given to every miss, and the answerability: done (the window's rule).
    project.add_judgement("kim", "q1", "role", "core", passage_id="p1")
    project.add_judgement("kim", "q1", "role", "supporting", passage_id="p2")
    wb = load_workbook(write_report(project, tmp_path / "r2.xlsx", [2, 4], **FAST, lang="en"))
    status = {r["question"]: r["review status"] for r in table(wb["Per question"])}
    assert status == {"q1": "done", "q2": "in progress", "q3": "untouched"}


# -- command line, cancelling, empty projects -----------------------------------------------------


def test_cli_export_end_to_end(tmp_path):
    db, report = tmp_path / "x.db", tmp_path / "R.xlsx"
    run = [sys.executable, "-m", "desktop", "--db", str(db)]
    subprocess.run([*run, "demo"], check=True, cwd=ROOT, capture_output=True)
    korean = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANG")}
    done = subprocess.run(
        [*run, "export", str(report), "--k", "5,10"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**korean, "LANG": "ko_KR.UTF-8"},
    )
    assert done.returncode == 0, done.stderr
    assert f"wrote {report}" in done.stdout
    assert load_workbook(report, read_only=True).sheetnames == list(KOREAN_SHEETS)
    done = subprocess.run(
        [*run, "export", str(report), "--k", "5,10", "--lang", "en"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**korean, "LANG": "ko_KR.UTF-8"},
    )
    assert done.returncode == 0, done.stderr
    wb = load_workbook(report)
    assert wb.sheetnames == list(KOREAN_SHEETS.values())
    head = [c.value for c in wb["Summary"][1]]
    assert "Recall@5" in head and "nDCG@10" in head
    metrics = json.loads(
        subprocess.run(
            [*run, "metrics", "--k", "5,10", "--json"],
            check=True,
            cwd=ROOT,
            capture_output=True,
            text=True,
        ).stdout
    )
    rows = {r["system"]: r for r in table(wb["Summary"])}
    for system in metrics["systems"]:
        assert rows[system["system"]]["Recall@10"] == pytest.approx(system["Recall@10"])
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


@pytest.mark.parametrize("when", ["first", "middle", "last"])
def test_cancel_leaves_no_file(sample, tmp_path, when, monkeypatch):
    system_temp = tmp_path / "system temp"
    system_temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(system_temp))  # where openpyxl's files go
    calls = []

    def progress(done, total):
        calls.append((done, total))
        last = done >= total
        if (
            when == "first"
            or (when == "middle" and done >= total // 2 and not last)
            or (when == "last" and last)
        ):
            raise Cancelled()

    target = tmp_path / "r.xlsx"
    with pytest.raises(Cancelled):
        write_report(sample, target, [5, 10], progress, **FAST, lang="en")
    assert calls
    assert not target.exists()
    assert [p.name for p in tmp_path.iterdir() if "r.xlsx" in p.name] == []
    assert list(system_temp.iterdir()) == []  # openpyxl's own temporary files are gone


def test_cancel_keeps_an_earlier_report(sample, tmp_path):
    target = tmp_path / "r.xlsx"
    target.write_bytes(b"earlier report")

    def progress(done, total):
        if done > 0:
            raise Cancelled()

    with pytest.raises(Cancelled):
        write_report(sample, target, [5], progress, **FAST, lang="en")
    assert target.read_bytes() == b"earlier report"
    assert [p.name for p in tmp_path.iterdir() if "r.xlsx" in p.name] == ["r.xlsx"]


def test_progress_runs_to_its_total(sample, tmp_path):
    calls = []
    write_report(
        sample, tmp_path / "r.xlsx", [5], lambda d, t: calls.append((d, t)), **FAST, lang="en"
    )
    totals = {t for _, t in calls}
    assert len(totals) == 1
    done = [d for d, _ in calls]
    assert done == sorted(done) and done[-1] == totals.pop()


def test_project_without_runs_or_gold(project, tmp_path):
    write_jsonl(tmp_path / "c.jsonl", [{"id": "p1", "text": "x"}])
    project.import_corpus(tmp_path / "c.jsonl")
    path = write_report(project, tmp_path / "r.xlsx", [5], lang="en")
    wb = load_workbook(path)
    assert len(wb.sheetnames) == 8
    assert table(wb["Summary"]) == []
    assert charts_in(path) == []


# -- statistics -----------------------------------------------------------------------------------


def naive_bootstrap(numerators, denominators, resamples, seed, confidence=0.95):
    rng = random.Random(seed)
    n = len(denominators)
    means = [[] for _ in numerators]
    for _ in range(resamples):
        picks = rng.choices(range(n), k=n)  # the same draws as choices(packed, k=n)
        for c, column in enumerate(numerators):
            total = sum(Fraction(column[i], denominators[i]) for i in picks)
            means[c].append(float(total / n))
    tail = (1 - confidence) / 2
    return [
        (stats.percentile(sorted(m), tail), stats.percentile(sorted(m), 1 - tail)) for m in means
    ]


def test_bootstrap_matches_a_naive_implementation():
    rng = random.Random(5)
    denominators = [rng.randint(1, 7) for _ in range(60)]
    numerators = [[rng.randint(0, d) for d in denominators] for _ in range(3)]
    ours = stats.bootstrap_ci(numerators, denominators, resamples=300, seed=9)
    naive = naive_bootstrap(numerators, denominators, 300, 9)
    flat = [bound for interval in ours for bound in interval]
    assert flat == pytest.approx([bound for interval in naive for bound in interval], abs=1e-12)
    assert len(ours) == len(naive)
    means = [
        sum(Fraction(a, b) for a, b in zip(c, denominators, strict=True)) / 60 for c in numerators
    ]
    for (low, high), mean in zip(ours, means, strict=True):
        assert low < float(mean) < high
    assert stats.bootstrap_ci(numerators, denominators, resamples=300, seed=9) == ours
    assert stats.bootstrap_ci(numerators, denominators, resamples=300, seed=10) != ours


def exact_p(a, b, denominators):
    diffs = [Fraction(x, d) - Fraction(y, d) for x, y, d in zip(a, b, denominators, strict=True)]
    observed = abs(sum(diffs))
    hits = 0
    for signs in product((1, -1), repeat=len(diffs)):
        if abs(sum(s * d for s, d in zip(signs, diffs, strict=True))) >= observed:
            hits += 1
    return hits / 2 ** len(diffs)


def test_randomization_test_approaches_the_exact_p_value():
    denominators = [3, 1, 2, 4, 2, 1, 3, 5, 2, 1, 4, 3]
    a = [3, 1, 2, 3, 1, 1, 2, 5, 2, 0, 4, 3]
    b = [1, 0, 1, 4, 1, 0, 2, 2, 0, 1, 1, 1]
    same = list(a)
    got = stats.randomization_p_values(
        [a, b, same], denominators, [(0, 1), (0, 2), (1, 0)], permutations=20_000, seed=3
    )
    exact = exact_p(a, b, denominators)
    assert 0 < exact < 0.1
    assert got[0] == pytest.approx(exact, abs=0.01)
    assert got[1] == 1.0  # identical systems: every flip is as extreme as none
    assert got[2] == got[0]  # two-sided: the order of a pair does not matter
    far = stats.randomization_p_values([[1] * 30, [0] * 30], [1] * 30, [(0, 1)], seed=1)
    assert far == [pytest.approx(1 / 1001)]  # never reached by chance: the floor of 1/(R+1)


# -- the Comparison sheet and the workbook as LibreOffice shows it --------------------------------


def test_comparison_sheet_and_summary_stars_come_from_desktop_compare(sample, tmp_path):
    from desktop.evaluation import compare

    wb = load_workbook(write_report(sample, tmp_path / "r.xlsx", [5, 10], **FAST, lang="en"))
    expected = compare.compare(sample, [5, 10], permutations=200, seed=rw.SEED)
    ws = wb[rs.COMPARISON]
    title = find_row(ws, "Win / tie / loss")
    assert f"family of {expected.family} tests" in ws.cell(title, 1).value
    assert expected.family == 3 * 5 * 2  # three pairs, five measures, two K
    rows = table(ws, title + 1)
    assert len(rows) == len(expected.pairs) == 2 * expected.family
    for row, pair in zip(rows, expected.pairs, strict=True):
        assert (row["system A"], row["system B"], row["metric"]) == (pair.a, pair.b, pair.metric)
        assert (row["A wins"], row["ties"], row["A loses"]) == (pair.wins, pair.ties, pair.losses)
        assert row["p-value"] == pytest.approx(pair.p, rel=1e-12)
        assert row["p (Holm)"] == pytest.approx(pair.p_holm, rel=1e-12)
        assert (row["★ (α = 0.05)"] == "★") == (pair.p_holm < 0.05)
    union = table(ws, find_row(ws, "systems"))
    assert union[0]["systems"].startswith("all systems") and union[0]["how many"] == 3
    assert union[0]["Recall@5"] == pytest.approx(expected.union[0]["Recall"])
    only = {r["system"]: r for r in table(ws, find_row(ws, "Evidence items only") + 1)}
    for u in expected.unique:
        assert only[u["system"]][f"only@{u['k']}"] == u["items"]
    ties = table(ws, find_row(ws, "Ties at the cutoff") + 1)
    assert [(t["system"], t["metric"]) for t in ties] == [
        (t.system, t.metric) for t in expected.ties
    ]
    got = [v for t in ties for v in (t["lowest"], t["highest"])]
    assert got == pytest.approx([v for t in expected.ties for v in (t.low, t.high)], rel=1e-12)
    abstain = table(ws, find_row(ws, "Abstention") + 1)
    assert [a["AUROC"] for a in abstain] == pytest.approx([a.auroc for a in expected.abstain])

    # The Summary's p-values are the randomization test it always ran on Recall@K (same
    # columns, pairs and seed), and its ★ the Holm-adjusted ones over the whole family.
    evaluation = sample.evaluate([5, 10])
    names = [s.system for s in evaluation.systems]
    questions = [q for q, items in evaluation.items.items() if items]
    denominators = [len(evaluation.items[q]) for q in questions]
    columns = [
        [
            round(s.per_question[q][f"Recall@{k}"] * d)
            for q, d in zip(questions, denominators, strict=True)
        ]
        for s in evaluation.systems
        for k in (5, 10)
    ]
    pairs = [(a, b) for a in range(3) for b in range(a + 1, 3)]
    direct = stats.randomization_p_values(
        columns,
        denominators,
        [(a * 2 + k, b * 2 + k) for a, b in pairs for k in range(2)],
        permutations=200,
        seed=rw.SEED,
    )
    summary = wb["Summary"]
    tests = table(summary, find_row(summary, "system A"))
    assert [t["p-value"] for t in tests] == pytest.approx(direct, rel=1e-12)
    for t in tests:
        pair = expected.pair(t["system A"], t["system B"], f"Recall@{t['K']}")
        assert t["p (Holm)"] == pytest.approx(pair.p_holm, rel=1e-12)
    assert {t["system A"] for t in tests} <= set(names)


def test_rows_are_tall_enough_and_the_curve_is_straight(sample, tmp_path):
    path = write_report(sample, tmp_path / "r.xlsx", [5, 10], **FAST, lang="en")
    wb = load_workbook(path)
    for ws in wb.worksheets:
        # a sheet that opens with a one-line title has its header on row 2
        first = {"Reviewers": None, rs.COMPARISON: None, rs.GOLD_CHANGES: 2}.get(ws.title, 1)
        if first:
            height = ws.row_dimensions[first].height
            lines = max(str(c.value).count("\n") + 1 for c in ws[first] if c.value)
            assert height and height >= rc.LINE_POINTS * lines, ws.title
    misses = misses_sheet(wb)
    head = [english(c.value) for c in misses[1]]
    text_col = head.index("passage text") + 1
    tall = 0
    for row in range(2, misses.max_row + 1):
        cell = misses.cell(row, text_col)
        assert cell.alignment.wrap_text
        if cell.value and len(cell.value) > 200:
            assert misses.row_dimensions[row].height > 3 * rc.LINE_POINTS
            tall += 1
    assert tall, "the sample has long passages"
    assert {(m["missed@5"], m["missed@10"]) for m in table(misses)} == {(True, True), (True, False)}
    with zipfile.ZipFile(path) as z:
        charts = [n for n in z.namelist() if n.startswith("xl/charts/chart")]
        line = [z.read(n).decode() for n in charts if "lineChart>" in z.read(n).decode()]
    assert len(line) == 1
    # One <smooth val="0"/> per system's series, none smoothed.
    assert re.findall(r'<(?:c:)?smooth val="(\d)"', line[0]) == ["0"] * 3


@pytest.mark.slow  # seconds of real waiting or an external program: CI runs it
def test_libreoffice_converts_the_workbook(sample, tmp_path):
    """The conversion the issue asks to look at; skipped where LibreOffice is missing."""
    import shutil

    soffice = shutil.which("soffice")
    if soffice is None:
        pytest.skip("LibreOffice (soffice) is not installed")
    path = write_report(sample, tmp_path / "r.xlsx", [5, 10], **FAST, lang="en")
    profile = (tmp_path / "lo-profile").as_uri()  # its own profile: no clash with a running one
    done = subprocess.run(
        [
            soffice,
            f"-env:UserInstallation={profile}",
            "--headless",
            "--convert-to",
            "pdf",
            "--outdir",
            str(tmp_path / "pdf"),
            str(path),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    pdf = tmp_path / "pdf" / "r.pdf"
    assert pdf.exists() and pdf.read_bytes()[:5] == b"%PDF-"
    if shutil.which("pdftotext"):
        text = subprocess.run(
            ["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True
        ).stdout
        for words in ("Paired randomization test", "Comparison of 3 systems", "Recall@K curve"):
            assert words in text


def test_gold_changes_sheet_and_unjudged_counts(project, tmp_path):
    from tests.helpers import small_project

    small_project(project, tmp_path)
    write_text(tmp_path / "r.trec", "q1 Q0 p3 1 9 t\nq1 Q0 p4 2 8 t\n")
    project.import_run(tmp_path / "r.trec", "T")
    project.add_evidence("kim", "q3", "p4", "core")
    project.add_judgement("kim", "q1", "drop", True, passage_id="p1")
    project.add_judgement("kim", "q1", "note", "너무 넓음", passage_id="p1")
    project.add_judgement("lee", "q3", "not_evidence", True, passage_id="p4")
    wb = load_workbook(write_report(project, tmp_path / "r.xlsx", [5], **FAST, lang="en"))
    changes = wb["Gold changes"]
    rows = [[c.value for c in row] for row in changes.iter_rows(min_row=3)]
    by_change = {(r[0], r[1], r[2]): r for r in rows}
    assert by_change[("q1", "dropped item 근거 제외", "p1")][3:] == [
        "kim=true",
        "pending second review 검수 대기",
        None,
        "kim: 너무 넓음",
    ]
    assert by_change[("q3", "added item 근거 추가", "p4")][4].startswith("pending")
    conflict = by_change[("q3", "evidence vs not evidence 근거 여부 이견", "p4")]
    assert conflict[3] == "kim=true, lee=false" and conflict[4] == "disputed 이견"
    assert ("q3", "not evidence 근거 아님", "p4") in by_change
    per_q = wb["Per question"]
    head = [c.value for c in per_q[1]]
    col = next(i for i, v in enumerate(head) if str(v).startswith("unjudged@10"))
    counts = {row[1].value: row[col].value for row in per_q.iter_rows(min_row=2)}
    assert counts["q1"] == 2  # p3 and p4 in T's top 10, neither judged for q1


def test_the_report_reads_one_snapshot(project, tmp_path):
    """Gold imported from another window while the report runs is in none of its sheets:
    the Settings count (read last) agrees with the Per question rows (read first)."""
    hand_case(project, tmp_path)
    write_jsonl(
        tmp_path / "more.jsonl",
        [{"question_id": "q3", "evidence": [{"passage_id": "p6", "role": "core"}]}],
    )
    written = []

    def meanwhile(done, total):
        if not written:
            with Project(project.path) as other:
                other.import_gold(tmp_path / "more.jsonl")
            written.append(done)

    wb = load_workbook(
        write_report(project, tmp_path / "r.xlsx", [2], progress=meanwhile, **FAST, lang="en")
    )
    assert written and project.reads.counts()["evidence_items"] == 5
    settings = dict(wb["Settings"].iter_rows(min_row=2, values_only=True))
    assert settings["evidence items 근거"] == 4
    per_q = {r["question"]: r for r in table(wb["Per question"]) if r["system"] == "A"}
    assert per_q["q3"]["evidence items"] == 0
