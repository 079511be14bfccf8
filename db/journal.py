"""The judgement journal: an append-only JSONL file beside the database, one design-§6 line per
judgement, written and fsynced after every commit that adds judgements (desktop code never
writes it; the store does, in Store.after_commit).

The judgement log is the one thing that cannot be re-imported from the user's files, so this
copy outlives the database file: `recall-reviewer restore judgements` rebuilds the log from it.
The first line names the database (``store_meta.database_id``); a journal whose database was
replaced by another one is set aside under a name with its id, never appended to.

A process killed in the middle of an append leaves a torn last line (no newline at the end):
the next append cuts it off first, and reconcile() adds back every logged line the journal
lacks (the torn one, or lines whose commit happened just before a kill).

A write that fails (a full disk, a folder in the journal's place, a read-only file) is undone
to the last complete line and recorded here, per journal, until a later write succeeds: the
judgements are committed by then, so the command line ends with that one line and exit status
2, and the window shows it until the journal is written again (problem()).
"""

from __future__ import annotations

import errno
import json
import logging
import os
import stat
import threading
from collections.abc import Iterable
from pathlib import Path

try:
    import fcntl
except ImportError:  # Windows: no flock, so appends there are not locked against each other
    fcntl = None

SUFFIX = ".judgements.jsonl"
NOT_A_FILE = "something other than a file (a FIFO, a device) is in its place; move it away"
HEADER_KEY = "recall_reviewer_journal"
log = logging.getLogger("recall_reviewer.journal")


class JournalError(Exception):
    """A journal that cannot be read; the message is `PATH: what is wrong`."""


def journal_path(db_path: str | Path) -> Path:
    db_path = Path(db_path)
    return db_path.with_name(db_path.name + SUFFIX)


def judgement_line(row: dict) -> dict:
    """One row of the judgement table as a design-§6 line (JSON-ready)."""
    line = {
        "reviewer": row["reviewer"],
        "at": row["at"],
        "question_id": row["question_id"] or None,  # a reviewer-mark line names none
        "kind": row["kind"],
    }
    if row["passage_id"]:
        line["passage_id"] = row["passage_id"]
    if row.get("span"):  # design section 10: a line about a span names no passage
        line["passage_id"] = None
        line["span"] = span_object(row["span"])
    line["value"] = json.loads(row["value"])
    if row["settles"]:
        line["settles"] = row["settles"]
    if row["system"]:
        line["system"] = row["system"]
    if row.get("machine"):
        line["machine"] = True
    return line


def row_of(line: dict) -> tuple:
    """A design-§6 line as a judgement row (the columns of Store.JUDGEMENT_COLUMNS)."""
    return (
        line["reviewer"],
        line["at"],
        line["question_id"] or "",
        line["kind"],
        line.get("passage_id") or "",
        json.dumps(line["value"], ensure_ascii=False),
        line.get("settles"),
        line.get("system"),
        span_key_of(line.get("span")),
        1 if line.get("machine") else 0,
    )


def span_key_of(span: dict | None) -> str | None:
    """The key 'd1:10-200' the log stores for a line's span object (None: no span)."""
    if not span:
        return None
    return f"{span['document_id']}:{span['start']}-{span['end']}"


def span_object(key: str) -> dict:
    """A stored span key as the line's object; offsets are read from the right, as a document
    id may hold ':' and '-' itself."""
    document, _, offsets = key.rpartition(":")
    start, _, end = offsets.partition("-")
    return {"document_id": document, "start": int(start), "end": int(end)}


def identity(line: dict) -> tuple:
    """A judgement's identity: every field of its line (design section 6), so two lines that
    differ in any one of them (a note's system, an adjudication's settles, a span, a machine's
    mark) are two judgements. An absent passage, settles, system or span is the same as an empty
    one (an export leaves them out when empty). Import, merge, restore and the journal's repair
    all use it: the store through its unique index judgement_identity (db/schema.py, the same
    fields)."""
    row = row_of(line)
    return (*row[:6], row[6] or "", row[7] or "", row[8] or "", row[9])


def _encode(line: dict) -> bytes:
    return (json.dumps(line, ensure_ascii=False) + "\n").encode("utf-8")


