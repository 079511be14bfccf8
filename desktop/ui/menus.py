"""The window's actions and menus (desktop.ui.actions declares them as data), the language
menu, the shortcut sheet and About: one object MainWindow owns."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QInputDialog, QMessageBox

from desktop.ui import actions, settings_store
from desktop.ui.dialogs import ShortcutSheet


class Menus:
    """Builds every action (each calls the first of owners, or this object, that has its
    method) and the menu bar; the window reads its actions as `act_NAME`."""

    def __init__(self, window, owners: Sequence[object], before=None):
        self.window = window
        self.actions = actions.build(window, (*owners, self), before)
        self.language_items = {}
        self.view_menu = None
        self.shortcut_sheet: ShortcutSheet | None = None

    def budget_dialog(self) -> None:
        """The context budget the span measures are also taken at (design section 10)."""
        budgets = self.window.session.span_choice().budgets
        value, ok = QInputDialog.getInt(
            self.window,
            QCoreApplication.translate("MainWindow", "Context budget"),
            QCoreApplication.translate(
                "MainWindow",
                "Characters of context at which runs with spans are also scored (0: none):",
            ),
            budgets[0] if budgets else 0,
            0,
            1_000_000,
            100,
        )
        if ok:
            self.set_budget(value)

    def set_budget(self, characters: int) -> None:
        self.window.session.settings.setValue("spans/budget", characters)
        self.window.metrics.full_pass()  # every figure at the budget moves

    def build(self) -> None:
        bar = self.window.menuBar()
        for title, names in actions.MENUS:
            menu = bar.addMenu(actions.tr(title))
            for name in names:
                if name == "-":
                    menu.addSeparator()
                else:
                    menu.addAction(self.actions[name])
            if names[0] == "compare":
                self.view_menu = menu
                self._language_menu(menu)

    def _language_menu(self, view_menu) -> None:
        language = view_menu.addMenu(QCoreApplication.translate("MainWindow", "&Language"))
        current = settings_store.language(self.window.settings)
        for code, label in (("ko", "한국어"), ("en", "English")):
            action = language.addAction(label)
            action.setCheckable(True)
            action.setChecked(code == current)
            action.triggered.connect(lambda _=False, code=code: self.set_language(code))
            self.language_items[code] = action

    def set_language(self, code: str) -> None:
        self.window.settings.setValue("language", code)
        self.window.show_info(
            QCoreApplication.translate("MainWindow", "Language"),
            QCoreApplication.translate(
                "MainWindow", "The language changes the next time the window opens."
            )
            + "\n"
            + (
                "다음에 창을 열 때 한국어로 바뀝니다."
                if code == "ko"
                else "The window will be in English the next time it opens."
            ),
        )

    def show_shortcuts(self) -> None:
        self.shortcut_sheet = ShortcutSheet(actions.sheet(self.actions), self.window)
        self.shortcut_sheet.open()

    def show_about(self) -> None:
        from desktop import __version__

        QMessageBox.about(
            self.window,
            QCoreApplication.translate("MainWindow", "About Recall Reviewer"),
            QCoreApplication.translate(
                "MainWindow",
                "Recall Reviewer {version}: review retrieval runs against gold evidence "
                "and report Recall@K.",
            ).format(version=__version__),
        )
