"""The Excel Recall@K report (issue 4): the workbook reviewers send to their team.

``write_report(project, path, ks)`` writes, in this order (the sheets named in English as here
with ``lang="en"``, else in Korean: 요약, 질문별, 누락, 비교, 검수자, 설정, 차트, 정답 근거 변경):

- **Summary** — one row per system: questions evaluated and without evidence, every measure at
  every K under the design's labels (``Recall@5``, ``CoreRecall@5``, ``Hit@5``, ``MRR@5``,
  ``nDCG@5``, …) at full precision shown with three decimals, a 95% percentile-bootstrap
  interval for each Recall@K, the systems each one beats on Recall@K in a paired randomization
  test with Holm–Bonferroni adjusted p-values (letters, as ranx's comparison table marks them),
  and its core / supporting / unassigned misses at every K; below, every pair of systems with
  its p-value, adjusted p-value and ★.
- **Per question** — one row per system and question: every measure at every K (blank for a
  question without evidence, which is never averaged in), the answerable flag in force, the
  number of evidence items and the question's review status.
- **Misses** — one row per system, question and evidence item missed at the smallest K,
  with a yes/no column per K (``missed@5``, ``missed@10``: still missed at that K):
  the primary passage, its role in English and Korean, who set that role, the rank where the
  system found the item beyond K in its full stored ranking (blank: not retrieved at all), the
  passage that found it, an excerpt of the passage and the reviewers' notes.
- **Comparison** — desktop.evaluation.compare: union Recall@K of all systems and of each pair, the
  evidence items only one system finds and those A finds and B misses, the range of every
  measure over tie orders at the cutoff (TREC runs), abstention AUROC and threshold, and
  win/tie/loss with p and Holm-adjusted p for every ordered pair, measure and K.
- **Reviewers** — lines per reviewer and kind, agreement per pair and kind (percent, Cohen's
  κ), open disagreements, single-reviewed changes, changes waiting for a second review,
  questions whose answerability is disputed, and every decision with its status.
- **Settings** — what is needed to reproduce the numbers: corpus and chunking, K list, gold
  policy, database, app version, time, and the resampling counts and seed.
- **Charts** — a bar chart of Recall@K per system for each K and the Recall@1..N curve per
  system, with the numbers they draw.
- **Gold changes** — every judgement that changes the evidence, with each reviewer's value,
  its status and the notes on that passage.

Review status of a question (Per question sheet), from the judgement log and effective gold:

- ``untouched`` — no reviewer has written any judgement line about the question;
- ``done`` — some reviewer has, its answerability is settled, every evidence item has a role in
  force (core or supporting), and nothing about it is disputed or waiting for a second
  reviewer (the window's rule, desktop.review.review_status, over all reviewers);
- ``in progress`` — anything in between.

Every sheet is written in openpyxl's write-only mode, so memory does not grow with the number
of rows. Every value is cleaned before it is handed to openpyxl (a write-only sheet is dead
after an exception): characters XML cannot hold are removed, text longer than Excel's 32,767
characters is cut with a visible marker, and text that openpyxl would take for a formula or an
error code (``=…``, ``#N/A``) is stored as plain text. The file is written beside the target
under a temporary name and moved into place at the end, so a cancelled or failed export leaves
nothing behind.

A sheet whose rows grow with the data goes on in "Misses 2", "Misses 3", … past Excel's
1,048,576 rows (``MAX_ROWS``), its header repeated, and the Summary (written last) names them.
Printed or turned into a PDF, every sheet is landscape and one page wide, its header row
repeated on each page and at most two lines tall.
"""

from __future__ import annotations

import math
import os
import re
from array import array
from collections import Counter
from collections.abc import Callable, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from datetime import datetime
from itertools import combinations
from operator import attrgetter
from pathlib import Path

from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.chart import BarChart, LineChart, Reference
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.dimensions import RowDimension
from openpyxl.worksheet.pagebreak import Break
from openpyxl.worksheet.properties import PageSetupProperties

from desktop import __version__, readers
from desktop.app import scratch
from desktop.evaluation import compare, metrics, scored, stats
from desktop.gold import effective as gold
from desktop.report_gold import (  # noqa: F401 (the report's words, also read by tests)
    CHANGE_WORDS,
    DONE,
    IN_PROGRESS,
    ROLE_WORDS,
    STATUS_WORDS,
    UNTOUCHED,
    QuestionPass,
    Record,
)
from desktop.report_gold import as_text as _as_text

Progress = Callable[[int, int], None]

# The sheets, by their English names; a report's sheet names are all in one language, Korean
# unless the UI is English (write_report's ``lang``).
SUMMARY, PER_QUESTION, MISSES = "Summary", "Per question", "Misses"
COMPARISON = "Comparison"
REVIEWERS, SETTINGS, CHARTS = "Reviewers", "Settings", "Charts"
GOLD_CHANGES = "Gold changes"
KOREAN_NAMES = {
    SUMMARY: "요약",
    PER_QUESTION: "질문별",
    MISSES: "누락",
    COMPARISON: "비교",
    REVIEWERS: "검수자",
    SETTINGS: "설정",
    CHARTS: "차트",
    GOLD_CHANGES: "정답 근거 변경",
}
LANGUAGES = ("ko", "en")
MAX_ROWS = 1_048_576  # Excel's rows per sheet; a longer table continues on "Misses 2", …
POOL_DEPTH = 10  # the pool's depth for the unjudged count on Per question
MAX_CELL = 32_767  # Excel's limit, in UTF-16 code units
CUT_MARK = "… [잘림 cut]"
EXCERPT = 500  # characters of passage text on the Misses sheet
RESAMPLES = 1000
PERMUTATIONS = 1000
SEED = 42
ALPHA = compare.ALPHA
CONFIDENCE = 0.95
FONT_NAME = "Malgun Gothic"  # has Hangul; Excel and LibreOffice substitute when it is missing


