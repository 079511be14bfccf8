"""The workbook: ``write_report`` opens it in openpyxl's write-only mode beside its target,
makes its sheets in their order, fills them from one pass over the questions' gold
(desktop.report.gold_pass) and one over the runs (desktop.report.runs), the statistics in
between, and moves the file into place only once it is complete."""

from __future__ import annotations

from array import array
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path

from openpyxl import Workbook

from desktop.app import scratch
from desktop.evaluation import compare, metrics, scored, spans, stats
from desktop.report.candidates import CANDIDATES, CandidateList, candidates_name
from desktop.report.candidates import WIDTHS as CANDIDATE_WIDTHS
from desktop.report.charts import charts_sheet
from desktop.report.chunkings import FROZEN, HEAD_ROWS, chunkings_sheet, chunkings_widths
from desktop.report.comparison import comparison_sheet
from desktop.report.gold_pass import QuestionPass
from desktop.report.reviewers import gold_changes_sheet, reviewers_sheet
from desktop.report.runs import POOL_DEPTH, write_runs
from desktop.report.settings import CONFIDENCE, settings_sheet
from desktop.report.sheet import (
    CHARTS,
    CHUNKINGS,
    COMPARISON,
    GOLD_CHANGES,
    MAX_ROWS,
    MISSES,
    PER_QUESTION,
    REVIEWERS,
    SETTINGS,
    SUMMARY,
    Sheet,
    chunkings_name,
    sheet_names,
)
from desktop.report.span_pass import DEFAULT_BUDGETS, SpanPass
from desktop.report.summary import summary_sheet

Progress = Callable[[int, int], None]
RESAMPLES = 1000
PERMUTATIONS = 1000
SEED = 42
ALPHA = compare.ALPHA


def _discard(wb: Workbook, tmp: Path) -> None:
    """Release an abandoned workbook's temporary files. openpyxl keeps each write-only sheet
    in a temporary file of its own until the workbook is saved (or the process exits); saving
    the part written to ``tmp``, which replacing() then removes, is its public way out."""
    with suppress(Exception):
        wb.save(tmp)


def make_sheets(
    wb: Workbook,
    names: dict[str, str],
    max_rows: int,
    ks,
    n_labels: int,
    n_systems: int,
    chunkings: list[float] | None = None,
) -> dict[str, Sheet]:
    """The workbook's sheets in its order, still empty: each is filled when what it shows is
    known. Only the sheets whose rows grow with the data (runs × questions × items, the
    judgements) can reach ``max_rows``; the others hold a few rows per system. The widths of
    later tables' columns hold their headers in two lines (tests/test_report_paper.py). The
    Candidates sheet, right after Misses, when ``names`` names it."""

    def sheet(name, widths, freeze, print_rows=None, grows=False) -> Sheet:
        rows = max_rows if grows else MAX_ROWS
        return Sheet(wb, names[name], widths, freeze, print_rows=print_rows, max_rows=rows)

    summary_columns = 6 + n_labels + 7 * len(ks)  # as _summary's header has
    misses = [22, 12] + [9] * len(ks) + [14, 11, 8, 30, 12, 14, 18, 18, 70, 40]
    misses += [30, 22] if chunkings else []  # evidence span, coverage reached
    made = {
        SUMMARY: sheet(
            SUMMARY, [22, 14, 10, 10, 10, 10] + [10.5] * (summary_columns - 6), "B2", "1:1"
        ),
    }
    if chunkings:  # right after the Summary: seed §5.1's question, which chunking
        made[CHUNKINGS] = sheet(CHUNKINGS, chunkings, FROZEN, HEAD_ROWS)
    made[PER_QUESTION] = sheet(
        PER_QUESTION, [22, 12, 40, 10, 9, 9, 12, 8] + [9.5] * n_labels, "C2", "1:1", True
    )
    made[MISSES] = sheet(MISSES, misses, "C2", "1:1", True)
    if CANDIDATES in names:  # right after Misses, whose rows it could turn into hits
        made[CANDIDATES] = sheet(CANDIDATES, CANDIDATE_WIDTHS, "C2", "1:1", True)
    return made | {
        COMPARISON: sheet(COMPARISON, [24, 24, 23, 11, 12] + [11] * 8, None),
        REVIEWERS: sheet(
            REVIEWERS, [18, 18, 22, 14, 17, 14, 14, 17, 10, 28, 28, 11, 11], "A2", None, True
        ),
        SETTINGS: sheet(SETTINGS, [34, 100], "A2", "1:1"),
        CHARTS: sheet(CHARTS, [22] + [11] * max(len(ks), n_systems + 1), None),
        GOLD_CHANGES: sheet(GOLD_CHANGES, [12, 16, 14, 30, 24, 17, 40], "A2", "1:2", True),
    }


