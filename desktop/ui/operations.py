"""Slow work as named operations, each run on a long-lived worker thread.

Modelled on Anki's qt/aqt/operations (CollectionOp for changes, QueryOp for reads): an
operation is a function of a Project that returns its result together with a `Changes` saying
what it changed (a judgement on question q, an import of kind X, a merge), and the review
session refreshes the panels from that. A `Worker` is one thread that keeps one Project open
for as long as the window uses the database (SQLite connections belong to the thread that
opened them; opening a Project per task would repeat the backup and migration checks).

`progress(done, total, phase=None)` raises `Cancelled` once the operation is cancelled, which
rolls back an import's transaction.
"""

from __future__ import annotations

import queue
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QObject, QTimer, Signal, Slot

from desktop import review
from desktop.gold.pool import DEFAULT_DEPTH
from desktop.readers import Cancelled
from desktop.readers.kinds import IMPORT_KINDS

# The areas of the database an operation may change, each a flag of Changes, which the window
# reads again (desktop/ui/files.py apply_changes).
CHANGED_AREAS = ("questions", "systems", "gold", "texts", "reviewers")
_AREAS_OF = {
    "corpus": ("texts", "gold", "systems"),  # gold and runs may resolve to the new passages
    "documents": ("texts", "gold"),  # spans' gold is placed in the documents' texts
    "questions": ("questions",),
    "gold": ("gold", "reviewers"),  # written as lines of the log, under the file's reviewer
    "run": ("systems",),
    "judgements": ("gold", "reviewers"),
    "beir": ("texts", "questions", "gold", "reviewers"),
}
# What an import of each of the readers' kinds changes, in the design's words: when in doubt an
# area is named, and every kind that can move a score names questions, systems, gold or texts.
# A kind the readers add must be named here (KeyError at import); one not a file's kind (the
# sample) changes them all.
IMPORT_CHANGES = {kind: _AREAS_OF[kind] for kind in IMPORT_KINDS}


@dataclass(frozen=True)
class Changes:
    """What an operation changed, for the panels to refresh from."""

    kind: str  # "judgement", "import", "merge", "export", "metrics", "query", "mark"
    what: str = ""  # the import's kind ("corpus", "run", "sample", ...)
    question: int | None = None  # the question's pk, for a judgement
    # The areas an import, a merge or a mark changed (CHANGED_AREAS), which the window
    # reads again: no more, and when in doubt one is set (never a stale number shown).
    questions: bool = False
    systems: bool = False  # the systems and their runs
    gold: bool = False  # the gold and the judgement log
    texts: bool = False  # passages' and documents' texts, chunkings
    reviewers: bool = False  # who judged, who is a machine

    @classmethod
    def of_import(cls, what: str) -> Changes:
        """An import of this kind: the areas IMPORT_CHANGES names for it, or all."""
        areas = IMPORT_CHANGES.get(what, CHANGED_AREAS)
        return cls("import", what=what, **{area: True for area in areas})

    @property
    def data(self) -> bool:
        """The database's content changed: something is read again."""
        return any(getattr(self, area) for area in CHANGED_AREAS)

    @property
    def scores(self) -> bool:
        """A score may have moved: the full metrics pass runs again."""
        return self.questions or self.systems or self.gold or self.texts


@dataclass
class Done:
    result: object
    changes: Changes


class CommittedError(Exception):
    """An operation failed after its changes were committed: the window must not say that
    nothing was changed, and must show the new data."""

    def __init__(self, error: Exception, changes: Changes):
        super().__init__(str(error))
        self.error = error
        self.changes = changes


