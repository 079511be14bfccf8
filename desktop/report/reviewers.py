"""The Reviewers and Gold changes sheets, from the report's pass over the questions
(desktop.report.gold_pass): lines per reviewer, agreement, the open and waiting decisions,
every decision, and every judgement that changes the evidence."""

from __future__ import annotations

from desktop import readers
from desktop.report.cells import h
from desktop.report.gold_pass import QuestionPass
from desktop.report.sheet import Sheet


def reviewers_sheet(sheet: Sheet, passed: QuestionPass) -> None:
    """Lines per reviewer and kind, agreement, the open and waiting decisions and every
    decision, from the pass over the questions."""
    names = sorted(name for name, these in passed.by_reviewer.items() if these.lines)
    sheet.append(
        [f"Reviewers 검수자: {len(names)}, judgement lines 판정 기록: {passed.lines}"],
        "title",
    )
    _lines_per_reviewer(sheet, passed, names)
    agreement = _agreement(sheet, passed)
    _decisions(sheet, passed, agreement["disagreements"], len(names))
    _answerability_and_every_decision(sheet, passed)


def _lines_per_reviewer(sheet: Sheet, passed: QuestionPass, names: list[str]) -> None:
    kinds = readers.KINDS  # every kind of line, evidence and drop included
    lines = passed.by_reviewer
    sheet.blank()
    sheet.append(["Judgement lines per reviewer and kind 검수자별 판정 수"], "bold")
    sheet.header(
        [
            h("reviewer", "검수자"),
            *kinds,
            h("total", "합계"),
            h("questions", "질문 수"),
            h("first", "처음"),
            h("last", "마지막"),
        ]
    )
    for name in names:
        these = lines[name]
        sheet.append(
            [
                name,
                *(these.kinds.get(k, 0) for k in kinds),
                these.lines,
                these.questions,
                these.first[1],
                these.last[1],
            ]
        )
    if not names:
        sheet.append(["no judgements yet 판정 없음"])


def _agreement(sheet: Sheet, passed: QuestionPass) -> dict:
    """Agreement per pair of reviewers and kind; returns the tally's result."""
    sheet.blank()
    agreement = passed.agreement.result()
    sheet.append(
        ["Agreement per pair and kind (items both judged, latest value each) 검수자 간 일치도"],
        "bold",
    )
    sheet.header(
        [
            h("reviewer A", "검수자 A"),
            h("reviewer B", "검수자 B"),
            h("kind", "종류"),
            h("items", "항목 수"),
            h("agreement", "일치율"),
            "Cohen's κ",
        ]
    )
    for pair in agreement["pairs"]:
        a, b = pair["reviewers"]
        sheet.append(
            [
                a,
                b,
                pair["kind"],
                pair["items"],
                pair["agreement"],
                pair["kappa"] if pair["kappa"] is not None else "undefined (one value only)",
            ],
            [None, None, None, None, "pct", "num"],
        )
    if not agreement["pairs"]:
        sheet.append(["no item judged by two reviewers yet 두 검수자가 함께 본 항목 없음"])
    return agreement


def _decisions(sheet: Sheet, passed: QuestionPass, disagreements: int, reviewers: int) -> None:
    """The open disagreements, single-reviewed changes and changes waiting for a second
    review."""
    tables = passed.tables
    decision_head = [
        h("question", "질문"),
        h("kind", "종류"),
        h("passage", "문단"),
        h("votes", "검수자 판정"),
        h("value in force", "적용 값"),
    ]

    def decision_table(title: str, rows) -> None:
        sheet.blank()
        sheet.table(title, decision_head, rows)

    decision_table(
        f"Open disagreements: {disagreements} — the imported gold stands "
        "until they agree or an adjudication settles it 미해결 이견",
        tables["disputed"],
    )

    if reviewers <= 1:
        rule = "only one reviewer is in the database, so each of their changes counts at once"
    else:
        rule = (
            f"{reviewers} reviewers are in the database: a change made by one of them now "
            "waits for a second review (listed below as pending) instead"
        )
    decision_table(
        f"Single-reviewed changes: {len(tables['single'])} — a change by one reviewer "
        "counts at once only while that reviewer is the only one in the database; "
        f"{rule} 1인 검수 변경",
        tables["single"],
    )
    decision_table(
        f"Waiting for a second review (not counted): {len(tables['pending'])} 검수 대기",
        tables["pending"],
    )


def _answerability_and_every_decision(sheet: Sheet, passed: QuestionPass) -> None:
    tables = passed.tables
    sheet.blank()
    sheet.table(
        f"Questions whose answerability is disputed: {len(tables['answerable'])} "
        "답변 가능 여부 이견",
        [
            h("question", "질문"),
            h("question text", "질문 내용"),
            h("imported answerable", "가져온 값"),
            h("votes", "검수자 판정"),
        ],
        tables["answerable"],
    )
    sheet.blank()
    sheet.table(
        "Every decision and its status 모든 판정과 상태",
        [
            h("question", "질문"),
            h("kind", "종류"),
            h("passage", "문단"),
            h("status", "상태"),
            h("counts", "반영"),
            h("votes", "검수자 판정"),
            h("adjudicator", "판정자"),
            h("value in force", "적용 값"),
        ],
        tables["decisions"],
        filtered=True,
    )


def gold_changes_sheet(sheet: Sheet, passed: QuestionPass) -> None:
    """Every added or dropped item, role change, alternative and not-evidence judgement,
    with each reviewer's value, its status and the notes on that passage."""
    sheet.table(
        "Gold changes: every judgement that changes the evidence 정답 근거 변경",
        [
            h("question", "질문"),
            h("change", "변경"),
            h("passage", "문단"),
            h("values", "검수자별 값"),
            h("status", "상태"),
            h("value in force", "적용 값"),
            h("notes", "메모"),
        ],
        passed.tables["changes"],
        filtered=True,
    )
