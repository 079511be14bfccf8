"""The window says when the judgement journal could not be written, and keeps saying it until
a later write succeeds."""

from __future__ import annotations

from PySide6.QtCore import Qt

from db import journal
from tests.ui.uihelpers import idle, logged


def test_the_window_warns_until_the_journal_is_written_again(sample_db, open_window, qtbot):
    path = journal.journal_path(sample_db)
    path.mkdir()  # a folder where the journal belongs
    window = open_window(sample_db, reviewer="kim")
    assert window.journal_warning.isHidden(), "nothing to write yet"
    window.show_question("q01")
    row = [i.primary_id for i in window.view.items].index("art-128")
    window.select_item(row)
    qtbot.keyClick(window, Qt.Key.Key_1)
    assert logged(sample_db, kind="role", value="core"), "the judgement is committed"
    assert window.journal_warning.isVisible()
    assert "judgements are only in the database" in window.journal_warning.text()
    tip = window.journal_warning.toolTip()
    assert str(path) in tip and "a folder is in its place; move that folder away" in tip
    idle(qtbot, window)
    window.show_question("q02")
    assert window.journal_warning.isVisible(), "it stays"

    path.rmdir()
    window.show_question("q01")
    window.select_item(row)
    qtbot.keyClick(window, Qt.Key.Key_2)
    assert window.journal_warning.isHidden()
    assert [line["value"] for line in journal.read(path)[1]] == ["core", "supporting"]
    idle(qtbot, window)
