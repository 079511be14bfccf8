"""The window's Windows behaviour, checked offscreen on Linux: Malgun Gothic when Windows has
it (NanumGothic otherwise), and the word said when a database is opened from a network or
synced folder."""

from __future__ import annotations

import shutil

from PySide6.QtWidgets import QApplication

from desktop.ui import app as ui_app


def test_windows_draws_hangul_with_malgun_gothic_when_present(qapp):
    before = QApplication.font()
    try:
        family = ui_app.ensure_hangul_font(qapp, ["Gulim", "Malgun Gothic"], system="win32")
        assert family == "Malgun Gothic" == QApplication.font().family()
        # Gulim alone (no Malgun Gothic): the bundled NanumGothic, not Gulim
        assert ui_app.ensure_hangul_font(qapp, ["Gulim"], system="win32") == "NanumGothic"
        QApplication.setFont(before)
        # elsewhere an installed Korean font is kept, whatever its name
        assert ui_app.ensure_hangul_font(qapp, ["Malgun Gothic"], system="linux") is None
        assert QApplication.font() == before
    finally:
        QApplication.setFont(before)


def test_a_database_in_a_synced_folder_is_warned_about(sample_db, tmp_path, open_window):
    synced = tmp_path / "OneDrive - 연구소" / "검토 폴더" / "리뷰.db"
    synced.parent.mkdir(parents=True)
    shutil.copy(sample_db, synced)
    window = open_window(synced)
    assert "OneDrive - 연구소" in window.last_message and "sync" in window.last_message
    assert window.message_box is not None and window.message_box.isVisible()
    window.message_box.close()


def test_a_database_in_a_local_folder_is_not(sample_db, open_window):
    window = open_window(sample_db)
    assert window.last_message == ""
