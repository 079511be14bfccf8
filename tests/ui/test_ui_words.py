"""The window's words for what the command line already says in one line: a damaged database,
a data folder that cannot be used, a crash (never a traceback in a dialog)."""

from __future__ import annotations

import os
import sys
import threading

import pytest
from PySide6.QtWidgets import QMessageBox

from db import StoreError
from desktop.app import logs
from desktop.ui.window import MainWindow
from tests.helpers import cli


@pytest.fixture
def shown(monkeypatch):
    """The texts of the modal message boxes shown (exec() would wait for a click)."""
    texts = []

    def fake_exec(box):
        texts.append((box.text(), box.detailedText()))
        return 0

    monkeypatch.setattr(QMessageBox, "exec", fake_exec)
    return texts


def damage_after_the_schema(db) -> None:
    """Garble the second half of the file: it opens, and its first real read fails."""
    size = db.stat().st_size
    with open(db, "r+b") as handle:
        handle.seek(size // 2)
        handle.write(os.urandom(size - size // 2))


def test_a_damaged_database_shows_the_command_lines_line(sample_db, open_window, qtbot, shown):
    damage_after_the_schema(sample_db)
    line = cli(sample_db, "info").stderr.strip()
    assert line.startswith("recall-reviewer: ") and "damaged" in line
    window = open_window(sample_db, wait=False)  # no exception out of the window
    assert window.last_message == line.removeprefix("recall-reviewer: ")
    assert window.pages.currentIndex() == MainWindow.PAGE_EMPTY
    assert window.project is None
    assert "Traceback" not in window.last_message and shown == []


def test_a_crash_dialog_shows_one_line_and_the_log_never_a_traceback(qapp, shown):
    from desktop.ui import crash

    saved = sys.excepthook, threading.excepthook
    crash.install_crash_dialog()
    try:
        try:
            raise StoreError("/data/review.db: the database file is damaged (malformed)")
        except StoreError:
            sys.excepthook(*sys.exc_info())
    finally:
        crash.uninstall_crash_dialog()
        logs.shutdown()
    assert (sys.excepthook, threading.excepthook) == saved
    ((text, details),) = shown
    assert "/data/review.db: the database file is damaged (malformed)" in text
    assert "StoreError" not in text and "Traceback" not in text and details == ""
    assert str(logs.log_file()) in text
    assert "Traceback" in logs.log_file().read_text(encoding="utf-8")  # kept in the log


def test_a_data_folder_that_is_a_file_is_said_before_the_window_opens(
    qapp, shown, tmp_path, monkeypatch
):
    from desktop.ui.app import run

    home = tmp_path / "home-file"
    home.write_text("not a folder")
    monkeypatch.setenv("RECALL_REVIEWER_HOME", str(home))
    assert run(tmp_path / "review.db") == 2
    ((text, _details),) = shown
    assert f"RECALL_REVIEWER_HOME={home} is not a folder" in text
    assert "File exists" not in text
    assert not (tmp_path / "review.db").exists()


def test_an_unsafe_reviewer_name_is_made_safe_in_the_suggested_file_name(
    sample_db, open_window, qtbot, monkeypatch
):
    from PySide6.QtWidgets import QFileDialog

    window = open_window(sample_db, reviewer="../../evil\n")
    window.project.add_judgement("../../evil\n", "q01", "note", "a note")
    suggested = []

    def pick(parent, caption, default, filters):
        suggested.append(default)
        return default, filters

    monkeypatch.setattr(QFileDialog, "getSaveFileName", pick)
    window.files.export_judgements_dialog()
    qtbot.waitUntil(lambda: window.last_message.startswith("Wrote"), timeout=20000)
    (path,) = suggested
    assert os.path.dirname(path) == str(sample_db.parent)
    assert os.path.basename(path) == "judgements-_.._evil_.jsonl"
    assert "judgements-_.._evil_.jsonl" in window.last_message and os.path.isfile(path)


def test_safe_file_name():
    from desktop.app.paths import safe_file_name

    assert safe_file_name("김검수") == "김검수"
    assert safe_file_name("../x") == "_x"
    assert safe_file_name("..") == "reviewer"
    assert safe_file_name("a/b\\c:d") == "a_b_c_d"
    assert safe_file_name("kim\u202egnp.exe") == "kim_gnp.exe"
    assert safe_file_name("CON") == "reviewer_CON"
    assert len(safe_file_name("가" * 500)) == 80


def test_ids_that_look_like_markup_are_shown_as_text(tmp_path, open_window, qtbot):
    from PySide6.QtCore import Qt

    from desktop.project import Project
    from tests.helpers import write_jsonl

    db = tmp_path / "m.db"
    with Project(db) as project:
        project.import_corpus(
            write_jsonl(tmp_path / "c.jsonl", [{"id": "<i>p1</i>", "text": "헌법 조문"}])
        )
        project.import_questions(
            write_jsonl(tmp_path / "q.jsonl", [{"id": "<b>q1</b>", "text": "헌법"}])
        )
        run = [{"question_id": "<b>q1</b>", "results": [{"passage_id": "<i>p1</i>", "score": 1}]}]
        project.import_run(write_jsonl(tmp_path / "run.jsonl", run), "A")
    window = open_window(db)
    window.show_question("<b>q1</b>")
    qtbot.keyClick(window, Qt.Key.Key_P)
    assert window.pool_panel.settle()  # its excerpts are read on the queue's worker
    assert "of &lt;b&gt;q1&lt;/b&gt;:" in window.pool_panel.title.text()
    window.commands.search_dialog()
    dialog = window.search
    dialog.box.setText("헌법")
    dialog.box.flush()
    qtbot.waitUntil(lambda: dialog.model.rowCount() > 0, timeout=10000)
    dialog.table.selectRow(0)
    assert dialog.preview.toPlainText().startswith("<i>p1</i>")
    dialog.close()


def test_a_message_quoting_markup_shows_it_as_text(sample_db, open_window):
    from PySide6.QtCore import Qt

    window = open_window(sample_db)
    window.show_error("x", "q.jsonl:1: unknown question id '<b>q9</b>'")
    assert window.message_box.textFormat() == Qt.TextFormat.PlainText
    window.message_box.close()


def test_a_database_name_with_a_newline_is_one_line_in_the_message(tmp_path, open_window):
    db = tmp_path / "evil\nFAKE.db"
    db.write_bytes(b"garbage " * 1000)
    window = open_window(db, wait=False)
    assert "\n" not in window.last_message and "evil\\u000aFAKE.db" in window.last_message