def write_report(
    project,
    path,
    ks,
    progress: Progress | None = None,
    *,
    resamples: int = RESAMPLES,
    permutations: int = PERMUTATIONS,
    seed: int = SEED,
    alpha: float = ALPHA,
    lang: str = "ko",
    max_rows: int = MAX_ROWS,
    budgets=None,
    theta: float = spans.THETA,
    candidates: bool = False,
) -> Path:
    """Write the Recall@K workbook for ``project`` at K values ``ks`` to ``path``.

    ``progress(done, total)`` is called as the work goes; it may raise (for instance
    ``desktop.readers.Cancelled``), and then no file is left behind: the workbook goes to a
    temporary file beside ``path`` that replaces it only once complete. Safe to call from a
    worker thread with its own Project. ``lang`` ('ko' or 'en') names the sheets; a sheet
    goes on to another after ``max_rows`` rows (Excel's limit; smaller in tests). With
    documents, runs whose passages have spans are scored by the span rule (coverage ``theta``)
    at each K and each of ``budgets`` (characters; DEFAULT_BUDGETS when None), as `metrics`
    scores them, and a Chunkings sheet compares the chunkings. ``candidates`` adds the
    Candidates sheet (desktop.report.candidates), after Misses."""
    ks = metrics.parse_ks(ks)
    names = sheet_names(lang) | {CHUNKINGS: chunkings_name(lang)}
    names |= {CANDIDATES: candidates_name(lang)} if candidates else {}
    target = project.export_target(path)
    with scratch.replacing(target) as tmp:
        wb = Workbook(write_only=True)
        try:
            # One snapshot for every read: a judgement saved meanwhile in the window is in
            # the next report, never in half of this one.
            with project.reads.reading():
                report = Report(project, ks, progress, resamples, permutations, seed, alpha)
                report.score_spans(budgets, theta)
                report.write(wb, target, names, max_rows)
            wb.save(tmp)
        except BaseException:
            _discard(wb, tmp)
            raise
        report.tick(report.total)
    return target


