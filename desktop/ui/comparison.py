"""The comparison tab of the metrics dock (issue 10): for the two systems shown in compare
mode, or for all, win/tie/loss with Holm-adjusted significance, what only one system finds,
union recall, tie ranges at the cutoff and abstention. All of it is evaluation.compare.compare,
the `compare` command's function, run on a worker of its own (a judgement's rescore never waits
behind it): recomputed (debounced) when the scores change while the tab is shown, cancelled
when superseded; the window never waits."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from desktop.evaluation import compare
from desktop.ui import operations, terms
from desktop.ui.common import review_table, shrinkable
from desktop.ui.models import PairsModel, SystemsModel, TiesModel
from desktop.ui.models.comparison import cell, union_recall
from desktop.ui.session import ReviewSession
from desktop.ui.worker import Worker

DEBOUNCE_MS = 1200  # judgements come in bursts: compare once the reviewer pauses


class ComparisonPanel(QWidget):
    wanted = Signal()  # shown, or its scope changed: bring it up to date if stale

    def __init__(self, session: ReviewSession, parent=None):
        super().__init__(parent)
        self.session = session
        self.comparison: compare.Comparison | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        top = QHBoxLayout()
        self.state = shrinkable(QLabel())
        self.state.setWordWrap(True)
        top.addWidget(self.state, 1)
        self.all_systems = QCheckBox(self.tr("All systems"))
        self.all_systems.setToolTip(self.tr("Every system, not only the two shown in compare mode"))
        self.all_systems.toggled.connect(self._scope_changed)
        top.addWidget(self.all_systems)
        layout.addLayout(top)
        self.split = QSplitter(Qt.Orientation.Horizontal)
        self.split.setObjectName("comparison-split")
        self.pairs_model = PairsModel(self)
        self.pairs = self._table(self.pairs_model)
        self.split.addWidget(self.pairs)
        # Side by side, tables that shrink to a header and a row: the dock stays as low as
        # the reviewer wants it (compare mode needs the height for two rankings).
        self.systems_model = SystemsModel(self)
        self.systems = self._table(self.systems_model)
        self.split.addWidget(self.systems)
        self.ties_model = TiesModel(self)
        self.ties = self._table(self.ties_model)
        self.split.addWidget(self.ties)
        for i, stretch in enumerate((4, 4, 3)):
            self.split.setStretchFactor(i, stretch)
        layout.addWidget(self.split, 1)
        session.systemsChanged.connect(self._scope_changed)
        self.show_state(self.tr("The comparison is computed when this tab is shown."))

    def _table(self, model):
        table = review_table(self)
        table.setModel(model)
        table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        table.setMinimumHeight(2 * table.fontMetrics().lineSpacing() + 12)
        table.verticalHeader().setDefaultSectionSize(table.fontMetrics().height() + 8)  # a line
        return table

    def scope(self) -> list[str]:
        """The systems compared: the two shown in compare mode, else (or asked) all."""
        session = self.session
        shown = [s["name"] for s in session.shown_systems()]
        if len(shown) == 2 and not self.all_systems.isChecked():
            return shown
        return session.system_names()

    def set_comparison(self, comparison: compare.Comparison) -> None:
        self.comparison = comparison
        self._fill()

    def clear(self) -> None:
        self.comparison = None
        self._fill()

    def _scope_changed(self, *_args) -> None:
        self._fill()
        self.wanted.emit()

    def _fill(self) -> None:
        comparison, scope = self.comparison, self.scope()
        for model in (self.pairs_model, self.systems_model, self.ties_model):
            model.set_comparison(comparison, scope)
        if comparison is None:
            self.state.setToolTip("")
            return
        self.show_state(self._summary(comparison) + " " + self._union_text(comparison, scope))
        self.state.setToolTip(self._details(comparison))

    def _summary(self, comparison: compare.Comparison) -> str:
        text = self.tr("{n} questions; p (Holm) over all {family} tests; ★ under {alpha}.").format(
            n=comparison.evaluated, family=comparison.family, alpha=compare.ALPHA
        )
        if len(comparison.systems) < 2:
            text += " " + self.tr("Win/tie/loss needs two systems.")
        if not comparison.abstain:
            text += " " + self.tr("No abstention figures (needs scores and abstain questions).")
        if not self.ties_model.rowCount():
            text += " " + self.tr("No tie at the cutoff changes a value.")
        return text

    def _details(self, comparison: compare.Comparison) -> str:
        return self.tr(
            "Over the {n} questions with evidence. p: paired randomization test ({perms} sign "
            "flips, seed {seed}); p (Holm): Holm–Bonferroni over all {family} tests (every "
            "pair of the {systems} systems, measure and K); ★ where it is under {alpha}. "
            "AUROC, threshold and accuracy: only where runs carry scores and there are both "
            "answerable and abstain questions."
        ).format(
            n=comparison.evaluated,
            perms=comparison.permutations,
            seed=comparison.seed,
            family=comparison.family,
            systems=len(comparison.systems),
            alpha=compare.ALPHA,
        )

    def _union_text(self, comparison: compare.Comparison, scope: list[str]) -> str:
        union = union_recall(comparison, scope)

        def values(by_k: dict) -> str:
            return " · ".join(f"@{k} {cell(v)}" for k, v in sorted(by_k.items()))

        text = self.tr("Union Recall (a perfect fusion), all systems: {values}").format(
            values=values(union["all"])
        )
        if union["pair"] and len(comparison.systems) > 2:
            text += "; " + self.tr("of {a} + {b}: {values}").format(
                a=scope[0], b=scope[1], values=values(union["pair"])
            )
        return text

    def show_state(self, text: str) -> None:
        self.state.setText(text)

    def show_progress(self, done: int, total: int, phase=None) -> None:
        if total:
            self.show_state(
                self.tr("Comparing… {p}% ({phase})").format(
                    p=done * 100 // total, phase=terms.phase(phase or "")
                )
            )

    def show_failure(self, error) -> None:
        self.show_state(
            self.tr("The comparison could not be computed: {error}").format(error=error)
        )


class ComparisonRunner(QObject):
    """Keeps the comparison current while its tab is shown: a debounced `compare_op` on its
    own worker after every change of the scores, the previous one cancelled."""

    def __init__(
        self,
        session: ReviewSession,
        panel: ComparisonPanel,
        worker: Worker,
        shown: Callable[[], bool],
        parent=None,
    ):
        super().__init__(parent)
        self.session = session
        self.panel = panel
        self.worker = worker
        self.shown = shown
        self.stale = True
        self.generation = 0
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.timeout.connect(self.start)
        session.scoresChanged.connect(self._changed)
        # A judgement makes a comparison under way out of date: stop it at once.
        session.judgementsChanged.connect(self._judged)
        session.kChanged.connect(self._changed)
        session.blindChanged.connect(self._changed)
        panel.wanted.connect(self.request)

    def busy(self) -> bool:
        return self.timer.isActive() or self.worker.busy("compare")

    def forget(self) -> None:
        """The database changed: what is shown and what is coming are out of date."""
        self.generation += 1
        self.worker.cancel("compare")
        self.timer.stop()
        self.stale = True
        self.panel.clear()

    def request(self) -> None:
        """Shown, or the scope changed: compute now if out of date."""
        if self.stale and not self.worker.busy("compare"):
            self.timer.start(0)

    def _changed(self, *_args) -> None:
        self.stale = True
        if self.shown():
            self.timer.start(DEBOUNCE_MS)

    def _judged(self, _pk: int) -> None:
        self.worker.cancel("compare")
        self._changed()

    def start(self) -> None:
        session = self.session
        if not self.shown() or session.project is None or not session.questions:
            return
        if session.blind:
            # compare reads every reviewer's lines; blind mode shows only one's own.
            self.panel.clear()
            self.panel.show_state(
                self.tr("Blind mode: the comparison is hidden until you leave it.")
            )
            return
        self.worker.cancel("compare")
        self.generation += 1
        generation = self.generation
        self.stale = False
        self.panel.show_state(self.tr("Comparing…"))

        def done(result) -> None:
            if generation == self.generation:
                self.panel.set_comparison(result.result)

        def failed(error) -> None:
            if generation == self.generation:
                self.stale = True
                self.panel.show_failure(error)

        def cancelled() -> None:
            if generation == self.generation:
                self.stale = True

        self.worker.start(
            "compare",
            operations.compare_op(session.window_ks()),
            on_done=done,
            on_failed=failed,
            on_progress=lambda d, t, phase=None: (
                generation == self.generation and self.panel.show_progress(d, t, phase)
            ),
            on_cancelled=cancelled,
        )
