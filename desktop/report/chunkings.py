"""The Chunkings sheet (seed §5.1, "which chunk size"): per chunking (name, size, overlap,
unit, passages) and system on it, Recall, SpanRecall and SpanPrecision at each K and each
budget of characters, θ in the heading; and a chart of SpanRecall against the budget, one
line per (chunking, system), so which chunking recovers the evidence at a given context
length is read off one picture. Written only when the database has documents (spans); every
figure is metrics --json's (desktop.report.span_pass)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from openpyxl.chart import LineChart, Reference
from openpyxl.utils import get_column_letter

from desktop.report.cells import h
from desktop.report.sheet import Sheet

if TYPE_CHECKING:
    from desktop.report.workbook import Report

HEAD_ROWS = "6:6"  # the table's header (under the heading), repeated on each printed page
FROZEN = "A7"  # the heading and the header stay in view
SET_MEASURES = ("Recall", "SpanRecall", "SpanPrecision")
CHUNKING_COLUMNS = 7  # chunking, size, overlap, unit, passages, system, measure


def chunkings_widths(ks, budgets) -> list[float]:
    """Column widths: the chunking's, system's and measure's, then one per cut-off, K then
    budget (the header is not the sheet's first row, so write-only widths are set here)."""
    return [24, 7, 8, 11, 9, 18, 14] + [9.5] * (len(ks) + len(budgets))


def cuts(ks, budgets) -> list[str]:
    """The cut-offs as labels end: '@5', '@2000ch'."""
    return [f"@{k}" for k in ks] + [f"@{b}ch" for b in budgets]


def _cut_head(ks, budgets) -> list[str]:
    return [h(f"@{k}", f"상위 {k}") for k in ks] + [h(f"@{b}ch", f"{b}자") for b in budgets]


def chunkings_sheet(report: Report, sheet: Sheet) -> None:
    """The heading (θ, budgets), the table, the unranked runs' footnote and the chart."""
    found = report.spans
    ks, budgets = report.ks, found.budgets
    sheet.append(
        [
            f"Which chunking recovers the evidence — coverage θ = {found.theta:g} "
            f"(어떤 청킹이 근거를 찾는가 — 포함 기준 θ = {found.theta:g})"
        ],
        "title",
    )
    for line in (
        "Recall: evidence items found (the id rule on the gold's chunking, coverage ≥ θ on "
        "another). SpanRecall: the share of the evidence's characters the context covers.",
        "SpanPrecision: the share of the context's characters that are evidence. @K: the top K "
        "passages; @Nch: the first N characters of the ranked context (budget).",
        f"Budgets in characters: {', '.join(map(str, budgets))}; K: "
        f"{', '.join(map(str, ks))}. The same figures as recall-reviewer metrics --budget "
        f"{','.join(map(str, budgets))} --coverage {found.theta:g}.",
    ):
        sheet.append([line])
    sheet.blank()
    head = [
        h("chunking", "청킹"),
        h("size", "크기"),
        h("overlap", "겹침"),
        h("unit", "단위"),
        h("passages", "문단 수"),
        h("system", "시스템"),
        h("measure", "지표"),
        *_cut_head(ks, budgets),
    ]
    first = sheet.header(head)
    rows = _rows(report, cuts(ks, budgets))
    for values, styles in rows:
        sheet.append(values, styles)
    sheet.autofilter(first, len(head))
    dimmed = sorted({values[5] for values, styles in rows if "dimnum" in styles})
    sheet.blank()
    if dimmed:
        sheet.append([_unranked_note(dimmed)])
    systems = [values for values in (v for v, _ in rows) if values[6] == "SpanRecall"]
    _chart(report, sheet, systems)


def _rows(report: Report, cut_labels: list[str]) -> list[tuple[list, list]]:
    """Per chunking and system on it, a row per measure (a chunking no run is on: one row)."""
    found = report.spans
    on = report.project.reads.system_chunkings()
    out = []
    for chunking in report.project.reads.chunkings():
        shape = [
            chunking["name"],
            chunking["chunk_size"],
            chunking["overlap"],
            chunking["unit"],
            chunking["passages"],
        ]
        systems = [s for s in report.systems if on.get(s["pk"]) == chunking["pk"]]
        if not systems:
            out.append((shape, [None] * len(shape)))
        for system in systems:
            means = found.means(system["name"])
            for measure in SET_MEASURES:
                labels = [measure + cut for cut in cut_labels]
                styles = [None] * CHUNKING_COLUMNS + [
                    "dimnum" if _cut_short(report, system, label) else "num" for label in labels
                ]
                values = shape + [system["name"], measure, *(means.get(x) for x in labels)]
                out.append((values, styles))
    return out


def _cut_short(report: Report, system: dict, label: str) -> bool:
    """A cut-off shorter than an unranked run's longest context: it follows the given order,
    which is not a ranking (design section 11)."""
    if not system.get("unranked"):
        return False
    passages, chars = report.spans.longest.get(system["name"], (0, 0))
    cut = label.split("@", 1)[1]
    return int(cut[:-2]) < chars if cut.endswith("ch") else int(cut) < passages


def _unranked_note(names: list[str]) -> str:
    from desktop.project_graph import UNRANKED_REASON

    return (
        f"Grey figures ({', '.join(names)}): a cut-off shorter than the run's longest context; "
        f"{UNRANKED_REASON} (회색: 순위가 아닌 문맥의 일부만 자른 값)."
    )


def _chart(report: Report, sheet: Sheet, rows: list[list]) -> None:
    """SpanRecall against the budget, a line per (chunking, system), drawn from a small
    table of those figures written below (the numbers it draws)."""
    budgets = report.spans.budgets
    if not rows or not budgets:
        return
    sheet.blank()
    sheet.append([f"SpanRecall by budget (θ = {report.spans.theta:g}) 예산별 SpanRecall"], "bold")
    head = sheet.header([h("chunking · system", "청킹 · 시스템"), *budgets])
    at_budgets = len(rows[0]) - len(budgets)
    for values in rows:
        styles = [None] + ["num"] * len(budgets)
        sheet.append([f"{values[0]} · {values[5]}", *values[at_budgets:]], styles)
    ws = sheet.ws
    chart = LineChart()
    chart.title = f"SpanRecall by context length (θ = {report.spans.theta:g})"
    chart.x_axis.title = "budget (characters) 예산 (글자)"
    chart.y_axis.title = "SpanRecall"
    chart.y_axis.scaling.min, chart.y_axis.scaling.max = 0, 1
    chart.x_axis.delete = chart.y_axis.delete = False  # openpyxl 3.1 hides them otherwise
    chart.y_axis.number_format, chart.y_axis.majorUnit = "0.0", 0.1
    data = Reference(
        ws, min_col=1, max_col=len(budgets) + 1, min_row=head + 1, max_row=head + len(rows)
    )
    chart.add_data(data, from_rows=True, titles_from_data=True)
    for line in chart.series:
        line.smooth = False  # straight segments: a smoothed line dips between budgets
    chart.set_categories(Reference(ws, min_col=2, max_col=len(budgets) + 1, min_row=head))
    chart.width, chart.height = 18, 10
    ws.add_chart(chart, f"{get_column_letter(len(budgets) + 3)}{head - 1}")  # beside its table