class Operation:
    def __init__(self, name: str, work: Callable, give_way: threading.Event | None = None):
        self.name = name
        self.work = work
        self._give_way = give_way  # set by the GUI while the reviewer is busy
        self._cancel = threading.Event()
        self._last_tick = 0.0
        self._phase: str | None = None
        self.on_done: Callable | None = None
        self.on_failed: Callable | None = None
        self.on_progress: Callable | None = None
        self.on_cancelled: Callable | None = None
        self.signals: _Signals | None = None
        self.pauses = 0  # times it gave way to the GUI (progress calls and SQL statements)

    def cancel(self) -> None:
        self._cancel.set()

    @property
    def is_cancelled(self) -> bool:
        return self._cancel.is_set()

    def progress(self, done: int, total: int, phase: str | None = None) -> None:
        if self._cancel.is_set():
            raise Cancelled()
        self.give_way()
        if self._cancel.is_set():
            raise Cancelled()
        now = time.monotonic()
        if now - self._last_tick >= 0.05 or done >= total or phase != self._phase:
            self._last_tick, self._phase = now, phase  # a new phase shows at once
            self.signals.progress.emit(self, int(done), int(total), phase or "")

    def give_way(self) -> None:
        """Pause while the GUI asks (at most 5 s, and not once cancelled): Python code or a
        SQLite statement in this thread would slow every question switch down by competing
        for the GIL and the CPU."""
        waited = 0.0
        if self._give_way is None or not self._give_way.is_set():
            return
        self.pauses += 1
        while self._give_way.is_set() and waited < 5.0:
            if self._cancel.wait(0.01):
                return
            waited += 0.01


class _Signals(QObject):
    progress = Signal(object, int, int, str)
    finished = Signal(object, object)
    failed = Signal(object, object)
    cancelled = Signal(object)


# While a worker runs Python code, the GUI thread waits up to the interpreter's switch
# interval (5 ms by default) each time it takes the GIL back. Shorter keeps a switch fast.
SWITCH_INTERVAL = 0.0005
# SQLite virtual-machine instructions between two looks at give_way inside one statement
# (well under a millisecond): a read of a second pauses for a question switch, as Python code
# does at its progress calls.
SQL_GIVE_WAY_EVERY = 20_000


