"""Whether a process still lives: the one rule that a stale window lock (locks.py) and a
left-over temporary folder (scratch.py) are judged by. No Qt here."""

from __future__ import annotations

import os
import sys


def alive(pid: int) -> bool | None:
    """Whether the process lives; None where this cannot be asked cheaply."""
    if sys.platform == "win32":
        return None  # os.kill(pid, 0) would send CTRL_C_EVENT there
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # it exists but is not ours
    return True
