"""The report exported from the window names its sheets in the window's language (issue 20)."""

from __future__ import annotations

from openpyxl import load_workbook

from desktop.ui.settings_store import settings
from tests.report.test_report import ENGLISH_SHEETS


def test_the_window_exports_in_its_own_language(sample_db, open_window, qtbot, tmp_path):
    store = settings()
    store.setValue("language", "en")
    store.sync()
    window = open_window(sample_db)
    target = tmp_path / "report.xlsx"
    assert window.files.start_export(target, [5]) is not None
    qtbot.waitUntil(lambda: not window.tasks.busy(), timeout=120000)
    assert load_workbook(target, read_only=True).sheetnames == ENGLISH_SHEETS
