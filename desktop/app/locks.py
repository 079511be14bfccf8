"""The window's lock beside the database (DB.window-lock, a Qt QLockFile written by
desktop/ui/guard.py), cleared when the window that took it is gone.

A killed window leaves its lock file behind; the next window takes such a lock over, but a
command that opens the database should not leave it lying there either. The file is Qt's
QLockFile format, one field a line: process id, program name, host name, machine id, boot id.
A lock is stale only when it was taken on this host and its process is gone (or the machine
was restarted since); anything unreadable or from another host is left alone. No Qt here.
"""

from __future__ import annotations

import logging
import platform
import sys
from pathlib import Path

from desktop.app.processes import alive

WINDOW_LOCK_SUFFIX = ".window-lock"
BOOT_ID = Path("/proc/sys/kernel/random/boot_id")
log = logging.getLogger("recall_reviewer.locks")


def window_lock_path(db_path: str | Path) -> Path:
    db_path = Path(db_path)
    return db_path.with_name(db_path.name + WINDOW_LOCK_SUFFIX)


def _boot_id() -> str | None:
    try:
        return BOOT_ID.read_text(encoding="ascii").strip().replace("-", "") or None
    except OSError:
        return None


def is_stale(fields: list[str]) -> bool:
    """Whether a lock file's fields name a window on this host that is no longer running."""
    if len(fields) < 3 or not fields[0].isdigit():
        return False  # being written at this moment, or not Qt's format: not ours to judge
    if fields[2] != platform.node():
        return False  # a window on another machine (a shared folder): it cannot be asked
    boot = _boot_id()
    if len(fields) > 4 and fields[4] and boot and fields[4].replace("-", "") != boot:
        return True  # taken before the machine was restarted
    return alive(int(fields[0])) is False


def clear_stale_window_lock(db_path: str | Path) -> bool:
    """Remove the database's window lock when the window that took it is gone; True if
    removed. Never raises: a lock that cannot be read or removed is the window's business."""
    if sys.platform == "win32":
        return False  # os.kill(pid, 0) would send CTRL_C_EVENT there
    path = window_lock_path(db_path)
    try:
        with open(path, "rb") as handle:
            fields = handle.read(4096).decode("utf-8", "replace").split("\n")
        if not is_stale(fields):
            return False
        path.unlink()
    except OSError:
        return False
    log.info("removed the stale window lock %s (process %s is gone)", path, fields[0])
    return True