class Worker(QObject):
    """One long-lived thread with its own Project, running operations in the order they were
    started, and handing their results to callbacks on the GUI thread."""

    changed = Signal()  # an operation started or ended

    def __init__(self, db_path, parent=None, name: str = "worker"):
        super().__init__(parent)
        if sys.getswitchinterval() > SWITCH_INTERVAL:
            sys.setswitchinterval(SWITCH_INTERVAL)
        self.db_path = Path(db_path)
        self.give_way = threading.Event()
        self._resume = QTimer(self)
        self._resume.setSingleShot(True)
        self._resume.timeout.connect(self.give_way.clear)
        self.signals = _Signals(self)
        self.signals.finished.connect(self._finished)
        self.signals.failed.connect(self._failed)
        self.signals.progress.connect(self._progress)
        self.signals.cancelled.connect(self._cancelled)
        self.operations: list[Operation] = []
        self._running: Operation | None = None  # on the worker thread
        self._queue: queue.Queue = queue.Queue()
        self._idle = threading.Event()
        self._idle.set()
        self._thread = threading.Thread(target=self._loop, name=f"rr-{name}", daemon=True)
        self._thread.start()

    def set_database(self, path) -> None:
        """Later operations use this database (the worker reopens its Project)."""
        self.db_path = Path(path)

    def start(
        self,
        name: str,
        work: Callable,
        *,
        on_done: Callable | None = None,
        on_failed: Callable | None = None,
        on_progress: Callable | None = None,
        on_cancelled: Callable | None = None,
    ) -> Operation:
        op = Operation(name, work, self.give_way)
        op.signals = self.signals
        op.on_done, op.on_failed = on_done, on_failed
        op.on_progress, op.on_cancelled = on_progress, on_cancelled
        self.operations.append(op)
        self._idle.clear()
        self._queue.put((op, self.db_path))
        self.changed.emit()
        return op

    def hold(self, msecs: int = 150) -> None:
        """Ask running operations to pause at their next progress call until the GUI has
        been quiet for msecs."""
        self.give_way.set()
        self._resume.start(msecs)

    def busy(self, name: str | None = None) -> bool:
        return any(name is None or op.name == name for op in self.operations)

    def cancel(self, name: str | None = None) -> None:
        for op in self.operations:
            if name is None or op.name == name:
                op.cancel()

    def wait(self, msecs: int = 30000) -> bool:
        return self._idle.wait(msecs / 1000)

    def stop(self, msecs: int = 30000) -> None:
        """Cancel what runs, close the worker's Project and end its thread."""
        self.cancel()
        self._queue.put(None)
        self._thread.join(msecs / 1000)

    # -- the worker thread -----------------------------------------------------------------

    def _loop(self) -> None:
        project, path = None, None
        while True:
            entry = self._queue.get()
            if entry is None:
                break
            op, wanted = entry
            try:
                if op.is_cancelled:
                    raise Cancelled()
                if project is None or path != wanted:
                    project = _reopen(project, wanted)
                    path = wanted
                    project.store.conn.set_progress_handler(self._in_statement, SQL_GIVE_WAY_EVERY)
                self._running = op
                result = op.work(project, op.progress)
            except Cancelled:
                self.signals.cancelled.emit(op)
            except Exception as error:  # shown to the user by whoever started it
                # The connection may be in any state after a failure: start afresh.
                project = _reopen(project, None)
                path = None
                if op.is_cancelled and not isinstance(error, CommittedError):
                    self.signals.cancelled.emit(op)  # a statement _in_statement stopped
                else:
                    self.signals.failed.emit(op, error)
            else:
                self.signals.finished.emit(op, result)
            self._running = None
            _end_read(project)
            if self._queue.empty():
                self._idle.set()
        _reopen(project, None)

    def _in_statement(self) -> int:
        """sqlite3's progress handler on the worker's connection: a statement pauses where it
        is while the GUI asks, and stops once its operation is cancelled (a superseded pass
        does not read on for a second); 0 lets it go on."""
        op = self._running
        if op is None:
            return 0
        op.give_way()
        return 1 if op.is_cancelled else 0

    # -- back on the GUI thread ------------------------------------------------------------

    def _end(self, op: Operation) -> None:
        if op in self.operations:
            self.operations.remove(op)
        self.changed.emit()

    @Slot(object, object)
    def _finished(self, op: Operation, result) -> None:
        self._end(op)
        if op.is_cancelled:
            if op.on_cancelled:
                op.on_cancelled()
        elif op.on_done:
            op.on_done(result)

    @Slot(object, object)
    def _failed(self, op: Operation, error) -> None:
        self._end(op)
        if op.on_failed:
            op.on_failed(error)

    @Slot(object, int, int, str)
    def _progress(self, op: Operation, done: int, total: int, phase: str) -> None:
        if op.on_progress and op in self.operations:
            op.on_progress(done, total, phase or None)

    @Slot(object)
    def _cancelled(self, op: Operation) -> None:
        self._end(op)
        if op.on_cancelled:
            op.on_cancelled()


def wait_shown(worker: Worker, pending: Callable[[], bool], msecs: int = 5000) -> bool:
    """Wait until what a panel asked of its worker has arrived and been shown (pending()
    false): the worker's result is a queued signal, delivered here. For the keys (a key acts on
    what the previous one asked for) and tests; True when it was shown in time."""
    deadline = time.monotonic() + msecs / 1000
    while pending() and time.monotonic() < deadline:
        worker.wait(20)
        QCoreApplication.sendPostedEvents()
    return not pending()


def _end_read(project) -> None:
    """End what an operation left open (a scratch table's implicit transaction): a long-lived
    connection would otherwise keep reading the snapshot it started. What an operation meant
    to keep it has committed; a Project per task dropped the rest the same way."""
    if project is not None:
        project.reads.end_read()


def _reopen(project, path):
    from desktop.project import Project

    if project is not None:
        project.close()
    return Project(path) if path is not None else None


# -- the operations --------------------------------------------------------------------------


def import_file(project, kind: str, path, options: dict, progress):
    """The window's imports go through the one import entry the command line uses."""
    return project.import_file(kind, path, progress=progress, **options)


def _changing(changes: Changes, work: Callable) -> Callable:
    """Run work; a failure after something was committed becomes CommittedError."""

    def run(project, progress) -> Done:
        before = project.reads.change_stamp()
        try:
            return Done(work(project, progress), changes)
        except Cancelled:
            raise
        except Exception as error:
            try:
                committed = project.reads.change_stamp() != before
            except Exception:  # the connection itself is gone: say what failed first
                committed = False
            if committed:
                raise CommittedError(error, changes) from error
            raise

    return run


