"""Keeping the metrics up to date: the full pass at open and after changes that move every
question, one question rescored after a judgement on it, the agreement when it is shown.
All of it runs in the metrics worker, in order; results of a superseded pass are dropped."""

from __future__ import annotations

from functools import partial

from PySide6.QtCore import QCoreApplication, QObject, Signal

from desktop.ui import operations
from desktop.ui.after_frame import AfterFrame
from desktop.ui.comparison import ComparisonRunner
from desktop.ui.metrics_dock import MetricsDock
from desktop.ui.session import ReviewSession
from desktop.ui.worker import Worker


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
        # A judged question is built (view, pool, scores) on a thread of its own too: the
        # key's effect never waits behind a full pass.
        self.builder = Worker(db_path, self, "judged")
        self.builder.changed.connect(self._state)
        self._judged: dict[int, object] = {}  # pk -> Judged applied since the pass started
        self.generation = 0  # of the full pass
        self._pending = 0  # results received, to be applied
        self._due: list = []  # builds to start once the key's frame is painted
        self._after_frame = AfterFrame(self)
        dock.agreementWanted.connect(self.refresh_agreement)
        # The comparison (seconds at the reference size) on a thread of its own too: a
        # judgement's rescore must not queue behind a comparison's next progress call.
        self.comparison = ComparisonRunner(
            session, dock.comparison, Worker(db_path, self, "compare"), dock.comparison_shown, self
        )

    def busy(self) -> bool:
        """Scores still coming (the comparison, which the scores never wait for, aside)."""
        return self.worker.busy() or self.builder.busy() or self._pending > 0

    def _later(self, apply) -> None:
        """Apply a result after the frame that shows the judgement has been painted, not
        inside it. Busy until then."""
        self._pending += 1

        def run() -> None:
            self._pending -= 1
            apply()
            self._state()

        self._after_frame(run)

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
        self._judged = {}
        self.worker.cancel("full")
        self.worker.start(
            "full",
            operations.overview_op(
                session.reviewer,
                session.blind,
                session.window_ks(),
                session.k,
                session.span_choice(full=True),
            ),
            on_done=lambda done: self._overview_ready(generation, done.result),
            on_failed=lambda error: self._failed(generation, error),
            on_progress=self.dock.show_progress,
        )
        self.count_pool(generation)
        # The builder opens its Project now, not at the first judgement (which would wait
        # for it: the first judgement is shown as fast as the next).
        self.builder.start("open", lambda _project, _progress: None)

    def _overview_ready(self, generation: int, result) -> None:
        if not self._current(generation):
            return
        self.session.set_overview(result)
        # Questions judged while the pass ran: their own build is the fresher.
        for judged in self._judged.values():
            self.session.set_question_scores(
                judged.view.pk, judged.summary, judged.entries, judged.agreement
            )

    def hold(self) -> None:
        """The reviewer moves or judges: every pass on all questions (scores, pool counts, the
        comparison) pauses where it is until the window has been quiet for a moment. The
        judged question's build goes on: the window is waiting for it."""
        for worker in (self.worker, self.counter, self.comparison.worker):
            worker.hold()

    def workers(self) -> tuple[Worker, ...]:
        return self.worker, self.counter, self.builder, self.comparison.worker

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

    def after_judgement(self, question: dict, others_move: bool, shown: bool = False) -> None:
        """Build the judged question once, on the builder: the window shows its view, then
        takes its scores. A second reviewer joining changes what counts on every question the
        first judged (single → pending): that full pass starts after the key's effect is
        shown. shown: the key's effect is on screen without the build (the pool queue moved
        on at the key): the build starts after that frame, not beside its painting."""
        generation, session = self.generation, self.session
        systems = session.shown_systems()
        serial = session.serial
        ks = list(session.board.ks) if session.board else session.window_ks()
        start = partial(
            self.builder.start,
            "judged",
            operations.judged_op(
                question,
                systems,
                session.k,
                session.reviewer,
                session.blind,
                session.reviewers,
                ks,
                session.pool_depth,
                self.dock.agreement_shown(),
                session.systems,
                session.span_choice(),
                session.marks,
            ),
            on_done=lambda done: self._judged_ready(generation, serial, done.result, others_move),
            on_failed=lambda error: self._failed(generation, error),
        )
        if not shown:
            start()
            return
        self._due.append(start)
        self._later(self.start_due)

    def start_due(self) -> None:
        """Start the builds held back until the key's frame was painted."""
        due, self._due = self._due, []
        for start in due:
            start()

    def settle(self, msecs: int = 5000) -> None:
        """Show a judged question's build still coming, now (waiting for it when needed)."""
        self.start_due()  # a key before the frame was painted: it acts on the build
        if self.builder.busy("judged"):
            self.builder.wait(msecs)
            # Its result is a queued signal from the builder's thread: deliver it.
            QCoreApplication.sendPostedEvents()

    def _judged_ready(self, generation: int, serial: int, judged, others_move: bool) -> None:
        if not self._current(generation):
            return
        self.session.take_view(judged.view, serial)
        self._judged[judged.view.pk] = judged
        self._later(lambda: self._question_ready(generation, judged))
        if others_move or self.session.board is None:
            self._later(lambda: self._full_pass_after(judged))

    def _full_pass_after(self, judged) -> None:
        self.full_pass()
        self._judged[judged.view.pk] = judged

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

    def _question_ready(self, generation: int, judged) -> None:
        if self._current(generation):
            self.session.set_question_scores(
                judged.view.pk, judged.summary, judged.entries, judged.agreement
            )

    def _failed(self, generation: int, error) -> None:
        if self._current(generation):
            self.dock.show_failure(error)

    def _state(self) -> None:
        busy = self.busy()
        self.dock.set_busy(busy)
        self.busyChanged.emit(busy)
