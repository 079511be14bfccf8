"""One line for what went wrong with a file, for the command line and the window alike:
`PATH: what is wrong, what to do`. No Qt here."""

from __future__ import annotations

import errno
import sqlite3

_ADVICE = {
    errno.ENOSPC: "the disk is full; free some space and try again",
    errno.EDQUOT: "the disk quota is used up; free some space and try again",
    errno.EROFS: "the file system is read-only; choose a place you can write to",
    errno.EACCES: "permission denied; check who owns the file or folder, or choose another",
    errno.EPERM: "permission denied; check who owns the file or folder, or choose another",
    errno.ENOENT: "no such file or folder",
    errno.ENOTDIR: "a part of this path is not a folder",
    errno.EISDIR: "this is a folder; name a file",
    errno.EFBIG: "the file is too large for this file system",
    errno.ENAMETOOLONG: "the name is too long",
    errno.EIO: "the device reported an input/output error; check the disk",
}


def describe_os_error(error: OSError, path: object = None) -> str:
    where = error.filename or path or ""
    what = _ADVICE.get(error.errno or -1) or (error.strerror or str(error))
    return f"{where}: {what}" if where else what


def describe_sqlite_error(error: sqlite3.Error, path: object) -> str:
    """For a SQLite error the store did not already turn into a StoreError."""
    from db.errors import disk_full

    text = str(error).lower()
    if "full" in text or ("disk i/o" in text and disk_full(path)):
        what = "the disk is full; free some space and try again (nothing was changed)"
    elif "readonly" in text or "read-only" in text:
        what = "the database cannot be written (a read-only file or folder); check its permissions"
    elif "locked" in text or "busy" in text:
        what = "another program is writing to this database; try again when it is done"
    elif "malformed" in text or "not a database" in text or "corrupt" in text:
        what = (
            "the database file is damaged; restore it from a backup in the data folder's "
            "backups/ or rebuild the judgements from the journal"
        )
    elif "unable to open" in text:
        what = "the database cannot be opened; check that its folder exists and can be written"
    else:
        what = f"the database reported an error ({error})"
    return f"{path}: {what}"
