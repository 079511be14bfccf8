"""The comparison tab's tables (issue 10), all read from one evaluation.compare.Comparison (the
`compare` command's): win/tie/loss with p and Holm-adjusted p per pair, measure and K; per
system what only it finds and its abstention; the tie ranges at the cutoff. Rows are prepared
when the comparison or the scope (the two systems shown, or all) changes; data() looks up."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QAbstractTableModel, Qt
from PySide6.QtGui import QFont

from desktop.evaluation import compare
from desktop.ui import terms
from desktop.ui.models.base import ROOT, USER

RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)


def cell(value, places: int = 3) -> str:
    """A value as the tables show it: numbers to three places, '–' for none."""
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{value:.{places}f}"
    return str(value)


class RowsModel(QAbstractTableModel):
    """A flat table of prepared rows: the values behind the cells (ValueRole) and their text."""

    ValueRole = USER
    KeyRole = USER + 1  # what a row stands for (a pair's metric label, a system name)
    PLACES = 3

    def __init__(self, parent=None):
        super().__init__(parent)
        self.headers: list[tuple[str, str | None]] = []  # (header, tooltip)
        self.values: list[list] = []
        self.keys: list = []
        self._cells: list[list[str]] = []
        self._bold: list[bool] = []

    def set_rows(
        self,
        headers: Sequence[tuple[str, str | None]],
        rows: Sequence[Sequence],
        keys: Sequence = (),
        bold: Sequence[bool] = (),
    ) -> None:
        self.beginResetModel()
        self.headers = list(headers)
        self.values = [list(r) for r in rows]
        self.keys = list(keys) or [None] * len(self.values)
        self._cells = [[cell(v, self.PLACES) for v in r] for r in self.values]
        self._bold = list(bold) or [False] * len(self.values)
        self.endResetModel()

    def rowCount(self, parent=ROOT) -> int:
        return 0 if parent.isValid() else len(self.values)

    def columnCount(self, parent=ROOT) -> int:
        return 0 if parent.isValid() else len(self.headers)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(self.headers):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self.headers[section][0]
        if role == Qt.ItemDataRole.ToolTipRole:
            return self.headers[section][1]
        return None

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or index.row() >= len(self.values):
            return None
        row, column = index.row(), index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self._cells[row][column]
        if role == self.ValueRole:
            return self.values[row][column]
        if role == self.KeyRole:
            return self.keys[row]
        if role == Qt.ItemDataRole.TextAlignmentRole:
            value = self.values[row][column]
            return RIGHT if isinstance(value, int | float) or value is None else None
        if role == Qt.ItemDataRole.FontRole and self._bold[row]:
            font = QFont()
            font.setBold(True)
            return font
        return None


class PairsModel(RowsModel):
    """Win/tie/loss per question and the randomization test, Holm-adjusted over the whole
    family; ★ where the adjusted p is under compare.ALPHA (as in the report)."""

    def set_comparison(self, comparison: compare.Comparison | None, scope: Sequence[str]) -> None:
        headers = [
            (self.tr("A"), None),
            (self.tr("B"), None),
            (self.tr("Measure"), None),
            (self.tr("Wins"), self.tr("Questions where A scores higher than B")),
            (self.tr("Ties"), self.tr("Questions where A and B score the same")),
            (self.tr("Losses"), self.tr("Questions where A scores lower than B")),
            ("p", self.tr("Paired randomization test (two-sided)")),
            (self.tr("p (Holm)"), self.tr("Holm–Bonferroni adjusted over the whole family")),
            ("★", self.tr("★: adjusted p under {alpha}").format(alpha=compare.ALPHA)),
        ]
        rows, keys, bold = [], [], []
        for r in pairs_in(comparison, scope):
            star = r.p_holm is not None and r.p_holm < compare.ALPHA
            rows.append(
                [
                    r.a,
                    r.b,
                    terms.measure_label(r.metric),
                    r.wins,
                    r.ties,
                    r.losses,
                    r.p,
                    r.p_holm,
                    "★" if star else "",
                ]
            )
            keys.append((r.a, r.b, r.metric))
            bold.append(star)
        self.set_rows(headers, rows, keys, bold)


def pairs_in(comparison: compare.Comparison | None, scope: Sequence[str]) -> list:
    """The pair rows of the scope: A against B for two systems, else every unordered pair in
    system order; by K, then measure."""
    if comparison is None:
        return []
    order = {name: i for i, name in enumerate(comparison.systems)}
    if len(scope) == 2:
        a, b = scope
        return [r for r in comparison.pairs if r.a == a and r.b == b]
    shown = set(scope)
    return [
        r for r in comparison.pairs if r.a in shown and r.b in shown and order[r.a] < order[r.b]
    ]


class SystemsModel(RowsModel):
    """Per system of the scope: the evidence items only it finds among all systems at each K,
    for two systems the items it finds and the other misses, and its abstention."""

    def set_comparison(self, comparison: compare.Comparison | None, scope: Sequence[str]) -> None:
        if comparison is None:
            self.set_rows([], [])
            return
        ks = comparison.ks
        pair = len(scope) == 2
        headers = [(self.tr("System"), None)]
        headers += [
            (
                self.tr("Only it @{k}").format(k=k),
                self.tr("Evidence items this system alone finds in its top {k}").format(k=k),
            )
            for k in ks
        ]
        if pair:
            headers += [
                (
                    self.tr("Other misses @{k}").format(k=k),
                    self.tr("Items this system finds in its top {k} and the other misses").format(
                        k=k
                    ),
                )
                for k in ks
            ]
        headers += [
            ("AUROC", self.tr("How well the top-1 score tells answerable from abstain questions")),
            (self.tr("Threshold"), self.tr("Answer when the top-1 score is at least this")),
            (self.tr("Accuracy"), self.tr("Right answer-or-abstain decisions at the threshold")),
        ]
        unique = {(u["system"], u["k"]): u["items"] for u in comparison.unique}
        missed = {(m["a"], m["b"], m["k"]): m["items"] for m in comparison.a_finds_b_misses}
        abstain = {a.system: a for a in comparison.abstain}
        rows = []
        for name in scope:
            row: list = [name, *(unique.get((name, k)) for k in ks)]
            if pair:
                other = scope[1] if name == scope[0] else scope[0]
                row += [missed.get((name, other, k)) for k in ks]
            a = abstain.get(name)
            row += [a.auroc, a.threshold, a.accuracy] if a else [None, None, None]
            rows.append(row)
        self.set_rows(headers, rows, list(scope))


class TiesModel(RowsModel):
    """Ties at the cutoff (TREC runs): the mean in trec_eval's order with the lowest and
    highest over every order of the tied passages, where some question's value depends on it."""

    PLACES = 4  # a tie moves a mean over many questions by little

    def set_comparison(self, comparison: compare.Comparison | None, scope: Sequence[str]) -> None:
        headers = [
            (self.tr("System"), None),
            (self.tr("Measure"), None),
            (self.tr("Value"), self.tr("Mean in trec_eval's order of tied passages")),
            (self.tr("Low"), self.tr("Lowest mean over the orders of the tied passages")),
            (self.tr("High"), self.tr("Highest mean over the orders of the tied passages")),
            (self.tr("Questions"), self.tr("Questions whose value depends on the tie order")),
        ]
        shown = set(scope)
        ties = [
            t for t in (comparison.ties if comparison else []) if t.system in shown and t.questions
        ]
        rows = [
            [t.system, terms.measure_label(t.metric), t.value, t.low, t.high, t.questions]
            for t in ties
        ]
        self.set_rows(headers, rows, [(t.system, t.metric) for t in ties])


def union_recall(comparison: compare.Comparison, scope: Sequence[str]) -> dict:
    """Union Recall@K per K of all systems together and, for two shown, of that pair:
    {"all": {k: value}, "pair": {k: value}}."""
    out: dict[str, dict[int, float | None]] = {"all": {}, "pair": {}}
    for u in comparison.union:
        if u["systems"] == comparison.systems:
            out["all"][u["k"]] = u["Recall"]
        if len(scope) == 2 and set(u["systems"]) == set(scope):
            out["pair"][u["k"]] = u["Recall"]
    return out