def import_op(kind: str, path, options: dict) -> Callable:
    path = str(path)
    return _changing(
        Changes.of_import(kind),
        lambda project, progress: import_file(project, kind, path, options, progress),
    )


def sample_op() -> Callable:
    from desktop.app.sample import load_sample

    return _changing(
        Changes.of_import("sample"),
        lambda project, progress: list(load_sample(project, progress)),
    )


def merge_op(path) -> Callable:
    path = str(path)
    # A merge adds judgement lines only (a database of another evaluation is refused).
    changes = Changes("merge", gold=True, reviewers=True)
    return _changing(changes, lambda project, _: project.merge(path))


def mark_op(reviewer: str, machine: bool | None, at: str) -> Callable:
    """A reviewer-mark line (issue 22): who is a machine changes what counts on every
    question (the gold) and the reviewers. Its result: (the row written, the reviewer's mark
    it replaces, None for none), read here so that undo knows what to put back and the GUI
    thread reads nothing."""
    from desktop.gold.effective import machine_marks

    def mark(project, _) -> tuple[dict, bool | None]:
        before = machine_marks(project.reads.mark_lines()).get(reviewer)
        return project.mark_reviewer(reviewer, machine, at), before

    return _changing(Changes("mark", gold=True, reviewers=True), mark)


def export_report_op(path, ks: Sequence[int]) -> Callable:
    from desktop.report import write_report
    from desktop.ui.settings_store import language

    # The sheets are named in the window's language (read here, on the GUI thread).
    path, ks, lang = str(path), list(ks), language()
    return lambda project, progress: Done(
        write_report(project, path, ks, progress=progress, lang=lang), Changes("export")
    )


def export_judgements_op(path, reviewer: str) -> Callable:
    path = str(path)
    return lambda project, _: Done(project.export_judgements(path, reviewer), Changes("export"))


EXCERPT = 200  # characters of a similar passage shown in the results table


def search_op(
    text: str,
    offset: int = 0,
    limit: int = 50,
    order: str = "relevance",
    chunking: str | None = None,
) -> Callable:
    """One page of `Project.search` (the command line's search) with the exact total, best
    matches first or in corpus order, of one chunking or all; each found passage's row
    (title, metadata, whole text for the preview) with its excerpt."""

    def work(project, _progress) -> Done:
        page = project.search(text, limit, offset, order, chunking)
        full = project.reads.passages_by_pk([p.pk for p in page.passages])
        rows = [{**full[p.pk], "excerpt": p.excerpt} for p in page.passages if p.pk in full]
        return Done((page.total, rows), Changes("query"))

    return work


def read_op(passage_pk: int, items: list, centre: int | None = None) -> Callable:
    """What the reader shows for a passage (review.reading): read here, not on the GUI thread,
    since a passage with a span brings its document's text."""

    def work(project, _progress) -> Done:
        return Done(review.reading(project, passage_pk, items, centre), Changes("query"))

    return work


def similar_op(passage_pk: int, limit: int = 50) -> Callable:
    """ "More like this": the passages of its chunking most like one (the command line's
    `similar`, db/similar.py), best first, each row with the start of its text as the
    excerpt: (count, rows), as a search page gives them."""

    def work(project, _progress) -> Done:
        alike = project.reads.similar_passages(passage_pk, limit)
        full = project.reads.passages_by_pk([a["pk"] for a in alike])
        rows = [
            {**full[a["pk"]], "excerpt": full[a["pk"]]["text"][:EXCERPT]}
            for a in alike
            if a["pk"] in full
        ]
        return Done((len(rows), rows), Changes("query"))

    return work


def overview_op(
    reviewer: str,
    blind: bool,
    ks: Sequence[int],
    k: int | None = None,
    choice: review.SpanChoice | None = review.DEFAULT_CHOICE,
) -> Callable:
    ks = list(ks)
    return lambda project, progress: Done(
        review.overview(project, reviewer, blind, ks, progress, k=k, choice=choice),
        Changes("metrics"),
    )


