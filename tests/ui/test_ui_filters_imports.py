"""Question filters (Korean composition included), imports through the window: errors with
FILE:LINE:, cancelling, the report export."""

from __future__ import annotations

import importlib.util
import json

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QInputMethodEvent
from PySide6.QtWidgets import QApplication, QPushButton

from desktop.project import Project
from desktop.ui.window import MainWindow
from tests.helpers import snapshot, write_jsonl
from tests.ui.uihelpers import idle


def shown_ids(window: MainWindow) -> list[str]:
    model = window.question_model
    while model.canFetchMore():
        model.fetchMore()
    return [window.session.by_pk[model.pk_at(r)]["id"] for r in range(model.rowCount())]


def compose(widget, preedit: str, commit: str = "") -> None:
    """What a Korean input method sends: preedit text while a syllable is being composed,
    then the committed text."""
    event = QInputMethodEvent(preedit, [])
    if commit:
        event.setCommitString(commit)
    QApplication.sendEvent(widget, event)


def test_text_filter_waits_for_korean_composition(sample_db, open_window, qtbot):
    window = open_window(sample_db)
    box = window.question_panel.filter_box
    box.setFocus()
    fired: list[str] = []
    box.committed.connect(fired.append)
    # 대 composes as ㄷ → 대 before it is committed: nothing may filter meanwhile.
    compose(box, "ㄷ")
    compose(box, "대")
    assert box.composing and not box.pending()
    with qtbot.assertNotEmitted(box.committed, wait=500):
        compose(box, "대")
    assert fired == [] and len(shown_ids(window)) == 33
    # Commit 대, compose 통 → 통령: still composing, still no filter.
    compose(box, "ㅌ", commit="대")
    assert box.text() == "대" and box.composing
    compose(box, "통")
    compose(box, "", commit="통령")
    assert not box.composing
    with qtbot.waitSignal(box.committed, timeout=3000) as signal:
        pass
    assert signal.args == ["대통령"]
    assert fired == ["대통령"]  # one filter run for the whole word, not one per syllable
    ids = shown_ids(window)
    assert ids and all("대통령" in window.session.by_id[i]["text"] for i in ids)
    assert len(ids) < 33


def test_filters_misses_unreviewed_answerable_and_sorting(sample_db, open_window, qtbot):
    window = open_window(sample_db)
    window.question_panel.only_misses.setChecked(True)
    ids = shown_ids(window)
    assert "q01" in ids and "q02" not in ids  # q02's only item is found at rank 1
    for qid in ids:
        found = window.session.board.found("BM25-Kiwi", window.session.by_id[qid]["pk"], 5)
        assert found[0] < found[1]
    window.question_panel.only_misses.setChecked(False)
    window.question_panel.answerable_box.setCurrentIndex(
        window.question_panel.answerable_box.findData(False)
    )
    assert shown_ids(window) == ["q32", "q33"]
    window.question_panel.answerable_box.setCurrentIndex(0)

    # Done: answerability settled and every item has a role.
    window.show_question("q02")
    qtbot.keyClick(window, Qt.Key.Key_Y)
    idle(qtbot, window)
    window.question_panel.only_unreviewed.setChecked(True)
    ids = shown_ids(window)
    assert "q02" not in ids and len(ids) == 32
    assert window.toolbar.progress.value() == 1
    window.question_panel.only_unreviewed.setChecked(False)

    # Sorting by any column, here found/total descending.
    window.question_panel.table.sortByColumn(4, Qt.SortOrder.DescendingOrder)
    ids = shown_ids(window)
    ratios = [
        (lambda f: f[0] / f[1] if f else -1)(
            window.session.board.found("BM25-Kiwi", window.session.by_id[i]["pk"], 5)
        )
        for i in ids
    ]
    assert ratios == sorted(ratios, reverse=True)
    window.question_panel.table.sortByColumn(0, Qt.SortOrder.DescendingOrder)
    assert shown_ids(window)[0] == "q33"


def test_a_failed_import_shows_its_file_and_line(db_path, open_window, qtbot, tmp_path):
    window = open_window(db_path)
    bad = tmp_path / "corpus.jsonl"
    bad.write_text(
        '{"id": "p1", "text": "대한민국은 민주공화국이다."}\n{"id": "p2", "text": \n',
        encoding="utf-8",
    )
    before = snapshot(db_path)
    window.files.start_import("corpus", bad)
    qtbot.waitUntil(lambda: window.message_box is not None and window.message_box.isVisible())
    assert f"{bad}:2: not valid JSON" in window.last_message
    assert window.message_box.text() == window.last_message
    assert snapshot(db_path) == before
    assert window.pages.currentIndex() == MainWindow.PAGE_EMPTY


def test_a_cp949_file_is_refused_with_a_hint(db_path, open_window, qtbot, tmp_path):
    window = open_window(db_path)
    path = tmp_path / "corpus.jsonl"
    path.write_bytes('{"id": "p1", "text": "대한민국"}\n'.encode("cp949"))
    from desktop.ui.dialogs import ImportDialog

    dialog = ImportDialog("corpus", path, False, window)
    assert dialog.options()["encoding"] == "cp949"  # detected and chosen for the reviewer
    assert "CP949" in dialog.hint.text()
    window.files.start_import("corpus", path)  # without the encoding: refused, naming it
    qtbot.waitUntil(lambda: window.message_box is not None and window.message_box.isVisible())
    assert f"{path}:1: not UTF-8 (looks like CP949/EUC-KR)" in window.last_message
    window.message_box.close()
    window.files.start_import("corpus", path, **dialog.options())
    qtbot.waitUntil(lambda: "imported 1 passages" in window.last_message, timeout=10000)