# openpyxl's ILLEGAL_CHARACTERS_RE (C0 controls but tab, newline, carriage return) plus what
# XML 1.0 cannot hold either: lone surrogates (JSON's "\ud800" decodes to one) and U+FFFE/F.
_ILLEGAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_SHEET_FORBIDDEN = re.compile(r"[\\/?*\[\]:]")


# -- cleaning ---------------------------------------------------------------------------------


def clean_text(value: str) -> str:
    """A string Excel and openpyxl accept as it is: XML-illegal characters removed, and cut
    with ``CUT_MARK`` to fit 32,767 UTF-16 code units."""
    if _ILLEGAL.search(value):
        value = _ILLEGAL.sub("", value)
    if len(value) > MAX_CELL // 2 and _utf16_len(value) > MAX_CELL:
        keep = MAX_CELL - _utf16_len(CUT_MARK)
        units = 0
        for index, char in enumerate(value):
            units += 2 if ord(char) > 0xFFFF else 1
            if units > keep:
                value = value[:index]
                break
        value += CUT_MARK
    return value


def _utf16_len(value: str) -> int:
    return len(value.encode("utf-16-le")) // 2


def excerpt(text: str | None, length: int = EXCERPT) -> str:
    text = text or ""
    return text if len(text) <= length else text[:length] + "…"


def sheet_names(lang: str) -> dict[str, str]:
    """Each sheet's English name -> its name in ``lang`` ('ko' or 'en')."""
    if lang not in LANGUAGES:
        raise ValueError(f"the report's language is one of {', '.join(LANGUAGES)}, not {lang!r}")
    return {name: KOREAN_NAMES[name] if lang == "ko" else name for name in KOREAN_NAMES}


def default_language(environ=os.environ) -> str:
    """The report's language when none is given: English under an English locale, Korean
    otherwise (a C or POSIX locale says nothing), as the window chooses without a setting."""
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(variable)
        if value:
            return "en" if value.lower().startswith("en") else "ko"
    return "ko"


def sheet_title(name: str) -> str:
    """A valid sheet name: none of \\ / ? * [ ] :, no control characters, no leading or
    trailing apostrophe, 1 to 31 characters."""
    name = _SHEET_FORBIDDEN.sub("_", clean_text(name)).strip().strip("'")
    return name[:31].rstrip() or "Sheet"


def _cleaned(value):
    """A cell value as written: None, a bool or number as it is, text cleaned (anything else
    as its JSON text)."""
    if value is None or isinstance(value, (bool, int, float)):
        return value
    return clean_text(value if isinstance(value, str) else _as_text(value))


# -- write-only sheets ------------------------------------------------------------------------

BASE_FONT = Font(name=FONT_NAME, sz=10, family=2, charset=129)
# One set of style objects for the whole report: each cell points at these, so openpyxl keeps
# one font, fill and alignment of each kind, not one per cell. Every cell has a style, and so
# the Hangul font: openpyxl's public API cannot change the workbook's default font (Calibri).
# (A styled cell costs openpyxl a few µs more to write than a plain value.)
STYLES = {
    None: {"font": BASE_FONT},
    "header": {
        "font": Font(name=FONT_NAME, sz=10, family=2, charset=129, b=True),
        "fill": PatternFill("solid", fgColor="DDEBF7"),
        "alignment": Alignment(wrap_text=True, vertical="top"),
    },
    "title": {"font": Font(name=FONT_NAME, sz=12, family=2, charset=129, b=True)},
    "bold": {"font": Font(name=FONT_NAME, sz=10, family=2, charset=129, b=True)},
    "wrap": {"font": BASE_FONT, "alignment": Alignment(wrap_text=True, vertical="top")},
    "num": {"font": BASE_FONT, "number_format": "0.000"},
    "p": {"font": BASE_FONT, "number_format": "0.0000"},
    "pct": {"font": BASE_FONT, "number_format": "0.0%"},
}


LINE_POINTS = 13.0  # one line of 10 pt text, in points


def text_lines(text, width: float) -> int:
    """About how many lines a text takes wrapped in a column ``width`` characters wide: Hangul
    and other wide characters count two (three UTF-8 bytes each against one), and a tenth more
    for breaking at spaces rather than anywhere."""
    if not isinstance(text, str):
        return 1
    room = max(int(width) - 1, 1)
    total = 0
    for line in text.split("\n"):
        shown = len(line) + (len(line.encode("utf-8", "surrogatepass")) - len(line)) // 2
        total += max(1, math.ceil(shown * 1.1 / room))
    return total


