"""A crash shows a dialog with the log location instead of the window vanishing.

The window calls install_crash_dialog() once, right after creating the QApplication. From then
on an uncaught exception, in the GUI thread (a slot, an event handler) or in any other Python
thread, is written with its traceback to the log (desktop.app.logs) and shown in a message box that
says what went wrong in one line, names the log file and lets the reviewer go on or quit. A
problem with a file (a damaged or busy database, a full disk) is the same line the command line
prints; the traceback stays in the log, never in the dialog. Judgements are committed one by
one, so going on after a crash loses nothing that was saved.

Qt's own warnings go to the same log.
"""

from __future__ import annotations

import logging
import sqlite3
import sys
import threading
import traceback
from pathlib import Path

from PySide6.QtCore import QObject, Qt, QtMsgType, Signal, Slot, qInstallMessageHandler
from PySide6.QtWidgets import QApplication, QMessageBox

from desktop.app import logs

log = logging.getLogger("recall_reviewer.crash")

TITLE = "Recall Reviewer — 오류"
TEXT = (
    "예기치 않은 오류가 났습니다. 저장된 검수 결과는 그대로 있습니다.\n"
    "An unexpected error occurred. Saved judgements are kept.\n\n"
    "{what}\n\n"
    "기록 파일 (log file):\n{log}\n\n"
    "문제를 알릴 때 이 파일을 함께 보내 주세요. / Please send this file with a report."
)
FILE_TEXT = (
    "파일 문제로 이 일을 마치지 못했습니다. 저장된 검수 결과는 그대로 있습니다.\n"
    "This could not be done because of a problem with a file. Saved judgements are kept.\n\n"
    "{what}\n\n"
    "기록 파일 (log file):\n{log}"
)


class _Relay(QObject):
    """Lives in the GUI thread; a signal emitted from another thread is queued to it."""

    crashed = Signal(str)

    def __init__(self):
        super().__init__()
        self.crashed.connect(self.show)

    @Slot(str)
    def show(self, text: str) -> None:
        _show(text)


_state: dict = {}


def _format(exc_type, exc, tb) -> str:
    return "".join(traceback.format_exception(exc_type, exc, tb))


def describe(exc: BaseException) -> str | None:
    """The command line's one line for a problem with a file, or None for anything else."""
    from db import StoreError
    from desktop.app import errors
    from desktop.readers import InputError

    if isinstance(exc, StoreError | InputError):
        return str(exc)
    if isinstance(exc, sqlite3.Error):
        return errors.describe_sqlite_error(exc, "the database")
    if isinstance(exc, OSError):
        return errors.describe_os_error(exc)
    return None


def message(exc_type, exc) -> str:
    """The dialog's text: one line for what went wrong (never a traceback), and the log."""
    from desktop.app.terminal import printable

    line = describe(exc)
    template = TEXT if line is None else FILE_TEXT
    what = f"{exc_type.__name__}: {exc}" if line is None else line
    return template.format(what=printable(what), log=logs.log_file())


def _show(text: str) -> None:
    """The message box, in the GUI thread. A second crash while it is open is only logged."""
    if _state.get("showing"):
        return
    app = QApplication.instance()
    if app is None:
        return
    _state["showing"] = True
    try:
        box = QMessageBox(QMessageBox.Icon.Critical, TITLE, text)
        box.setTextFormat(Qt.TextFormat.PlainText)  # a message quoting an id is no markup
        box.setStandardButtons(QMessageBox.StandardButton.Ok)
        quit_button = box.addButton("종료 (Quit)", QMessageBox.ButtonRole.DestructiveRole)
        box.setDefaultButton(QMessageBox.StandardButton.Ok)
        _state["last_box"] = box
        box.exec()
        if box.clickedButton() is quit_button:
            app.exit(1)
    finally:
        _state["showing"] = False


def _excepthook(exc_type, exc, tb) -> None:
    if issubclass(exc_type, KeyboardInterrupt):
        sys.__excepthook__(exc_type, exc, tb)
        return
    log.critical("uncaught exception\n%s", _format(exc_type, exc, tb))
    text = message(exc_type, exc)
    relay = _state.get("relay")
    if threading.current_thread() is threading.main_thread():
        _show(text)
    elif relay is not None:
        relay.crashed.emit(text)  # a QThread's run(): queued to the GUI thread


def _thread_excepthook(args: threading.ExceptHookArgs) -> None:
    if args.exc_type is SystemExit:
        return
    details = _format(args.exc_type, args.exc_value, args.exc_traceback)
    name = args.thread.name if args.thread else "?"
    log.critical("uncaught exception in thread %s\n%s", name, details)
    relay = _state.get("relay")
    if relay is not None:
        relay.crashed.emit(message(args.exc_type, args.exc_value))  # queued to the GUI thread


_QT_LEVELS = {
    QtMsgType.QtDebugMsg: logging.DEBUG,
    QtMsgType.QtInfoMsg: logging.INFO,
    QtMsgType.QtWarningMsg: logging.WARNING,
    QtMsgType.QtCriticalMsg: logging.ERROR,
    QtMsgType.QtFatalMsg: logging.CRITICAL,
}


def _qt_message(mode, context, message) -> None:
    logging.getLogger("qt").log(_QT_LEVELS.get(mode, logging.WARNING), message)
    if sys.stderr is not None and mode != QtMsgType.QtDebugMsg:
        try:
            print(f"qt: {message}", file=sys.stderr)
        except (OSError, ValueError):
            pass


def install_crash_dialog() -> Path:
    """Log to the rotating file in the user data folder and show a dialog for uncaught
    exceptions in any thread. Call once, after the QApplication exists. Returns the log file."""
    path = logs.setup()
    if "relay" not in _state:
        relay = _Relay()
        app = QApplication.instance()
        if app is not None:
            relay.moveToThread(app.thread())
        _state["relay"] = relay
        _state["previous"] = (sys.excepthook, threading.excepthook)
    sys.excepthook = _excepthook
    threading.excepthook = _thread_excepthook
    previous_qt = qInstallMessageHandler(_qt_message)
    if previous_qt is not _qt_message:
        _state["previous_qt"] = previous_qt
    log.info("crash dialog installed; log file %s", path)
    return path


def uninstall_crash_dialog() -> None:
    """Put back the hooks that were there before (tests)."""
    previous = _state.pop("previous", None)
    if previous:
        sys.excepthook, threading.excepthook = previous
    qInstallMessageHandler(_state.pop("previous_qt", None))
    _state.pop("relay", None)