def pool_counts_op(reviewer: str, blind: bool, depth: int) -> Callable:
    """Every question's unjudged count, for the question list."""
    return lambda project, _: Done(
        review.pool_counts(project, reviewer, blind, depth), Changes("query")
    )


def judged_op(
    question: dict,
    shown: Sequence[dict],
    k: int,
    reviewer: str,
    blind: bool,
    reviewers: Sequence[str],
    ks: Sequence[int],
    pool_depth: int = DEFAULT_DEPTH,
    agreement: bool = False,
    systems: Sequence[dict] = (),
    choice: review.SpanChoice | None = review.DEFAULT_CHOICE,
) -> Callable:
    """A question after a judgement on it, built once (review.judged_question): the view the
    window shows (its pool too), its question-list line and every system's scores; the
    agreement (which reads the whole log) only when it is shown."""
    shown, ks, reviewers, systems = list(shown), list(ks), list(reviewers), list(systems)

    def work(project, _progress) -> Done:
        judged = review.judged_question(
            project,
            question,
            shown,
            k,
            reviewer,
            blind,
            reviewers,
            ks,
            pool_depth,
            systems,
            choice,
        )
        if agreement and not blind:
            judged.agreement = project.agreement()
        return Done(judged, Changes("judgement", question=question["pk"]))

    return work


@dataclass(frozen=True)
class NextPool:
    """A question's unjudged pool for the queue across questions, with what its rows show."""

    pk: int
    id: str
    entries: list  # PoolEntry, empty when the question has none left
    excerpts: dict  # passage pk -> (title, text)
    suggestions: dict  # (question id, passage id) -> the machines' verdict; none in blind mode


def next_pools_op(
    questions: Sequence[dict],
    wanted: int,
    reviewer: str,
    blind: bool,
    reviewers: Sequence[str],
    depth: int,
    excerpt_chars: int,
) -> Callable:
    """The pools of the questions given, in their order, until `wanted` have passages left
    (review.pool_of), each with its excerpts and machine suggestions: the pool queue's
    "across questions" option, read here and not on the GUI thread. Every question looked at
    is in the result (an empty pool too), so the panel knows not to look again."""
    from desktop.review.suggestions import suggestions

    questions, reviewers = [dict(q) for q in questions], list(reviewers)

    def work(project, progress) -> Done:
        out, found, marks = [], 0, None
        for n, question in enumerate(questions):
            progress(n, len(questions))
            entries = review.pool_of(project, question, reviewer, blind, reviewers, depth)
            excerpts, suggested = {}, {}
            if entries:
                found += 1
                pks = [e.passage_pk for e in entries]
                excerpts = project.reads.passage_excerpts(pks, excerpt_chars)
                if not blind:  # the mark lines tell the machines (effective.is_machine)
                    marks = project.reads.mark_lines() if marks is None else marks
                    lines = project.reads.judgements(question_id=question["id"])
                    suggested = suggestions(lines + marks)
            out.append(NextPool(question["pk"], question["id"], entries, excerpts, suggested))
            if found == wanted:
                break
        return Done(out, Changes("query"))

    return work


def pool_reads_op(unread: Sequence[int], next_pools: Callable) -> Callable:
    """The pool queue's reads on its worker: the excerpts of the current question's pool that
    its view was built without (the queue was behind the rankings), then the next questions'
    pools (next_pools_op, for none when the queue is not across questions). The result:
    (excerpts, pools)."""
    unread = list(unread)

    def work(project, progress) -> Done:
        excerpts = review.pool_excerpts(project, unread)
        return Done((excerpts, next_pools(project, progress).result), Changes("query"))

    return work


def compare_op(ks: Sequence[int]) -> Callable:
    """evaluation.compare.compare, the `compare` command's function, at the window's K values."""
    from desktop.evaluation import compare

    ks = list(ks)
    return lambda project, progress: Done(
        compare.compare(project, ks, progress=progress), Changes("query")
    )


def agreement_op() -> Callable:
    return lambda project, _: Done(project.agreement(), Changes("query"))