class Report:
    """One report being written: its parameters, the pass over the questions' gold and the
    progress; the sheets' modules read what they need from it."""

    def __init__(self, project, ks, progress, resamples, permutations, seed, alpha):
        self.project = project
        self.ks = ks
        self.progress = progress
        self.resamples, self.permutations, self.seed, self.alpha = (
            resamples,
            permutations,
            seed,
            alpha,
        )
        self.labels = metrics.labels(ks, metrics.ALL_MEASURES)
        self.systems = self.project.systems()
        self.systems_by_name = {s["name"]: s for s in self.systems}
        self.spans: SpanPass | None = None  # runs with spans (score_spans)
        # Every question's gold, status, notes and pool count, question by question.
        self.gold = QuestionPass(project, POOL_DEPTH)
        self.gold.run()
        self.depth = self.project.reads.max_rank() or 1
        self.rows_total = len(self.systems) * self.gold.questions
        self.step = max(1, self.rows_total // 3) if self.rows_total else 1
        # Work units: one per Per question row, then three equal parts for the bootstrap, the
        # randomization tests and everything else.
        self.total = self.rows_total + 3 * self.step
        self.done = 0
        # passage -> title, excerpt, lines it wraps to on Misses (desktop.report.runs)
        self.excerpts: dict[int, tuple[str | None, str, int]] = {}
        self.candidates: CandidateList | None = None  # with the Candidates sheet (write)

    def score_spans(self, budgets, theta: float) -> None:
        """With documents in the store, the span rule's figures of every run with spans, as
        the command line has them; without, nothing (the report stays as it was)."""
        if not self.project.reads.document_count():
            return
        budgets = list(DEFAULT_BUDGETS if budgets is None else budgets)
        self.spans = SpanPass(self.project, self.ks, budgets, theta)

    def tick(self, done: int) -> None:
        self.done = done
        if self.progress is not None:
            self.progress(min(done, self.total), self.total)

    def write(self, wb: Workbook, target: Path, names: dict[str, str], max_rows: int) -> None:
        ks, self.names = self.ks, names
        widths = chunkings_widths(ks, self.spans.budgets) if self.spans else None
        sheets = make_sheets(wb, names, max_rows, ks, len(self.labels), len(self.systems), widths)
        if CANDIDATES in sheets:
            self.candidates = CandidateList(self, sheets[CANDIDATES])
        scores = scored.Scores(ks, self.gold.gold, self.gold.answerable)
        ran = write_runs(self, sheets[PER_QUESTION], sheets[MISSES], scores)
        intervals = self._intervals(scores)
        comparison = self._compare(self.rows_total + self.step, scores)
        without = self.gold.questions - self.gold.evaluated
        comparison_sheet(sheets[COMPARISON], comparison, self.alpha)
        reviewers_sheet(sheets[REVIEWERS], self.gold)
        settings_sheet(self, sheets[SETTINGS], target, without)
        charts_sheet(sheets[CHARTS], self.systems, ks, self.depth, ran.means, ran.curves)
        gold_changes_sheet(sheets[GOLD_CHANGES], self.gold)
        if self.candidates is not None:
            self.candidates.write()
        if self.spans is not None:
            chunkings_sheet(self, sheets[CHUNKINGS])
        # Last, so that it can say which sheets went on to more.
        # (Candidates named last, as the Summary has always listed it.)
        others = [sheet for name, sheet in sheets.items() if name not in (SUMMARY, CANDIDATES)]
        others += [sheets[CANDIDATES]] if CANDIDATES in sheets else []
        summary_sheet(self, sheets[SUMMARY], ran, intervals, comparison, without, others)

    def _intervals(self, scores: scored.Scores) -> list[tuple[float, float]]:
        """The bootstrap interval of Recall@K per system and K (the Summary's CI95), from
        the items found per question, counted from the found masks a column at a time."""
        nk = len(self.ks)
        found = [scores.found[s["name"]] for s in self.systems]
        base = self.rows_total
        return stats.bootstrap_ci(
            stats.Lazy(
                len(found) * nk,
                lambda c: array("l", map(int.bit_count, found[c // nk].column(c % nk))),
            ),
            self.gold.denominators,
            resamples=self.resamples,
            seed=self.seed,
            confidence=CONFIDENCE,
            tick=lambda d, t: self.tick(base + self.step * d // max(t, 1)),
        )

    def _compare(self, start: int, scores: scored.Scores) -> compare.Comparison:
        """Every comparison of the Comparison sheet, whose Recall@K tests the Summary marks,
        from this report's own pass."""
        result = compare.compare_scores(
            self.project,
            scores,
            permutations=self.permutations,
            seed=self.seed,
            progress=lambda d, t, phase=None: self.tick(start + self.step * d // max(t, 1)),
        )
        self.tick(start + self.step)
        return result
