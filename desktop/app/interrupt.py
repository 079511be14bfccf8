"""Ctrl-C at the command line: stop within a second, even inside a long SQL statement, and say
in one line whether anything was changed. No Qt here.

Python runs a signal handler only between bytecodes, so a statement that runs for seconds in C
(building a search index, recounting it) would hold a Ctrl-C until it ends. A progress handler
(sqlite3's Connection.set_progress_handler, a public API) calls back into Python every few
thousand SQLite instructions: the SIGINT handler runs there, and the callback's answer aborts
the statement. The transaction around it is rolled back as after any other error.
"""

from __future__ import annotations

import contextlib
import signal
import sqlite3
import threading
from collections.abc import Iterator

EVERY = 20_000  # SQLite virtual machine instructions between two looks at the flag
_state = {"requested": False}


def requested() -> bool:
    return _state["requested"]


def _on_sigint(signum, frame) -> None:
    _state["requested"] = True
    raise KeyboardInterrupt


def _stop_statement() -> int:
    # Non-zero stops the statement. A KeyboardInterrupt raised in here by _on_sigint is
    # swallowed by sqlite3 and stops it too; the flag says why.
    return 1 if _state["requested"] else 0


def watch(conn: sqlite3.Connection) -> None:
    """Let Ctrl-C stop the statements of conn while handling() is in force."""
    conn.set_progress_handler(_stop_statement, EVERY)


@contextlib.contextmanager
def handling() -> Iterator[None]:
    """Ctrl-C sets the flag and raises KeyboardInterrupt; the previous handler comes back at
    the end (tests call the command line in their own process)."""
    _state["requested"] = False
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, _on_sigint)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def stopped_by_it() -> tuple[type[BaseException], ...]:
    """For an except clause, evaluated when an error is being handled: every error once Ctrl-C
    was pressed (a statement it stopped fails as "interrupted", or as an error in a function
    it interrupted), none otherwise."""
    return (Exception,) if _state["requested"] else ()


def message(saved: bool) -> str:
    if saved:
        return "cancelled; what was already saved is kept, nothing after it was changed"
    return "cancelled; nothing was changed"
