"""Temporary files of writes in progress, kept beside their target and cleaned after a kill.

An export writes to a hidden file beside its target and renames it into place only when
complete, so a cancel or a crash never leaves a half-written report. The report holds what
it computes in memory (issue 24: a few MB at 5,000 questions x 10 systems). openpyxl keeps
each write-only sheet in a temporary file of its own in the system temp folder (removed when
the workbook is saved or the process exits; a killed export leaves them there).

Each write in progress is registered in paths.pending_dir() (one small JSON file naming its
temporary paths and the process id). clean_leftovers(), called when a project opens, removes
what a dead process registered. No Qt here.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from desktop.app import paths
from desktop.app.processes import alive as process_alive

log = logging.getLogger("recall_reviewer.scratch")
STALE_SECONDS = 24 * 3600  # where a process cannot be asked whether it lives (Windows)


def _ours(path: Path) -> bool:
    # Only ever remove names this module makes: a hidden name ending in .rr-tmp, or .rr-parts
    # (the scratch folder of earlier versions, still registered by a write they left killed).
    return path.name.startswith(".") and path.name.endswith((".rr-tmp", ".rr-parts"))


def _remove(path: Path) -> None:
    if not _ours(path):
        return
    with suppress(OSError):
        if path.is_dir():
            shutil.rmtree(path)
        else:
            path.unlink()


def clean_leftovers() -> int:
    """Remove the temporary files of writes whose process is gone; returns how many writes."""
    folder = paths.pending_dir()
    try:
        entries = list(folder.glob("*.json"))
    except OSError:
        return 0
    cleaned = 0
    for entry in entries:
        try:
            record = json.loads(entry.read_text(encoding="utf-8"))
            pid = int(record["pid"])
            alive = process_alive(pid)
            if alive is None:
                alive = time.time() - entry.stat().st_mtime < STALE_SECONDS
            if alive or pid == os.getpid():
                continue
            for name in record.get("paths", []):
                _remove(Path(name))
            entry.unlink()
            cleaned += 1
        except (OSError, ValueError, KeyError, TypeError) as error:
            log.warning("could not clean up %s: %s", entry, error)
    if cleaned:
        log.info("removed the temporary files of %d interrupted writes", cleaned)
    return cleaned


def _naming(error: OSError, target: Path, ours: tuple[Path, ...]) -> OSError:
    """error as it should reach the user: naming the file being written (a full disk on a
    write names none; our temporary names mean nothing to the user)."""
    named = error.filename
    if named is not None and not any(str(named).startswith(str(p)) for p in ours):
        return error
    return type(error)(error.errno, error.strerror or str(error), str(target))


@contextmanager
def replacing(target: str | Path) -> Iterator[Path]:
    """Yield a temporary path beside target; on success rename it onto target, on any error
    (or a cancel) remove it. A kill leaves it registered for clean_leftovers()."""
    target = Path(target)
    tag = uuid.uuid4().hex[:8]
    tmp = target.with_name(f".{target.name}.{tag}.rr-tmp")
    entry = paths.pending_dir() / f"{os.getpid()}-{tag}.json"
    record = {"pid": os.getpid(), "paths": [str(tmp.absolute())]}
    with suppress(OSError):
        entry.parent.mkdir(parents=True, exist_ok=True)
        entry.write_text(json.dumps(record), encoding="utf-8")
    try:
        yield tmp
        os.replace(tmp, target)
    except OSError as error:
        raise _naming(error, target, (tmp,)) from None
    finally:
        _remove(tmp)
        with suppress(OSError):
            entry.unlink()
