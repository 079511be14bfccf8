"""The window's word for a database in a network or synced folder (desktop.app.paths.shared_folder):
said once when the database is opened. Opening is not refused: the reviewer may know better
(a share only they use), but should hear why a local folder is safer."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from desktop.app.paths import shared_folder


def warn_shared_folder(window, path) -> str | None:
    """Tell the reviewer when path is on a network share or in a sync client's folder; returns
    what shared_folder() found (None: nothing said)."""
    where = shared_folder(path)
    if where is None:
        return None
    if where == "network":
        text = QCoreApplication.translate(
            "FolderWarning",
            "{path} is on a network folder. SQLite cannot keep a database safe over a network "
            "share (SMB): keep it in a local folder, and share judgements by exporting them "
            "(File → Export my judgements) and merging.",
        ).format(path=path)
    else:
        text = QCoreApplication.translate(
            "FolderWarning",
            "{path} is in {name}, a folder a sync client copies. It can copy or replace the "
            "database while it is being written and damage it: keep it in a local folder, and "
            "share judgements by exporting them (File → Export my judgements) and merging.",
        ).format(path=path, name=where)
    title = QCoreApplication.translate("FolderWarning", "Database in a shared folder")
    window.show_info(title, text)
    return where