def test_imports_in_order_reach_the_review_page(db_path, open_window, qtbot, tmp_path):
    window = open_window(db_path)
    write_jsonl(tmp_path / "c.jsonl", [{"id": f"p{i}", "text": f"문단 {i}"} for i in range(5)])
    write_jsonl(tmp_path / "q.jsonl", [{"id": "q1", "text": "문단 하나?"}])
    write_jsonl(
        tmp_path / "g.jsonl",
        [{"question_id": "q1", "evidence": [{"passage_id": "p1", "role": "core"}]}],
    )
    (tmp_path / "r.trec").write_text("q1 Q0 p2 1 3.0 t\nq1 Q0 p1 2 2.0 t\n")
    for kind, name, extra in (
        ("corpus", "c.jsonl", {}),
        ("questions", "q.jsonl", {}),
        ("gold", "g.jsonl", {}),
        ("run", "r.trec", {"system": "BM25"}),
    ):
        window.files.start_import(kind, tmp_path / name, **extra)
        qtbot.waitUntil(lambda: not window.tasks.busy(), timeout=10000)
        window.message_box.close()
    idle(qtbot, window)
    assert window.pages.currentIndex() == MainWindow.PAGE_REVIEW
    assert window.session.system_name == "BM25"
    assert window.evidence_model.index(0, 3).data() == "found at 2"
    assert window.metrics_model.value("BM25", "Recall@5") == 1.0


def test_cancelling_an_import_leaves_the_database_as_it_was(db_path, open_window, qtbot, tmp_path):
    window = open_window(db_path)
    path = tmp_path / "big.jsonl"
    with open(path, "w", encoding="utf-8") as handle:
        for i in range(40_000):
            handle.write(json.dumps({"id": f"p{i}", "text": "대한민국 " * 10}) + "\n")
    before = snapshot(db_path)
    task = window.files.start_import("corpus", path)
    window.progress_dialog.findChild(QPushButton).click()  # the reviewer presses Cancel
    assert task.is_cancelled
    qtbot.waitUntil(lambda: window.last_message == "cancelled", timeout=20000)
    assert snapshot(db_path) == before
    with Project(db_path) as project:
        assert project.info()["passages"] == 0


@pytest.mark.skipif(
    importlib.util.find_spec("desktop.report") is None, reason="desktop.report not there yet"
)
def test_export_report_runs_in_a_worker(sample_db, open_window, qtbot, tmp_path):
    window = open_window(sample_db)
    target = tmp_path / "report.xlsx"
    task = window.files.start_export(target, [5, 10])
    assert task is not None
    qtbot.waitUntil(lambda: not window.tasks.busy(), timeout=120000)
    assert target.exists() and target.stat().st_size > 0
    said, shown = window.last_message.split("\n")
    assert shown == str(target) and said  # what happened, then where the file is


def test_cancelling_mid_import_rolls_back(db_path, open_window, qtbot, tmp_path):
    window = open_window(db_path)
    path = tmp_path / "big.jsonl"
    with open(path, "w", encoding="utf-8") as handle:
        for i in range(150_000):
            handle.write(json.dumps({"id": f"p{i}", "text": "대한민국 헌법 " * 8}) + "\n")
    before = snapshot(db_path)
    window.files.start_import("corpus", path)
    dialog = window.progress_dialog
    qtbot.waitUntil(lambda: dialog.value() > 0, timeout=20000)  # rows are being read
    dialog.findChild(QPushButton).click()
    qtbot.waitUntil(lambda: window.last_message == "cancelled", timeout=30000)
    assert snapshot(db_path) == before


def test_questions_without_gold_or_runs_still_open(project, db_path, open_window, qtbot, tmp_path):
    write_jsonl(tmp_path / "c.jsonl", [{"id": "p1", "text": "대한민국은 민주공화국이다."}])
    write_jsonl(tmp_path / "q.jsonl", [{"id": "q1", "text": "대한민국은 어떤 나라인가?"}])
    project.import_corpus(tmp_path / "c.jsonl")
    project.import_questions(tmp_path / "q.jsonl")
    project.close()
    window = open_window(db_path)
    assert window.pages.currentIndex() == MainWindow.PAGE_REVIEW
    assert window.current_question_id() == "q1"
    assert window.view.items == [] and window.view.rankings == {}
    assert "No runs" in window.ranking_panels[0].title.text()
    assert window.metrics_model.rowCount() == 0
    for key in (Qt.Key.Key_1, Qt.Key.Key_A, Qt.Key.Key_X, Qt.Key.Key_M, Qt.Key.Key_J, Qt.Key.Key_C):
        qtbot.keyClick(window, key)  # nothing to act on: no crash, nothing written
    with Project(db_path) as again:
        assert again.store.judgements() == []
    qtbot.keyClick(window, Qt.Key.Key_Y)
    with Project(db_path) as again:
        assert [j["kind"] for j in again.store.judgements()] == ["answerable"]
