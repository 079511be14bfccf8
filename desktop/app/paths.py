"""Where the app keeps its data: the user data folder, or RECALL_REVIEWER_HOME when set (tests
and portable installs use it)."""

from __future__ import annotations

import os
import re
import sys
import unicodedata
from pathlib import Path, PurePosixPath, PureWindowsPath

APP = "recall-reviewer"


def data_dir() -> Path:
    home = os.environ.get("RECALL_REVIEWER_HOME")
    if home:
        return Path(home)
    from platformdirs import user_data_dir

    return Path(user_data_dir(APP, appauthor=False))


def default_db() -> Path:
    return data_dir() / "recall-reviewer.db"


def log_dir() -> Path:
    return data_dir() / "logs"


def backup_dir() -> Path:
    return data_dir() / "backups"


def pending_dir() -> Path:
    """Records of writes in progress, so a killed one's temporary files can be removed."""
    return data_dir() / "pending"


def home_problem() -> str | None:
    """Why the data folder cannot be used (a file in its place, a read-only or forbidden
    place), as one line naming it, or None. A folder that does not exist yet is fine when the
    nearest folder above it can be written: it is made on first use."""
    folder = data_dir()
    named = (
        f"RECALL_REVIEWER_HOME={folder}"
        if os.environ.get("RECALL_REVIEWER_HOME")
        else f"the data folder {folder}"
    )
    fix = "point RECALL_REVIEWER_HOME at a folder you can write to"
    existing = folder
    while not os.path.lexists(existing) and existing.parent != existing:
        existing = existing.parent
    if not existing.is_dir():
        what = "is not a folder" if existing == folder else f"cannot be made: {existing} is a file"
        return f"{named} {what}; {fix}"
    if not os.access(existing, os.W_OK | os.X_OK):
        where = "" if existing == folder else f" ({existing} cannot be written)"
        return f"{named} is read-only or not yours{where}; {fix}"
    return None


# Characters no file name may hold on some system we run on (Windows' list, and the folder
# separators), and control characters.
_UNSAFE = re.compile(r'[<>:"/\\|?*\x00-\x1f\x7f]')
_RESERVED = {"CON", "PRN", "AUX", "NUL", *(f"COM{i}" for i in range(1, 10))}
_RESERVED |= {f"LPT{i}" for i in range(1, 10)}


def safe_file_name(text: str, fallback: str = "reviewer", limit: int = 80) -> str:
    """text (a reviewer's name) as one part of a file name: separators, `..`, control, format (bidi)
    and reserved characters become `_`, no leading dot (hidden or `..`), no reserved device name,
    at most limit characters; fallback when nothing is left."""
    name = "".join("_" if unicodedata.category(c) in ("Cc", "Cf") else c for c in text)
    name = _UNSAFE.sub("_", name).strip().lstrip(".").strip()[:limit].rstrip(" .")
    if not name or name.split(".")[0].upper() in _RESERVED:
        name = f"{fallback}_{name}" if name else fallback
    return name


# Folders a sync client keeps (OneDrive, "OneDrive - Company", Dropbox, Google Drive's "My
# Drive", iCloud Drive, Box, Nextcloud, Naver MYBOX), matched by a folder name on the path.
SYNC_FOLDER = re.compile(
    r"(onedrive( - .+)?|dropbox|google ?drive|my drive|icloud ?drive|iclouddrive"
    r"|com~apple~clouddocs|box|nextcloud|owncloud|(naver )?mybox)",
    re.IGNORECASE,
)


def shared_folder(path, network_drive: bool | None = None) -> str | None:
    """Why a database at path is at risk, or None: 'network' for a network share (a
    \\\\server\\share path, or a mapped network drive on Windows), else the name of the folder a
    sync client keeps. SQLite's write-ahead log needs memory shared on one machine, which SMB
    cannot give, and a sync client may copy or replace the file while it is being written."""
    text = str(path)
    if text.startswith(("\\\\", "//")):
        return "network"
    windows = "\\" in text or re.match(r"^[A-Za-z]:", text)
    parts = (PureWindowsPath if windows else PurePosixPath)(text).parts
    for part in parts[:-1]:
        if SYNC_FOLDER.fullmatch(part):
            return part
    if network_drive is None:
        network_drive = _network_drive(text)
    return "network" if network_drive else None


def _network_drive(path: str) -> bool:
    """A drive letter mapped to a network share (Windows; False elsewhere)."""
    if sys.platform != "win32":
        return False
    import ctypes

    drive = os.path.splitdrive(os.path.abspath(path))[0]
    return bool(drive) and ctypes.windll.kernel32.GetDriveTypeW(drive + "\\") == 4  # REMOTE
