"""Where the app keeps its data: the user data folder, or RECALL_REVIEWER_HOME when set (tests
and portable installs use it)."""

from __future__ import annotations

import os
from pathlib import Path

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
