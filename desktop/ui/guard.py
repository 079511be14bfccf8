"""One writer per database, and changes made elsewhere noticed.

A window takes a QLockFile beside the database; a second window on the same database finds
it taken and opens read-only (a lock left by a process that has gone is taken over).
`Store.data_version()` (SQLite's PRAGMA data_version) changes whenever another connection
commits: polled once a second, it tells the window to read the database again."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from PySide6.QtCore import QLockFile, QObject, QTimer, Signal

from desktop.app import locks

POLL_MS = 1000


class DatabaseGuard(QObject):
    changedElsewhere = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self.lock: QLockFile | None = None
        self.read_only = False
        self._project = None
        self._version: int | None = None
        self.paused = lambda: False  # while true (our own import runs) changes are ours
        self._timer = QTimer(self)
        self._timer.timeout.connect(self.check)
        self._timer.start(POLL_MS)

    def open(self, path: Path, project) -> bool:
        """Take the database's lock; returns False (read-only) when another window has it."""
        self.release()
        lock = QLockFile(str(locks.window_lock_path(path)))
        lock.setStaleLockTime(0)  # only a lock whose process is gone counts as stale
        self.read_only = not lock.tryLock(100)
        self.lock = None if self.read_only else lock
        self._project = project
        self.seen()
        return not self.read_only

    def release(self) -> None:
        if self.lock is not None:
            self.lock.unlock()
            self.lock = None
        self._project = None

    def stop(self) -> None:
        self._timer.stop()
        self.release()

    def _read(self) -> int | None:
        try:
            return self._project.reads.data_version()
        except (sqlite3.Error, AttributeError):
            return None

    def seen(self) -> None:
        """What the database holds now is shown (after opening, or our own reload)."""
        self._version = self._read()

    def check(self) -> bool:
        if self._project is None or self.paused():
            return False
        version = self._read()
        if version is None or version == self._version:
            return False
        self._version = version
        self.changedElsewhere.emit()
        return True
