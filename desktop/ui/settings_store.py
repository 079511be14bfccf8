"""Where the window keeps its settings, and which UI language they choose. Imported by both
the app and the window (the window never imports the app)."""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QLocale, QSettings

ORGANIZATION = "recall-reviewer"
APPLICATION = "Recall Reviewer"
LANGUAGES = ("ko", "en")


def settings() -> QSettings:
    """The app's settings: an INI file inside RECALL_REVIEWER_HOME when it is set (tests and
    portable installs), else the platform's usual place."""
    home = os.environ.get("RECALL_REVIEWER_HOME")
    if home:
        Path(home).mkdir(parents=True, exist_ok=True)
        return QSettings(str(Path(home) / "settings.ini"), QSettings.Format.IniFormat)
    return QSettings(ORGANIZATION, APPLICATION)


def language(store: QSettings | None = None) -> str:
    """'ko' or 'en': the setting when there is one; else English only for an English system
    locale, Korean for everything else (the users are Korean; a C locale says nothing)."""
    chosen = str((store or settings()).value("language", "") or "")
    if chosen in LANGUAGES:
        return chosen
    locale = QLocale.system()
    if locale.language() == QLocale.Language.English and locale.name() != "C":
        return "en"
    return "ko"
