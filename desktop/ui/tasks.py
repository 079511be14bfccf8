"""Slow work off the GUI thread: imports, the metrics pass, export, merge, corpus search.

A task is a function ``work(project, progress)`` run in a pool thread with its own Project
(SQLite connections belong to the thread that opened them). ``progress(done, total[, phase])``
raises
``Cancelled`` once the task is cancelled, which rolls back an import's transaction. Results
come back to the GUI thread through queued signals received by a QObject living there.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, QRunnable, QThreadPool, QTimer, Signal, Slot

from desktop.formats import Cancelled


class _Signals(QObject):
    progress = Signal(object, int, int, object)
    finished = Signal(object, object)
    failed = Signal(object, object)
    cancelled = Signal(object)


class Task(QRunnable):
    def __init__(self, db_path: Path, work: Callable, name: str = "", give_way=None):
        super().__init__()
        self._give_way = give_way  # an Event the GUI sets while the reviewer is busy
        self.setAutoDelete(False)  # the runner keeps it until its signal has arrived
        self.db_path = Path(db_path)
        self.work = work
        self.name = name
        self.signals = _Signals()
        self._cancel = threading.Event()
        self._last_tick = 0.0
        self._phase: str | None = None
        self.on_done: Callable | None = None
        self.on_failed: Callable | None = None
        self.on_progress: Callable | None = None
        self.on_cancelled: Callable | None = None

    def cancel(self) -> None:
        self._cancel.set()

    @property
    def is_cancelled(self) -> bool:
        return self._cancel.is_set()

    def progress(self, done: int, total: int, phase: str | None = None) -> None:
        if self._cancel.is_set():
            raise Cancelled()
        # Pause here while the GUI asks us to: the reviewer is switching questions, and
        # Python code in this thread would slow every switch down by competing for the GIL.
        waited = 0.0
        while self._give_way is not None and self._give_way.is_set() and waited < 5.0:
            if self._cancel.wait(0.01):
                raise Cancelled()
            waited += 0.01
        now = time.monotonic()
        if now - self._last_tick >= 0.05 or done >= total or phase != self._phase:
            self._last_tick, self._phase = now, phase
            self.signals.progress.emit(self, int(done), int(total), phase)

    def run(self) -> None:
        from desktop.project import Project

        try:
            if self._cancel.is_set():
                raise Cancelled()
            with Project(self.db_path) as project:
                result = self.work(project, self.progress)
        except Cancelled:
            self.signals.cancelled.emit(self)
        except Exception as error:  # shown to the user by whoever started the task
            self.signals.failed.emit(self, error)
        else:
            self.signals.finished.emit(self, result)


# While a worker runs Python code, the GUI thread waits up to the interpreter's switch
# interval (5 ms by default) every time it takes the GIL back, after each SQLite step for
# instance. A shorter interval keeps a question switch fast while the metrics are computed.
SWITCH_INTERVAL = 0.0005


class Runner(QObject):
    """Starts tasks and hands their results to callbacks on the GUI thread. threads=1 gives a
    queue in which tasks run in the order they were started."""

    changed = Signal()  # a task started or ended

    def __init__(self, parent=None, threads: int | None = None):
        super().__init__(parent)
        if sys.getswitchinterval() > SWITCH_INTERVAL:
            sys.setswitchinterval(SWITCH_INTERVAL)
        self.give_way = threading.Event()
        self._resume = QTimer(self)
        self._resume.setSingleShot(True)
        self._resume.timeout.connect(self.give_way.clear)
        self.pool = QThreadPool(self)
        if threads:
            self.pool.setMaxThreadCount(threads)
        self.tasks: list[Task] = []

    def start(
        self,
        db_path: Path,
        work: Callable,
        *,
        name: str = "",
        on_done: Callable | None = None,
        on_failed: Callable | None = None,
        on_progress: Callable | None = None,
        on_cancelled: Callable | None = None,
    ) -> Task:
        task = Task(db_path, work, name, self.give_way)
        task.on_done, task.on_failed = on_done, on_failed
        task.on_progress, task.on_cancelled = on_progress, on_cancelled
        # Bound methods of this QObject: the connection is queued to the GUI thread.
        task.signals.finished.connect(self._finished)
        task.signals.failed.connect(self._failed)
        task.signals.progress.connect(self._progress)
        task.signals.cancelled.connect(self._cancelled)
        self.tasks.append(task)
        self.pool.start(task)
        self.changed.emit()
        return task

    def hold(self, msecs: int = 150) -> None:
        """Ask this runner's tasks to pause at their next progress call until the GUI has
        been quiet for msecs."""
        self.give_way.set()
        self._resume.start(msecs)

    def busy(self, name: str | None = None) -> bool:
        return any(name is None or t.name == name for t in self.tasks)

    def cancel(self, name: str | None = None) -> None:
        for task in self.tasks:
            if name is None or task.name == name:
                task.cancel()

    def wait(self, msecs: int = 30000) -> bool:
        return self.pool.waitForDone(msecs)

    def _end(self, task: Task) -> None:
        if task in self.tasks:
            self.tasks.remove(task)
        self.changed.emit()

    @Slot(object, object)
    def _finished(self, task: Task, result) -> None:
        self._end(task)
        if task.on_done and not task.is_cancelled:
            task.on_done(result)
        elif task.is_cancelled and task.on_cancelled:
            task.on_cancelled()

    @Slot(object, object)
    def _failed(self, task: Task, error) -> None:
        self._end(task)
        if task.on_failed:
            task.on_failed(error)

    @Slot(object, int, int, object)
    def _progress(self, task: Task, done: int, total: int, phase) -> None:
        if task.on_progress and task in self.tasks:
            task.on_progress(done, total, phase)

    @Slot(object)
    def _cancelled(self, task: Task) -> None:
        self._end(task)
        if task.on_cancelled:
            task.on_cancelled()
