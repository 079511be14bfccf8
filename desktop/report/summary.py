"""The Summary sheet, written last: one row per system (means, bootstrap intervals, the
systems each one beats, misses per K and role), lines about the data, and every pair of
systems with its p-value on Recall@K."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import TYPE_CHECKING

from desktop.evaluation import compare, metrics
from desktop.evaluation.spans import ID_ONLY_MEASURES
from desktop.report.cells import EXCERPT, h
from desktop.report.sheet import COMPARISON, MISSES, Sheet

if TYPE_CHECKING:
    from desktop.report.runs import Ran
    from desktop.report.workbook import Report


def summary_sheet(
    report: Report, sheet: Sheet, ran: Ran, intervals, comparison, without: int, others
) -> None:
    """The Summary; ``others`` are the other sheets, named where they went on to more."""
    better, comparisons = _tested_pairs(report, ran, comparison)
    _systems_table(report, sheet, ran, intervals, without, better)
    sheet.blank()
    # Lines about the data, one function per kind (add a kind here).
    notes = _summary_notes(report, without) + _unsettled_lines(report, ran.means)
    notes += _span_lines(report)
    notes += report.candidates.summary_lines() if report.candidates is not None else []
    for line in notes + continued_lines(others):
        sheet.append([line])
    _pairs_table(report, sheet, comparison.family, comparisons)


def _tested_pairs(report: Report, ran: Ran, comparison: compare.Comparison):
    """Recall@K of every pair, and the letters of the systems each one beats on it."""
    ks, systems = report.ks, report.systems
    letters = [_letter(i) for i in range(len(systems))]
    better: list[list[list[str]]] = [[[] for _ in ks] for _ in systems]
    comparisons = []
    for a, b in combinations(range(len(systems)), 2):
        for k_index, k in enumerate(ks):
            label = f"Recall@{k}"
            tested = comparison.pair(systems[a]["name"], systems[b]["name"], label)
            # no p where nothing could be tested (no question with evidence)
            p, p_holm = (tested.p, tested.p_holm) if tested else (None, None)
            mean_a, mean_b = ran.means[a][label], ran.means[b][label]
            significant = p_holm is not None and p_holm < report.alpha and mean_a != mean_b
            if significant:
                winner, loser = (a, b) if mean_a > mean_b else (b, a)
                better[winner][k_index].append(letters[loser])
            comparisons.append((a, b, k, mean_a, mean_b, p, p_holm, significant))
    return better, comparisons


def _systems_table(report: Report, sheet: Sheet, ran: Ran, intervals, without, better) -> None:
    ks, labels, n_ks = report.ks, report.labels, len(report.ks)
    letters = [_letter(i) for i in range(len(report.systems))]
    head = [
        h("system", "시스템"),
        h("letter", "기호"),
        h("evaluated", "평가 질문"),
        h("without evidence", "근거 없는 질문"),
        h("missing from run", "결과 없는 질문"),
        h("core evaluated", "핵심 근거 질문"),
        *labels,
        *(f"Recall@{k} CI95 {end}" for k in ks for end in ("low", "high")),
        *(f"Recall@{k} better than ★" for k in ks),
        *(f"{kind}misses@{k}" for k in ks for kind in ("core ", "supporting ", "unassigned ", "")),
    ]
    sheet.header(head)
    styles = [None] * 6 + ["num"] * (len(labels) + 2 * n_ks) + [None] * (5 * n_ks)
    for s, system in enumerate(report.systems):
        ci = intervals[s * n_ks : (s + 1) * n_ks]
        shown = _figures(report, system, ran.means[s])
        sheet.append(
            [
                system["name"],
                letters[s],
                report.gold.evaluated,
                without,
                ran.missing_from_run[s],
                report.gold.core_evaluated,
                *(value for value, _ in shown),
                *(end for interval in ci for end in interval),
                *(" ".join(sorted(b)) for b in better[s]),
                *(
                    value
                    for counted in ran.miss_counts[s]
                    for value in (
                        counted["core"],
                        counted["supporting"],
                        counted[None],
                        sum(counted.values()),
                    )
                ),
            ],
            styles[:6] + [style for _, style in shown] + styles[6 + len(labels) :],
        )
    sheet.autofilter(1, len(head))


def across_dashes(report: Report, name: str, values) -> list:
    """The values of ``report.labels`` (a dict, or a list in their order), '—' for those only
    ids define (nDCG, P, Judged) when the run is on another chunking than the gold's."""
    if not isinstance(values, list):
        values = [values[label] for label in report.labels]
    if report.spans is None or name not in report.spans.across:
        return values
    id_only = (*ID_ONLY_MEASURES, "Judged")
    return [
        "—" if value is None and label.split("@")[0] in id_only else value
        for label, value in zip(report.labels, values, strict=True)
    ]


def _figures(report: Report, system: dict, means: dict) -> list[tuple]:
    """(value, style) of a system's measures: '—' where a run on another chunking has none
    (ids alone define it), greyed where an unranked run's figure follows its given order."""
    shown = across_dashes(report, system["name"], means)
    return [
        (value, "dimnum" if _dim(report, system, label) else "num")
        for label, value in zip(report.labels, shown, strict=True)
    ]


