"""Language and fonts: the Korean catalogue loaded by default, English by the setting, every
UI string translated and the compiled .qm current; the bundled Hangul font used only when the
system has none; sizes from font metrics."""

from __future__ import annotations

import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PySide6.QtCore import QLocale, Qt
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QApplication

import resources
from desktop.ui import app as ui_app

UI = resources.ROOT.parent / "desktop" / "ui"
UI_SOURCES = sorted(str(p.relative_to(UI)) for p in UI.rglob("*.py"))


@pytest.fixture
def korean(qapp):
    assert ui_app.install_translations(qapp, "ko")
    yield
    ui_app.install_translations(qapp, "en")


def test_korean_is_the_default_and_english_a_setting(monkeypatch):
    store = ui_app.settings()
    monkeypatch.setattr(QLocale, "system", staticmethod(lambda: QLocale("C")))
    assert ui_app.language(store) == "ko"
    monkeypatch.setattr(QLocale, "system", staticmethod(lambda: QLocale("ko_KR")))
    assert ui_app.language(store) == "ko"
    monkeypatch.setattr(QLocale, "system", staticmethod(lambda: QLocale("en_US")))
    assert ui_app.language(store) == "en"
    store.setValue("language", "ko")
    assert ui_app.language(store) == "ko"
    store.setValue("language", "en")
    monkeypatch.setattr(QLocale, "system", staticmethod(lambda: QLocale("ko_KR")))
    assert ui_app.language(store) == "en"


def test_the_window_speaks_korean(sample_db, open_window, korean):
    window = open_window(sample_db)
    menus = [a.text() for a in window.menuBar().actions()]
    assert menus == ["파일(&F)", "보기(&V)", "검수(&R)", "도움말(&H)"]
    assert window.question_panel.only_misses.text() == "누락만"
    row = [i.primary_id for i in window.view.items].index("art-128")
    assert window.evidence_model.index(row, 1).data() == "보조"
    assert window.evidence_model.index(row, 3).data() == "놓침 (8위)"
    assert window.metrics_model.headerData(2 + 1, Qt.Orientation.Horizontal) == "핵심R@5"


def test_the_window_speaks_english_without_the_catalogue(sample_db, open_window):
    window = open_window(sample_db)
    assert [a.text() for a in window.menuBar().actions()][0] == "&File"


def _tool(name: str) -> str | None:
    """A PySide6 tool beside this Python (a venv's bin is often not on PATH), else on PATH."""
    beside = Path(sys.executable).with_name(name)
    return str(beside) if beside.exists() else shutil.which(name)


def test_every_string_is_translated_and_the_qm_is_current(tmp_path):
    ts = resources.path("i18n", "recall_reviewer_ko.ts")
    qm = resources.path("i18n", "recall_reviewer_ko.qm")
    assert qm.exists() and qm.stat().st_size > 0
    lupdate = _tool("pyside6-lupdate")
    if lupdate is None:
        pytest.skip("pyside6-lupdate not installed")
    fresh = tmp_path / "fresh.ts"
    sources = [str(resources.ROOT.parent / "desktop" / "ui" / f) for f in UI_SOURCES]
    subprocess.run([lupdate, "-silent", *sources, "-ts", str(fresh)], check=True)

    def messages(path):
        out = {}
        for context in ET.parse(path).getroot().iter("context"):
            name = context.find("name").text
            for message in context.iter("message"):
                translation = message.find("translation")
                if translation.get("type") in ("obsolete", "vanished"):
                    continue
                out[(name, message.find("source").text)] = translation
        return out

    shipped = messages(ts)
    wanted = messages(fresh)
    missing = sorted(set(wanted) - set(shipped))
    assert missing == [], f"run pyside6-lupdate, translate, pyside6-lrelease: {missing[:5]}"
    # Every shipped message is one lupdate finds: a string it cannot see (behind a wrapper
    # function, inside an f-string) would go untested here, and the README's lupdate run
    # (-no-obsolete) would drop its translation.
    unseen = sorted(set(shipped) - set(wanted))
    assert unseen == [], f"lupdate does not find these in the code: {unseen[:5]}"
    untranslated = [k for k in wanted if not (shipped[k].text or "").strip()]
    assert untranslated == []
    # Every placeholder survives translation.
    for (context, source), translation in shipped.items():
        for name in ("{n}", "{k}", "{rank}", "{passage}", "{system}", "{name}"):
            if name in source and (context, source) in wanted:
                assert name in translation.text, (context, source)
    lrelease = _tool("pyside6-lrelease")
    if lrelease:
        built = tmp_path / "built.qm"
        subprocess.run([lrelease, "-silent", str(ts), "-qm", str(built)], check=True)
        assert built.read_bytes() == qm.read_bytes(), "the committed .qm is older than the .ts"


