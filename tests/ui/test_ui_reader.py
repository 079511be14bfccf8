"""The passage reader reads on a worker of its own (issue 24: panels never query the project):
nothing it shows is read on the GUI thread, the passage last asked for is the one shown, and a
key pressed before a passage arrives acts on that passage, not the one before it."""

from __future__ import annotations

from PySide6.QtCore import Qt, QUrl

from tests.ui.test_ui_keypress_cost import gui_statements
from tests.ui.test_ui_pool import kinds, to_pool
from tests.ui.uihelpers import idle, read


def _pks(window, *ids: str) -> list[int]:
    found = window.project.store.passage_pks(list(ids))
    return [found[i] for i in ids]


def test_the_reader_runs_no_statement_on_the_gui_thread(sample_db, open_window, qtbot):
    window = open_window(sample_db)
    window.show_question("q01")
    idle(qtbot, window)
    (pk,) = _pks(window, "art-013")

    def show() -> None:
        window.reader.show_passage(pk)
        assert window.reader.settle()

    assert gui_statements(window, qtbot, show) == []
    assert window.reader.passage_id == "art-013" and window.reader.neighbour_pks
    assert "art-013" in window.reader.title.text()


def test_a_passage_in_its_document_is_read_off_the_gui_thread_too(
    sample_study,
    open_window,
    qtbot,
):
    window = open_window(sample_study)
    window.select_passage(0)
    idle(qtbot, window)
    assert read(window).in_document  # shown inside its document
    pk = window.reader.passage_pk
    window.reader.clear()
    statements = gui_statements(window, qtbot, lambda: window.reader.show_passage(pk))
    assert read(window).passage_pk == pk and window.reader.in_document
    assert statements == []


def test_the_passage_asked_for_last_is_the_one_shown(sample_db, open_window, qtbot):
    window = open_window(sample_db)
    first, second, third = _pks(window, "art-013", "art-070", "art-111")
    for pk in (first, second, third):
        window.reader.show_passage(pk)  # faster than the worker reads them
    assert read(window).passage_pk == third
    assert "art-111" in window.reader.title.text()
    assert not window.reader.pending


def test_a_key_right_after_a_neighbour_link_acts_on_the_neighbour(sample_db, open_window, qtbot):
    window = open_window(sample_db)
    to_pool(window, qtbot, "q05")
    neighbour = read(window).neighbour_pks[-1]
    window.reader.viewer.anchorClicked.emit(QUrl(f"passage:{neighbour}"))
    # No wait: the key itself waits for the neighbour to be shown and picked.
    qtbot.keyClick(window, Qt.Key.Key_E)
    idle(qtbot, window)
    neighbour_id = window.project.reads.passages_by_pk([neighbour])[neighbour]["id"]
    assert kinds(sample_db) == [("evidence", neighbour_id, True), ("role", neighbour_id, "core")]
