"""The Settings sheet: what is needed to reproduce the numbers (corpus and chunking, K list,
gold policy, database, app version, time, resampling counts and seed)."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from desktop import __version__
from desktop.report.cells import EXCERPT, h
from desktop.report.sheet import Sheet

if TYPE_CHECKING:
    from desktop.report.workbook import Report

CONFIDENCE = 0.95


def settings_sheet(report: Report, sheet: Sheet, target: Path, without: int) -> None:
    sheet.header([h("setting", "설정"), h("value", "값")])
    rows = _data_rows(report, without) + _span_rows(report) + _method_rows(report, target)
    if report.candidates is not None:  # export --candidates; without, the sheet is as it was
        rows.append(("candidate alternatives 대체 후보", report.candidates.setting()))
    for key, value in rows:
        sheet.append([key, value], [None, "wrap"], sheet.lines([key, value], (1,)))
    sheet.autofilter(1, 2)


def _data_rows(report: Report, without: int) -> list[tuple]:
    """The corpus, the questions and the systems the numbers come from."""
    corpus = report.project.reads.corpus() or {}
    info = report.project.reads.counts()
    rows = [
        ("corpus 말뭉치", corpus.get("name")),
        ("corpus file", corpus.get("source_file")),
        ("chunk size 청크 크기", corpus.get("chunk_size")),
        ("overlap 겹침", corpus.get("overlap")),
        ("unit 단위", corpus.get("unit")),
        ("corpus imported at", corpus.get("imported_at")),
        ("passages 문단", info["passages"]),
        ("questions 질문", report.gold.questions),
        ("questions evaluated (with evidence)", report.gold.evaluated),
        ("questions without evidence (not averaged)", without),
        ("evidence items 근거", info["evidence_items"]),
        ("alternatives 대체 근거 (imported)", info["alternatives"]),
        ("systems 시스템", len(report.systems)),
    ]
    for system in report.systems:
        rows.append(
            (
                f"system: {system['name']}",
                f"{system['source_file']} ({system['format']}, imported {system['imported_at']})",
            )
        )
    return rows


def _span_rows(report: Report) -> list[tuple]:
    """With documents: the span rule's θ and budgets, and the chunkings (none without, so a
    report without spans stays as it was)."""
    found = report.spans
    if found is None:
        return []
    rows = [
        ("coverage θ 포함 기준", found.theta),
        ("budgets (characters) 예산 (글자)", ", ".join(map(str, found.budgets))),
        ("documents 문서", report.project.reads.document_count()),
    ]
    for chunking in report.project.reads.chunkings():
        shape = ", ".join(
            f"{word} {chunking[key]}"
            for word, key in (("size", "chunk_size"), ("overlap", "overlap"), ("unit", "unit"))
            if chunking[key] is not None
        )
        rows.append((f"chunking: {chunking['name']}", f"{chunking['passages']} passages; {shape}"))
    return rows


def _method_rows(report: Report, target: Path) -> list[tuple]:
    """How the numbers are made, and where and when they were."""
    names = sorted(name for name, these in report.gold.by_reviewer.items() if these.lines)
    return [
        ("K", ", ".join(str(k) for k in report.ks)),
        ("misses counted at K", ", ".join(str(k) for k in report.ks)),
        ("deepest stored rank (curve depth)", report.depth),
        (
            "gold policy 정답 정책",
            "Effective gold (design section 6): for each question, kind and passage the "
            "latest line of every reviewer counts. An adjudication wins; else a value "
            "every reviewer who judged agrees on counts; a change by one reviewer alone "
            "counts at once only while that reviewer is the only one in the database "
            "(marked single-reviewed); otherwise the imported gold stands and differing "
            "values are listed as disagreements.",
        ),
        ("reviewers in the database 검수자", ", ".join(names) or "none"),
        ("judgement lines 판정 기록", report.gold.lines),
        (
            "metrics 지표",
            "Recall@K: fraction of evidence items with any of their passages (primary or "
            "alternative) in the top K. CoreRecall@K: the same over core items. Hit@K: 1 if "
            "any item is found. MRR@K: 1/rank of the first evidence passage within K. "
            "nDCG@K: gain 2 core, 1 supporting or unassigned, each item credited once.",
        ),
        (
            "review status 검수 상태",
            "untouched: no judgement line about the question; done: judged, answerability "
            "settled, every evidence item has a role in force and nothing is disputed or "
            "waiting for a second review; in progress: anything in between.",
        ),
        ("confidence interval", f"{CONFIDENCE:.0%} percentile bootstrap over questions"),
        ("bootstrap resamples", report.resamples),
        (
            "significance test",
            "two-sided paired randomization (sign-flip) test on per-question values, for "
            "every pair of systems, measure and K; p = (1 + extreme permutations) / "
            "(1 + permutations); ★ from Holm–Bonferroni adjusted p over that whole family",
        ),
        ("permutations", report.permutations),
        ("random seed", report.seed),
        ("α (significance level)", report.alpha),
        ("passage excerpt length (characters)", EXCERPT),
        ("database file", str(Path(report.project.path).resolve())),
        ("schema version", report.project.reads.schema_version()),
        ("report file", str(target.resolve())),
        ("app version", f"Recall Reviewer {__version__}"),
        ("written at 작성 시각", datetime.now().astimezone().isoformat(timespec="seconds")),
    ]
