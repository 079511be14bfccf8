"""Starting the window: settings, translations, the Hangul font, the reviewer's name."""

from __future__ import annotations

import sys

from PySide6.QtCore import QT_TRANSLATE_NOOP, QLibraryInfo, QLocale, QSize, QTranslator
from PySide6.QtGui import QFont, QFontDatabase, QFontInfo, QIcon
from PySide6.QtWidgets import QApplication

import resources
from desktop.ui.settings_store import APPLICATION, ORGANIZATION, language, settings

__all__ = ["configure", "install_translations", "language", "run", "settings"]

_installed: list[QTranslator] = []  # translators must outlive the call that installs them
# Qt's file dialog asks for these; its Korean catalogue has them only without the shortcut
# marks ("Look in:"), so they are in ours (our catalogue is asked first).
QT_GAPS = (
    QT_TRANSLATE_NOOP("QFileDialog", "&Look in:"),
    QT_TRANSLATE_NOOP("QFileDialog", "Files of &type:"),
)


def install_translations(app: QApplication, lang: str) -> bool:
    """Load the Korean catalogue (and Qt's own, for standard buttons) when lang is 'ko'.
    Returns whether the app catalogue was loaded."""
    for old in _installed:
        app.removeTranslator(old)
    _installed.clear()
    if lang != "ko":
        QLocale.setDefault(QLocale(QLocale.Language.English, QLocale.Country.UnitedStates))
        return False
    # Qt's own dialogs (file dialogs, message box buttons) follow the default locale.
    QLocale.setDefault(QLocale(QLocale.Language.Korean, QLocale.Country.SouthKorea))
    qt = QTranslator(app)
    if qt.load("qtbase_ko", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
        app.installTranslator(qt)
        _installed.append(qt)
    ours = QTranslator(app)
    loaded = ours.load(str(resources.path("i18n", "recall_reviewer_ko.qm")))
    if loaded:
        app.installTranslator(ours)
        _installed.append(ours)
    return loaded


def _korean_families() -> list[str]:
    return QFontDatabase.families(QFontDatabase.WritingSystem.Korean)


def has_hangul_font(families: list[str] | None = None) -> bool:
    if families is None:
        families = _korean_families()
    return bool(families)


WINDOWS_HANGUL = "Malgun Gothic"  # Windows' own UI font for Korean, on every Windows 10/11


def ensure_hangul_font(
    app: QApplication, families: list[str] | None = None, system: str = sys.platform
) -> str | None:
    """Use the bundled NanumGothic when no installed font supports Korean; returns the family
    set, or None when the system's default is kept. On Windows, Malgun Gothic when present,
    else NanumGothic: Qt's default there (Segoe UI) falls back to Gulim's bitmap-era glyphs."""
    if system == "win32":
        korean = families if families is not None else _korean_families()
        if WINDOWS_HANGUL in korean:
            font = QFont(app.font())
            font.setFamily(WINDOWS_HANGUL)
            app.setFont(font)
            return WINDOWS_HANGUL
        families = []  # whatever else there is, NanumGothic reads better
    if has_hangul_font(families):
        return None
    family = None
    for name in ("NanumGothic.ttf", "NanumGothicBold.ttf"):
        font_id = QFontDatabase.addApplicationFont(str(resources.path("fonts", name)))
        if font_id >= 0 and family is None:
            names = QFontDatabase.applicationFontFamilies(font_id)
            family = names[0] if names else None
    if family:
        font = QFont(app.font())
        font.setFamily(family)
        app.setFont(font)
    return family


SYMBOLS = "RecallReviewerSymbols.otf"


def ensure_symbol_font(app: QApplication) -> str | None:
    """Register the bundled CJK punctuation and symbols (｢｣, 「」, ①, ※ ...) and list it after
    the app's font, so that Qt draws from it only a character the fonts before it lack.
    Returns its family, or None when it could not be loaded."""
    font_id = QFontDatabase.addApplicationFont(str(resources.path("fonts", SYMBOLS)))
    names = QFontDatabase.applicationFontFamilies(font_id) if font_id >= 0 else []
    if not names:
        return None
    font = QFont(app.font())
    # The family actually drawn with (a name like "Sans Serif" is only an alias), then ours.
    drawn = QFontInfo(font).family()
    families = [f for f in [drawn, *font.families()] if f and f != names[0]]
    font.setFamilies([*dict.fromkeys(families), names[0]])
    app.setFont(font)
    return names[0]


def configure(app: QApplication) -> None:
    app.setOrganizationName(ORGANIZATION)
    app.setApplicationName(APPLICATION)
    app.setApplicationDisplayName(APPLICATION)
    # Ties the window to packaging/recall-reviewer.desktop (Wayland app id, dock icon).
    app.setDesktopFileName("recall-reviewer")
    icon = QIcon()
    for size in (16, 24, 32, 48, 64, 128, 256):
        candidate = resources.path("icons", f"recall-reviewer-{size}.png")
        if candidate.exists():
            icon.addFile(str(candidate), QSize(size, size))
    if not icon.isNull():
        app.setWindowIcon(icon)
    ensure_hangul_font(app)
    ensure_symbol_font(app)
    install_translations(app, language())


HOME_TITLE = "Recall Reviewer — 데이터 폴더 (data folder)"
HOME_TEXT = "데이터 폴더를 쓸 수 없습니다. / The data folder cannot be used.\n\n{problem}"


def refuse_home(problem: str) -> int:
    """Say why the data folder cannot be used (both languages: the language setting lives in
    that folder) and exit with 2, as the command line does."""
    from PySide6.QtWidgets import QMessageBox

    from desktop.app.terminal import printable

    box = QMessageBox(
        QMessageBox.Icon.Critical, HOME_TITLE, HOME_TEXT.format(problem=printable(problem))
    )
    box.exec()
    return 2


def run(db_path) -> int:
    # argv[0] names the X11 WM_CLASS; under `python -m desktop` it would be __main__.py, so name
    # it as the launcher's StartupWMClass expects.
    app = QApplication.instance() or QApplication(["recall-reviewer"])
    from desktop.app import paths

    problem = paths.home_problem()
    if problem:
        # Before the settings, which live in that folder: the same line the commands print.
        return refuse_home(problem)
    configure(app)
    from desktop.ui.crash import install_crash_dialog

    install_crash_dialog()
    from desktop.ui.window import MainWindow

    # No name yet (the first run): the window opens on its welcome panel, which asks for it.
    window = MainWindow(db_path)
    window.show()
    return app.exec()