def _dim(report: Report, system: dict, label: str) -> bool:
    """An unranked run's rank measure (MRR, nDCG), or a cut-off shorter than its longest
    context (design section 11): shown, greyed, the footnote says why."""
    if not system.get("unranked") or report.spans is None:
        return False
    measure, k = label.split("@")
    if measure in ("MRR", "nDCG"):
        return True
    return int(k) < report.spans.longest.get(system["name"], (0, 0))[0]


def _span_lines(report: Report) -> list[str]:
    """θ, the budgets and why '—' (runs on another chunking), and why figures are grey
    (unranked runs)."""
    if report.spans is None:
        return []
    from desktop.project_graph import UNRANKED_REASON

    out = [line for line in [report.spans.evaluation.span_note()] if line]
    unranked = [s["name"] for s in report.systems if s.get("unranked")]
    if unranked:
        out.append(
            f"Grey figures ({', '.join(unranked)}): MRR and nDCG, and Recall@K where K is "
            f"shorter than the run's longest context; {UNRANKED_REASON} "
            "(회색: 순위가 아닌 문맥이라 참고용)."
        )
    return out


def _pairs_table(report: Report, sheet: Sheet, family: int, comparisons) -> None:
    sheet.blank()
    sheet.append(
        [
            f"Paired randomization test on per-question Recall@K (two-sided, "
            f"{report.permutations} sign flips, seed {report.seed}); ★ Holm-adjusted p < "
            f"{report.alpha:g} over the family of {family} tests (every pair, "
            f"measure and K; all of them on sheet '{report.names[COMPARISON]}')"
        ],
        "bold",
    )
    sheet.header(
        [
            h("system A", "시스템 A"),
            h("system B", "시스템 B"),
            "K",
            "Recall@K A",
            "Recall@K B",
            "A − B",
            "p-value",
            h("p (Holm)", "보정 p"),
            f"★ (α = {report.alpha:g})",
        ]
    )
    for a, b, k, mean_a, mean_b, p, p_holm, significant in comparisons:
        sheet.append(
            [
                report.systems[a]["name"],
                report.systems[b]["name"],
                k,
                mean_a,
                mean_b,
                None if mean_a is None or mean_b is None else mean_a - mean_b,
                p,
                p_holm,
                "★" if significant else "",
            ],
            [None, None, None, "num", "num", "num", "p", "p", None],
        )


def _unsettled_lines(report: Report, means: list[dict]) -> list[str]:
    """Where a system's Judged@K is under 0.8: its numbers may still move."""
    by_name = {system["name"]: these for system, these in zip(report.systems, means, strict=True)}
    grouped = metrics.unsettled_by_system(metrics.unsettled(by_name, report.ks))
    return [
        f"{name}: {', '.join(low)} — under {metrics.JUDGED_ENOUGH:.0%} of its top K is judged, "
        "so its numbers may still move as the pool is judged "
        "(아직 판정되지 않은 문단이 많아 수치가 바뀔 수 있음)."
        for name, low in grouped.items()
    ]


def _summary_notes(report: Report, without: int) -> list[str]:
    evaluated = report.gold.evaluated
    return [
        f"Means over the {evaluated} questions with at least one evidence item; {without} "
        "questions without evidence are counted apart and never averaged in (trec_eval -c "
        "would score them 0). A question missing from a system's run scores 0 there.",
        metrics.core_note(evaluated, report.gold.core_evaluated)
        or f"CoreRecall@K averages over the {report.gold.core_evaluated} questions with a core "
        "item.",
        f"CI95: percentile bootstrap over questions, {report.resamples} resamples, seed "
        f"{report.seed}.",
        f"Letters under 'better than ★': the systems (by their letter) this one beats on "
        f"Recall@K, two-sided paired randomization test, Holm–Bonferroni adjusted p < "
        f"{report.alpha:g} over every pair, measure and K (sheet '{report.names[COMPARISON]}').",
        f"Misses are counted at every K reported (sheet '{report.names[MISSES]}'); there a "
        "blank 'found at rank' means not retrieved at all (빈칸: 못 찾음), and the passage "
        f"text is its first {EXCERPT} characters (앞부분).",
    ]


def continued_lines(sheets: Sequence[Sheet]) -> list[str]:
    """A line for each sheet that went on to more, naming them."""
    return [
        f"Sheet '{sheet.title}' holds more rows than one sheet can ({sheet.max_rows:,}): it "
        f"goes on in {', '.join(repr(t) for t in sheet.continued)}, the header row repeated "
        "(한 시트의 행 수를 넘어 다음 시트에 이어짐)."
        for sheet in sheets
        if sheet.continued
    ]


def _letter(index: int) -> str:
    """a, b, …, z, aa, ab, … as ranx names the systems it compares."""
    out = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        out = chr(ord("a") + rest) + out
    return out
