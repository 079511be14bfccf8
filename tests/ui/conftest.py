"""Fixtures for the window tests: settings in a temporary place, the sample project as a ready
database, and a factory that opens the real window offscreen."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

import desktop.ui  # noqa: F401  (first: it guards against a PySide6 6.12.0 refcount bug)
from tests.ui.uihelpers import idle


@pytest.fixture(autouse=True)
def _qt_settings(tmp_path):
    """QSettings never touch the real user's files: the app keeps its INI in
    RECALL_REVIEWER_HOME (set per test by tests/conftest.py), and Qt's own default paths point
    at this test's folder too."""
    from PySide6.QtCore import QSettings

    folder = str(tmp_path / "qsettings")
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    for scope in (QSettings.Scope.UserScope, QSettings.Scope.SystemScope):
        QSettings.setPath(QSettings.Format.IniFormat, scope, folder)
    yield


@pytest.fixture(scope="session")
def sample_template(tmp_path_factory) -> Path:
    """The bundled sample imported once; tests copy the file."""
    from desktop.project import Project
    from desktop.sample import load_sample

    base = tmp_path_factory.mktemp("sample")
    saved = os.environ.get("RECALL_REVIEWER_HOME")
    os.environ["RECALL_REVIEWER_HOME"] = str(base / "home")  # backups stay in here
    try:
        with Project(base / "sample.db") as project:
            list(load_sample(project))
    finally:
        if saved is None:
            os.environ.pop("RECALL_REVIEWER_HOME", None)
        else:
            os.environ["RECALL_REVIEWER_HOME"] = saved
    return base / "sample.db"


@pytest.fixture
def sample_db(sample_template, db_path) -> Path:
    shutil.copy(sample_template, db_path)
    return db_path


@pytest.fixture
def open_window(qtbot):
    """open_window(db_path, reviewer='kim', wait=True, size=(1366, 768)): the real MainWindow,
    shown offscreen, after its first metrics pass when wait is true (size=None keeps the
    geometry it restored)."""
    from desktop.ui.window import MainWindow

    def make(db_path, reviewer: str = "kim", wait: bool = True, size=(1366, 768)) -> MainWindow:
        window = MainWindow(db_path, reviewer=reviewer)
        qtbot.addWidget(window)
        if size:
            window.resize(*size)
        window.show()
        if wait:
            idle(qtbot, window)
        return window

    return make