def header_width(label) -> float:
    """The narrowest column (as text_lines counts) that shows a header in two lines: each of
    its lines on one, or a one-line header wrapped in two."""
    if not isinstance(label, str):
        return 0
    lines = label.split("\n")
    shown = max(len(x) + (len(x.encode("utf-8", "surrogatepass")) - len(x)) // 2 for x in lines)
    return math.ceil(shown * 1.1 / (2 if len(lines) == 1 else 1)) + 1


def h(english: str, korean: str = "") -> str:
    """A header: English, and Korean on a second line."""
    return f"{english}\n{korean}" if korean else english


class Sheet:
    """One write-only worksheet, continued on more ("Misses 2", "Misses 3", …, the header row
    repeated) when it would pass ``max_rows`` rows. Column widths, frozen panes and the page
    setup are set before the first row (write-only sheets write them first): landscape, one
    page wide, the ``print_rows`` repeated on every printed page. The autofilter is set at the
    end, when the extent of the table is known. ``append`` cleans every value, so that no row
    can make openpyxl raise halfway through a sheet."""

    def __init__(
        self,
        wb: Workbook,
        title: str,
        widths: Sequence[float],
        freeze: str | None,
        *,
        print_rows: str | None = None,
        max_rows: int = MAX_ROWS,
    ):
        self.wb = wb
        self.widths = list(widths)
        self.freeze = freeze
        self.max_rows = max(max_rows, 3)  # room for a repeated header and a row
        self.titles: list[str] = []  # the sheet's title, then its continuations'
        self._head: tuple[list, int] | None = None  # the last header: repeated on a new part
        self._spans: list[tuple] = []  # (worksheet, first row) of that table on earlier parts
        self._table_first = 1  # the row of the last header on this part
        self._open(sheet_title(title), print_rows)
        self.title = self.ws.title

    def _open(self, title: str, print_rows: str | None) -> None:
        ws = self.ws = self.wb.create_sheet(title)
        self.titles.append(ws.title)
        for index, width in enumerate(self.widths, 1):
            ws.column_dimensions[get_column_letter(index)].width = width
        if self.freeze:
            ws.freeze_panes = self.freeze
        # On paper (or in a PDF): landscape, as many pages down as it takes but one across.
        ws.page_setup.orientation = "landscape"
        ws.sheet_properties.pageSetUpPr = PageSetupProperties(fitToPage=True)
        ws.page_setup.fitToWidth, ws.page_setup.fitToHeight = 1, 0
        if print_rows:
            ws.print_title_rows = print_rows
        self.rows = 0
        # One styled cell per column and style, reused row after row: a write-only sheet
        # writes each row out while append() runs, so the same cell can carry the next
        # row's value (and openpyxl does not make a cell, and look its style up, per value).
        self._pool: dict[tuple[int, str | None], WriteOnlyCell] = {}

    def _continue(self) -> None:
        """Go on in a new sheet right after this one, its header row repeated."""
        if self._head is not None:
            self._spans.append((self.ws, self._table_first))
        after = self.wb.worksheets.index(self.ws) + 1
        suffix = f" {len(self.titles) + 1}"
        self._open(sheet_title(self.title[: 31 - len(suffix)] + suffix), None)
        self.wb.move_sheet(self.ws.title, after - (len(self.wb.worksheets) - 1))
        if self._head is not None:
            labels, lines = self._head
            self._table_first = self._write(labels, "header", lines)
            self.ws.print_title_rows = "1:1"

    def append(
        self,
        values: Sequence,
        styles: Sequence[str | None] | str | None = None,
        lines: int | None = None,
    ) -> int:
        """Write one row; ``styles`` is one style name per column (or one for all), ``lines``
        the lines of text the row must show (its height). Returns the row's number on the
        part of the sheet it went to."""
        if self.rows >= self.max_rows:
            self._continue()
        return self._write(values, styles, lines)

    def _write(self, values: Sequence, styles, lines: int | None) -> int:
        # A write-only row takes its height before its cells, and LibreOffice does not grow
        # rows to wrapped text by itself: without one, a row shows a single line.
        height = LINE_POINTS * lines + 3 if lines is not None and lines > 1 else None
        self.rows += 1
        dimensions = self.ws.row_dimensions
        if height is not None:
            dimensions[self.rows] = RowDimension(self.ws, index=self.rows, ht=height)
        self.ws.append(self._cells(values, styles))
        if height is not None:
            del dimensions[self.rows]  # written with its row: kept, it would grow per row
        return self.rows

    def _cells(self, values: Sequence, styles) -> list:
        """The row's cleaned values in this sheet's styled cells (None: no cell; a boolean
        without a style as it is)."""
        one = isinstance(styles, str) or styles is None
        pool = self._pool
        row: list = []
        for column, value in enumerate(values):
            value = _cleaned(value)
            if value is None:
                row.append(None)
                continue
            style = styles if one else styles[column]
            if style is None and isinstance(value, bool):
                # Plain: LibreOffice shows a styled boolean as 1 or 0, not TRUE or FALSE.
                row.append(value)
                continue
            cell = pool.get((column, style))
            if cell is None:
                cell = pool[(column, style)] = WriteOnlyCell(self.ws)
                for attribute, made in STYLES[style].items():
                    setattr(cell, attribute, made)
            cell.value = value
            if isinstance(value, str):
                cell.data_type = "s"  # text, never a formula or an error code
            row.append(cell)
        return row

    def header(self, labels: Sequence[str]) -> int:
        """A header row, at most two lines tall: on a sheet it opens, its columns are widened
        to hold it in two lines (a write-only sheet writes its widths before its first
        row; the widths of later tables are chosen for their headers)."""
        if self.rows == 0:
            for column, label in enumerate(labels):
                needed = header_width(label)
                if needed > self._width(column):
                    self.widths += [8.43] * (column + 1 - len(self.widths))
                    self.widths[column] = needed
                    self.ws.column_dimensions[get_column_letter(column + 1)].width = needed
        # Without a height a two-line header covers the row below it in LibreOffice.
        lines = self.lines(labels)
        row = self.append(labels, "header", lines)
        self._head, self._spans, self._table_first = (list(labels), lines), [], row
        return row

    def lines(self, values: Sequence, columns: Sequence[int] | None = None) -> int:
        """Lines the tallest of these cells (all, or those in ``columns``) takes wrapped."""
        picked = range(len(values)) if columns is None else columns
        return max((text_lines(values[i], self._width(i)) for i in picked if values[i]), default=1)

    def _width(self, column: int) -> float:
        return self.widths[column] if column < len(self.widths) else 8.43  # Excel's default

    def blank(self) -> int:
        """An empty row: it ends the table above (a sheet going on to another after it
        repeats no header)."""
        self._head, self._spans = None, []
        return self.append([])

    def autofilter(self, first_row: int, columns: int, last_row: int | None = None) -> None:
        """A filter from ``first_row`` (the header's) to ``last_row`` (the last by default); a
        table that went on to more parts gets one on each, from its header there."""
        letter = get_column_letter(max(columns, 1))
        if self._spans:
            for ws, first in self._spans:
                ws.auto_filter.ref = f"A{first}:{letter}{self.max_rows}"
            first_row = self._table_first
        last_row = max(last_row or self.rows, first_row)
        self.ws.auto_filter.ref = f"A{first_row}:{letter}{last_row}"

    @property
    def continued(self) -> list[str]:
        """The titles of the sheets this one went on to (none: it fits)."""
        return self.titles[1:]

    def table(self, title: str, head: Sequence[str], rows, *, filtered: bool = False) -> None:
        """A bold title, a header and the rows as they come (a filter on it when asked)."""
        self.append([title], "bold")
        first = self.header(head)
        for row in rows:
            self.append(row)
        if filtered:
            self.autofilter(first, len(head))


def _discard(wb: Workbook, tmp: Path) -> None:
    """Release an abandoned workbook's temporary files. openpyxl keeps each write-only sheet
    in a temporary file of its own until the workbook is saved (or the process exits); saving
    the part written to ``tmp``, which replacing() then removes, is its public way out."""
    with suppress(Exception):
        wb.save(tmp)


# -- the report -------------------------------------------------------------------------------


def make_sheets(
    wb: Workbook, names: dict[str, str], max_rows: int, ks, n_labels: int, n_systems: int
) -> dict[str, Sheet]:
    """The workbook's sheets in its order, still empty: each is filled when what it shows is
    known. Only the sheets whose rows grow with the data (runs × questions × items, the
    judgements) can reach ``max_rows``; the others hold a few rows per system. The widths of
    later tables' columns hold their headers in two lines (tests/report/test_report_paper.py)."""

    def sheet(name, widths, freeze, print_rows=None, grows=False) -> Sheet:
        rows = max_rows if grows else MAX_ROWS
        return Sheet(wb, names[name], widths, freeze, print_rows=print_rows, max_rows=rows)

    summary_columns = 6 + n_labels + 7 * len(ks)  # as _summary's header has
    misses = [22, 12] + [9] * len(ks) + [14, 11, 8, 30, 12, 14, 18, 18, 70, 40]
    return {
        SUMMARY: sheet(
            SUMMARY, [22, 14, 10, 10, 10, 10] + [10.5] * (summary_columns - 6), "B2", "1:1"
        ),
        PER_QUESTION: sheet(
            PER_QUESTION, [22, 12, 40, 10, 9, 9, 12, 8] + [9.5] * n_labels, "C2", "1:1", True
        ),
        MISSES: sheet(MISSES, misses, "C2", "1:1", True),
        COMPARISON: sheet(COMPARISON, [24, 24, 23, 11, 12] + [11] * 8, None),
        REVIEWERS: sheet(REVIEWERS, [18, 18, 22, 14, 17, 14, 14, 17, 10, 28, 28], "A2", None, True),
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
) -> Path:
    """Write the Recall@K workbook for ``project`` at K values ``ks`` to ``path``.

    ``progress(done, total)`` is called as the work goes; it may raise (for instance
    ``desktop.readers.Cancelled``), and then no file is left behind: the workbook goes to a
    temporary file beside ``path`` that replaces it only once complete. Safe to call from a
    worker thread with its own Project. ``lang`` ('ko' or 'en') names the sheets; a sheet
    goes on to another after ``max_rows`` rows (Excel's limit; smaller in tests)."""
    ks = metrics.parse_ks(ks)
    names = sheet_names(lang)
    target = project.export_target(path)
    with scratch.replacing(target) as tmp:
        wb = Workbook(write_only=True)
        report = None
        try:
            # One snapshot for every read: a judgement saved meanwhile in the window is in
            # the next report, never in half of this one.
            with project.reads.reading():
                report = _Report(project, ks, progress, resamples, permutations, seed, alpha)
                report.write(wb, target, names, max_rows)
            wb.save(tmp)
        except BaseException:
            _discard(wb, tmp)
            raise
        finally:
            if report is not None:
                report.gold.close()
        report.tick(report.total)
    return target


@dataclass
class _Ran:
    """What the pass over the runs gives the other sheets, per system in system order: the
    means and Recall@1..depth curve (metrics.Means), misses per K and role, questions missing
    from the run, and the per-question values and found-item masks that the bootstrap and
    compare read (scored.Scores)."""

    scores: scored.Scores
    means: list[dict[str, float | None]] = field(default_factory=list)
    curves: list[list[float]] = field(default_factory=list)
    miss_counts: list[list[Counter]] = field(default_factory=list)
    missing_from_run: list[int] = field(default_factory=list)


class _Report:
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
        # Every question's gold, status, notes and pool count, spilled question by question.
        self.gold = QuestionPass(project, POOL_DEPTH)
        self.gold.run()
        self.depth = self.project.reads.max_rank() or 1
        self.rows_total = len(self.systems) * self.gold.questions
        self.step = max(1, self.rows_total // 3) if self.rows_total else 1
        # Work units: one per Per question row, then three equal parts for the bootstrap, the
        # randomization tests and everything else.
        self.total = self.rows_total + 3 * self.step
        self.done = 0

    def tick(self, done: int) -> None:
        self.done = done
        if self.progress is not None:
            self.progress(min(done, self.total), self.total)

    # -- the workbook ------------------------------------------------------------------------

    def write(self, wb: Workbook, target: Path, names: dict[str, str], max_rows: int) -> None:
        ks, self.names = self.ks, names
        sheets = make_sheets(wb, names, max_rows, ks, len(self.labels), len(self.systems))
        with scored.Scores(ks, self.gold.gold, self.gold.answerable) as scores:
            ran = self._rows(sheets[PER_QUESTION], sheets[MISSES], scores)
            intervals = self._intervals(scores)
            comparison = self._compare(self.rows_total + self.step, scores)
        without = self.gold.questions - self.gold.evaluated
        comparison_sheet(sheets[COMPARISON], comparison, self.alpha)
        reviewers_sheet(sheets[REVIEWERS], self.gold)
        self._settings(sheets[SETTINGS], target, without)
        charts_sheet(sheets[CHARTS], self.systems, ks, self.depth, ran.means, ran.curves)
        gold_changes_sheet(sheets[GOLD_CHANGES], self.gold)
        # Last, so that it can say which sheets went on to more.
        others = [sheet for name, sheet in sheets.items() if name != SUMMARY]
        self._summary(sheets[SUMMARY], ran, intervals, comparison, without, others)

    # -- Per question and Misses: the pass over the runs ----------------------------------------

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

    def _rows(self, per_q: Sheet, misses: Sheet, scores: scored.Scores) -> _Ran:
        """Every system's Per question and Misses rows, one ranked list at a time, and what
        the other sheets need from them (the per-question values and masks go to
        ``scores``)."""
        ks, labels = self.ks, self.labels
        per_q.header(
            [
                h("system", "시스템"),
                h("question", "질문"),
                h("question text", "질문 내용"),
                h("answerable", "답변 가능"),
                h("evidence items", "근거 수"),
                h("core items", "핵심 근거 수"),
                h("review status", "검수 상태"),
                h("in run", "결과 있음"),
                *labels,
                h(f"unjudged@{POOL_DEPTH}", f"미판정@{POOL_DEPTH}"),
            ]
        )
        misses.header(
            [
                h("system", "시스템"),
                h("question", "질문"),
                *(h(f"missed@{k}", f"상위 {k} 누락") for k in ks),
                h("passage", "문단"),
                h("role", "역할"),
                "역할\nrole",
                h("role set by", "역할 지정"),
                h("found at rank", "찾은 순위"),
                h("found via", "찾은 문단"),
                h("alternatives", "대체 근거"),
                h("title", "제목"),
                h("passage text", "본문 발췌"),
                h("reviewer notes", "검수 메모"),
            ]
        )
        per_q_styles = [None] * 8 + ["num"] * len(labels) + [None]
        ran = _Ran(scores)
        # One ranked list at a time, as the store streams them, for every system and
        # question in the order of the rows below; the questions' records likewise.
        lists = scored.each_list(
            self.systems, self.gold, self.project.reads.ranked_lists(), key=attrgetter("pk")
        )
        done = 0
        for system in self.systems:
            name = system["name"]
            tally = metrics.Means(ks, self.depth, metrics.ALL_MEASURES)
            missed = [Counter() for _ in ks]
            absent = 0
            ran.scores.system(name)
            for _ in range(self.gold.questions):
                _, question, ranked = next(lists)
                items = question.gold_items()
                row = [
                    name,
                    question.id,
                    question.text,
                    question.answerable,
                    len(items),
                    sum(1 for i in items if i.role == "core"),
                    question.status,
                    bool(ranked),
                ]
                if not items:
                    per_q.append(row + [None] * len(labels) + [question.unjudged], per_q_styles)
                else:
                    # Prepared is made per row, not kept for every question: what the pass
                    # holds must not grow with the questions (tests/bench/bench_export).
                    prep = metrics.Prepared(question.metric_items(), ks, set(question.judged))
                    absent += not ranked
                    these = prep.score(ranked)
                    values = [these[label] for label in labels]
                    per_q.append(row + values + [question.unjudged], per_q_styles)
                    first, via = prep.first_ranks(enumerate(ranked, 1))
                    tally.add(values, first)
                    ran.scores.add(name, question.pk, these, first)
                    self._misses(misses, name, question, items, first, via, missed)
                done += 1
                if done % 500 == 0:
                    self.tick(done)
            ran.means.append(tally.means())
            ran.scores.finish(name, ran.means[-1])
            ran.curves.append(tally.curve())
            ran.miss_counts.append(missed)
            ran.missing_from_run.append(absent)
        self.tick(self.rows_total)
        per_q.autofilter(1, 9 + len(labels))
        misses.autofilter(1, 12 + len(ks))
        return ran

    def _misses(self, sheet: Sheet, name, question: Record, items, first, via, missed) -> None:
        """The Misses rows of one system and question: an item missed at the smallest K, with
        at which K it is still beyond; ``missed`` counts them per K and role."""
        ks, n_ks = self.ks, len(self.ks)
        left = [i for i, rank in enumerate(first) if not rank or rank > ks[0]]
        if not left:
            return
        passages = self.project.reads.passage_excerpts(
            {items[i].primary_pk for i in left}, EXCERPT + 1
        )
        # Excerpts and notes wrap inside their own columns instead of spilling over the next.
        styles = [None] * (10 + n_ks) + ["wrap", "wrap"]
        for index in left:
            item, rank = items[index], first[index]
            at = [not rank or rank > k for k in ks]
            for k_index, missed_here in enumerate(at):
                if missed_here:
                    missed[k_index][item.role] += 1
            title, text = passages.get(item.primary_pk, (None, ""))
            role_en, role_ko = ROLE_WORDS[item.role]
            values = [
                name,
                question.id,
                *at,
                item.primary_id,
                role_en,
                role_ko,
                question.items[index][4],  # who set the role
                rank or None,
                _passage_id(item, via[index]) if rank else None,
                ", ".join(sorted(item.alternatives.values())),
                title,
                excerpt(text),
                _notes_for(question.notes, item, name),
            ]
            sheet.append(values, styles, sheet.lines(values, (10 + n_ks, 11 + n_ks)))

    # -- Summary -----------------------------------------------------------------------------

    def _summary(self, sheet: Sheet, ran: _Ran, intervals, comparison, without, others) -> None:
        ks, labels, n_ks = self.ks, self.labels, len(self.ks)
        letters = [_letter(i) for i in range(len(self.systems))]
        # Recall@K of every pair, and the letters of the systems each one beats on it.
        better: list[list[list[str]]] = [[[] for _ in ks] for _ in self.systems]
        comparisons = []
        for a, b in combinations(range(len(self.systems)), 2):
            for k_index, k in enumerate(ks):
                label = f"Recall@{k}"
                tested = comparison.pair(self.systems[a]["name"], self.systems[b]["name"], label)
                # no p where nothing could be tested (no question with evidence)
                p, p_holm = (tested.p, tested.p_holm) if tested else (None, None)
                mean_a, mean_b = ran.means[a][label], ran.means[b][label]
                significant = p_holm is not None and p_holm < self.alpha and mean_a != mean_b
                if significant:
                    winner, loser = (a, b) if mean_a > mean_b else (b, a)
                    better[winner][k_index].append(letters[loser])
                comparisons.append((a, b, k, mean_a, mean_b, p, p_holm, significant))

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
            *(
                f"{kind}misses@{k}"
                for k in ks
                for kind in ("core ", "supporting ", "unassigned ", "")
            ),
        ]
        sheet.header(head)
        styles = [None] * 6 + ["num"] * (len(labels) + 2 * n_ks) + [None] * (5 * n_ks)
        for s, system in enumerate(self.systems):
            ci = intervals[s * n_ks : (s + 1) * n_ks]
            sheet.append(
                [
                    system["name"],
                    letters[s],
                    self.gold.evaluated,
                    without,
                    ran.missing_from_run[s],
                    self.gold.core_evaluated,
                    *(ran.means[s][label] for label in labels),
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
                styles,
            )
        sheet.autofilter(1, len(head))
        sheet.blank()
        # Lines about the data, one function per kind (add a kind here).
        notes = self._summary_notes(without) + self._unsettled_lines(ran.means)
        for line in notes + continued_lines(others):
            sheet.append([line])
        sheet.blank()
        sheet.append(
            [
                f"Paired randomization test on per-question Recall@K (two-sided, "
                f"{self.permutations} sign flips, seed {self.seed}); ★ Holm-adjusted p < "
                f"{self.alpha:g} over the family of {comparison.family} tests (every pair, "
                f"measure and K; all of them on sheet '{self.names[COMPARISON]}')"
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
                f"★ (α = {self.alpha:g})",
            ]
        )
        for a, b, k, mean_a, mean_b, p, p_holm, significant in comparisons:
            sheet.append(
                [
                    self.systems[a]["name"],
                    self.systems[b]["name"],
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

    def _unsettled_lines(self, means: list[dict]) -> list[str]:
        """Where a system's Judged@K is under 0.8: its numbers may still move."""
        out = []
        for system, these in zip(self.systems, means, strict=True):
            judged = [(k, these.get(f"Judged@{k}")) for k in self.ks]
            low = [
                f"Judged@{k} {value:.2f}"
                for k, value in judged
                if value is not None and value < metrics.JUDGED_ENOUGH
            ]
            if low:
                out.append(
                    f"{system['name']}: {', '.join(low)} — under {metrics.JUDGED_ENOUGH:.0%} of "
                    "its top K is judged, so its numbers may still move as the pool is judged "
                    "(아직 판정되지 않은 문단이 많아 수치가 바뀔 수 있음)."
                )
        return out

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

    def _summary_notes(self, without: int) -> list[str]:
        evaluated = self.gold.evaluated
        return [
            f"Means over the {evaluated} questions with at least one evidence item; {without} "
            "questions without evidence are counted apart and never averaged in (trec_eval -c "
            "would score them 0). A question missing from a system's run scores 0 there.",
            metrics.core_note(evaluated, self.gold.core_evaluated)
            or f"CoreRecall@K averages over the {self.gold.core_evaluated} questions with a core "
            "item.",
            f"CI95: percentile bootstrap over questions, {self.resamples} resamples, seed "
            f"{self.seed}.",
            f"Letters under 'better than ★': the systems (by their letter) this one beats on "
            f"Recall@K, two-sided paired randomization test, Holm–Bonferroni adjusted p < "
            f"{self.alpha:g} over every pair, measure and K (sheet '{self.names[COMPARISON]}').",
            f"Misses are counted at every K reported (sheet '{self.names[MISSES]}'); there a "
            "blank 'found at rank' means not retrieved at all (빈칸: 못 찾음), and the passage "
            f"text is its first {EXCERPT} characters (앞부분).",
        ]

    def _settings(self, sheet: Sheet, target: Path, without: int) -> None:
        corpus = self.project.reads.corpus() or {}
        info = self.project.reads.counts()
        names = sorted(name for name, these in self.gold.by_reviewer.items() if these.lines)
        sheet.header([h("setting", "설정"), h("value", "값")])
        rows = [
            ("corpus 말뭉치", corpus.get("name")),
            ("corpus file", corpus.get("source_file")),
            ("chunk size 청크 크기", corpus.get("chunk_size")),
            ("overlap 겹침", corpus.get("overlap")),
            ("unit 단위", corpus.get("unit")),
            ("corpus imported at", corpus.get("imported_at")),
            ("passages 문단", info["passages"]),
            ("questions 질문", self.gold.questions),
            ("questions evaluated (with evidence)", self.gold.evaluated),
            ("questions without evidence (not averaged)", without),
            ("evidence items 근거", info["evidence_items"]),
            ("alternatives 대체 근거 (imported)", info["alternatives"]),
            ("systems 시스템", len(self.systems)),
        ]
        for system in self.systems:
            rows.append(
                (
                    f"system: {system['name']}",
                    f"{system['source_file']} ({system['format']}, imported "
                    f"{system['imported_at']})",
                )
            )
        rows += [
            ("K", ", ".join(str(k) for k in self.ks)),
            ("misses counted at K", ", ".join(str(k) for k in self.ks)),
            ("deepest stored rank (curve depth)", self.depth),
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
            ("judgement lines 판정 기록", self.gold.lines),
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
            ("bootstrap resamples", self.resamples),
            (
                "significance test",
                "two-sided paired randomization (sign-flip) test on per-question values, for "
                "every pair of systems, measure and K; p = (1 + extreme permutations) / "
                "(1 + permutations); ★ from Holm–Bonferroni adjusted p over that whole family",
            ),
            ("permutations", self.permutations),
            ("random seed", self.seed),
            ("α (significance level)", self.alpha),
            ("passage excerpt length (characters)", EXCERPT),
            ("database file", str(Path(self.project.path).resolve())),
            ("schema version", self.project.reads.schema_version()),
            ("report file", str(target.resolve())),
            ("app version", f"Recall Reviewer {__version__}"),
            ("written at 작성 시각", datetime.now().astimezone().isoformat(timespec="seconds")),
        ]
        for key, value in rows:
            sheet.append([key, value], [None, "wrap"], sheet.lines([key, value], (1,)))
        sheet.autofilter(1, 2)


# -- the sheets written from what the passes gave ----------------------------------------------


def continued_lines(sheets: Sequence[Sheet]) -> list[str]:
    """A line for each sheet that went on to more, naming them."""
    return [
        f"Sheet '{sheet.title}' holds more rows than one sheet can ({sheet.max_rows:,}): it "
        f"goes on in {', '.join(repr(t) for t in sheet.continued)}, the header row repeated "
        "(한 시트의 행 수를 넘어 다음 시트에 이어짐)."
        for sheet in sheets
        if sheet.continued
    ]


def charts_sheet(sheet: Sheet, systems, ks, depth: int, means, curves) -> None:
    """Recall@K bars per K and the Recall@1..depth curve, with the numbers they draw."""
    n = len(systems)
    sheet.header([h("system", "시스템"), *(f"Recall@{k}" for k in ks)])
    for s, system in enumerate(systems):
        sheet.append(
            [system["name"], *(means[s][f"Recall@{k}"] for k in ks)],
            [None] + ["num"] * len(ks),
        )
    sheet.blank()
    curve_head = sheet.header([h("rank", "순위"), *(s["name"] for s in systems)])
    for rank in range(1, depth + 1):
        sheet.append([rank, *(curves[s][rank - 1] for s in range(n))], [None] + ["num"] * n)
    if n == 0:
        return
    ws = sheet.ws
    anchor_col = get_column_letter(max(len(ks), n) + 3)
    cats = Reference(ws, min_col=1, min_row=2, max_row=n + 1)
    for index, k in enumerate(ks):
        chart = BarChart()
        chart.type = "col"
        chart.title = f"Recall@{k}"
        chart.y_axis.title = f"Recall@{k}"
        chart.y_axis.scaling.min = 0
        chart.y_axis.scaling.max = 1
        chart.legend = None
        _show_axes(chart)
        data = Reference(ws, min_col=index + 2, min_row=1, max_row=n + 1)
        chart.add_data(data, titles_from_data=True)
        chart.set_categories(cats)
        chart.width, chart.height = 16, 7.5
        ws.add_chart(chart, f"{anchor_col}{1 + index * 16}")
    line = LineChart()
    line.title = "Recall@K curve 곡선"
    line.x_axis.title = "K"
    line.y_axis.title = "Recall@K"
    line.y_axis.scaling.min = 0
    line.y_axis.scaling.max = 1
    _show_axes(line)
    data = Reference(ws, min_col=2, max_col=n + 1, min_row=curve_head, max_row=curve_head + depth)
    line.add_data(data, titles_from_data=True)
    for series in line.series:
        series.smooth = False  # straight segments: a smoothed curve dips between points
    line.set_categories(
        Reference(ws, min_col=1, min_row=curve_head + 1, max_row=curve_head + depth)
    )
    line.width, line.height = 16, 9
    ws.add_chart(line, f"{anchor_col}{1 + len(ks) * 16}")
    # On paper the curve starts a page of its own, never cut in two by a page's end.
    ws.row_breaks.append(Break(id=len(ks) * 16))


def reviewers_sheet(sheet: Sheet, passed: QuestionPass) -> None:
    """Lines per reviewer and kind, agreement, the open and waiting decisions and every
    decision, from the pass over the questions."""
    kinds = readers.KINDS  # every kind of line, evidence and drop included
    lines = passed.by_reviewer
    names = sorted(name for name, these in lines.items() if these.lines)
    sheet.append(
        [f"Reviewers 검수자: {len(names)}, judgement lines 판정 기록: {passed.lines}"],
        "title",
    )
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
        f"Open disagreements: {agreement['disagreements']} — the imported gold stands "
        "until they agree or an adjudication settles it 미해결 이견",
        tables["disputed"],
    )

    if len(names) <= 1:
        rule = "only one reviewer is in the database, so each of their changes counts at once"
    else:
        rule = (
            f"{len(names)} reviewers are in the database: a change made by one of them now "
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


# -- Comparison -------------------------------------------------------------------------------


def comparison_sheet(sheet: Sheet, c: compare.Comparison, alpha: float) -> None:
    """The Comparison sheet: union recall, what each system alone finds, ties at the cutoff,
    abstention, and last (under the autofilter) win/tie/loss with corrected p-values."""
    names, ks = c.systems, c.ks
    sheet.append(
        [
            f"Comparison of {len(names)} systems over {c.evaluated} evaluated questions at "
            f"K = {', '.join(map(str, ks))} 시스템 비교"
        ],
        "title",
    )
    recall = [f"Recall@{k}" for k in ks]
    sheet.blank()
    sheet.append(["Union Recall@K: what a perfect fusion could reach 합집합 재현율"], "bold")
    sheet.header([h("systems", "시스템"), h("how many", "수"), *recall])
    union: dict[tuple, dict[int, float | None]] = {}
    for u in c.union:
        union.setdefault(tuple(u["systems"]), {})[u["k"]] = u["Recall"]
    for systems, values in union.items():
        label = "all systems 전체" if len(systems) == len(names) else " + ".join(systems)
        sheet.append(
            [label, len(systems), *(values[k] for k in ks)], [None, None] + ["num"] * len(ks)
        )

    sheet.blank()
    sheet.append(["Evidence items only this system finds 이 시스템만 찾은 근거"], "bold")
    sheet.header([h("system", "시스템"), *(f"only@{k}" for k in ks)])
    unique = {(u["system"], u["k"]): u["items"] for u in c.unique}
    for name in names:
        sheet.append([name, *(unique[(name, k)] for k in ks)])

    missed = {(m["a"], m["b"], m["k"]): m["items"] for m in c.a_finds_b_misses}
    for k in ks:
        sheet.blank()
        sheet.append(
            [
                f"Evidence items the row's system finds in its top {k} and the column's misses "
                f"행 시스템만 찾은 근거 (K = {k})"
            ],
            "bold",
        )
        sheet.header([h("A finds, B misses", "A 찾음, B 놓침"), *names])
        for a in names:
            sheet.append([a, *(None if a == b else missed[(a, b, k)] for b in names)])

    sheet.blank()
    sheet.append(
        [
            "Ties at the cutoff (TREC runs): the trec_eval order and the range over every order "
            "of passages with equal scores 동점 순위"
        ],
        "bold",
    )
    if c.ties:
        sheet.header(
            [
                h("system", "시스템"),
                h("metric", "지표"),
                h("trec_eval order", "trec_eval 순서"),
                h("lowest", "최저"),
                h("highest", "최고"),
                h("questions", "질문 수"),
            ]
        )
        for t in c.ties:
            sheet.append(
                [t.system, t.metric, t.value, t.low, t.high, t.questions],
                [None, None, "num", "num", "num", None],
            )
    else:
        sheet.append(["no TREC runs TREC 결과 없음"])

    sheet.blank()
    sheet.append(
        [
            "Abstention: the top-1 score separating answerable questions (with evidence) from "
            "those to abstain on 답변 불가 판별"
        ],
        "bold",
    )
    if c.abstain:
        sheet.header(
            [
                h("system", "시스템"),
                "AUROC",
                h("answer when score ≥", "임계값"),
                h("accuracy", "정확도"),
                h("answerable", "답변 가능"),
                h("abstain", "답변 불가"),
            ]
        )
        for a in c.abstain:
            threshold = "never answer" if a.threshold is None else a.threshold
            sheet.append(
                [a.system, a.auroc, threshold, a.accuracy, a.answerable, a.abstain],
                [None, "num", None, "pct", None, None],
            )
    else:
        sheet.append(
            [
                "needs runs with scores and both answerable and abstain questions "
                "점수와 두 종류의 질문이 필요"
            ]
        )

    sheet.blank()
    sheet.append(
        [
            f"Win / tie / loss per question and paired randomization test ({c.permutations} "
            f"sign flips, seed {c.seed}); p (Holm): Holm–Bonferroni adjusted over the family "
            f"of {c.family} tests (every pair × measure × K); ★ p (Holm) < {alpha:g} 승/무/패"
        ],
        "bold",
    )
    first = sheet.header(
        [
            h("system A", "시스템 A"),
            h("system B", "시스템 B"),
            h("metric", "지표"),
            h("A wins", "A 승"),
            h("ties", "무"),
            h("A loses", "A 패"),
            "p-value",
            h("p (Holm)", "보정 p"),
            f"★ (α = {alpha:g})",
        ]
    )
    for r in c.pairs:
        starred = r.p_holm is not None and r.p_holm < alpha
        sheet.append(
            [r.a, r.b, r.metric, r.wins, r.ties, r.losses, r.p, r.p_holm, "★" if starred else ""],
            [None] * 6 + ["p", "p", None],
        )
    sheet.autofilter(first, 9)


# -- small helpers ----------------------------------------------------------------------------


def _show_axes(chart) -> None:
    """openpyxl 3.1 leaves out the axes' <c:delete val="0"/>, and Excel then hides them.
    Recall runs from 0 to 1: one decimal on the axis (the data's 0.000 did not fit)."""
    chart.x_axis.delete = False
    chart.y_axis.delete = False
    chart.y_axis.number_format = "0.0"
    chart.y_axis.majorUnit = 0.1


def _letter(index: int) -> str:
    """a, b, …, z, aa, ab, … as ranx names the systems it compares."""
    out = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        out = chr(ord("a") + rest) + out
    return out


def _passage_id(item: gold.GoldItem, passage_pk) -> str:
    if passage_pk == item.primary_pk:
        return item.primary_id
    return item.alternatives.get(passage_pk, str(passage_pk))


def _notes_for(notes, item: gold.GoldItem, system: str) -> str | None:
    """The notes about an item's question that concern this item (or no passage) and this
    system (or no system)."""
    passages = {"", item.primary_id, *item.alternatives.values()}
    picked = [
        f"{reviewer}: {text}"
        for reviewer, pid, sys, text in notes
        if pid in passages and (not sys or sys == system)
    ]
    return " | ".join(picked) if picked else None
