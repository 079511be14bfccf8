"""Keeping the metrics up to date: the full pass at open and after changes that move every
question, one question rescored after a judgement on it, the agreement when it is shown.
All of it runs in the metrics worker, in order; results of a superseded pass are dropped."""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer, Signal

from desktop.ui import operations
from desktop.ui.comparison import ComparisonRunner
from desktop.ui.metrics_dock import MetricsDock
from desktop.ui.operations import Worker
from desktop.ui.session import ReviewSession


class MetricsRunner(QObject):
    busyChanged = Signal(bool)

    def __init__(self, session: ReviewSession, dock: MetricsDock, db_path, parent=None):
        super().__init__(parent)
        self.session = session
        self.dock = dock
        self.worker = Worker(db_path, self, "metrics")
        self.worker.changed.connect(self._state)
        # Every question's pool counted (seconds at a million passages) on a thread of its
        # own, so that a judgement's rescore never waits behind it.
        self.counter = Worker(db_path, self, "pool")
        self.generation = 0  # of the full pass
        self._pending = 0  # results received, to be applied
        dock.agreementWanted.connect(self.refresh_agreement)
        # The comparison (seconds at the reference size) on a thread of its own too: a
        # judgement's rescore must not queue behind a comparison's next progress call.
        self.comparison = ComparisonRunner(
            session, dock.comparison, Worker(db_path, self, "compare"), dock.comparison_shown, self
        )

    def busy(self) -> bool:
        """Scores still coming (the comparison, which the scores never wait for, aside)."""
        return self.worker.busy() or self._pending > 0

    def _later(self, apply) -> None:
        """Apply a result from a zero timer: after the frame that shows the judgement has
        been painted, not inside it. Busy until then."""
        self._pending += 1

        def run() -> None:
            self._pending -= 1
            apply()
            self._state()

        QTimer.singleShot(0, run)

    def forget(self) -> None:
        """Results still coming are for data no longer shown."""
        self.generation += 1
        self.comparison.forget()

    def full_pass(self) -> None:
        """Every system over every question; supersedes any pass under way."""
        session = self.session
        if session.project is None or not session.questions:
            return
        self.generation += 1
        generation = self.generation
        self.worker.cancel("full")
        self.worker.start(
            "full",
            operations.overview_op(session.reviewer, session.blind, session.window_ks(), session.k),
            on_done=lambda done: self._current(generation) and session.set_overview(done.result),
            on_failed=lambda error: self._failed(generation, error),
            on_progress=self.dock.show_progress,
        )
        self.count_pool(generation)

    def workers(self) -> tuple[Worker, Worker, Worker]:
        return self.worker, self.counter, self.comparison.worker

    def counting(self) -> bool:
        """Every question's pool is being counted (not scores: the dock does not say so)."""
        return self.counter.busy()

    def count_pool(self, generation: int | None = None) -> None:
        """Every question's unjudged count, beside the full pass."""
        session = self.session
        generation = self.generation if generation is None else generation
        self.counter.cancel("pool")
        session.counting()
        self.counter.start(
            "pool",
            operations.pool_counts_op(session.reviewer, session.blind, session.pool_depth),
            on_done=lambda done: self._current(generation) and session.set_unjudged(done.result),
            on_failed=lambda error: self._failed(generation, error),
        )

    def rescore(self, question: dict) -> None:
        """One question again after a judgement on it."""
        generation = self.generation
        session = self.session
        ks = list(session.board.ks) if session.board else session.window_ks()
        self.worker.start(
            "question",
            operations.rescore_op(
                question,
                session.reviewer,
                session.blind,
                ks,
                session.reviewers,
                self.dock.agreement_shown(),
                session.pool_depth,
                session.k,
            ),
            on_done=lambda done: self._later(
                lambda: self._question_ready(generation, question["pk"], done.result)
            ),
            on_failed=lambda error: self._failed(generation, error),
        )

    def after_judgement(self, question: dict, new_reviewer: bool) -> None:
        if new_reviewer or self.session.board is None:
            # A second reviewer appearing changes what counts everywhere (single → pending).
            self.full_pass()
        else:
            self.rescore(question)

    def refresh_agreement(self) -> None:
        """The agreement reads the whole log: only when its tab is shown or asked for."""
        session = self.session
        if session.blind or session.project is None or not session.questions:
            return
        self.worker.start(
            "agreement",
            operations.agreement_op(),
            on_done=lambda done: self.dock.set_agreement(done.result),
        )

    def k_changed(self, k: int) -> None:
        # Every question's review status asks a role of its misses at the K shown (one full
        # pass, on the worker; switching questions stays as it was).
        self.full_pass()

    def _current(self, generation: int) -> bool:
        return generation == self.generation

    def _question_ready(self, generation: int, pk: int, result) -> None:
        summary, entries, agreement = result
        if self._current(generation):
            self.session.set_question_scores(pk, summary, entries, agreement)

    def _failed(self, generation: int, error) -> None:
        if self._current(generation):
            self.dock.show_failure(error)

    def _state(self) -> None:
        busy = self.busy()
        self.dock.set_busy(busy)
        self.busyChanged.emit(busy)
