"""Temporary files of writes in progress, kept beside their target and cleaned after a kill.

An export writes to a hidden file beside its target and renames it into place only when
complete, so a cancel or a crash never leaves a half-written report. The report's own
temporary files (Spill, Columns, Blobs) go into a hidden folder beside the target, unnamed
where the system allows it. openpyxl keeps each write-only sheet in a temporary file of its
own in the system temp folder (removed when the workbook is saved or the process exits; a
killed export leaves them there).

Each write in progress is registered in paths.pending_dir() (one small JSON file naming its
temporary paths and the process id). clean_leftovers(), called when a project opens, removes
what a dead process registered. No Qt here.
"""

from __future__ import annotations

import json
import logging
import marshal
import os
import shutil
import tempfile
import threading
import time
import uuid
from array import array
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from desktop.app import paths
from desktop.app.processes import alive as process_alive

log = logging.getLogger("recall_reviewer.scratch")
STALE_SECONDS = 24 * 3600  # where a process cannot be asked whether it lives (Windows)
_local = threading.local()


def _ours(path: Path) -> bool:
    # Only ever remove names this module makes: a hidden name ending in .rr-tmp or .rr-parts.
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
    (or a cancel) remove it. While inside, this thread's scratch files (Spill, Columns, Blobs)
    go to a hidden folder beside target, removed at the end. A kill leaves both registered for
    clean_leftovers()."""
    target = Path(target)
    tag = uuid.uuid4().hex[:8]
    tmp = target.with_name(f".{target.name}.{tag}.rr-tmp")
    parts = target.with_name(f".{target.name}.{tag}.rr-parts")
    entry = paths.pending_dir() / f"{os.getpid()}-{tag}.json"
    record = {"pid": os.getpid(), "paths": [str(tmp.absolute()), str(parts.absolute())]}
    with suppress(OSError):
        entry.parent.mkdir(parents=True, exist_ok=True)
        entry.write_text(json.dumps(record), encoding="utf-8")
    before = getattr(_local, "folder", None)
    _local.folder = parts
    try:
        yield tmp
        os.replace(tmp, target)
    except OSError as error:
        raise _naming(error, target, (tmp, parts)) from None
    finally:
        _local.folder = before
        for path in (tmp, parts):
            _remove(path)
        with suppress(OSError):
            entry.unlink()


def _scratch_file(suffix: str):
    """A temporary file for Spill, Columns and Blobs: in this thread's folder beside the
    target inside replacing(), and without a name where the system allows it (POSIX), so
    that not even a kill leaves it behind (outside replacing(), in the system temp folder)."""
    folder = getattr(_local, "folder", None)
    if folder is not None:
        folder.mkdir(exist_ok=True)
    return tempfile.TemporaryFile(mode="w+b", suffix=suffix, dir=folder)


class Spill:
    """Records (tuples, lists, dicts of str, int, float, bool, None) written one after
    another to a temporary file and read back in the same order, as often as needed: what
    a pass would otherwise hold for every question. Inside replacing(), the file goes to its
    folder beside the target; it is removed when closed or collected. One reader at a time."""

    CHUNK = 256  # records per marshal blob: marshal.load on a file costs ~40 µs a call

    def __init__(self) -> None:
        self._file = _scratch_file(".spill")
        self._pending: list = []
        self.count = 0

    def append(self, record) -> None:
        self._pending.append(record)
        self.count += 1
        if len(self._pending) >= self.CHUNK:
            self._flush()

    def _flush(self) -> None:
        if self._pending:
            self._file.seek(0, os.SEEK_END)
            marshal.dump(self._pending, self._file)
            self._pending = []

    def __len__(self) -> int:
        return self.count

    def __iter__(self) -> Iterator:
        self._flush()
        self._file.flush()
        self._file.seek(0)
        left = self.count
        while left:
            chunk = marshal.load(self._file)
            left -= len(chunk)
            yield from chunk

    def close(self) -> None:
        self._file.close()


class Columns:
    """Columns of fixed-width numbers (array typecodes), each ``rows`` long, in one temporary
    file: written in row order a block at a time and read back whole or a value at a time, so
    that numbers kept for every question cost a block of memory each, not a column. Inside
    replacing(), the file goes to its folder beside the target; removed when closed."""

    BLOCK = 2048  # values held per column before they are written

    def __init__(self, rows: int) -> None:
        self.rows = rows
        self._file = _scratch_file(".columns")
        self._end = 0

    def column(self, typecode: str, rows: int | None = None) -> Column:
        """A new column of ``rows`` rows (the store's by default), all 0 until written."""
        column = Column(self._file, self._end, typecode, self.rows if rows is None else rows)
        self._end += column.rows * column.itemsize
        return column

    def keep(self, values: array) -> Column:
        """A new column holding these values, written at once."""
        column = self.column(values.typecode, len(values))
        if values:
            column._write_at(0, values)
        return column

    def close(self) -> None:
        self._file.close()


class Column:
    """One column of Columns. Values are put in row order (any other order is written at
    once, value by value); reads see every value put so far."""

    __slots__ = ("_file", "_offset", "typecode", "itemsize", "rows", "_start", "_buffer")

    def __init__(self, file, offset: int, typecode: str, rows: int) -> None:
        self._file = file
        self._offset = offset
        self.typecode = typecode
        self.itemsize = array(typecode).itemsize
        self.rows = rows
        self._start = 0  # row of the buffer's first value
        self._buffer = array(typecode)

    def put(self, row: int, value) -> None:
        if row != self._start + len(self._buffer):
            self.flush()
            self._write_at(row, array(self.typecode, [value]))
            return
        self._buffer.append(value)
        if len(self._buffer) >= Columns.BLOCK:
            self.flush()

    def flush(self) -> None:
        if self._buffer:
            self._write_at(self._start, self._buffer)
            self._start += len(self._buffer)
            self._buffer = array(self.typecode)

    def _write_at(self, row: int, values: array) -> None:
        if not 0 <= row <= self.rows - len(values):
            raise IndexError(row)
        self._file.seek(self._offset + row * self.itemsize)
        self._file.write(values.tobytes())

    def read(self, start: int = 0, stop: int | None = None) -> array:
        """The values of rows start..stop-1, every row by default (8 bytes a row for 'd' or
        'q', not a Python object each)."""
        stop = self.rows if stop is None else stop
        self.flush()
        self._file.flush()
        size = (stop - start) * self.itemsize
        self._file.seek(self._offset + start * self.itemsize)
        data = self._file.read(size)
        # Rows past the file's end were never written: they read as 0, as promised.
        return array(self.typecode, data + bytes(size - len(data)))

    def blocks(self) -> Iterator[array]:
        """Every row's value in row order, Columns.BLOCK rows at a time."""
        for start in range(0, self.rows, Columns.BLOCK):
            stop = min(start + Columns.BLOCK, self.rows)
            yield self.read(start, stop)

    def __getitem__(self, row: int):
        if not 0 <= row < self.rows:
            raise IndexError(row)
        if self._start <= row < self._start + len(self._buffer):
            return self._buffer[row - self._start]
        self._file.flush()
        self._file.seek(self._offset + row * self.itemsize)
        data = self._file.read(self.itemsize)
        return array(self.typecode, data.ljust(self.itemsize, b"\0"))[0]

    def __len__(self) -> int:
        return self.rows


class Blobs:
    """Byte strings appended to a temporary file and read back by their number, in any order:
    8 bytes of memory each (where it ends, in an array) instead of the bytes. Inside
    replacing(), the file goes to its folder beside the target; removed when closed."""

    BUFFER = 1 << 16  # bytes gathered before they are written

    def __init__(self) -> None:
        self._file = _scratch_file(".blobs")
        self._ends = array("q")
        self._written = 0  # bytes in the file; the rest are in _pending
        self._pending = bytearray()

    def append(self, blob: bytes) -> int:
        """Store blob; returns its number."""
        self._pending += blob
        self._ends.append(self._written + len(self._pending))
        if len(self._pending) >= self.BUFFER:
            self._file.seek(self._written)
            self._file.write(self._pending)
            self._written += len(self._pending)
            self._pending = bytearray()
        return len(self._ends) - 1

    def __getitem__(self, number: int) -> bytes:
        if not 0 <= number < len(self._ends):
            raise IndexError(number)
        start = self._ends[number - 1] if number > 0 else 0
        end = self._ends[number]
        if start >= self._written:
            return bytes(self._pending[start - self._written : end - self._written])
        self._file.seek(start)
        return self._file.read(end - start)

    def __len__(self) -> int:
        return len(self._ends)

    def close(self) -> None:
        self._file.close()
