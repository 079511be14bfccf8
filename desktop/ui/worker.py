"""The long-lived worker threads that run the named operations (desktop/ui/operations.py):
one Project each, operations in the order they were started, their results handed to
callbacks on the GUI thread, and a pause while the window asks (give_way) so that a worker
never takes a question switch's frame."""

from __future__ import annotations

import queue
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QObject, QTimer, Signal, Slot

from desktop.readers import Cancelled

if TYPE_CHECKING:
    from desktop.ui.operations import Changes


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

    def cancelled_within(self, seconds: float) -> bool:
        return self._cancel.wait(seconds)

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
        self._quiet_after = 0.0  # monotonic time before which no operation starts (hold)
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
        """Ask running operations to pause at their next progress call, and the next ones
        not to start, until the GUI has been quiet for msecs."""
        self.give_way.set()
        self._resume.start(msecs)
        self.defer(msecs)

    def defer(self, msecs: int = 150) -> None:
        """The next operations start once msecs have passed without another defer (or
        hold); what runs already goes on."""
        self._quiet_after = time.monotonic() + msecs / 1000

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
                self._start_when_quiet(op)
                if op.is_cancelled:
                    raise Cancelled()
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

    def _start_when_quiet(self, op: Operation) -> None:
        """Held: an operation starts once the window has been quiet for the hold's time, so
        that one a key started takes neither the GIL nor a core from that key's frame, and
        one for a question passed over is cancelled before it ran. Timed by the clock, not by
        the GUI's timer: a GUI thread blocked waiting for this worker would never run it."""
        while not op.is_cancelled:
            left = self._quiet_after - time.monotonic()
            if left <= 0:
                return
            op.cancelled_within(left)  # the hold may have been renewed meanwhile: look again

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
