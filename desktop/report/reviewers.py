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
    _team_alpha(sheet, agreement)
    _machines(sheet, passed.machines.result())
    _pair_disagreements(sheet, agreement)
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
    machines = set(passed.project.machine_reviewers())
    for name in names:
        these = lines[name]
        sheet.append(
            [
                f"{name} (machine 기계)" if name in machines else name,
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


def _undefined(reason: str | None) -> str:
    return f"undefined ({reason}) 정의 안 됨"


def _team_alpha(sheet: Sheet, agreement: dict) -> None:
    """Krippendorff's α per kind with its interval, and α without each reviewer."""
    boot = agreement["bootstrap"]
    if len(agreement["alpha"][0]["reviewers"]) < 2:  # under the pairs' "none yet"
        sheet.append(["Krippendorff's α: undefined (fewer than two reviewers) 전체 일치도 없음"])
        return
    sheet.blank()
    sheet.append(
        [
            "Krippendorff's α per kind, every reviewer together (nominal; 95% bootstrap "
            f"interval over items, {boot['resamples']} resamples, seed {boot['seed']}) "
            "검수자 전체 일치도"
        ],
        "bold",
    )
    sheet.header(
        [h("kind", "종류"), h("reviewers", "검수자"), h("items", "항목 수"), "α"]
        + [h("95% low", "95% 하한"), h("95% high", "95% 상한")]
    )
    for e in agreement["alpha"]:
        low, high = e["ci95"] or (None, None)
        value = e["alpha"] if e["alpha"] is not None else _undefined(e["reason"])
        sheet.append(
            [e["kind"], ", ".join(e["reviewers"]), e["units"], value, low, high],
            [None, None, None, "num", "num", "num"],
        )
    if len(agreement["reviewers"]) >= 3:  # without one of two, no α is left
        _alpha_without(sheet, agreement)


def _alpha_without(sheet: Sheet, agreement: dict) -> None:
    sheet.blank()
    sheet.append(
        ["α without each reviewer (higher than together: talk to them first) 검수자별 영향"],
        "bold",
    )
    kinds = [e["kind"] for e in agreement["alpha"] if e["kind"] != "all"]
    sheet.header(
        [h("reviewer", "검수자"), h("items judged", "판정 항목"), h("all kinds", "전체")] + kinds
    )
    for r in agreement["reviewers"]:
        overall = r["alpha_without"]
        sheet.append(
            [
                r["reviewer"],
                r["judged"],
                overall if overall is not None else _undefined(r["alpha_without_reason"]),
                *(r["alpha_without_by_kind"][k] for k in kinds),
            ],
            [None, None] + ["num"] * (1 + len(kinds)),
        )


def _machines(sheet: Sheet, machines: list[dict]) -> None:
    """Each machine per kind against the people's effective gold, and its confusions."""
    if not machines:
        return
    sheet.blank()
    sheet.append(
        ["Machines against the people's consensus (the effective gold) 기계 판정 대 검수자 합의"],
        "bold",
    )
    sheet.header(
        [h("machine", "기계"), h("kind", "종류"), h("items", "항목 수")]
        + [h("agreement", "일치율"), "Cohen's κ", "α", h("95% low", "95% 하한")]
        + [h("95% high", "95% 상한")]
    )
    for m in machines:
        low, high = m["ci95"] or (None, None)
        sheet.append(
            [
                m["machine"],
                m["kind"],
                m["items"],
                m["agreement"],
                m["kappa"] if m["kappa"] is not None else _undefined("one value only"),
                m["alpha"] if m["alpha"] is not None else _undefined(m["alpha_reason"]),
                low,
                high,
            ],
            [None, None, None, "pct", "num", "num", "num", "num"],
        )
    rows = [
        [m["machine"], m["kind"], c["machine"], c["people"], c["items"]]
        for m in machines
        for c in m["confusion"]
    ]
    sheet.blank()
    sheet.table(
        "Machine value against the people's value in force 기계 값 대 합의 값",
        [h("machine", "기계"), h("kind", "종류"), h("machine says", "기계 값")]
        + [h("people's value", "합의 값"), h("items", "항목 수")],
        rows,
    )


def _pair_disagreements(sheet: Sheet, agreement: dict) -> None:
    """How many items each pair of reviewers judged differently, over every kind."""
    both: dict[tuple[str, str], list[int]] = {}
    for pair in agreement["pairs"]:
        counts = both.setdefault(tuple(pair["reviewers"]), [0, 0])
        counts[0] += pair["items"]
        counts[1] += round(pair["items"] * (1 - pair["agreement"]))
    if not both:
        return  # the agreement table above already says no item was judged twice
    sheet.blank()
    sheet.table(
        "Disagreements per pair of reviewers (items both judged, every kind) 검수자 쌍별 이견",
        [h("reviewer A", "검수자 A"), h("reviewer B", "검수자 B"), h("items", "항목 수")]
        + [h("disagreements", "이견 수")],
        [[a, b, n, d] for (a, b), (n, d) in sorted(both.items())],
    )


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
