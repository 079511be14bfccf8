"""Fixtures for the window tests: settings in a temporary place and a factory that opens the
real window offscreen (the sample database fixtures are in tests/conftest.py)."""

from __future__ import annotations

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