def test_bundled_font_only_without_a_hangul_font(qapp):
    assert ui_app.has_hangul_font(["Noto Sans CJK KR"])
    before = QApplication.font()
    try:
        assert ui_app.ensure_hangul_font(qapp, ["Noto Sans CJK KR"]) is None
        assert QApplication.font() == before
        family = ui_app.ensure_hangul_font(qapp, [])  # a system without Korean fonts
        assert family == "NanumGothic"
        assert QApplication.font().family() == "NanumGothic"
        assert QFontDatabase.WritingSystem.Korean in QFontDatabase.writingSystems(family)
    finally:
        QApplication.setFont(before)
    assert resources.path("fonts", "OFL.txt").read_text().startswith("Copyright")


def test_sizes_follow_the_font(sample_db, open_window):
    """No fixed pixel sizes: a bigger font (a 4K screen's scaling) makes rows taller."""
    window = open_window(sample_db)
    table = window.ranking_panels[0].table
    small = table.verticalHeader().defaultSectionSize()
    assert small >= 2 * window.fontMetrics().lineSpacing()
    font = QApplication.font()
    try:
        big = type(font)(font)
        big.setPointSizeF(font.pointSizeF() * 2)
        QApplication.setFont(big)
        from desktop.ui.ranking import RankingPanel

        panel = RankingPanel()
        assert panel.table.verticalHeader().defaultSectionSize() > small * 1.5
    finally:
        QApplication.setFont(font)


def test_the_first_run_asks_the_reviewer_name_in_the_welcome_panel(db_path, qtbot):
    """No name yet: the window opens on its welcome panel (no bare dialog, no silent quit),
    judging waits for a name, and the name given there is kept for the next start."""
    from desktop.ui.window import MainWindow

    window = MainWindow(db_path)
    qtbot.addWidget(window)
    window.show()
    assert window.pages.currentIndex() == window.PAGE_EMPTY
    assert window.empty.sample.isVisible() and window.empty.name.isVisible()
    assert not window.writable()
    window.empty.name.setText("  김검수 ")
    window.empty.name.editingFinished.emit()
    assert window.session.reviewer == "김검수" and window.writable()
    assert ui_app.settings().value("reviewer") == "김검수"
    window.close()
    again = MainWindow(db_path)
    qtbot.addWidget(again)
    assert again.session.reviewer == "김검수"
    assert again.empty.name.text() == "김검수"
    again.close()


def test_question_mark_opens_the_shortcut_sheet(sample_db, open_window, qtbot):
    window = open_window(sample_db)
    for modifiers in (Qt.KeyboardModifier.NoModifier, Qt.KeyboardModifier.ShiftModifier):
        window.menus.shortcut_sheet = None
        qtbot.keyClick(window, Qt.Key.Key_Question, modifiers)
        qtbot.waitUntil(lambda: window.menus.shortcut_sheet is not None)
        assert window.menus.shortcut_sheet.isVisible()
        window.menus.shortcut_sheet.close()
        window.activateWindow()
        qtbot.waitUntil(window.isActiveWindow)


def test_qt_own_dialogs_speak_korean(qapp, korean):
    """Qt's base catalogue (shipped with PySide6) is loaded with ours, and the default locale
    is Korean, so file dialogs and standard buttons are not half English."""
    from PySide6.QtCore import QCoreApplication

    assert QCoreApplication.translate("QFileDialog", "File &name:") == "파일 이름(&N):"
    assert QCoreApplication.translate("QPlatformTheme", "Cancel") == "취소"
    assert QLocale().language() == QLocale.Language.Korean
    from desktop.ui.dialogs import kind_name

    assert kind_name("corpus") != "corpus"  # the import dialogs' titles too


def test_the_file_dialog_has_no_english_label_left(qapp, korean):
    """Qt's Korean catalogue lacks two of the file dialog's labels as Qt 6 writes them (with
    their shortcut marks); ours holds them."""
    from PySide6.QtWidgets import QFileDialog, QLabel

    dialog = QFileDialog(None, "x", "", "*.xlsx")
    dialog.setOption(QFileDialog.Option.DontUseNativeDialog, True)
    labels = {label.objectName(): label.text() for label in dialog.findChildren(QLabel)}
    assert labels["lookInLabel"] == "다음에서 찾기(&L):"
    assert labels["fileTypeLabel"] == "파일 형식(&T):"
    assert all(not text.isascii() for text in labels.values()), labels
    dialog.deleteLater()