def _check_kind(path: Path) -> None:
    """Raise OSError unless path is a regular file or absent: a folder, a FIFO or a device in
    the journal's place would be read forever or written into something else."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return
    if stat.S_ISDIR(mode):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
    if not stat.S_ISREG(mode):
        raise OSError(errno.EINVAL, NOT_A_FILE, str(path))


def header_of(path: Path) -> dict | None:
    """The journal's first line, or None for no file, an empty one or one without a header.
    Raises OSError when something other than a regular file is in its place."""
    _check_kind(path)
    try:
        with open(path, "rb") as handle:
            first = handle.readline(1 << 16)  # a header is short
    except FileNotFoundError:
        return None
    try:
        header = json.loads(first)
    except ValueError:
        return None
    return header if isinstance(header, dict) and HEADER_KEY in header else None


def read(path: str | Path) -> tuple[dict, list[dict], bool]:
    """(header, judgement lines, whether the last line was torn). Raises JournalError."""
    path = Path(path)
    try:
        _check_kind(path)
        data = path.read_bytes()
    except OSError as error:
        raise JournalError(f"{path}: cannot read the journal ({error.strerror})") from None
    torn = bool(data) and not data.endswith(b"\n")
    raw = data.split(b"\n")
    if torn:
        raw = raw[:-1]  # a kill in the middle of an append; the database has that line
    header = header_of(path)
    if header is None:
        raise JournalError(f"{path}: not a Recall Reviewer judgement journal (no header line)")
    lines = []
    for number, text in enumerate(raw[1:], 2):
        if not text.strip():
            continue
        try:
            line = json.loads(text)
            identity(line)
        except (ValueError, KeyError, TypeError):
            raise JournalError(f"{path}:{number}: not a judgement line") from None
        lines.append(line)
    return header, lines, torn


def line_count(path: Path) -> int:
    """Complete judgement lines in the journal (header and a torn tail not counted)."""
    try:
        with open(path, "rb") as handle:
            count = sum(chunk.count(b"\n") for chunk in iter(lambda: handle.read(1 << 20), b""))
    except FileNotFoundError:
        return 0
    return max(0, count - 1)


def set_aside(path: Path, header: dict | None) -> None:
    other = (header or {}).get("database_id") or "unknown"
    target = path.with_name(f"{path.name[: -len(SUFFIX)]}.judgements.{other[:8]}.jsonl")
    n = 1
    while target.exists():
        target = target.with_name(f"{path.name[: -len(SUFFIX)]}.judgements.{other[:8]}-{n}.jsonl")
        n += 1
    os.replace(path, target)
    log.warning("%s belongs to another database (%s); kept as %s", path, other, target)


def append(path: Path, database_id: str, lines: Iterable[dict]) -> None:
    """Append lines to the journal of the database named database_id, with one write and an
    fsync; starts the journal (header first) when there is none. Raises OSError, after
    cutting the journal back to where it was (a full disk writes part of the lines)."""
    payload = b"".join(_encode(line) for line in lines)
    if not payload:
        return
    header = header_of(path)
    if path.exists() and (header is None or header.get("database_id") != database_id):
        if header is not None or path.stat().st_size:  # an empty file holds nothing to keep
            set_aside(path, header)
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o644)
    try:
        if fcntl is not None:
            # Two programs (a window and a command) append to one journal: the size read
            # here, the torn-line cut and a cut back after a failed write must not cross
            # the other's lines. Held for one write and fsync; released by close.
            fcntl.flock(fd, fcntl.LOCK_EX)
        size = os.fstat(fd).st_size
        if size and os.pread(fd, 1, size - 1) != b"\n":
            # a torn last line: cut it at the previous newline (reconcile() adds it back)
            tail = os.pread(fd, min(size, 1 << 20), max(0, size - (1 << 20)))
            size = size - len(tail) + tail.rfind(b"\n") + 1
            os.ftruncate(fd, size)
        if size == 0:
            start = {
                HEADER_KEY: 1,
                "database_id": database_id,
                "database": path.name[: -len(SUFFIX)],
            }
            payload = _encode(start) + payload
        try:
            _write_all(fd, payload)
            os.fsync(fd)
        except OSError:
            _cut_back(fd, size)
            raise
    finally:
        os.close(fd)


def _write_all(fd: int, payload: bytes) -> None:
    """os.write until all is written: near a full disk a write stores only part and returns
    its length, and the next one raises ENOSPC."""
    view = memoryview(payload)
    while view:
        view = view[os.write(fd, view) :]


def _cut_back(fd: int, size: int) -> None:
    try:
        os.ftruncate(fd, size)
    except OSError as error:  # a torn tail is cut by the next append, and repaired
        log.warning("could not cut the journal back after a failed write: %s", error)


# -- whether the latest write of each journal failed ------------------------------------------

_problems: dict[str, str] = {}
_problems_lock = threading.Lock()


def _key(path: Path) -> str:
    return os.path.abspath(path)


def problem(path: Path) -> str | None:
    """The one line saying why the latest write of the journal at path failed in this process
    (its judgements are in the database, not in the journal), or None when it was written."""
    with _problems_lock:
        return _problems.get(_key(path))


def problems() -> list[str]:
    """Every journal's problem in this process (the command line reports them at its end)."""
    with _problems_lock:
        return list(_problems.values())


def written(path: Path) -> None:
    with _problems_lock:
        _problems.pop(_key(path), None)


_ADVICE = {
    errno.ENOSPC: "the disk is full; free some space",
    errno.EDQUOT: "the disk quota is used up; free some space",
    errno.EISDIR: "a folder is in its place; move that folder away",
    errno.EROFS: "it is on a read-only file system; make it writable",
    errno.EACCES: "it or its folder is read-only or not yours; make both writable",
    errno.EPERM: "it or its folder is read-only or not yours; make both writable",
}


def failed(path: Path, error: OSError) -> str:
    """Record that a write of the journal at path failed; returns the one line that says so."""
    what = _ADVICE.get(error.errno or -1)
    if error.strerror == NOT_A_FILE:
        what = NOT_A_FILE
    elif what is None:
        what = f"{error.strerror or error}; check the file and its folder"
    message = (
        f"{path}: the judgements are saved in the database, but its judgement journal could "
        f"not be written: {what}. The journal is brought up to date the next time the "
        "database is opened"
    )
    with _problems_lock:
        _problems[_key(path)] = message
    # info, not warning: the command line and the window say it themselves, once
    log.info("%s", message)
    return message
