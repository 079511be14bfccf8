"""The app's log: a rotating file in paths.log_dir() (recall-reviewer.log, 1 MB, five old
files kept), plus faults.log where Python writes the stack of a hard crash (faulthandler).

setup() is called once by the window (desktop.ui.crash.install_crash_dialog calls it); the
headless commands do not log to a file. No Qt here.
"""

from __future__ import annotations

import faulthandler
import logging
import logging.handlers
import platform
import sys
import tempfile
from pathlib import Path

from desktop import __version__
from desktop.app import paths

LOG_NAME = "recall-reviewer.log"
FAULTS_NAME = "faults.log"
MAX_BYTES = 1_000_000
BACKUP_COUNT = 5
FORMAT = "%(asctime)s %(levelname)-7s %(name)s [%(process)d %(threadName)s] %(message)s"

_handler: logging.Handler | None = None
_faults = None
_faults_before = False  # faulthandler was on (pytest turns it on) before setup()


def _writable_log_dir() -> Path:
    folder = paths.log_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / ".write-test"
        probe.write_bytes(b"")
        probe.unlink()
        return folder
    except OSError:
        # A read-only data folder must not stop the app; logs go to the temp folder then.
        fallback = Path(tempfile.gettempdir()) / "recall-reviewer-logs"
        fallback.mkdir(parents=True, exist_ok=True)
        return fallback


def log_file() -> Path:
    """The file the log is written to (after setup(), the one actually in use)."""
    if isinstance(_handler, logging.FileHandler):
        return Path(_handler.baseFilename)
    return paths.log_dir() / LOG_NAME


def setup(level: int = logging.INFO) -> Path:
    """Send the root logger to the rotating log file and enable faulthandler; safe to call
    more than once. Returns the log file."""
    global _handler, _faults, _faults_before
    if _handler is not None:
        return log_file()
    folder = _writable_log_dir()
    handler = logging.handlers.RotatingFileHandler(
        folder / LOG_NAME, maxBytes=MAX_BYTES, backupCount=BACKUP_COUNT, encoding="utf-8"
    )
    handler.setFormatter(logging.Formatter(FORMAT))
    root = logging.getLogger()
    root.addHandler(handler)
    if root.level == logging.NOTSET or root.level > level:
        root.setLevel(level)
    _handler = handler
    try:
        _faults_before = faulthandler.is_enabled()
        _faults = open(folder / FAULTS_NAME, "a", encoding="utf-8")  # noqa: SIM115 (kept open)
        faulthandler.enable(_faults)
    except OSError:
        _faults = None
    logging.getLogger("recall_reviewer").info(
        "Recall Reviewer %s starting: Python %s on %s%s; data folder %s",
        __version__,
        platform.python_version(),
        system_name(),
        " (bundled)" if getattr(sys, "frozen", False) else "",
        paths.data_dir(),
    )
    return log_file()


def system_name() -> str:
    """The OS for the log's first line. On Windows from sys.getwindowsversion(), not
    platform.platform(): that asks WMI, which can stall for seconds on real Windows and
    aborts the process under Wine (propsys.VariantToString is unimplemented there)."""
    if sys.platform == "win32":
        v = sys.getwindowsversion()
        return f"Windows {v.major}.{v.minor}.{v.build}"
    return platform.platform()


def shutdown() -> None:
    """Detach the file handler (tests, and a clean exit)."""
    global _handler, _faults
    if _handler is not None:
        logging.getLogger().removeHandler(_handler)
        _handler.close()
        _handler = None
    if _faults is not None:
        faulthandler.disable()
        if _faults_before and sys.__stderr__ is not None:
            faulthandler.enable(sys.__stderr__)
        _faults.close()
        _faults = None
